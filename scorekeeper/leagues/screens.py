"""The organizer's desk and the room's TV: pages that poll. A poll that
finds nothing new answers 204 after one query; one that finds a change
answers only the rows, standings or frame that changed (``desk``)."""

from __future__ import annotations

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from scorekeeper.leagues.desk import desk_page, desk_poll
from scorekeeper.leagues.live import QUIET
from scorekeeper.leagues.models import (
    CheckIn,
    League,
    Night,
    NightProjection,
    Round,
    Season,
    Table,
)
from scorekeeper.leagues.nights import night_of, render_night
from scorekeeper.models import Game

# The desk's version in one query, plain SQL as the game's poll
# (gamerows.head): through the ORM, building the aggregate over four
# joins cost five times the game poll. Names come from the models.
_VERSION_SQL = (
    "SELECT COUNT(g.id), SUM(g.last_seq), SUM(CASE WHEN g.locked THEN 1 ELSE 0 END),"
    " SUM(CASE WHEN r.called_at IS NULL THEN 0 ELSE 1 END),"
    " SUM(CASE WHEN NOT g.finished AND r.called_at IS NULL"
    " AND n.closed_at IS NULL AND g.updated_at <= %s THEN 1 ELSE 0 END),"
    f" (SELECT COUNT(*) FROM {CheckIn._meta.db_table} c"
    "  WHERE c.night_id = n.id AND c.present),"
    f" (SELECT SUM(c.seated_round) FROM {CheckIn._meta.db_table} c"
    "  WHERE c.night_id = n.id AND c.present),"
    f" (SELECT p.revision FROM {NightProjection._meta.db_table} p"
    "  WHERE p.night_id = n.id)"
    f" FROM {Game._meta.db_table} g"
    f" JOIN {Table._meta.db_table} t ON t.game_id = g.id"
    f" JOIN {Round._meta.db_table} r ON r.id = t.round_id"
    f" JOIN {Night._meta.db_table} n ON n.id = r.night_id"
    f" JOIN {Season._meta.db_table} s ON s.id = n.season_id"
    f" JOIN {League.organizers.through._meta.db_table} o ON o.league_id = s.league_id"
    " WHERE r.night_id = %s AND o.user_id = %s GROUP BY n.id"
)


def version(night_id: int, user_id: int | str | None) -> str:
    """What changes whenever anything the desk shows changes: the night's
    tables, the events in their logs, how many are locked (closed) and in
    called rounds, how many have gone quiet, how many players are here
    and the rounds they said they sat down at, and how many times the night's numbers were summed (a substitute
    credited sums them without a hand); "" unless ``user_id`` organizes
    the night's league or it has no table yet."""
    quiet_since = timezone.now() - QUIET
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL, [quiet_since, night_id, user_id])
        found = cursor.fetchone()
    return ".".join(str(part) for part in found) if found else ""


def _polled(request: HttpRequest, night_id: int) -> str:
    """The poll's one query: the night's version, for an organizer of its
    league (the user's id read from the session, the user not loaded);
    "" for a request that is not a poll, or not an organizer's."""
    user_id = request.session.get(SESSION_KEY)
    htmx = getattr(request, "htmx", False)
    if not htmx or not user_id or "v" not in request.GET:
        return ""
    return version(night_id, user_id)


@require_GET
def desk(request: HttpRequest, night_id: int) -> HttpResponse:
    return _answer(request, night_id, "leagues/desk.html")


@require_GET
def tv(request: HttpRequest, night_id: int) -> HttpResponse:
    return _answer(request, night_id, "leagues/tv.html")


def _answer(request: HttpRequest, night_id: int, template: str) -> HttpResponse:
    current = _polled(request, night_id)
    if current and request.GET["v"] == current:  # before the user is even loaded
        return HttpResponse(status=204)
    return _screen(request, night_id, template, current)


@login_required
def _screen(
    request: HttpRequest, night_id: int, template: str, current: str
) -> HttpResponse:
    """The whole page; for a poll, what changed since the page's state. The
    version the page gets is read before the state it shows (a change
    meanwhile shows at the next poll, not never)."""
    found = night_of(request, night_id)
    current = current or version(found.pk, request.user.pk)
    base = request.build_absolute_uri("/").rstrip("/")
    here = found.checkins.filter(present=True).count()
    tv = template.endswith("tv.html")
    now = timezone.now()
    if getattr(request, "htmx", False):
        page = desk_poll(
            found, base, now, here, request.GET, by_number=tv, version=current
        )
        template += "#changes"
    else:
        page = desk_page(found, base, now, here, by_number=tv)
    context = page | {
        "night": found,
        "season": found.season,
        "league": found.season.league,
        "version": current,
    }
    return render_night(request, found, template, context)
