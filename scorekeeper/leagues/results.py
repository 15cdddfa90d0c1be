"""A season's standings from the database: each game's row already holds
its projection of the log (totals, winners, each seat's bids and bids
made, kept by every append), so the standings read two lists of rows and
replay nothing. The arithmetic is the pure ``standings`` module's, the
same the ``standings`` command applies to an export.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from scorekeeper.gamelog import game_variant
from scorekeeper.leagues.models import Night, Season, Seat, Table
from scorekeeper.leagues.season import Player, Settings
from scorekeeper.leagues.standings import GameResult, standings_of


@lru_cache(maxsize=256)
def _sides(preset: str, seats: int, overrides: str) -> tuple[int, ...]:
    variant = game_variant(preset, seats, json.loads(overrides))
    return tuple(variant.side_of(seat) for seat in range(seats))


def _result(row: Mapping[str, Any], players: tuple[str, ...]) -> GameResult:
    overrides = json.dumps(row["game__overrides"], sort_keys=True)
    return GameResult(
        players=players,
        finished=row["game__finished"],
        sides=_sides(row["game__preset"], len(players), overrides),
        totals=tuple(row["game__totals"]),
        winners=frozenset(row["game__winners"]),
        bids=tuple(row["game__seat_bids"]),
        made=tuple(row["game__seat_made"]),
    )


def season_results(
    season: Season, night: Night | None = None
) -> list[tuple[str, list[GameResult]]]:
    """Per night (in date order), the results of its games."""
    tables = Table.objects.filter(round__night__season=season)
    seats = Seat.objects.filter(table__round__night__season=season)
    if night is not None:
        tables, seats = (
            tables.filter(round__night=night),
            seats.filter(table__round__night=night),
        )
    seated: dict[int, list[str]] = defaultdict(list)
    for table_id, player_id in seats.order_by("table", "position").values_list(
        "table", "player"
    ):
        seated[table_id].append(str(player_id))
    nights: dict[str, list[GameResult]] = {}
    for day in season.nights.values_list("date", flat=True):
        if night is None or day == night.date:
            nights[day.isoformat()] = []
    rows = tables.values(
        "pk",
        "round__night__date",
        "game__preset",
        "game__overrides",
        "game__finished",
        "game__totals",
        "game__winners",
        "game__seat_bids",
        "game__seat_made",
    )
    for row in rows:
        nights[row["round__night__date"].isoformat()].append(
            _result(row, tuple(seated[row["pk"]]))
        )
    return list(nights.items())


def season_settings(season: Season) -> Settings:
    return Settings(tuple(season.order), season.best_nights, season.min_nights)


def season_players(season: Season) -> dict[str, Player]:
    return {
        str(pk): Player(str(pk), name)
        for pk, name in season.league.players.values_list("pk", "name")
    }


def season_standings(season: Season, night: Night | None = None) -> dict[str, object]:
    """The pepper-standings v1 document of the season (or of one night)."""
    return standings_of(
        season_results(season, night), season_players(season), season_settings(season)
    )
