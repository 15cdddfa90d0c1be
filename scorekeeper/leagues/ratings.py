"""Ratings arithmetic (no database): openskill's Plackett-Luce model with a
side as a team. Every finished game moves its players, in the order the
games were played; co-winners tie. A rating is shown as one number, its
ordinal (mu - 3 sigma: a cautious estimate that rises as the model grows
sure), with sigma as its uncertainty.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
NEW_MU, NEW_SIGMA = MODEL.mu, MODEL.sigma
# A new player's ordinal starts far below zero (25 - 3 x 8.3) and climbs
# as the games come: shown before this many rated games, "-1.5" reads as
# a penalty. Until then the pages say the rating is still to come.
SETTLED_GAMES = 5


def provisional_words(rated_games: int, *, short: bool = False) -> str:
    """A new player's rating, in words a player reads right (``short``:
    for a table's cell, its note saying the rest)."""
    games = f"{rated_games} game{'' if rated_games == 1 else 's'}"
    if short:
        return f"new ({games})"
    return f"new: a rating after {SETTLED_GAMES} games ({games} so far)"


@dataclass(frozen=True)
class Skill:
    mu: float = NEW_MU
    sigma: float = NEW_SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Rated:
    """What rating needs of a finished game: each seat's player and side,
    and the winning sides."""

    players: tuple[str, ...]
    sides: tuple[int, ...]
    winners: frozenset[int]


def rate(skills: Mapping[str, Skill], game: Rated) -> dict[str, Skill]:
    """The game's players' skills after it (a newcomer starts new)."""
    by_side: dict[int, list[str]] = {}
    for player, side in zip(game.players, game.sides, strict=True):
        by_side.setdefault(side, []).append(player)
    order = sorted(by_side)
    teams = [
        [
            MODEL.rating(mu=skill.mu, sigma=skill.sigma)
            for skill in (skills.get(p, Skill()) for p in by_side[side])
        ]
        for side in order
    ]
    ranks = [1.0 if side in game.winners else 2.0 for side in order]
    after = MODEL.rate(teams, ranks=ranks)
    return {
        player: Skill(rating.mu, rating.sigma)
        for side, team in zip(order, after, strict=True)
        for player, rating in zip(by_side[side], team, strict=True)
    }
