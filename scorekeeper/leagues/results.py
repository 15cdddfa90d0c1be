"""A season's standings from the database: each game's row already holds
its projection of the log (totals, winners, each seat's bids and bids
made, kept by every append), so the standings read two lists of rows and
replay nothing. The arithmetic is the pure ``standings`` module's, the
same the ``standings`` command applies to an export.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import lru_cache

from django.core.cache import cache
from django.db.models import Count, Sum, TextField, Value
from django.db.models.functions import Cast, Concat

from scorekeeper.gamelog import game_variant
from scorekeeper.leagues.models import Night, Season, Seat, Table
from scorekeeper.leagues.season import Player, Settings
from scorekeeper.leagues.standings import (
    GameResult,
    Tally,
    night_tallies,
    standings_from,
)


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


def night_results(season: Season, nights: Iterable[int]) -> dict[int, list[GameResult]]:
    """Per night id, the results of its games (table order)."""
    nights = list(nights)
    seated: dict[int, list[str]] = defaultdict(list)
    seats = Seat.objects.filter(table__round__night__in=nights)
    for table_id, player_id in seats.order_by("table", "position").values_list(
        "table", "player"
    ):
        seated[table_id].append(str(player_id))
    rules = json.dumps(season.overrides, sort_keys=True)
    results: dict[int, list[GameResult]] = {pk: [] for pk in nights}
    rows = (
        Table.objects.filter(round__night__in=nights)
        .order_by("round__number", "number")
        .annotate(result=_RESULT)
        .values_list("pk", "round__night", "game__finished", "result")
    )
    for pk, night_id, finished, result in rows:
        players = tuple(seated[pk])
        totals, winners, bids, made = json.loads(result)
        results[night_id].append(
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
    return results


def season_tallies(
    season: Season, night: Night | None = None
) -> list[tuple[str, Mapping[str, Tally]]]:
    """Per night (in date order), each player's tallies.

    A night's tallies are cached under its version: how many games it
    has, the sum of their logs' lengths (an append, void or correction
    included, only ever adds to it), the league's merges and the season's
    rules. Anything that changes a night's standings changes its key, so a
    stale entry is never read, from any process; a closed night is summed
    once, not on every view of the season.
    """
    nights = [night] if night is not None else list(season.nights.all())
    versions = {
        pk: (games, seq)
        for pk, games, seq in Table.objects.filter(round__night__in=nights)
        .values("round__night")
        .annotate(games=Count("pk"), seq=Sum("game__last_seq"))
        .values_list("round__night", "games", "seq")
    }
    rules = json.dumps([season.preset, season.overrides], sort_keys=True)
    rules_hash = hashlib.sha256(rules.encode()).hexdigest()[:16]
    roster = season.league.roster_version
    keys = {
        pk: f"night-tallies:{pk}:{games}:{seq}:{roster}:{rules_hash}"
        for pk, (games, seq) in versions.items()
    }
    tallies: dict[int, Mapping[str, Tally]] = {}
    cached = cache.get_many(keys.values())
    missing = []
    for pk, key in keys.items():
        if key in cached:
            tallies[pk] = cached[key]
        else:
            missing.append(pk)
    if missing:
        fresh = {
            pk: night_tallies(games)
            for pk, games in night_results(season, missing).items()
        }
        cache.set_many({keys[pk]: fresh[pk] for pk in missing}, timeout=None)
        tallies.update(fresh)
    return [(each.date.isoformat(), tallies.get(each.pk, {})) for each in nights]


def season_settings(season: Season) -> Settings:
    return Settings(tuple(season.order), season.best_nights, season.min_nights)


def season_players(season: Season) -> dict[str, Player]:
    return {
        str(pk): Player(str(pk), name)
        for pk, name in season.league.players.values_list("pk", "name")
    }


def season_standings(season: Season, night: Night | None = None) -> dict[str, object]:
    """The pepper-standings v1 document of the season (or of one night)."""
    return standings_from(
        season_tallies(season, night), season_players(season), season_settings(season)
    )
