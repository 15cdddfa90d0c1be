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
from dataclasses import dataclass
from functools import lru_cache

from django.core.cache import cache
from django.db.models import Count, F, Sum, TextField, Value
from django.db.models.functions import Cast, Concat

from scorekeeper.gamelog import game_variant
from scorekeeper.leagues.awards import Award, Feats, awards, joined, night_feats
from scorekeeper.leagues.models import Night, Player, Season, Seat, Table
from scorekeeper.leagues.season import Player as Person
from scorekeeper.leagues.season import Settings
from scorekeeper.leagues.standings import (
    GameResult,
    Tally,
    night_tallies,
    standings_from,
)
from scorekeeper.leagues.stats import Played


@lru_cache(maxsize=256)
def sides_of(preset: str, seats: int, overrides: str) -> tuple[int, ...]:
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
    Value(","),
    _as_text("game__seat_stats"),
    Value("]"),
    output_field=TextField(),
)


def player_results(player: Player) -> list[tuple[Table, Played]]:
    """Every game ``player`` sat in, in the order played, with its table
    (its round and night loaded) and the game as the statistics read it."""
    tables = Table.objects.filter(seats__player=player)
    seated: dict[int, list[str]] = defaultdict(list)
    seats = Seat.objects.filter(table__in=tables).order_by("table", "position")
    for table_id, player_id in seats.values_list("table", "player"):
        seated[table_id].append(str(player_id))
    played: list[tuple[Table, Played]] = []
    for table in (
        tables.select_related("round__night__season")
        .order_by("round__night__date", "round__number", "number")
        .annotate(result=_RESULT, game_finished=F("game__finished"))
        .defer("round__night__teams")
    ):
        season = table.round.night.season
        players = tuple(seated[table.pk])
        totals, winners, bids, made, stats = json.loads(table.result)
        rules = json.dumps(season.overrides, sort_keys=True)
        game = GameResult(
            players=players,
            finished=table.game_finished,
            sides=sides_of(season.preset, len(players), rules),
            totals=tuple(totals),
            winners=frozenset(winners),
            bids=tuple(bids),
            made=tuple(made),
            stats=tuple(stats),
        )
        seat = players.index(str(player.pk))
        day = table.round.night.date.isoformat()
        played.append(
            (table, Played(day, table.round.number, table.number, seat, game))
        )
    return played


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
        totals, winners, bids, made, stats = json.loads(result)
        results[night_id].append(
            GameResult(
                players=players,
                finished=finished,
                sides=sides_of(season.preset, len(players), rules),
                totals=tuple(totals),
                winners=frozenset(winners),
                bids=tuple(bids),
                made=tuple(made),
                stats=tuple(stats),
            )
        )
    return results


@dataclass(frozen=True)
class NightSummary:
    """What a night's games add up to per player: the standings' tallies
    and the awards' feats."""

    tallies: Mapping[str, Tally]
    feats: Mapping[str, Feats]


def season_nights(
    season: Season, night: Night | None = None
) -> list[tuple[str, NightSummary]]:
    """Per night (in date order), its summary per player.

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
        pk: f"night:{pk}:{games}:{seq}:{roster}:{rules_hash}"
        for pk, (games, seq) in versions.items()
    }
    summaries: dict[int, NightSummary] = {}
    cached = cache.get_many(keys.values())
    missing = []
    for pk, key in keys.items():
        if key in cached:
            summaries[pk] = cached[key]
        else:
            missing.append(pk)
    if missing:
        fresh = {
            pk: NightSummary(night_tallies(games), night_feats(games))
            for pk, games in night_results(season, missing).items()
        }
        cache.set_many({keys[pk]: fresh[pk] for pk in missing}, timeout=None)
        summaries.update(fresh)
    empty = NightSummary({}, {})
    return [(each.date.isoformat(), summaries.get(each.pk, empty)) for each in nights]


def season_settings(season: Season) -> Settings:
    return Settings(tuple(season.order), season.best_nights, season.min_nights)


def season_players(season: Season) -> dict[str, Person]:
    return {
        str(pk): Person(str(pk), name)
        for pk, name in season.league.players.values_list("pk", "name")
    }


def season_standings(season: Season, night: Night | None = None) -> dict[str, object]:
    """The pepper-standings v1 document of the season (or of one night)."""
    tallies = [(day, summary.tallies) for day, summary in season_nights(season, night)]
    return standings_from(tallies, season_players(season), season_settings(season))


def season_awards(season: Season, night: Night | None = None) -> list[Award]:
    """The awards of the season (or of one night), from the same cached
    nights as the standings."""
    feats = joined(summary.feats for _, summary in season_nights(season, night))
    names = {pid: person.name for pid, person in season_players(season).items()}
    return awards(feats, names)
