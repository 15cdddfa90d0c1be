"""A series: games played one after another by the same players in the
same seats, "best of 3" or "first to 2 games", and who won it.

The series is not part of any game's log: each game is scored by the
engine alone, and a series counts the winners the engine named. Side ``i``
is the same players in every game of a series (same seats, same rules).
The deal goes on around the table from game to game (seed 000 'The Deal':
the deal moves one seat clockwise each hand): the next game's first
dealer is the seat after the last game's last dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .referee import turn_of
from .variants import Variant

SeriesKind = Literal["best-of", "first-to"]
KINDS: tuple[SeriesKind, ...] = ("best-of", "first-to")
MOST_GAMES = 15  # a series of more games than this is a league, not a series


class SeriesError(ValueError):
    """A series rule that cannot be played: the message says why."""


@dataclass(frozen=True, slots=True)
class SeriesRule:
    """``best-of`` N: at most N games (N odd), won by the first side to win
    more than half of them; ``first-to`` N: won by the first side to win N
    games, however many that takes."""

    kind: SeriesKind
    games: int

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise SeriesError(f"a series is best-of or first-to, not {self.kind!r}")
        if not 1 <= self.games <= MOST_GAMES:
            raise SeriesError(f"a series is of 1 to {MOST_GAMES} games")
        if self.kind == "best-of" and self.games % 2 == 0:
            raise SeriesError("a best-of series is of an odd number of games")

    @property
    def wins_needed(self) -> int:
        """The games a side must win to take the series."""
        if self.kind == "best-of":
            return self.games // 2 + 1
        return self.games

    @property
    def code(self) -> str:
        """How the rule is written in a form and kept: "best-of-3"."""
        return f"{self.kind}-{self.games}"


def series_rule(code: str) -> SeriesRule:
    """The rule written ``code`` ("best-of-3", "first-to-2"), or a
    ``SeriesError`` saying why it is not one."""
    kind, _, games = code.rpartition("-")
    if not games.isdigit() or kind not in KINDS:
        raise SeriesError(f"{code!r} is not a series: write best-of-N or first-to-N")
    return SeriesRule(kind, int(games))


@dataclass(frozen=True, slots=True)
class SeriesStanding:
    """Where a series stands after its finished games."""

    rule: SeriesRule
    wins: tuple[int, ...]  # games won, per side (a shared game counts for each)
    played: int  # finished games
    winners: tuple[int, ...]  # the sides that took the series; () while it goes on

    @property
    def over(self) -> bool:
        return bool(self.winners)


def series_standing(
    rule: SeriesRule, sides: int, game_winners: Sequence[Sequence[int]]
) -> SeriesStanding:
    """Count each finished game's winners (as the engine named them: a
    game won by several sides, an exact tie, counts for each) until the
    series is decided. It is decided when a side reaches the wins needed
    (sides reaching it in the same game share it), or, in a best-of
    series, when all its games are played: then the sides with the most
    wins share it. Games after the deciding one are not counted."""
    wins = [0] * sides
    played = 0
    for winners in game_winners:
        played += 1
        for side in winners:
            wins[side] += 1
        decided = _decided(rule, wins, played)
        if decided:
            return SeriesStanding(rule, tuple(wins), played, decided)
    return SeriesStanding(rule, tuple(wins), played, ())


def _decided(rule: SeriesRule, wins: list[int], played: int) -> tuple[int, ...]:
    reached = tuple(side for side, won in enumerate(wins) if won >= rule.wins_needed)
    if reached or rule.kind == "first-to" or played < rule.games:
        return reached
    most = max(wins)
    return tuple(side for side, won in enumerate(wins) if won == most)


def next_first_dealer(variant: Variant, first_dealer: int, hands_played: int) -> int:
    """The first dealer of the next game of a series: the seat that would
    have dealt the hand after the last game's ``hands_played`` effective
    hands (passed-out ones too), i.e. the seat after its last dealer. A
    game of no hands hands its first deal on unchanged."""
    return turn_of(variant, first_dealer, hands_played + 1, False).dealer
