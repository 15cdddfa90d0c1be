"""The organizer's desk and the room's TV: pages that poll. A poll that
finds nothing new answers 204 after one query; one that finds a change
answers only the rows, standings or frame that changed (``desk``). The
TV opens by the organizer's sign-in or by the night's read-only TV link
(``tv_link``), which needs none."""

from __future__ import annotations

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

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
from scorekeeper.leagues.tv_link import (
    night_tv_link_new,
    night_tv_link_revoke,
    night_tv_totals_hide,
    totals_hidden,
)
from scorekeeper.models import Game

# The desk's version in one query, plain SQL as the game's poll
# (gamerows.head): through the ORM, building the aggregate over four
# joins cost five times the game poll. Names come from the models. The
# night is found by its organizer (the desk, the TV signed in) or by its
# TV link.
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
    "  WHERE p.night_id = n.id),"
    " MAX(CASE WHEN n.tv_totals_hidden THEN 1 ELSE 0 END)"
    f" FROM {Game._meta.db_table} g"
    f" JOIN {Table._meta.db_table} t ON t.game_id = g.id"
    f" JOIN {Round._meta.db_table} r ON r.id = t.round_id"
    f" JOIN {Night._meta.db_table} n ON n.id = r.night_id"
)
_BY_ORGANIZER = (
    f" JOIN {Season._meta.db_table} s ON s.id = n.season_id"
    f" JOIN {League.organizers.through._meta.db_table} o ON o.league_id = s.league_id"
    " WHERE r.night_id = %s AND o.user_id = %s GROUP BY n.id"
)
_BY_LINK = " WHERE n.tv_token = %s GROUP BY n.id"


def version(night_id: int, user_id: int | str | None) -> str:
    """What changes whenever anything the desk shows changes: the night's
    tables, the events in their logs, how many are locked (closed) and in
    called rounds, how many have gone quiet, how many players are here
    and the rounds they said they sat down at, how many times the night's numbers were summed (a substitute
    credited sums them without a hand) and whether the TV hides the
    totals; "" unless ``user_id`` organizes the night's league or it has
    no table yet."""
    return _version(_VERSION_SQL + _BY_ORGANIZER, [night_id, user_id])


def link_version(token: str) -> str:
    """The same version, of the night whose TV link this is ("" if none)."""
    return _version(_VERSION_SQL + _BY_LINK, [token])


def _version(sql: str, which: list[int | str | None]) -> str:
    quiet_since = timezone.now() - QUIET
    with connection.cursor() as cursor:
        cursor.execute(sql, [quiet_since, *which])
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
    url = reverse(
        "desk" if template.endswith("desk.html") else "night_tv", args=[found.pk]
    )
    return _shown(request, found, template, current, url)


@require_GET
def tv_by_link(request: HttpRequest, token: str) -> HttpResponse:
    """The night's TV, read only, for the room's screen (no sign-in); a
    replaced or revoked link is a 404. Its poll costs one query as the
    organizer's does."""
    polled = getattr(request, "htmx", False) and "v" in request.GET
    current = link_version(token) if polled else ""
    if current and request.GET["v"] == current:
        return HttpResponse(status=204)
    found = Night.objects.select_related("season__league").filter(tv_token=token)
    night = found.first()
    if night is None:
        raise Http404
    current = current or link_version(token)
    url = reverse("tv_by_link", args=[token])
    return _shown(request, night, "leagues/tv.html", current, url)


def _shown(
    request: HttpRequest, found: Night, template: str, current: str, url: str
) -> HttpResponse:
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
    tables = len(page["current"]["tables"]) if page.get("current") else 0
    context = page | {
        "night": found,
        "season": found.season,
        "league": found.season.league,
        "version": current,
        "poll_url": url,
        "totals_hidden": totals_hidden(found),
        "columns": tv_columns(tables),
    }
    return render_night(request, found, template, context)


def tv_columns(tables: int) -> int:
    """How many columns the TV sets the round's tables in: every table on
    one screen, each as wide as its names need and as tall as it can be
    (a 16:9 screen, the standings beside them)."""
    for columns, most in ((1, 4), (2, 10), (3, 15), (4, 20), (5, 30)):
        if tables <= most:
            return columns
    return 6


@login_required
@require_POST
def night_tv_link(request: HttpRequest, night_id: int) -> HttpResponseBase:
    """Make, replace or revoke the night's TV link; hide or show the totals
    on the TV."""
    found = night_of(request, night_id)
    action = request.POST.get("action", "")
    if action == "revoke":
        night_tv_link_revoke(night=found)
    elif action in ("hide", "show"):
        night_tv_totals_hide(night=found, hidden=action == "hide")
    else:
        night_tv_link_new(night=found)
    if request.POST.get("next") == "desk":
        return redirect("desk", night_id=found.pk)
    return redirect(reverse("night", args=[found.pk]) + "#tv")
