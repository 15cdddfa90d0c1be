"""A player's games and nights, as their page reads them, in plain SQL.

A player page's first view after a change reads the player's latest
games and nights' rows again: through the ORM five queries, each taking
longer to build than the database took to answer it; here four, built
once per process and database. Of each game's per-seat statistics only
the player's own seat is read (a player may have hundreds of games).
"""

from __future__ import annotations

import json
from datetime import date
from functools import cache, lru_cache
from typing import Any, NamedTuple

from scorekeeper.leagues.models import (
    Night,
    NightProjection,
    NightTally,
    Round,
    Seat,
    Table,
)
from scorekeeper.leagues.night_rows import TALLY_FIELDS
from scorekeeper.leagues.plain_sql import db, json_at, json_text, names, table_to_night
from scorekeeper.models import Game


class SatAt(NamedTuple):
    """A game the player sat in, as its row holds it."""

    table: int  # the table's key
    season: int
    day: date
    round: int
    number: int  # the table's number in its round
    finished: bool
    preset: str
    rules: str  # the game's house rules as JSON text
    result: str  # JSON text: [totals, winners, bids by seat, made by seat]
    mine: str | None  # the player's seat's statistics as JSON text


@cache
def _seats_sql(vendor: str, latest: bool) -> str:
    seat, s_table, s_position, s_player = names(Seat, "table", "position", "player")
    table, t_id, t_number, t_game = names(Table, "id", "number", "game")
    r_number = names(Round, "number")[1]
    n_season, n_date = names(Night, "season", "date")[1:]
    game, g_id, finished, preset, overrides, *parts = names(
        Game,
        "id",
        "finished",
        "preset",
        "overrides",
        "totals",
        "winners",
        "seat_bids",
        "seat_made",
    )
    stats = names(Game, "seat_stats")[1]
    result = " || ',' || ".join(json_text(part) for part in parts)
    mine = json_at(vendor, stats, s_position, index=True)  # the player's seat's
    return (
        f"SELECT {t_id}, {n_season}, {n_date}, {r_number}, {t_number}, "
        f"{finished}, {preset}, {json_text(overrides)}, '[' || {result} || ']', "
        f"{mine} FROM {seat} "
        f"INNER JOIN {table} ON {s_table} = {t_id} {table_to_night()}"
        f"INNER JOIN {game} ON {t_game} = {g_id} "
        f"WHERE {s_player} = %s "
        # The league's order (its ratings'): date, season, round, table.
        f"ORDER BY {n_date} DESC, {n_season} DESC, {r_number} DESC, "
        f"{t_number} DESC, {t_id} DESC" + (" LIMIT %s" if latest else "")
    )


def seats_of(player_id: int, latest: int | None = None) -> list[SatAt]:
    """The games the player sat in (the ``latest`` ones), in the order
    played: the league's order, as its ratings take them."""
    params: list[Any] = [player_id] if latest is None else [player_id, latest]
    with db().cursor() as cursor:
        cursor.execute(_seats_sql(db().vendor, latest is not None), params)
        found = cursor.fetchall()
    return [
        SatAt(table, season, day, round_, number, bool(finished), *rest)
        for table, season, day, round_, number, finished, *rest in reversed(found)
    ]


@lru_cache(maxsize=64)  # by how many tables: a page asks 20, or all
def _players_sql(vendor: str, tables: int) -> str:
    seat, s_table, s_position, s_player = names(Seat, "table", "position", "player")
    marks = ", ".join(["%s"] * tables)
    return (
        f"SELECT {s_table}, {s_player} FROM {seat} WHERE {s_table} IN ({marks}) "
        f"ORDER BY {s_table}, {s_position}"
    )


def players_at(tables: list[int]) -> dict[int, list[str]]:
    """Who sat at each of ``tables``, by seat (player ids as text)."""
    seated: dict[int, list[str]] = {table: [] for table in tables}
    if not tables:
        return seated
    with db().cursor() as cursor:
        cursor.execute(_players_sql(db().vendor, len(tables)), tables)
        for table, player in cursor.fetchall():
            seated[table].append(str(player))
    return seated


@cache
def _unsummed_sql(vendor: str) -> str:
    n_id = names(Night, "id")[1]
    kept, k_night = names(NightProjection, "night")
    table, t_id = names(Table, "id")
    seat, s_table, s_player = names(Seat, "table", "player")
    return (
        f"SELECT DISTINCT {n_id} FROM {seat} "
        f"INNER JOIN {table} ON {s_table} = {t_id} {table_to_night()}"
        f"LEFT OUTER JOIN {kept} ON {k_night} = {n_id} "
        f"WHERE {s_player} = %s AND {k_night} IS NULL"
    )


def unsummed_nights(player_id: int) -> list[int]:
    """The nights the player sat at a table of whose rows were never summed."""
    with db().cursor() as cursor:
        cursor.execute(_unsummed_sql(db().vendor), [player_id])
        return [pk for (pk,) in cursor.fetchall()]


# A night's row of a player, as their page reads it: the standings'
# measures, then their page's sums.
TALLY_COLUMNS = (*TALLY_FIELDS, "sets", "conceded")
_JSON_COLUMNS = ("bid_lines", "partners", "opponents")


@cache
def _tallies_sql(vendor: str) -> str:
    tally, t_night, t_player, *columns = names(
        NightTally, "night", "player", *TALLY_COLUMNS, *_JSON_COLUMNS
    )
    night, n_id, n_date, n_label = names(Night, "id", "date", "label")
    numbers = columns[: len(TALLY_COLUMNS)]
    texts = [json_text(column) for column in columns[len(TALLY_COLUMNS) :]]
    return (
        f"SELECT {n_date}, {', '.join(numbers + texts)} FROM {tally} "
        f"INNER JOIN {night} ON {t_night} = {n_id} "
        f"WHERE {t_player} = %s ORDER BY {n_date}, {n_label}, {n_id}"
    )


def tallies_of(player_id: int) -> list[tuple[date, list[int], list[Any]]]:
    """Each night's row of the player, in date order: the night's date,
    the numbers of ``TALLY_COLUMNS`` and the decoded bid lines, partners
    and opponents."""
    with db().cursor() as cursor:
        cursor.execute(_tallies_sql(db().vendor), [player_id])
        found = cursor.fetchall()
    width = len(TALLY_COLUMNS)
    return [
        (day, list(rest[:width]), [json.loads(text) for text in rest[width:]])
        for day, *rest in found
    ]
