"""The public standings page, read by many at once (a league's players
reloading it on a Tuesday), served whole from the cache while nothing it
shows has changed.

One query finds the season by its link and everything the page's
numbers are made of, as a version: the season's settings and names, its
nights (how many, and how many times their rows were summed: every
change to a night's results sums them again), the league's finished
games (the ratings move only with them: how many, and their logs'
lengths, so a correction or a void counts) and its players (names and
ratings), its prizes and the league's rule for ties, and the link
itself (the nights' pages are linked under it). The page's body is
cached under that version: a reader finds
it or computes it, never an older one, whichever server cached it. A
revoked link finds no season: a 404 at once.
"""

from __future__ import annotations

import hashlib
import json
from typing import NamedTuple

from django.core.cache import cache
from django.db import connection
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from scorekeeper.games.fragments import drawn_by
from scorekeeper.leagues import presenters
from scorekeeper.leagues.models import (
    League,
    Night,
    NightProjection,
    Player,
    Round,
    Season,
    Table,
)
from scorekeeper.leagues.tasks import ratings_current
from scorekeeper.models import Game

KEPT_SECONDS = 24 * 60 * 60  # older versions are never read again: LRU drops them
TEMPLATE = "leagues/public.html"

# Each player as text; in id order where the database orders an aggregate.
_PLAYER = (
    "p.id || ':' || p.name || ':' || COALESCE(CAST(p.mu AS TEXT), '') || ':'"
    " || COALESCE(CAST(p.sigma AS TEXT), '') || ':' || p.rated_games"
)
_PLAYERS = {
    "postgresql": f"string_agg({_PLAYER}, ',' ORDER BY p.id)",
    "sqlite": f"group_concat({_PLAYER}, ',')",  # the table's order (by id)
}

# Plain SQL, as the game's poll (gamerows.head): through the ORM, building
# these subqueries took longer than the rest of a cached page. Names come
# from the models.
_VERSION_SQL = (
    'SELECT s.id, s.name, l.name, s.preset, s.seats, s.overrides, s."order",'
    " s.best_nights, s.min_nights, l.roster_version, l.rated_version,"
    " s.prizes, l.prize_ties,"
    f" (SELECT COUNT(*) FROM {Night._meta.db_table} n WHERE n.season_id = s.id),"
    f" (SELECT SUM(j.revision) FROM {NightProjection._meta.db_table} j"
    f"  JOIN {Night._meta.db_table} n ON n.id = j.night_id WHERE n.season_id = s.id),"
    " (SELECT COUNT(*) || ':' || COALESCE(SUM(g.last_seq), 0)"
    f"  FROM {Table._meta.db_table} t JOIN {Game._meta.db_table} g ON g.id = t.game_id"
    f"  JOIN {Round._meta.db_table} r ON r.id = t.round_id"
    f"  JOIN {Night._meta.db_table} n ON n.id = r.night_id"
    f"  JOIN {Season._meta.db_table} o ON o.id = n.season_id"
    "  WHERE o.league_id = s.league_id AND g.finished),"
    " (SELECT {players} FROM "
    f"{Player._meta.db_table} p WHERE p.league_id = s.league_id)"
    f" FROM {Season._meta.db_table} s JOIN {League._meta.db_table} l"
    " ON l.id = s.league_id WHERE s.public_token = %s"
)


class Public(NamedTuple):
    """A public link's season, its names, and its page's version."""

    season: int
    name: str
    league: str
    version: str

    @property
    def key(self) -> str:
        return f"public:{self.season}:{self.version}"


def public_season(token: str) -> Public | None:
    """The season the link shows and its page's version, in one query;
    None: no such link (never made, replaced or revoked)."""
    players = _PLAYERS.get(connection.vendor, _PLAYERS["sqlite"])
    sql = _VERSION_SQL.replace("{players}", players)
    with connection.cursor() as cursor:
        cursor.execute(sql, [token])
        row = cursor.fetchone()
    if row is None:
        return None
    text = json.dumps([row, token], default=str)  # its nights' links hold it
    digest = hashlib.sha256(text.encode()).hexdigest()[:32]
    return Public(row[0], row[1], row[2], digest)


def numbers_html(found: Public, token: str) -> SafeString:
    """The page's body: from the cache under the season's version, or
    computed and cached. A miss asks for the ratings if they are behind
    (the worker brings them up to date, never this request; the body then
    says so) and reads the version again, so the page goes under the
    version it shows: the league's rated version is part of it, so the
    body that says "being brought up to date" is not read once they are.
    The key also names what draws the page (its templates and the code):
    a deploy that changes them is never shown a page kept before it."""
    drawer = drawn_by(TEMPLATE)
    html: str | None = cache.get(f"{found.key}:{drawer}")
    if html is None:
        season = Season.objects.select_related("league").get(pk=found.season)
        ratings_current(season.league)
        found = public_season(token) or found
        context = presenters.season_page(season) | {"token": token}
        html = render_to_string(f"{TEMPLATE}#numbers", context)
        cache.set(f"{found.key}:{drawer}", str(html), timeout=KEPT_SECONDS)
    return SafeString(html)  # our own template's output, escaped when rendered
