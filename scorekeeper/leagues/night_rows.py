"""Each league night's rows (``NightTally`` per player, ``NightProjection``
per night): its games summed once into the standings' tallies, the awards'
feats and the statistics' sums, and summed again in the same transaction by
every write that changes them (``game_row_moved``, ``project_nights``). The
pages read these rows (results.py), never the games one by one.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Q, Sum, TextField, Value
from django.db.models.functions import Cast, Concat
from django.dispatch import Signal

from scorekeeper.gamelog import game_variant
from scorekeeper.leagues.awards import Feats, Streak, night_feats
from scorekeeper.leagues.models import (
    NightProjection,
    NightTally,
    Seat,
    Table,
)
from scorekeeper.leagues.standings import GameResult, Tally, game_tallies, night_tallies
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


def rules_text(field: str) -> Cast:
    """A game's house rules as JSON text (``rules_of`` caches on it)."""
    return Cast(field, output_field=TextField())


def json_array(*fields: str) -> Concat:
    """JSON columns fetched as one JSON array: one json.loads a row."""
    parts: list[Any] = []
    for name in fields:
        parts += [Value(","), Cast(name, output_field=TextField())]
    return Concat(Value("["), *parts[1:], Value("]"), output_field=TextField())


# What the standings and awards need of a table's game (a season page
# reads 10,000 of them).
_RESULT = json_array(
    "game__totals",
    "game__winners",
    "game__seat_bids",
    "game__seat_made",
    "game__seat_stats",
)


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
        .annotate(result=_RESULT, rules=rules_text("game__overrides"))
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


TALLY_FIELDS = ("played", "won", "points", "margin", "bids", "made")
FEAT_FIELDS = (
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
        "night", "player", *TALLY_FIELDS, *FEAT_FIELDS
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
    sums what the first wrote. The league's ratings follow, in the task
    worker once the caller's transaction commits."""
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
        _ratings_follow(nights)


# Sent when nights' rows moved (``nights``: their ids), inside the
# change's transaction: the league's ratings follow them (leagues.tasks
# listens, and asks the worker once the change commits).
nights_moved = Signal()


def _ratings_follow(nights: list[int]) -> None:
    """The nights' revisions moved: who follows them is told (rating is
    never the change's own work)."""
    nights_moved.send(sender=NightProjection, nights=nights)


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
