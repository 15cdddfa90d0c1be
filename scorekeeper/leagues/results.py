"""A season's standings from the database: each game's row already holds
its projection of the log (totals, winners, each seat's bids and bids
made, kept by every append), so the standings read two lists of rows and
replay nothing. The arithmetic is the pure ``standings`` module's, the
same the ``standings`` command applies to an export.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, F, Func, Q, Sum, TextField, Value
from django.db.models.functions import Cast, Concat

from scorekeeper.gamelog import game_variant
from scorekeeper.leagues.awards import Feats, Streak, night_feats
from scorekeeper.leagues.models import (
    Night,
    NightProjection,
    NightTally,
    Player,
    Season,
    Seat,
    Table,
)
from scorekeeper.leagues.season import Player as Person
from scorekeeper.leagues.season import Settings
from scorekeeper.leagues.standings import (
    GameResult,
    Row,
    Tally,
    game_tallies,
    night_rows_from,
    night_tallies,
    ranked_season,
    season_rows_from,
    standings_from,
)
from scorekeeper.leagues.stats import Played, Sums, game_sums
from scorekeeper.models import Game


@dataclass(frozen=True)
class GameRules:
    """The rules a game was played under (its own: an imported season's
    games may each have their own preset, seats and house rules)."""

    preset: str
    seats: int
    overrides: str  # the house rules as JSON text, keys sorted
    sides: tuple[int, ...]  # each seat's side


@lru_cache(maxsize=256)
def rules_of(preset: str, seats: int, overrides: str) -> GameRules:
    """A game's rules from its row (``overrides``: the JSON text of its
    house rules as the database gives it)."""
    house = json.loads(overrides)
    variant = game_variant(preset, seats, house)
    sides = tuple(variant.side_of(seat) for seat in range(seats))
    return GameRules(preset, seats, json.dumps(house, sort_keys=True), sides)


def sides_of(preset: str, seats: int, overrides: str) -> tuple[int, ...]:
    """Each seat's side under a game's own rules."""
    return rules_of(preset, seats, overrides).sides


def _rules_text(field: str) -> Cast:
    """A game's house rules as JSON text (``rules_of`` caches on it)."""
    return Cast(field, output_field=TextField())


def _json_array(*fields: str) -> Concat:
    """JSON columns fetched as one JSON array: one json.loads a row."""
    parts: list[Any] = []
    for name in fields:
        parts += [Value(","), Cast(name, output_field=TextField())]
    return Concat(Value("["), *parts[1:], Value("]"), output_field=TextField())


# What the standings and awards need of a table's game (a season page
# reads 10,000 of them).
_RESULT = _json_array(
    "game__totals",
    "game__winners",
    "game__seat_bids",
    "game__seat_made",
    "game__seat_stats",
)
# What a player's page needs of each of its games: the statistics only of
# its own seat (``SeatStatsAt``).
_SMALL = _json_array(
    "table__game__totals",
    "table__game__winners",
    "table__game__seat_bids",
    "table__game__seat_made",
)


class SeatStatsAt(Func):
    """A game row's statistics of one seat, as JSON text: the element at
    the seat's position of its ``seat_stats`` array, taken in SQL so that
    a player's page reads only its own seat (it may have hundreds)."""

    output_field = TextField()

    def as_sql(  # type: ignore[override]
        self, compiler: Any, connection: Any, **extra: Any
    ) -> tuple[str, list[Any]]:
        (stats, first), (seat, second) = self._parts(compiler)
        return f"json_extract({stats}, '$[' || {seat} || ']')", [*first, *second]

    def as_postgresql(
        self, compiler: Any, connection: Any, **extra: Any
    ) -> tuple[str, list[Any]]:
        (stats, first), (seat, second) = self._parts(compiler)
        return f"(({stats}) -> ({seat}))::text", [*first, *second]

    def _parts(self, compiler: Any) -> list[tuple[str, list[Any]]]:
        return [compiler.compile(part) for part in self.get_source_expressions()]


_PLACE = ("table__round__night__date", "table__round__number", "table__number")


def player_results(player: Player, latest: int | None = None) -> list[Played]:
    """Every game ``player`` sat in (or the ``latest`` ones), in the order
    played, as the statistics read it: plain rows, and of the seats'
    statistics only the player's own (a player may have hundreds of
    games)."""
    sat = Seat.objects.filter(player=player).order_by(*(f"-{f}" for f in _PLACE))
    if latest is not None:
        sat = sat[:latest]
    tables = list(sat.values_list("table", flat=True))
    seated: dict[int, list[str]] = defaultdict(list)
    seats = Seat.objects.filter(table__in=tables).order_by("table", "position")
    for table_id, player_id in seats.values_list("table", "player"):
        seated[table_id].append(str(player_id))
    rows = (
        Seat.objects.filter(player=player, table__in=tables)
        .order_by(*_PLACE)
        .annotate(
            result=_SMALL,
            mine=SeatStatsAt("table__game__seat_stats", "position"),
            rules=_rules_text("table__game__overrides"),
        )
        .values_list(
            "table",
            "table__round__night__season",
            "table__round__night__date",
            "table__round__number",
            "table__number",
            "table__game__finished",
            "table__game__preset",
            "rules",
            "result",
            "mine",
        )
    )
    played = []
    for pk, season, day, number, table, finished, preset, rules, result, mine in rows:
        players = tuple(seated[pk])
        totals, winners, bids, made = json.loads(result)
        game = GameResult(
            players=players,
            finished=finished,
            sides=sides_of(preset, len(players), rules),
            totals=tuple(totals),
            winners=frozenset(winners),
            bids=tuple(bids),
            made=tuple(made),
        )
        seat = players.index(str(player.pk))
        stats = json.loads(mine) if mine else None
        played.append(Played(day.isoformat(), number, table, seat, game, season, stats))
    return played


def player_nights(player: Player) -> list[tuple[str, tuple[Tally, Sums]]]:
    """The player's tally and sums of each night they played, in date
    order, read from the nights' rows (a night never summed is summed
    first)."""
    unsummed = Night.objects.filter(
        rounds__tables__seats__player=player, projection__isnull=True
    )
    project_nights(unsummed.values_list("pk", flat=True).distinct())
    rows = (
        NightTally.objects.filter(player=player)
        .order_by("night__date", "night__label", "night")
        .values_list(
            "night__date",
            *_TALLY,
            "sets",
            "conceded",
            "bid_lines",
            "partners",
            "opponents",
        )
    )
    nights = []
    for day, *numbers in rows:
        tally = Tally(*numbers[:6])
        sets, conceded, bids, partners, opponents = numbers[6:]
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


def night_results(
    nights: Iterable[int], only: Collection[int] | None = None
) -> dict[int, list[tuple[GameResult, GameRules]]]:
    """Per night id, the results of its games (table order), each with
    the rules it was played under; only those the players ``only`` sat
    in, if given."""
    nights = list(nights)
    tables = Table.objects.filter(round__night__in=nights)
    if only is not None:
        tables = tables.filter(
            pk__in=Seat.objects.filter(player__in=only).values("table")
        )
    seated: dict[int, list[str]] = defaultdict(list)
    seats = Seat.objects.filter(table__in=tables.values("pk"))
    for table_id, player_id in seats.order_by("table", "position").values_list(
        "table", "player"
    ):
        seated[table_id].append(str(player_id))
    results: dict[int, list[tuple[GameResult, GameRules]]] = {pk: [] for pk in nights}
    rows = (
        tables.order_by("round__number", "number")
        .annotate(result=_RESULT, rules=_rules_text("game__overrides"))
        .values_list(
            "pk", "round__night", "game__finished", "game__preset", "rules", "result"
        )
    )
    for pk, night_id, finished, preset, house, result in rows:
        players = tuple(seated[pk])
        totals, winners, bids, made, stats = json.loads(result)
        rules = rules_of(preset, len(players), house)
        game = GameResult(
            players=players,
            finished=finished,
            sides=rules.sides,
            totals=tuple(totals),
            winners=frozenset(winners),
            bids=tuple(bids),
            made=tuple(made),
            stats=tuple(stats),
        )
        results[night_id].append((game, rules))
    return results


@dataclass(frozen=True)
class NightSummary:
    """What a night's games add up to per player: the standings' tallies
    and the awards' feats."""

    tallies: Mapping[str, Tally]
    feats: Mapping[str, Feats]
    # How many of its games were played under each rule set (preset,
    # seats, house rules as JSON text): an imported season may mix them.
    rules: Mapping[tuple[str, int, str], int] = field(default_factory=dict)


def _summary(games: list[tuple[GameResult, GameRules]]) -> NightSummary:
    results = [game for game, _ in games]
    rules = Counter((r.preset, r.seats, r.overrides) for _, r in games)
    return NightSummary(night_tallies(results), night_feats(results), dict(rules))


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
    found: T | None = cache.get(key)
    if found is None:
        found = compute(SeasonNights(nights, versions), people)
        cache.set(key, found, timeout=None)
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


def stale_nights(nights: Iterable[int]) -> list[int]:
    """The nights whose rows are not of their games as they stand (none,
    as long as every write keeps them: the tests and ``rebuild`` check)."""
    now = night_versions(nights)
    kept = NightProjection.objects.filter(night__in=list(now))
    stored = dict(kept.values_list("night", "version"))
    return sorted(pk for pk, version in now.items() if stored.get(pk) != version)


def night_versions(nights: Iterable[int]) -> dict[int, str]:
    """What each night's numbers are summed from, as text that changes
    whenever they may: its tables and seats, who sits where (a credited
    substitute or a merge moves a seat), how many of its games are finished
    and how long their logs are (a hand at a game still being played
    changes none of it). One aggregate query; "" for a night without
    tables."""
    nights = list(nights)
    finished = Q(table__game__finished=True)
    found = (
        Seat.objects.filter(table__round__night__in=nights)
        .values("table__round__night")
        .annotate(
            tables=Count("table", distinct=True),
            seats=Count("pk"),
            who=Sum(F("player_id") * (F("position") + 1)),
            finished=Count("pk", filter=finished),
            seq=Sum("table__game__last_seq", filter=finished),
        )
        .values_list("table__round__night", "tables", "seats", "who", "finished", "seq")
    )
    versions = dict.fromkeys(nights, "")
    for pk, *parts in found:
        versions[pk] = ":".join(str(part or 0) for part in parts)
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


_TALLY = ("played", "won", "points", "margin", "bids", "made")
_FEATS = (
    "featured",
    "feat_made",
    "best",
    "sets",
    "feat_won",
    "streak_start",
    "streak_best",
    "streak_end",
    "streak_clean",
)


def stored_summaries(nights: list[int]) -> dict[int, NightSummary]:
    """The nights' summaries read from their rows: two queries."""
    kept = NightProjection.objects.filter(night__in=nights)
    rules = dict(kept.values_list("night", "rules"))
    tallies: dict[int, dict[str, Tally]] = {pk: {} for pk in nights}
    feats: dict[int, dict[str, Feats]] = {pk: {} for pk in nights}
    rows = NightTally.objects.filter(night__in=nights).order_by("night", "player")
    for night, player, *numbers in rows.values_list(
        "night", "player", *_TALLY, *_FEATS
    ):
        pid = str(player)
        tallies[night][pid] = Tally(*numbers[:6])
        featured, made, best, sets, won, start, longest, end, clean = numbers[6:]
        if featured:
            streak = Streak(start, longest, end, clean)
            feats[night][pid] = Feats(made, best, sets, won, streak)
    return {
        pk: NightSummary(
            tallies[pk],
            feats[pk],
            {(p, n, o): games for p, n, o, games in rules.get(pk, [])},
        )
        for pk in nights
    }


def project_nights(
    nights: Iterable[int], players: Collection[int] | None = None
) -> None:
    """Sum the nights' games again into their rows (``NightTally``), in
    the caller's transaction (only the rows of ``players``, if given: a
    game's change moves only its own players' numbers). Two writers of one
    night take their turns on its ``NightProjection`` row, and the second
    sums what the first wrote."""
    nights = sorted(set(nights))
    if not nights:
        return
    with transaction.atomic():
        NightProjection.objects.bulk_create(
            [NightProjection(night_id=pk, version="") for pk in nights],
            ignore_conflicts=True,
        )
        locked = NightProjection.objects.select_for_update().filter(night__in=nights)
        if "" in locked.order_by("night").values_list("version", flat=True):
            players = None  # a night not summed yet: all of it
        versions = night_versions(nights)
        results = night_results(nights, players)
        old = NightTally.objects.filter(night__in=nights)
        if players is not None:
            old = old.filter(player__in=players)
        old.delete()
        rows = []
        for pk in nights:
            summary = _summary(results[pk])
            rows += _tally_rows(pk, results[pk], summary, players)
            changed: dict[str, Any] = {
                "version": versions[pk],
                "revision": F("revision") + 1,
            }
            if players is None:  # a game's change leaves the rules as they were
                rules = sorted(summary.rules.items())
                changed["rules"] = [[*key, games] for key, games in rules]
            NightProjection.objects.filter(night=pk).update(**changed)
        NightTally.objects.bulk_create(rows)


def game_row_moved(game: Game, was_finished: bool) -> None:
    """An append moved ``game``'s row: a league game that is finished, or
    was, gets its night summed again in the same transaction (a hand at a
    game still being played changes no night's numbers)."""
    if not (was_finished or game.finished):
        return
    seats = Seat.objects.filter(table__game=game)
    found = list(seats.values_list("table__round__night", "player"))
    if found:
        project_nights([found[0][0]], {player for _, player in found})


def _tally_rows(
    night: int,
    games: list[tuple[GameResult, GameRules]],
    summary: NightSummary,
    players: Collection[int] | None,
) -> list[NightTally]:
    sums: dict[str, Sums] = {}
    for game, _ in games:
        tallies = game_tallies(game)  # once a game, not once a seat
        for seat, pid in enumerate(game.players):
            mine = game.stats[seat] if seat < len(game.stats) else None
            played = Played("", 0, 0, seat, game, mine=mine)
            found = game_sums(pid, played, tallies)
            if found is not None:
                sums.setdefault(pid, Sums()).add(found[1])
    rows = []
    for pid, tally in summary.tallies.items():
        if players is not None and int(pid) not in players:
            continue  # summed over only some of its games
        feats = summary.feats.get(pid)
        featured = feats is not None
        feats = feats or Feats()
        kept = sums.get(pid, Sums())
        rows.append(
            NightTally(
                night_id=night,
                player_id=int(pid),
                played=tally.played,
                won=tally.won,
                points=tally.points,
                margin=tally.margin,
                bids=tally.bids,
                made=tally.made,
                featured=featured,
                feat_made=feats.made,
                best=feats.best,
                sets=feats.sets,
                feat_won=feats.won,
                streak_start=feats.streak.start,
                streak_best=feats.streak.best,
                streak_end=feats.streak.end,
                streak_clean=feats.streak.clean,
                conceded=kept.conceded,
                bid_lines=kept.bids,
                partners=kept.partners,
                opponents=kept.opponents,
            )
        )
    return rows


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
        .annotate(nights=Count("pk"), **{name: Sum(name) for name in _TALLY})
        .order_by()
        .values_list("player", "nights", *_TALLY)
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
