"""A season's CSV files: the standings (of the season or of one night) and
every hand of the season. The header rows are documented in the README;
spreadsheets open them as they are (UTF-8 with a byte-order mark).

Hands come from each game's replayed log, so a void or correction shows
as the hand in force; sides are named by their players ("Ann & Cat").
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import Any

from scorekeeper.eventstore import load
from scorekeeper.gamelog import replay_log
from scorekeeper.leagues.models import Season, Table
from scorekeeper.rules.events import HandRecorded
from scorekeeper.seatstats import made

STANDINGS = ("rank", "player", "played", "won", "points", "margin", "bids", "made")
SEASON_STANDINGS = (*STANDINGS[:2], "nights", *STANDINGS[2:])
HANDS = (
    "night",
    "round",
    "table",
    "hand",
    "dealer",
    "bidder",
    "side_1",
    "side_2",
    "bid",
    "trump",
    "outcome",
    "tricks_1",
    "tricks_2",
    "delta_1",
    "delta_2",
    "total_1",
    "total_2",
)


def csv_lines(head: Iterable[str], rows: Iterable[Iterable[Any]]) -> Iterator[str]:
    """The CSV text, a line at a time (for a streaming response)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    yield "\ufeff"  # byte-order mark: spreadsheets then read UTF-8
    for row in (head, *rows):
        writer.writerow(row)
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()


def standings_rows(rows: list[dict[str, Any]], *, season: bool) -> Iterator[list[Any]]:
    head = SEASON_STANDINGS if season else STANDINGS
    for row in rows:
        yield ["" if row[k] is None else row[k] for k in ("rank", "name", *head[2:])]


def hand_rows(season: Season) -> Iterator[list[Any]]:
    """One row per hand in force of every game of the season, in the
    order played."""
    tables = (
        Table.objects.filter(round__night__season=season)
        .select_related("round__night", "game")
        .order_by("round__night__date", "round__number", "number")
    )
    for table in tables.iterator(chunk_size=200):
        board = replay_log(load(table.game))
        variant, names = board.variant, board.seats
        sides = [
            " & ".join(
                n for seat, n in enumerate(names) if variant.side_of(seat) == side
            )
            for side in range(variant.sides)
        ]
        for result in board.hands:
            hand, outcome = result.hand, result.outcome
            bidder, bid, trump, tricks = "", "", "", []
            if isinstance(hand, HandRecorded):
                bidder, bid, trump = names[hand.bidder], str(hand.bid), hand.trump
                if hand.tricks is not None:
                    tricks = list(hand.tricks)
                    outcome = "made" if made(variant, hand) else "set"
            yield [
                table.round.night.date.isoformat(),
                table.round.number,
                table.number,
                result.number,
                names[result.dealer],
                bidder,
                *_two(sides),
                bid,
                trump,
                outcome,
                *_two(tricks),
                *_two(list(result.deltas)),
                *_two(list(result.totals)),
            ]


def _two(values: list[Any]) -> list[Any]:
    """A league table has two sides: one column each."""
    return (values + ["", ""])[:2]
