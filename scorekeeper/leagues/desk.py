"""The organizer's desk and the room's TV: the current round's tables
(on the desk, those that need a look first), the round's controls, and
the night's standings with the games in play counted as they stand.

Both pages poll. A poll that finds the night unchanged costs one query
(``nights.version``); one that finds a change answers only what changed:
each table's row carries its own version, the standings their digest,
and the page's frame (round, controls, order of the rows) its own; the
poll sends back what the page holds and gets the rows, standings or
frame that differ (htmx out-of-band swaps).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from scorekeeper.leagues.controls import Controls, round_controls
from scorekeeper.leagues.live import Attention, attention, live_tallies
from scorekeeper.leagues.models import Night, Round, Seat, Table
from scorekeeper.leagues.my_night import not_sat_down
from scorekeeper.leagues.night_rows import sides_of
from scorekeeper.leagues.presenters import standing_rows
from scorekeeper.leagues.results import cached, season_settings
from scorekeeper.leagues.round_tables import (
    ROUNDS,
    TableView,
    called_games,
    round_in_play,
    round_view,
    row_version,
    seated,
    table_view,
)
from scorekeeper.leagues.season import Player as Person
from scorekeeper.leagues.standings import GameResult, night_rows_from
from scorekeeper.leagues.substitutes import night_substitutions


def live_standings(night: Night) -> tuple[list[dict[str, Any]], bool]:
    """The night's standings with every game counted as it stands (each
    under its own rules: a 3-handed table is each for himself), and
    whether any game in play was counted (the standings are live)."""
    players, people = _seated_ids(night)
    rows = Table.objects.filter(round__night=night).values_list(
        "pk",
        "game__preset",
        "game__overrides",
        "game__finished",
        "game__totals",
        "game__winners",
        "game__seat_bids",
        "game__seat_made",
        "game__last_seq",
    )
    games = []
    for pk, preset, overrides, finished, totals, winners, bids, made, seq in rows:
        seats = tuple(players.get(pk, ()))
        rules = json.dumps(overrides, sort_keys=True)
        result = GameResult(
            players=seats,
            finished=finished,
            sides=sides_of(preset, len(seats), rules),
            totals=tuple(totals),
            winners=frozenset(winners),
            bids=tuple(bids),
            made=tuple(made),
        )
        games.append((result, seq > 0))
    order = season_settings(night.season).order
    ranked = night_rows_from(live_tallies(games), people, order)
    return ranked, any(not game.finished and played for game, played in games)


def _seated_ids(night: Night) -> tuple[dict[int, list[str]], dict[str, Person]]:
    """Each table's player ids, clockwise, and the night's players by id
    (read from their seats: no league-wide list of names)."""
    found: dict[int, list[str]] = {}
    people: dict[str, Person] = {}
    seats = Seat.objects.filter(table__round__night=night).order_by("table", "position")
    for table_id, player_id, name in seats.values_list(
        "table", "player", "player__name"
    ):
        found.setdefault(table_id, []).append(str(player_id))
        people[str(player_id)] = Person(str(player_id), name)
    return found, people


def desk_page(
    night: Night, base: str, now: datetime, here: int, *, by_number: bool = False
) -> dict[str, Any]:
    """The current round (the desk's order: quiet tables, then those
    playing, then the finished; the TV's: by number), its controls and
    the live standings, with the versions a poll compares."""
    played = night.rounds.prefetch_related(*ROUNDS).last()
    current, tables = None, []
    if played is not None:
        played.night = night
        names = seated(night, [played], substituted=night_substitutions(night))
        current = round_view(played, names, base, called_games([played]), now)
        tables = _ordered(current["tables"], by_number)
        current["tables"] = tables
    states = [Row(t.table.pk, t.table.number, t.version, t.attention) for t in tables]
    controls = round_controls(
        night, played, len(tables), current["unfinished"] if current else 0, here
    )
    return _live(night, here, played) | {
        "current": current,
        "controls": controls,
        "quiet": sum(1 for table in tables if table.quiet),
        "frame": _frame(night, played, states, controls, here),
    }


@dataclass(frozen=True)
class Row:
    """What a poll compares of a table: its place and its version."""

    pk: int
    number: int
    version: str
    attention: Attention


class Placed(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def attention(self) -> Attention: ...


def _ordered[T: Placed](rows: list[T], by_number: bool) -> list[T]:
    """The TV's order (by number) or the desk's (those needing a look first)."""
    if by_number:
        return sorted(rows, key=lambda row: row.number)
    return sorted(rows, key=lambda row: (row.attention, row.number))


def _rows(played: Round, now: datetime) -> tuple[list[Row], int]:
    """The round's tables as a poll compares them, from one light query
    (no game, seat or player loaded); and how many are unfinished."""
    in_play = round_in_play(played)
    found = list(
        played.tables.values_list(
            "pk",
            "number",
            "game__last_seq",
            "game__locked",
            "game__finished",
            "game__updated_at",
        )
    )
    rows = []
    for pk, number, seq, locked, finished, changed in found:
        mood = attention(
            finished=finished, last_change=changed, now=now, in_play=in_play
        )
        rows.append(Row(pk, number, row_version(seq, locked, mood), mood))
    return rows, sum(1 for *_, finished, _ in found if not finished)


def desk_poll(
    night: Night,
    base: str,
    now: datetime,
    here: int,
    held: Mapping[str, str],
    *,
    by_number: bool = False,
    version: str = "",
) -> dict[str, Any]:
    """A poll's answer, given what its page holds (``held``: ``frame``,
    ``s`` and ``t<table id>``, as the page's hidden fields send them):
    the whole live part when its frame changed, else only the rows whose
    version differs (the rest not even loaded) and the standings if
    their digest differs. With the night's ``version`` (read before any
    of it), the standings and the round's rows are shared through the
    cache by the night's screens (its desk and TV, on any server)."""
    played = night.rounds.last()
    if played is None:
        return desk_page(night, base, now, here, by_number=by_number) | {"whole": True}
    played.night = night
    rows, unfinished = _rows(played, now)
    rows = _ordered(rows, by_number)
    controls = round_controls(night, played, len(rows), unfinished, here)
    frame = _frame(night, played, rows, controls, here)
    if held.get("frame") != frame:
        return desk_page(night, base, now, here, by_number=by_number) | {"whole": True}
    changed = [row.pk for row in rows if held.get(f"t{row.pk}") != row.version]
    live = _shared(
        f"night-live:{night.pk}", version, lambda: _live(night, here, played)
    )
    page = live | {"controls": controls, "frame": frame}
    return page | {
        "whole": False,
        "changed": _changed_views(played, rows, changed, base, now, version),
        "standings": held.get("s") != page["standings_version"],
        "waiting_changed": held.get("w") != page["waiting_version"],
    }


def _changed_views(
    played: Round,
    rows: list[Row],
    changed: list[int],
    base: str,
    now: datetime,
    version: str,
) -> list[TableView]:
    """The changed tables' views; with a version, from the views of every
    table of the round, shared by the night's screens."""
    if not version or not changed:
        return _views(played, changed, base, now)
    every = [row.pk for row in rows]
    shared = _shared(
        f"night-rows:{played.night_id}:{played.pk}:{base}",
        version,
        lambda: _views(played, every, base, now),
    )
    return [view for view in shared if view.table.pk in changed]


SHARED_SECONDS = 600  # a night's screens ask every 3 s; older versions go unread


def _shared[T](key: str, version: str, compute: Callable[[], T]) -> T:
    """``compute()``, kept under the night's version for its other screens;
    without a version, computed each time."""
    if not version:
        return compute()
    return cached(f"{key}:{version}", compute, timeout=SHARED_SECONDS)


def _views(
    played: Round, tables: list[int], base: str, now: datetime
) -> list[TableView]:
    """The views of these tables of the round (none: no query)."""
    if not tables:
        return []
    night = played.night
    names = seated(night, [played], tables, night_substitutions(night))
    ended = called_games([played])
    in_play = round_in_play(played)
    return [
        table_view(
            table,
            names[table.pk],
            base,
            now=now,
            called=table.game_id in ended,
            in_play=in_play,
        )
        for table in played.tables.filter(pk__in=tables).select_related("game")
    ]


def _live(night: Night, here: int, played: Round | None) -> dict[str, Any]:
    rows, live = live_standings(night)
    waiting = not_sat_down(night, played)
    return {
        "waiting": waiting,
        "waiting_version": _digest([played.pk if played else 0, waiting]),
        "here": here,
        "live_rows": standing_rows(rows),
        "live": live,
        "standings_version": _digest([rows, live]),
    }


def _frame(
    night: Night,
    played: Round | None,
    rows: list[Row],
    controls: Controls,
    here: int,
) -> str:
    """What the page shows around the rows: the round, its controls, how
    many tables are quiet, the rows' order and whether the TV hides the
    totals; a change to it sends the whole page."""
    return _digest(
        [
            night.tv_totals_hidden,
            [played.pk, bool(played.called_at)] if played else [],
            [row.pk for row in rows],
            [controls.waiting, controls.closed, here],
            sum(1 for row in rows if row.attention == Attention.QUIET),
        ]
    )


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, default=str).encode()).hexdigest()[:16]
