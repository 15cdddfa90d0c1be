"""A league night's pages: check-in, rounds (start, links and QR codes,
call), closing, and the organizer's desk and TV, kept live by a poll that
costs one indexed query while nothing changed."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.leagues import services
from scorekeeper.leagues.forms import TeamsForm
from scorekeeper.leagues.models import League, Night, Player, Round, Season, Table
from scorekeeper.leagues.presenters import night_page
from scorekeeper.leagues.views import organizer, posted_id
from scorekeeper.models import Game


def night_of(request: HttpRequest, night_id: int) -> Night:
    return get_object_or_404(
        Night.objects.select_related("season__league"),
        pk=night_id,
        season__league__organizers=organizer(request),
    )


def _page(
    request: HttpRequest, night: Night, template: str, error: str = "", **extra: Any
) -> HttpResponse:
    base = request.build_absolute_uri("/").rstrip("/")
    now = version(night.pk, request.user.pk)
    context = night_page(night, base) | {"error": error, "version": now}
    if getattr(request, "htmx", False):
        template += "#live"
    return render(request, template, context | extra, status=422 if error else 200)


@login_required
@require_GET
def night(request: HttpRequest, night_id: int) -> HttpResponse:
    return _page(request, night_of(request, night_id), "leagues/night.html")


def _done(
    request: HttpRequest, found: Night, action: Callable[[], object]
) -> HttpResponse:
    """Do the organizer's action: back to the night, or the night's page
    with the refusal in words (nothing changed)."""
    try:
        action()
    except services.LeagueError as refused:
        return _page(request, found, "leagues/night.html", refused.message)
    return redirect("night", night_id=found.pk)


@login_required
@require_POST
def check_in(request: HttpRequest, night_id: int) -> HttpResponse:
    found = night_of(request, night_id)
    players = found.season.league.players
    player = players.filter(pk=posted_id(request, "player")).first()

    def arrive_or_leave() -> None:
        if player is None:
            raise services.LeagueError("choose a player of this league")
        if request.POST.get("action") == "out":
            services.check_out(night=found, player=player)
        else:
            services.check_in(night=found, player=player, now=timezone.now())

    return _done(request, found, arrive_or_leave)


@login_required
@require_POST
def newcomer(request: HttpRequest, night_id: int) -> HttpResponse:
    found = night_of(request, night_id)
    name = request.POST.get("name", "")
    return _done(
        request,
        found,
        lambda: services.newcomer_check_in(night=found, name=name, now=timezone.now()),
    )


@login_required
@require_http_methods(["GET", "POST"])
def teams(request: HttpRequest, night_id: int) -> HttpResponse:
    """Enter a fixed-teams night's partnerships by hand."""
    found = night_of(request, night_id)
    here = found.checkins.filter(present=True).values("player")
    present = list(Player.objects.filter(pk__in=here))
    size = found.season.seats // 2
    initial = {f"p{pk}": str(n) for n, team in enumerate(found.teams, 1) for pk in team}
    form = TeamsForm(present, size, request.POST or None, initial=initial)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            services.teams_enter(night=found, teams=form.teams())
        except services.LeagueError as refused:
            error = refused.message
        else:
            return redirect("night", night_id=found.pk)
    context = {"night": found, "form": form, "size": size, "error": error}
    return render(request, "leagues/teams.html", context, status=422 if error else 200)


@login_required
@require_POST
def round_start(request: HttpRequest, night_id: int) -> HttpResponse:
    found = night_of(request, night_id)
    return _done(
        request,
        found,
        lambda: services.round_start(
            night=found, rng=random.SystemRandom(), now=timezone.now()
        ),
    )


@login_required
@require_http_methods(["GET", "POST"])
def round_call(request: HttpRequest, round_id: int) -> HttpResponse:
    played = get_object_or_404(
        Round.objects.select_related("night__season"),
        pk=round_id,
        night__season__league__organizers=organizer(request),
    )
    if request.method == "GET":
        return _confirm(request, played.night, "call", played)
    by = organizer(request).get_username()
    return _done(
        request,
        played.night,
        lambda: services.round_call(round=played, by=by, now=timezone.now()),
    )


def _confirm(
    request: HttpRequest, found: Night, what: str, played: Round | None = None
) -> HttpResponse:
    open_games = Game.objects.filter(table__round__night=found, finished=False)
    if played is not None:
        open_games = open_games.filter(table__round=played)
    context = {
        "night": found,
        "what": what,
        "round": played,
        "unfinished": open_games.filter(last_seq__gt=0),
        "unplayed": open_games.filter(last_seq=0),
    }
    return render(request, "leagues/confirm.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def night_close(request: HttpRequest, night_id: int) -> HttpResponse:
    found = night_of(request, night_id)
    if request.method == "GET":
        return _confirm(request, found, "close")
    by = organizer(request).get_username()
    return _done(
        request,
        found,
        lambda: services.night_close(night=found, by=by, now=timezone.now()),
    )


@login_required
@require_GET
def sheet(request: HttpRequest, night_id: int) -> HttpResponse:
    """Every table's link and QR code on one printable page."""
    return _page(request, night_of(request, night_id), "leagues/sheet.html")


# The desk's version in one query, plain SQL as the game's poll
# (eventstore.head): through the ORM, building the aggregate over four
# joins cost five times the game poll. Names come from the models.
_VERSION_SQL = (
    "SELECT COUNT(g.id), SUM(g.last_seq), SUM(CASE WHEN g.locked THEN 1 ELSE 0 END)"
    f" FROM {Game._meta.db_table} g"
    f" JOIN {Table._meta.db_table} t ON t.game_id = g.id"
    f" JOIN {Round._meta.db_table} r ON r.id = t.round_id"
    f" JOIN {Night._meta.db_table} n ON n.id = r.night_id"
    f" JOIN {Season._meta.db_table} s ON s.id = n.season_id"
    f" JOIN {League.organizers.through._meta.db_table} o ON o.league_id = s.league_id"
    " WHERE r.night_id = %s AND o.user_id = %s"
)


def version(night_id: int, user_id: int | str | None) -> str:
    """What changes whenever anything the desk shows changes: the night's
    tables, the events in their logs, and how many are locked (closed);
    "" unless ``user_id`` organizes the night's league or it has no table."""
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL, [night_id, user_id])
        tables, events, locked = cursor.fetchone()
    return f"{tables}.{events}.{locked}" if tables else ""


def _unchanged(request: HttpRequest, night_id: int) -> bool:
    """The poll's one query: the night's version, for an organizer of its
    league (the user's id read from the session, the user not loaded)."""
    user_id = request.session.get(SESSION_KEY)
    htmx = getattr(request, "htmx", False)
    if not htmx or not user_id or "v" not in request.GET:
        return False
    current = version(night_id, user_id)
    return bool(current) and request.GET["v"] == current


@require_GET
def desk(request: HttpRequest, night_id: int) -> HttpResponse:
    if _unchanged(request, night_id):  # before the user is even loaded
        return HttpResponse(status=204)
    return _live(request, night_id, "leagues/desk.html")


@require_GET
def tv(request: HttpRequest, night_id: int) -> HttpResponse:
    if _unchanged(request, night_id):
        return HttpResponse(status=204)
    return _live(request, night_id, "leagues/tv.html")


@login_required
def _live(request: HttpRequest, night_id: int, template: str) -> HttpResponse:
    return _page(request, night_of(request, night_id), template)
