"""A player's numbers over their games (no database): games, nights, wins,
bids made by bid, sets taken on defence, hands conceded, average margin,
the best partner and the toughest opponent, and each night's results.

Games count once finished, as in the standings. A partner or an opponent
is named only after at least ``TOGETHER`` finished games with the player:
the best partner is the one the player won most often with, the toughest
opponent the one the player won least often against (more games together
breaks a tie, then the id, so the answer never depends on the order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scorekeeper.leagues.standings import GameResult, Tally, game_tallies
from scorekeeper.seatstats import SeatStats

TOGETHER = 3


@dataclass(frozen=True)
class Played:
    """One game of the player: the night's date, where they sat, the game."""

    night: str
    round: int
    table: int
    seat: int
    game: GameResult
    season: int = 0  # which season of the league (its id), where it matters
    mine: SeatStats | None = None  # the player's seat's statistics


@dataclass
class Pairing:
    """Finished games with another player (as partners, or against)."""

    player: str
    games: int = 0
    won: int = 0

    @property
    def rate(self) -> Fraction:
        return Fraction(self.won, self.games)


@dataclass
class PlayerStats:
    games: int = 0  # finished
    nights: int = 0
    won: int = 0
    margin: int = 0  # summed over finished games
    bids: dict[str, list[int]] = field(default_factory=dict)  # bid: [bid, made]
    sets: int = 0
    conceded: int = 0
    partner: Pairing | None = None
    opponent: Pairing | None = None
    by_night: list[tuple[str, Tally]] = field(default_factory=list)

    @property
    def win_pct(self) -> Fraction | None:
        return Fraction(self.won, self.games) if self.games else None

    @property
    def average_margin(self) -> Fraction | None:
        return Fraction(self.margin, self.games) if self.games else None

    @property
    def bid_lines(self) -> list[tuple[str, int, int]]:
        """(bid, bids, made): the numbers low to high, then the named bids."""

        def key(bid: str) -> tuple[bool, int, str]:
            return (not bid.isdigit(), int(bid) if bid.isdigit() else 0, bid)

        return [
            (b, self.bids[b][0], self.bids[b][1]) for b in sorted(self.bids, key=key)
        ]


def player_stats(me: str, games: Sequence[Played]) -> PlayerStats:
    """``me``'s numbers over ``games`` (in the order they were played)."""
    stats = PlayerStats()
    partners: dict[str, Pairing] = {}
    opponents: dict[str, Pairing] = {}
    nights: dict[str, Tally] = {}
    for played in games:
        game, seat = played.game, played.seat
        tally = game_tallies(game).get(me)
        if tally is None:
            continue  # unfinished
        nights.setdefault(played.night, Tally()).add(tally)
        stats.games += 1
        stats.won += tally.won
        stats.margin += tally.margin
        mine = played.mine
        if mine is not None:
            for bid, (count, made) in mine["bids"].items():
                line = stats.bids.setdefault(bid, [0, 0])
                line[0] += count
                line[1] += made
            stats.sets += mine["sets"]
            stats.conceded += mine["conceded"]
        side = game.sides[seat]
        for other, pid in enumerate(game.players):
            if other == seat:
                continue
            pairs = partners if game.sides[other] == side else opponents
            pairing = pairs.setdefault(pid, Pairing(pid))
            pairing.games += 1
            pairing.won += tally.won
    stats.nights = len(nights)
    stats.by_night = list(nights.items())
    stats.partner = _pick(partners, best=True)
    stats.opponent = _pick(opponents, best=False)
    return stats


def _pick(pairings: dict[str, Pairing], *, best: bool) -> Pairing | None:
    known = [p for p in pairings.values() if p.games >= TOGETHER]
    if not known:
        return None
    sign = 1 if best else -1
    return max(known, key=lambda p: (sign * p.rate, p.games, p.player))
