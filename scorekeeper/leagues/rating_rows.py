"""What bringing a league's ratings up to date reads, in plain SQL.

A page's first view after a change brings the ratings up to date
(``rated_games.ratings_refresh``). Through the ORM its reads were some
ten queries, and building each one took longer than the database took to
answer it; here they are two, built once per process and database: the
league's rated games from a place in its order on, and its tables from
that night on, each with its game and seats.

The rows come back nearly as the database gives them: a game's key as it
does (compared only with keys read the same way; the ORM takes either
form), JSON columns read as text, and decoded where they are used, a
night's date as ``YYYY-MM-DD`` whatever the database.
"""

from __future__ import annotations

import json
from datetime import date
from functools import cache
from typing import Any, NamedTuple
from uuid import UUID

from scorekeeper.leagues.models import Night, Rating, Round, Season, Seat, Table
from scorekeeper.leagues.plain_sql import db, json_at, json_text, names, table_to_night
from scorekeeper.models import Game

Key = UUID | str  # a game's key as the database gives it (SQLite: 32 hex digits)


class RatedRow(NamedTuple):
    """A stored rating: the game rated at ``position`` of the league's
    order, how long its log was then, its place and the skills after it,
    as JSON text (``{"p<player id>": [mu, sigma]}``: most rows read are
    compared by game and length alone, and never decoded)."""

    position: int
    game: Key
    seq: int
    order: str
    skills: str

    def players(self) -> list[str]:
        """The ids of the players rated in the game."""
        return [key[1:] for key in json.loads(self.skills)]


class FinishedRow(NamedTuple):
    """A finished game of the league: how long its log is, and its place."""

    game: Key
    seq: int
    place: tuple[str, int, int, int]  # night's date, season, round, table


class TableRow(NamedTuple):
    """A table of the league, its game as it stands and who sat where."""

    finished: bool
    game: Key
    seq: int
    winners: list[int]  # the winning seats
    preset: str
    rules: str  # the game's house rules as JSON text (``rules_of`` caches on it)
    place: tuple[str, int, int, int]  # night's date, season, round, table
    players: tuple[int, ...]  # by seat


@cache
def _rated_sql(vendor: str) -> str:
    rating, league, position, game, seq, order, skills = names(
        Rating, "league", "position", "game", "seq", "order", "skills"
    )
    return (
        f"SELECT {position}, {game}, {seq}, {order}, {json_text(skills)} "
        f"FROM {rating} WHERE {league} = %s AND {order} >= %s ORDER BY {position}"
    )


def rated_from(league_id: int, since: str) -> list[RatedRow]:
    """The league's stored ratings from the place ``since`` on (all of
    them for ""), in position order."""
    with db().cursor() as cursor:
        cursor.execute(_rated_sql(db().vendor), [league_id, since])
        return [RatedRow(*row) for row in cursor.fetchall()]


@cache
def _count_sql(vendor: str) -> str:
    rating, league = names(Rating, "league")
    return f"SELECT COUNT(*) FROM {rating} WHERE {league} = %s"


def rated_count(league_id: int) -> int:
    """How many of the league's games are rated."""
    with db().cursor() as cursor:
        cursor.execute(_count_sql(db().vendor), [league_id])
        return int(cursor.fetchone()[0])


@cache
def _tables_sql(vendor: str, since: bool, whole: bool) -> str:
    """The league's tables, from a place on when ``since``: ``whole``, each
    with its game and a row a seat; else each game's key, length, place and
    whether it is finished, a row each. (Told to find finished games only,
    SQLite starts from every finished game of every league: 6 ms where the
    league's nights give their tables at once in 0.3.)"""
    table, t_id, t_number, t_game = names(Table, "id", "number", "game")
    game, g_id, finished, last_seq, winners, preset, overrides = names(
        Game, "id", "finished", "last_seq", "winners", "preset", "overrides"
    )
    r_number = names(Round, "number")[1]
    n_season, n_date = names(Night, "season", "date")[1:]
    season, s_id, s_league = names(Season, "id", "league")
    seat, s_table, s_position, s_player = names(Seat, "table", "position", "player")
    place = f"{n_date}, {n_season}, {r_number}, {t_number}"
    at = f" AND ({place}) >= (%s, %s, %s, %s)" if since else ""
    joins = (
        f"FROM {table} {table_to_night()}"
        f"INNER JOIN {season} ON {n_season} = {s_id} "
        f"INNER JOIN {game} ON {t_game} = {g_id} "
    )
    if not whole:
        return (
            f"SELECT {g_id}, {last_seq}, {place}, {finished} {joins}"
            f"WHERE {s_league} = %s{at} ORDER BY {place}, {t_id}"
        )
    return (
        f"SELECT {finished}, {g_id}, {last_seq}, {json_text(winners)}, "
        f"{preset}, {json_text(overrides)}, {place}, {t_id}, {s_player} "
        f"{joins}LEFT OUTER JOIN {seat} ON {s_table} = {t_id} "
        f"WHERE {s_league} = %s{at} ORDER BY {place}, {t_id}, {s_position}"
    )


Place = tuple[date, int, int, int]  # a night's date and season, a round, a table


def _tables(league_id: int, since: Place | None, whole: bool) -> list[Any]:
    connection = db()
    params: list[Any] = [league_id]
    if since is not None:
        day, *numbers = since
        params += [connection.ops.adapt_datefield_value(day), *numbers]
    with connection.cursor() as cursor:
        cursor.execute(_tables_sql(connection.vendor, since is not None, whole), params)
        found: list[Any] = cursor.fetchall()
    return found


def finished_from(league_id: int, since: Place) -> list[FinishedRow]:
    """The league's finished games from the place ``since`` on, in the
    order played: each game, how long its log is and its place."""
    return [
        FinishedRow(game, seq, _place(*place))
        for game, seq, *place, finished in _tables(league_id, since, whole=False)
        if finished
    ]


def tables_from(league_id: int, since: Place | None) -> list[TableRow]:
    """The league's tables (finished or not) from the place ``since`` on
    (every table for None), in the order played, each with its game and
    its players by seat: one query."""
    heads: list[list[Any]] = []
    seated: list[list[int]] = []
    last = None
    for *columns, table, player in _tables(league_id, since, whole=True):
        if table != last:  # a row a seat, the table's rows in a run
            heads.append(columns)
            seated.append([])
            last = table
        if player is not None:
            seated[-1].append(player)
    return [
        _table_row(each, tuple(players))
        for each, players in zip(heads, seated, strict=True)
    ]


def _table_row(columns: list[Any], players: tuple[int, ...]) -> TableRow:
    finished, game, seq, winners, preset, rules, *place = columns
    return TableRow(
        bool(finished),
        game,
        seq,
        json.loads(winners),
        preset,
        rules,
        _place(*place),
        players,
    )


def _place(
    day: date, season: int, round_: int, table: int
) -> tuple[str, int, int, int]:
    """A table's place as read: the night's date as YYYY-MM-DD."""
    return str(day), int(season), int(round_), int(table)


@cache
def _history_sql(vendor: str) -> str:
    rating, r_game, position, skills = names(Rating, "game", "position", "skills")
    table, t_id, t_game = names(Table, "id", "game")
    seat, s_table, s_player = names(Seat, "table", "player")
    n_date = names(Night, "date")[1]
    return (
        f"SELECT {n_date}, {json_at(vendor, skills, '%s')} FROM {rating} "
        f"INNER JOIN {table} ON {t_game} = {r_game} "
        f"INNER JOIN {seat} ON {s_table} = {t_id} {table_to_night()}"
        f"WHERE {s_player} = %s ORDER BY {position}"
    )


def history_of(player_id: int) -> list[tuple[date, list[float]]]:
    """The player's skill ([mu, sigma]) after each of their rated games,
    in the order rated, with the date of the game's night: of each game's
    skills, only the player's own is read (a player may have hundreds)."""
    with db().cursor() as cursor:
        cursor.execute(_history_sql(db().vendor), [f"p{player_id}", player_id])
        return [(day, json.loads(mine)) for day, mine in cursor.fetchall()]
