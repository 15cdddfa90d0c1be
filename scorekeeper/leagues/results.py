"""A season's standings and a player's games from the database: each
game's row already holds its projection of the log (totals, winners, each
seat's bids and bids made, kept by every append), and each night's rows
(night_rows.py) its games summed, so the pages read lists of rows and
replay nothing. The arithmetic is the pure ``standings`` module's, the
same the ``standings`` command applies to an export.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from django.core.cache import cache
from django.db.models import Count, Sum

from scorekeeper.leagues.models import (
    Night,
    NightProjection,
    NightTally,
    Player,
    Season,
)
from scorekeeper.leagues.night_rows import (
    TALLY_FIELDS,
    NightSummary,
    game_row_moved,
    project_nights,
    sides_of,
    stale_nights,
    stored_summaries,
)
from scorekeeper.leagues.player_rows import (
    players_at,
    seats_of,
    tallies_of,
    unsummed_nights,
)
from scorekeeper.leagues.season import Player as Person
from scorekeeper.leagues.season import Settings
from scorekeeper.leagues.standings import (
    GameResult,
    Row,
    Tally,
    night_rows_from,
    ranked_season,
    season_rows_from,
    standings_from,
)
from scorekeeper.leagues.stats import Played, Sums

# Imported from here since before the nights' rows had a module of their own.
__all__ = [
    "NightSummary",
    "SeasonNights",
    "cached",
    "game_row_moved",
    "kept_versions",
    "night_numbers",
    "player_nights",
    "player_results",
    "project_nights",
    "rows_of",
    "season_nights",
    "season_players",
    "season_rows",
    "season_settings",
    "season_standings",
    "season_view",
    "sides_of",
    "stale_nights",
    "standing_rows_of",
    "summed_rows",
]


def player_results(player: Player, latest: int | None = None) -> list[Played]:
    """Every game ``player`` sat in (or the ``latest`` ones), in the order
    played, as the statistics read it: plain rows, and of the seats'
    statistics only the player's own (a player may have hundreds of
    games). Two plain queries (``player_rows``)."""
    sat = seats_of(player.pk, latest)
    seated = players_at([each.table for each in sat])
    played = []
    for each in sat:
        players = tuple(seated[each.table])
        totals, winners, bids, made = json.loads(each.result)
        game = GameResult(
            players=players,
            finished=each.finished,
            sides=sides_of(each.preset, len(players), each.rules),
            totals=tuple(totals),
            winners=frozenset(winners),
            bids=tuple(bids),
            made=tuple(made),
        )
        seat = players.index(str(player.pk))
        stats = json.loads(each.mine) if each.mine else None
        played.append(
            Played(
                each.day.isoformat(),
                each.round,
                each.number,
                seat,
                game,
                each.season,
                stats,
            )
        )
    return played


def player_nights(player: Player) -> list[tuple[str, tuple[Tally, Sums]]]:
    """The player's tally and sums of each night they played, in date
    order, read from the nights' rows (a night never summed is summed
    first). Plain queries (``player_rows``)."""
    project_nights(unsummed_nights(player.pk))
    nights = []
    for day, numbers, (bids, partners, opponents) in tallies_of(player.pk):
        tally = Tally(*numbers[:6])
        sets, conceded = numbers[6:]
        sums = Sums(
            tally.played,
            tally.won,
            tally.margin,
            bids,
            sets,
            conceded,
            partners,
            opponents,
        )
        nights.append((day.isoformat(), (tally, sums)))
    return nights


def season_nights(
    season: Season, night: Night | None = None
) -> list[tuple[str, NightSummary]]:
    """Per night (in date order), its summary per player: read from its
    rows (``NightTally``), which the games' writes keep in step, and
    cached under the version they were summed at, so that a night is read
    once per process, not on every view."""
    nights = [night] if night is not None else list(season.nights.all())
    return _summaries(nights, kept_versions(nights))


@dataclass
class SeasonNights:
    """A season's nights (in date order) with the versions their rows were
    last summed at; their summaries are read (from the cache, else from
    their rows) only when a page asks for them."""

    nights: list[Night]
    versions: dict[int, str]

    def summaries(
        self, nights: list[Night] | None = None
    ) -> list[tuple[str, NightSummary]]:
        """Each night's summary (of ``nights``, or of all of them)."""
        chosen = self.nights if nights is None else nights
        return _summaries(chosen, {n.pk: self.versions[n.pk] for n in chosen})


def season_view[T](
    season: Season,
    name: str,
    compute: Callable[[SeasonNights, dict[str, Person]], T],
) -> T:
    """``compute`` of the season's nights and players, cached under the
    season's version: its nights' versions as their rows were last summed
    (one small query; a hand at a game still being played changes none),
    its rules, its players' names and its standings settings. Unchanged
    since the last view, a page reads one entry instead of every night;
    changed, only what ``compute`` asks for is read again."""
    nights = list(season.nights.all())
    versions = kept_versions(nights)
    people = season_players(season)
    version = [
        sorted(versions.items()),
        [season.preset, season.overrides],
        sorted((pid, person.name) for pid, person in people.items()),
        [season.order, season.best_nights, season.min_nights],
    ]
    digest = hashlib.sha256(json.dumps(version).encode()).hexdigest()[:32]
    key = f"season:{name}:{season.pk}:{digest}"
    return cached(key, lambda: compute(SeasonNights(nights, versions), people))


def cached[T](key: str, compute: Callable[[], T], timeout: int | None = None) -> T:
    """``compute()``, kept in the cache under ``key``, which names the
    version of what it is computed from (an entry never goes stale: a
    change makes another key; ``timeout`` only frees what goes unread)."""
    found: T | None = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, timeout=timeout)
    return found


def kept_versions(nights: list[Night]) -> dict[int, str]:
    """Each night's version as its rows were last summed; a night never
    summed (new, or from before the rows were kept) is summed now."""
    ids = [night.pk for night in nights]
    kept = NightProjection.objects.filter(night__in=ids)
    versions = {
        pk: f"{revision}:{version}"
        for pk, revision, version in kept.values_list("night", "revision", "version")
    }
    missing = [pk for pk in ids if pk not in versions]
    if missing:
        project_nights(missing)
        return kept_versions(nights)
    return versions


def _summaries(
    nights: list[Night], versions: dict[int, str]
) -> list[tuple[str, NightSummary]]:
    """Each night's summary: from the process's cache under the night's
    kept version, else from its rows."""
    keys = {pk: f"night:v3:{pk}:{version}" for pk, version in versions.items()}
    cached = cache.get_many(keys.values())
    summaries = {pk: cached[key] for pk, key in keys.items() if key in cached}
    missing = [pk for pk in keys if pk not in summaries]
    if missing:
        fresh = stored_summaries(missing)
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


def season_standings(season: Season) -> dict[str, object]:
    """The pepper-standings v1 document of the season."""
    return season_view(season, "standings", partial(_standings, season))


def season_rows(season: Season) -> list[dict[str, object]]:
    """The season's standings rows alone (a player page shows one, the
    CSV file all): each player's nights summed by one aggregate query of
    their rows, unless only their best nights count."""
    return season_view(season, "rows", partial(standing_rows_of, season))


def standing_rows_of(
    season: Season, nights: SeasonNights, people: dict[str, Person]
) -> list[dict[str, object]]:
    """The season's standings rows: one aggregate query of its nights'
    rows, unless only their best nights count (then night by night)."""
    if season.best_nights:
        return rows_of(season, nights.summaries(), people)
    return summed_rows(season, people)


def summed_rows(season: Season, people: dict[str, Person]) -> list[dict[str, object]]:
    """The season's standings rows (every night counted) from one aggregate
    query of its nights' rows."""
    sums = (
        NightTally.objects.filter(night__season=season)
        .values("player")
        .annotate(nights=Count("pk"), **{name: Sum(name) for name in TALLY_FIELDS})
        .order_by()
        .values_list("player", "nights", *TALLY_FIELDS)
    )
    rows = []
    for pid, nights, *numbers in sums:
        tally = Tally(*numbers)
        tally.nights = nights
        rows.append(Row(people[str(pid)], tally))
    return ranked_season(rows, season_settings(season))


def rows_of(
    season: Season,
    summaries: list[tuple[str, NightSummary]],
    people: dict[str, Person],
) -> list[dict[str, object]]:
    """The season's standings rows of its nights' summaries."""
    tallies = [(day, summary.tallies) for day, summary in summaries]
    return season_rows_from(tallies, people, season_settings(season))


def night_numbers(
    night: Night,
) -> tuple[list[dict[str, object]], NightSummary, dict[str, Person]]:
    """The night's standings rows, its summary and the season's players."""
    season = night.season
    [(_, summary)] = season_nights(season, night)
    people = season_players(season)
    order = season_settings(season).order
    return night_rows_from(summary.tallies, people, order), summary, people


def _standings(
    season: Season, nights: SeasonNights, people: dict[str, Person]
) -> dict[str, object]:
    tallies = [(day, summary.tallies) for day, summary in nights.summaries()]
    return standings_from(tallies, people, season_settings(season))
