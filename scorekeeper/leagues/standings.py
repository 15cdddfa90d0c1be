"""The standings of a season: pepper-standings v1 (contract pepper-league-v1
§2). Pure: a ``Season`` in, plain rows out.

A game counts when it is finished. Per player and counted game: played,
won (co-winners too), points (the side's final total), margin (that minus
the best other side's total), bids (hands the player's seat bid) and made
(of those, made or conceded to the bidders). A night sums its games; the
season sums the nights it counts (all, or each player's ``best_nights``);
ranks follow ``order``, equal rows share a rank and the next one skips.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scorekeeper.leagues.season import Player, Season, Settings
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.seatstats import SeatStats, seat_bids, seat_stats

COUNTS = ("played", "won", "points", "margin", "bids", "made")


@dataclass
class Tally:
    """One player's measures over some games (or nights)."""

    played: int = 0
    won: int = 0
    points: int = 0
    margin: int = 0
    bids: int = 0
    made: int = 0
    nights: int = 0

    def add(self, other: Tally) -> None:
        self.played += other.played
        self.won += other.won
        self.points += other.points
        self.margin += other.margin
        self.bids += other.bids
        self.made += other.made

    def measure(self, name: str) -> Fraction | int:
        if name == "win_pct":
            return Fraction(self.won, self.played) if self.played else 0
        if name == "made_pct":
            return Fraction(self.made, self.bids) if self.bids else 0
        value: int = getattr(self, name)
        return value


@dataclass
class Row:
    player: Player
    tally: Tally
    rank: int | None = None


@dataclass(frozen=True)
class GameResult:
    """What the standings need of one game, from its log or from the game
    row's projection of it: per seat its player, side, bids and bids made;
    per side its final total; the winning sides."""

    players: tuple[str, ...]
    finished: bool
    sides: tuple[int, ...]
    totals: tuple[int, ...]
    winners: frozenset[int]
    bids: tuple[int, ...]
    made: tuple[int, ...]
    stats: tuple[SeatStats, ...] = ()  # per seat (player pages, awards)


def result_of(players: tuple[str, ...], board: Scoreboard) -> GameResult:
    stats = seat_stats(board)
    bids, made = seat_bids(stats)
    variant = board.variant
    return GameResult(
        players,
        board.finished,
        tuple(variant.side_of(seat) for seat in range(len(players))),
        tuple(board.totals),
        frozenset(board.winners),
        tuple(bids),
        tuple(made),
        tuple(stats),
    )


def game_tallies(game: GameResult) -> dict[str, Tally]:
    """Each seated player's measures in one game (none if unfinished)."""
    if not game.finished:
        return {}
    totals = game.totals
    tallies: dict[str, Tally] = {}
    for seat, pid in enumerate(game.players):
        side = game.sides[seat]
        others = [total for other, total in enumerate(totals) if other != side]
        tallies[pid] = Tally(
            played=1,
            won=int(side in game.winners),
            points=totals[side],
            margin=totals[side] - max(others),
            bids=game.bids[seat],
            made=game.made[seat],
        )
    return tallies


def night_tallies(games: Iterable[GameResult]) -> dict[str, Tally]:
    tallies: dict[str, Tally] = {}
    for game in games:
        for pid, tally in game_tallies(game).items():
            tallies.setdefault(pid, Tally()).add(tally)
    return tallies


def ranked(rows: Iterable[Row], order: tuple[str, ...]) -> list[Row]:
    """Sorted by ``order`` (each higher first), then name, then id; equal
    on every measure of ``order``: the same rank, and the next one skips."""
    keyed = [
        (tuple(row.tally.measure(name) for name in order), row)
        for row in sorted(rows, key=lambda row: (row.player.name, row.player.id))
    ]
    keyed.sort(key=lambda pair: pair[0], reverse=True)  # stable: names stay
    listed = []
    for position, (key, row) in enumerate(keyed, start=1):
        before = keyed[position - 2] if position > 1 else None
        row.rank = before[1].rank if before and before[0] == key else position
        listed.append(row)
    return listed


def standings(season: Season) -> dict[str, object]:
    """The pepper-standings v1 document of a season read from its export."""
    nights = [
        (night.date, [result_of(game.players, game.board) for game in night.games])
        for night in season.nights
    ]
    return standings_of(nights, season.players, season.settings)


def standings_of(
    nights: Sequence[tuple[str, Sequence[GameResult]]],
    players: Mapping[str, Player],
    settings: Settings,
) -> dict[str, object]:
    """The pepper-standings v1 document of nights of game results."""
    tallied = [(day, night_tallies(games)) for day, games in nights]
    return standings_from(tallied, players, settings)


def standings_from(
    nights: Sequence[tuple[str, Mapping[str, Tally]]],
    players: Mapping[str, Player],
    settings: Settings,
) -> dict[str, object]:
    """The pepper-standings v1 document of each night's tallies."""
    return {
        "format": "pepper-standings",
        "version": 1,
        "nights": [
            {"date": day, "rows": night_rows_from(tallies, players, settings.order)}
            for day, tallies in nights
        ],
        "season": {"rows": season_rows_from(nights, players, settings)},
    }


def night_rows_from(
    tallies: Mapping[str, Tally],
    players: Mapping[str, Player],
    order: tuple[str, ...],
) -> list[dict[str, object]]:
    """The document's rows of one night: its tallies ranked by ``order``."""
    rows = [Row(players[pid], tally) for pid, tally in tallies.items()]
    return [_row(row) for row in ranked(rows, order)]


def season_rows_from(
    nights: Sequence[tuple[str, Mapping[str, Tally]]],
    players: Mapping[str, Player],
    settings: Settings,
) -> list[dict[str, object]]:
    """The document's season rows: each player's nights summed (the best
    ``best_nights`` of them), ranked once they have ``min_nights``."""
    by_player: dict[str, list[tuple[int, Tally]]] = {}
    for index, (_, tallies) in enumerate(nights):
        for pid, tally in tallies.items():
            by_player.setdefault(pid, []).append((index, tally))
    rows = []
    for pid, played in by_player.items():
        counted = played
        if settings.best_nights:  # best by points; equal points: the earlier
            best = sorted(played, key=lambda item: (-item[1].points, item[0]))
            counted = best[: settings.best_nights]
        tally = Tally(nights=len(played))
        for _, night in counted:
            tally.add(night)
        rows.append(Row(players[pid], tally))
    return ranked_season(rows, settings)


def ranked_season(rows: list[Row], settings: Settings) -> list[dict[str, object]]:
    """The document's season rows of each player's summed tally (its
    ``nights`` set): ranked once they have ``min_nights``."""
    qualified = [row for row in rows if row.tally.nights >= settings.min_nights]
    others = [row for row in rows if row.tally.nights < settings.min_nights]
    listed = ranked(qualified, settings.order)
    for row in ranked(others, settings.order):
        row.rank = None
        listed.append(row)
    return [_row(row, season=True) for row in listed]


def _row(row: Row, *, season: bool = False) -> dict[str, object]:
    tally = row.tally
    document: dict[str, object] = {
        "rank": row.rank,
        "player": row.player.id,
        "name": row.player.name,
    }
    if season:
        document["nights"] = tally.nights
    document.update({key: getattr(tally, key) for key in COUNTS})
    return document
