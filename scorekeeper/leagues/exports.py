"""A season's CSV files: the standings (of the season or of one night) and
every hand of the season. The header rows are documented in docs/organizers.md;
spreadsheets open them as they are (UTF-8 with a byte-order mark).

Hands come from each game's replayed log, so a void or correction shows
as the hand in force; seats and sides are named by the league's players
("Ann & Cat"), whatever names the game's log gave its seats.

Every cell goes through ``spreadsheet_cell``: a text a spreadsheet would
run as a formula (a player named ``=HYPERLINK(...)``) is written as text.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Count, Prefetch

from scorekeeper.gamelog import game_variant, replay_log
from scorekeeper.leagues.models import Season, Seat, Table
from scorekeeper.projections.boards import game_log
from scorekeeper.rules.engine import HandResult
from scorekeeper.rules.events import HandRecorded
from scorekeeper.rules.variants import Variant
from scorekeeper.seatstats import made

STANDINGS = ("rank", "player", "played", "won", "points", "margin", "bids", "made")
SEASON_STANDINGS = (*STANDINGS[:2], "nights", *STANDINGS[2:])
SIDED = ("side", "tricks", "delta", "total")  # one column per side each


def hands_head(sides: int = 2) -> tuple[str, ...]:
    """The header of every hand's rows, with a column per side of each
    sided measure: two, unless a game of the season had more sides (a
    3-handed game: each player for himself)."""

    def each(name: str) -> list[str]:
        return [f"{name}_{n}" for n in range(1, sides + 1)]

    return (
        "night",
        "round",
        "table",
        "hand",
        "dealer",
        "bidder",
        *each("side"),
        "bid",
        "trump",
        "outcome",
        *each("tricks"),
        *each("delta"),
        *each("total"),
    )


HANDS = hands_head()


# What starts a formula in a spreadsheet (OWASP "CSV injection"): = + - @,
# and tab or carriage return, which some programs skip before one.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def spreadsheet_cell(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet shows and never runs: a text
    starting as a formula gets a leading apostrophe (shown as text, as
    OWASP advises); numbers, negative ones too, stay numbers."""
    formula = isinstance(value, str) and value.startswith(_FORMULA_START)
    if formula and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_lines(head: Iterable[str], rows: Iterable[Iterable[Any]]) -> Iterator[str]:
    """The CSV text, a line at a time (for a streaming response); every
    cell made safe for a spreadsheet (``spreadsheet_cell``)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    yield "\ufeff"  # byte-order mark: spreadsheets then read UTF-8
    for row in (head, *rows):
        writer.writerow([spreadsheet_cell(cell) for cell in row])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()


def standings_rows(rows: list[dict[str, Any]], *, season: bool) -> Iterator[list[Any]]:
    head = SEASON_STANDINGS if season else STANDINGS
    for row in rows:
        yield ["" if row[k] is None else row[k] for k in ("rank", "name", *head[2:])]


def most_sides(season: Season) -> int:
    """The most sides a game of the season had (2 in a season of teams)."""
    seated = (
        Table.objects.filter(round__night__season=season)
        .values("pk", "game__preset")
        .annotate(count=Count("seats"))
        .values_list("game__preset", "count")
    )
    return max(
        (game_variant(preset, seats, {}).sides for preset, seats in set(seated)),
        default=2,
    )


def hand_rows(season: Season, sides: int = 2) -> Iterator[list[Any]]:
    """One row per hand in force of every game of the season, in the
    order played; seats and sides named by the league's players (an
    imported log's own seat names may be "P0", "P1"...)."""
    tables = (
        Table.objects.filter(round__night__season=season)
        .select_related("round__night", "game")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("player")))
        .order_by("round__night__date", "round__number", "number")
    )
    for table in tables.iterator(chunk_size=200):
        board = replay_log(game_log(table.game))
        variant = board.variant
        names = [seat.player.name for seat in table.seats.all()]
        named = [
            " & ".join(
                n for seat, n in enumerate(names) if variant.side_of(seat) == side
            )
            for side in range(variant.sides)
        ]
        place = [table.round.night.date.isoformat(), table.round.number, table.number]
        for result in board.hands:
            yield [*place, *_hand(result, variant, names, named, sides)]


def _hand(
    result: HandResult,
    variant: Variant,
    names: list[str],
    sides_named: list[str],
    sides: int,
) -> list[Any]:
    hand, outcome = result.hand, result.outcome
    bidder, bid, trump, tricks = "", "", "", []
    if isinstance(hand, HandRecorded):
        bidder, bid, trump = names[hand.bidder], str(hand.bid), hand.trump
        if hand.tricks is not None:
            tricks = list(hand.tricks)
            outcome = "made" if made(variant, hand) else "set"

    def each(values: list[Any]) -> list[Any]:
        return (values + [""] * sides)[:sides]

    return [
        result.number,
        names[result.dealer],
        bidder,
        *each(sides_named),
        bid,
        trump,
        outcome,
        *each(tricks),
        *each(list(result.deltas)),
        *each(list(result.totals)),
    ]
