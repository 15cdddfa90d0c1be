"""The public standings page, read by many at once (a league's players
reloading it on a Tuesday), served whole from the cache while nothing it
shows has changed.

One query finds the season by its link and everything the page's
numbers are made of, as a version: the season's settings and names, its
nights (how many, and how many times their rows were summed: every
change to a night's results sums them again), the league's finished
games (the ratings move only with them: how many, and their logs'
lengths, so a correction or a void counts) and its players (names and
ratings). The page's body is cached under that version: a reader finds
it or computes it, never an older one, whichever server cached it. A
revoked link finds no season: a 404 at once.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import (
    Aggregate,
    Count,
    OuterRef,
    QuerySet,
    StringAgg,
    Subquery,
    Sum,
    TextField,
    Value,
)
from django.db.models.functions import Cast, Coalesce, Concat
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from scorekeeper.leagues.models import Night, NightProjection, Player, Season, Table
from scorekeeper.leagues.presenters import season_page
from scorekeeper.leagues.rated_games import ratings_refresh

KEPT_SECONDS = 24 * 60 * 60  # older versions are never read again: LRU drops them


def _one(rows: QuerySet[Any, Any], value: Aggregate) -> Subquery:
    """``value`` aggregated over ``rows`` (grouped, filtered by OuterRef)."""
    return Subquery(rows.annotate(found=value).values("found")[:1])


def _text(field: str) -> Coalesce:
    return Coalesce(Cast(field, TextField()), Value(""), output_field=TextField())


def _finished(league: str) -> QuerySet[Any, Any]:
    return Table.objects.filter(
        round__night__season__league=OuterRef(league), game__finished=True
    ).values("round__night__season__league")


def _by_pk() -> str | None:
    """The players in order, where the database can order an aggregate
    (PostgreSQL; SQLite from 3.44); elsewhere in the table's own order,
    which a change of order would only make a cache miss, never stale."""
    return "pk" if connection.features.supports_aggregate_order_by_clause else None


def public_season(token: str) -> Season | None:
    """The season the link shows (league loaded) with its page's version
    parts annotated; None: no such link (never made, replaced or revoked)."""
    nights = Night.objects.filter(season=OuterRef("pk")).values("season")
    sums = NightProjection.objects.filter(night__season=OuterRef("pk"))
    players = Player.objects.filter(league=OuterRef("league")).values("league")
    each = Concat(
        _text("pk"),
        Value(":"),
        _text("name"),
        Value(":"),
        _text("mu"),
        Value(":"),
        _text("sigma"),
        Value(":"),
        _text("rated_games"),
        output_field=TextField(),
    )
    return (
        Season.objects.select_related("league")
        .filter(public_token=token)
        .annotate(
            v_nights=_one(nights, Count("pk")),
            v_summed=_one(sums.values("night__season"), Sum("revision")),
            v_finished=_one(_finished("league"), Count("pk")),
            v_finished_seq=_one(_finished("league"), Sum("game__last_seq")),
            v_players=_one(players, StringAgg(each, Value(","), order_by=_by_pk())),
        )
        .first()
    )


def version(season: Season) -> str:
    """The digest of everything the page shows (see the module's text)."""
    parts = [
        [season.name, season.preset, season.seats, season.overrides],
        [season.order, season.best_nights, season.min_nights],
        [season.league.name, season.league.roster_version],
        [getattr(season, name) for name in VERSION_PARTS],
    ]
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:32]


VERSION_PARTS = ("v_nights", "v_summed", "v_finished", "v_finished_seq", "v_players")


def numbers_html(season: Season) -> SafeString:
    """The page's body: from the cache under the season's version, or
    computed and cached. A miss brings the ratings up to date first and
    reads the version again, so the page goes under the version it shows
    (the ratings are part of it)."""
    found: str | None = cache.get(_key(season))
    if found is None:
        ratings_refresh(season.league)
        season = public_season(str(season.public_token)) or season
        found = render_to_string("leagues/public.html#numbers", season_page(season))
        cache.set(_key(season), str(found), timeout=KEPT_SECONDS)
    return SafeString(found)  # our own template's output, escaped when rendered


def _key(season: Season) -> str:
    return f"public:{season.pk}:{version(season)}"
