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

from collections.abc import Mapping, Sequence
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


@dataclass
class Sums:
    """What a player's numbers add up from, over some of their games (a
    night's are kept as a row, ``NightTally``): every field sums."""

    games: int = 0  # finished
    won: int = 0
    margin: int = 0
    bids: dict[str, list[int]] = field(default_factory=dict)  # bid: [bid, made]
    sets: int = 0
    conceded: int = 0
    partners: dict[str, list[int]] = field(default_factory=dict)  # id: [games, won]
    opponents: dict[str, list[int]] = field(default_factory=dict)

    def add(self, other: Sums) -> None:
        self.games += other.games
        self.won += other.won
        self.margin += other.margin
        self.sets += other.sets
        self.conceded += other.conceded
        for mine, theirs in (
            (self.bids, other.bids),
            (self.partners, other.partners),
            (self.opponents, other.opponents),
        ):
            for key, (first, second) in theirs.items():
                line = mine.setdefault(key, [0, 0])
                line[0] += first
                line[1] += second


def game_sums(
    me: str, played: Played, tallies: Mapping[str, Tally] | None = None
) -> tuple[Tally, Sums] | None:
    """``me``'s tally and sums of one game (None while it is unfinished);
    ``tallies``: the game's ``game_tallies``, if known already."""
    game, seat = played.game, played.seat
    tally = (game_tallies(game) if tallies is None else tallies).get(me)
    if tally is None:
        return None
    sums = Sums(games=1, won=tally.won, margin=tally.margin)
    mine = played.mine
    if mine is not None:
        sums.bids = {bid: [count, made] for bid, (count, made) in mine["bids"].items()}
        sums.sets = mine["sets"]
        sums.conceded = mine["conceded"]
    side = game.sides[seat]
    for other, pid in enumerate(game.players):
        if other == seat:
            continue
        pairs = sums.partners if game.sides[other] == side else sums.opponents
        pairing = pairs.setdefault(pid, [0, 0])
        pairing[0] += 1
        pairing[1] += tally.won
    return tally, sums


def player_stats(me: str, games: Sequence[Played]) -> PlayerStats:
    """``me``'s numbers over ``games`` (in the order they were played)."""
    nights: dict[str, tuple[Tally, Sums]] = {}
    for played in games:
        found = game_sums(me, played)
        if found is None:
            continue  # unfinished
        tally, sums = nights.setdefault(played.night, (Tally(), Sums()))
        tally.add(found[0])
        sums.add(found[1])
    return stats_of(list(nights.items()))


def stats_of(nights: Sequence[tuple[str, tuple[Tally, Sums]]]) -> PlayerStats:
    """A player's numbers from each night's tally and sums (in date order;
    two nights of one date count as one, as a player's page shows them)."""
    total = Sums()
    by_night: dict[str, Tally] = {}
    for day, (tally, sums) in nights:
        total.add(sums)
        by_night.setdefault(day, Tally()).add(tally)
    return PlayerStats(
        games=total.games,
        nights=len(by_night),
        won=total.won,
        margin=total.margin,
        bids=total.bids,
        sets=total.sets,
        conceded=total.conceded,
        partner=_pick(_pairings(total.partners), best=True),
        opponent=_pick(_pairings(total.opponents), best=False),
        by_night=list(by_night.items()),
    )


def _pairings(counts: dict[str, list[int]]) -> dict[str, Pairing]:
    return {pid: Pairing(pid, games, won) for pid, (games, won) in counts.items()}


def _pick(pairings: dict[str, Pairing], *, best: bool) -> Pairing | None:
    known = [p for p in pairings.values() if p.games >= TOGETHER]
    if not known:
        return None
    sign = 1 if best else -1
    return max(known, key=lambda p: (sign * p.rate, p.games, p.player))
