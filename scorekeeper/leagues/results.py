"""A season's standings from the database: each game's row already holds
its projection of the log (totals, winners, each seat's bids and bids
made, kept by every append), so the standings read two lists of rows and
replay nothing. The arithmetic is the pure ``standings`` module's, the
same the ``standings`` command applies to an export.
"""

from __future__ import annotations

import json
from collections import defaultdict
from functools import lru_cache

from django.db.models import TextField, Value
from django.db.models.functions import Cast, Concat

from scorekeeper.gamelog import game_variant
from scorekeeper.leagues.models import Night, Season, Seat, Table
from scorekeeper.leagues.season import Player, Settings
from scorekeeper.leagues.standings import GameResult, standings_of


@lru_cache(maxsize=256)
def _sides(preset: str, seats: int, overrides: str) -> tuple[int, ...]:
    """Each seat's side under the season's rules (every game of a season
    is played under them)."""
    variant = game_variant(preset, seats, json.loads(overrides))
    return tuple(variant.side_of(seat) for seat in range(seats))


def _as_text(field: str) -> Cast:
    return Cast(field, output_field=TextField())


# The four JSON columns a result needs, fetched as one JSON array: one
# json.loads a game instead of four (the season page reads 10,000 of them).
_RESULT = Concat(
    Value("["),
    _as_text("game__totals"),
    Value(","),
    _as_text("game__winners"),
    Value(","),
    _as_text("game__seat_bids"),
    Value(","),
    _as_text("game__seat_made"),
    Value("]"),
    output_field=TextField(),
)


def season_results(
    season: Season, night: Night | None = None
) -> list[tuple[str, list[GameResult]]]:
    """Per night (in date order), the results of its games."""
    tables = Table.objects.filter(round__night__season=season)
    seats = Seat.objects.filter(table__round__night__season=season)
    if night is not None:
        tables = tables.filter(round__night=night)
        seats = seats.filter(table__round__night=night)
    seated: dict[int, list[str]] = defaultdict(list)
    for table_id, player_id in seats.order_by("table", "position").values_list(
        "table", "player"
    ):
        seated[table_id].append(str(player_id))
    nights: dict[str, list[GameResult]] = {}
    for day in season.nights.values_list("date", flat=True):
        if night is None or day == night.date:
            nights[day.isoformat()] = []
    rules = json.dumps(season.overrides, sort_keys=True)
    rows = tables.annotate(result=_RESULT).values_list(
        "pk", "round__night__date", "game__finished", "result"
    )
    for pk, day, finished, result in rows:
        players = tuple(seated[pk])
        totals, winners, bids, made = json.loads(result)
        nights[day.isoformat()].append(
            GameResult(
                players=players,
                finished=finished,
                sides=_sides(season.preset, len(players), rules),
                totals=tuple(totals),
                winners=frozenset(winners),
                bids=tuple(bids),
                made=tuple(made),
            )
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
