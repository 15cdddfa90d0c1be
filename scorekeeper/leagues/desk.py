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
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from scorekeeper.leagues.controls import Controls, round_controls
from scorekeeper.leagues.live import live_tallies
from scorekeeper.leagues.models import Night, Seat, Table
from scorekeeper.leagues.presenters import standing_rows
from scorekeeper.leagues.results import season_players, season_settings, sides_of
from scorekeeper.leagues.round_tables import (
    ROUNDS,
    TableView,
    called_games,
    round_view,
    seated,
)
from scorekeeper.leagues.standings import GameResult, night_rows_from


def live_standings(night: Night) -> tuple[list[dict[str, Any]], bool]:
    """The night's standings with every game counted as it stands (each
    under its own rules: a 3-handed table is each for himself), and
    whether any game in play was counted (the standings are live)."""
    players = _seated_ids(night)
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
    ranked = night_rows_from(live_tallies(games), season_players(night.season), order)
    return ranked, any(not game.finished and played for game, played in games)


def _seated_ids(night: Night) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    seats = Seat.objects.filter(table__round__night=night).order_by("table", "position")
    for table_id, player_id in seats.values_list("table", "player"):
        found.setdefault(table_id, []).append(str(player_id))
    return found


def desk_page(
    night: Night, base: str, now: datetime, here: int, *, by_number: bool = False
) -> dict[str, Any]:
    """The current round (the desk's order: quiet tables, then those
    playing, then the finished; the TV's: by number), its controls and
    the live standings, with the versions a poll compares."""
    played = night.rounds.prefetch_related(*ROUNDS).last()
    current = None
    if played is not None:
        played.night = night
        names = seated(night, [played])
        current = round_view(played, names, base, called_games([played]), now)
        if not by_number:
            current["tables"].sort(key=lambda t: (t.attention, t.table.number))
    rows, live = live_standings(night)
    tables: list[TableView] = current["tables"] if current else []
    controls = round_controls(
        night, played, len(tables), current["unfinished"] if current else 0, here
    )
    return {
        "current": current,
        "controls": controls,
        "here": here,
        "quiet": sum(1 for table in tables if table.quiet),
        "live_rows": standing_rows(rows),
        "live": live,
        "standings_version": _digest([rows, live]),
        "frame": _frame(current, controls, here),
    }


def _frame(current: dict[str, Any] | None, controls: Controls, here: int) -> str:
    """What the page shows around the rows: the round, its controls and
    the rows' order; a change to it sends the whole page."""
    tables: list[TableView] = current["tables"] if current else []
    return _digest(
        [
            [current["round"].pk, bool(current["round"].called_at)] if current else [],
            [t.table.pk for t in tables],
            [controls.waiting, controls.closed, here],
        ]
    )


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, default=str).encode()).hexdigest()[:16]


def changes(page: Mapping[str, Any], held: Mapping[str, str]) -> dict[str, Any]:
    """What a poll answers, given what the page holds (``held``: ``frame``,
    ``s`` and ``t<table id>``, as the page's hidden fields send them):
    the whole live part when its frame changed, else only the rows and
    standings that differ."""
    if held.get("frame") != page["frame"]:
        return {"whole": True}
    tables: list[TableView] = page["current"]["tables"] if page["current"] else []
    return {
        "whole": False,
        "changed": [t for t in tables if held.get(f"t{t.table.pk}") != t.version],
        "standings": held.get("s") != page["standings_version"],
    }
