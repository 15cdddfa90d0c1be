"""A night for its players, with no sign-in: the door's QR code, where a
player picks their own name to check in, and each player's own night
page (where they sit this round), both reached by a capability link as a
game's are. The organizer's side: the door's switch and the printable
check-in sheet of every player's link."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.leagues import services
from scorekeeper.leagues.checkin import arrivals, by_letter
from scorekeeper.leagues.collation import sort_key
from scorekeeper.leagues.local_time import league_time
from scorekeeper.leagues.models import CheckIn, Night
from scorekeeper.leagues.my_night import (
    DoorAnswer,
    checkin_of,
    checkin_seated,
    door_check_in,
    my_night,
)
from scorekeeper.leagues.nights import night_of
from scorekeeper.leagues.repeats import new_key
from scorekeeper.leagues.tonight import night_so_far
from scorekeeper.leagues.views import posted_id
from scorekeeper.web.limits import rate_limited
from scorekeeper.web.qr import qr_code

POLL_SECONDS = 4  # a player's page asks again this often


def _base(request: HttpRequest) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def my_link(request: HttpRequest, checkin: CheckIn) -> str:
    return _base(request) + reverse("my_night", args=[checkin.token])


@require_GET
def mine(request: HttpRequest, token: str) -> HttpResponse:
    """Where the player sits this round; htmx's poll gets that part only."""
    checkin = checkin_of(token)
    if checkin is None:
        raise Http404
    return _mine(request, checkin)


def _mine(request: HttpRequest, checkin: CheckIn, error: str = "") -> HttpResponse:
    template = "leagues/mine.html"
    if getattr(request, "htmx", False):
        template += "#where"
    context = {
        "me": my_night(checkin),
        "so_far": night_so_far(checkin),
        "poll": POLL_SECONDS,
        "error": error,
    }
    with league_time(checkin.night.season.league):
        return render(request, template, context, status=422 if error else 200)


@require_POST
def seated(request: HttpRequest, token: str) -> HttpResponse:
    """ "I'm at my table" for the round the page showed (a double tap, or
    a tap from a page left open since an earlier round, changes nothing
    more)."""
    checkin = checkin_of(token)
    if checkin is None:
        raise Http404
    try:
        checkin_seated(checkin=checkin, round_number=posted_id(request, "round"))
    except services.LeagueError as refused:
        return _mine(request, checkin, refused.message)
    if getattr(request, "htmx", False):
        checkin.refresh_from_db(fields=["seated_round"])
        return _mine(request, checkin)
    return redirect("my_night", token=token)


def _door_night(token: str) -> Night:
    return get_object_or_404(
        Night.objects.select_related("season__league"), door_token=token
    )


@rate_limited("door")
@require_http_methods(["GET", "POST"])
def door(request: HttpRequest, token: str) -> HttpResponse:
    """The night's door: a player finds their name and checks in, then
    lands on their own page. A name already checked in is told so."""
    night = _door_night(token)
    if request.method == "GET":
        return _door(request, night)
    player = night.season.league.players.filter(pk=posted_id(request, "player"))
    chosen = player.first()
    if chosen is None:
        return _door(request, night, "Tap your name in the list.")
    try:
        answer, checkin = door_check_in(
            night=night,
            player=chosen,
            key=str(request.POST.get("once", "")),
            now=timezone.now(),
        )
    except services.LeagueError as refused:
        return _door(
            request, night, refused.message[:1].upper() + refused.message[1:] + "."
        )
    if answer == DoorAnswer.ALREADY:
        already = (
            f"{chosen.name} is already checked in tonight. If that is you, "
            "your own link is on the desk's check-in sheet."
        )
        return _door(request, night, already)
    return redirect("my_night", token=checkin.token)


def _door(request: HttpRequest, night: Night, error: str = "") -> HttpResponse:
    query = request.GET.get("q", "")[:60]
    listed = arrivals(night, list(night.season.league.players.all()))
    context = {
        "night": night,
        "arrivals": by_letter(listed, query),
        "query": query,
        "once": new_key(),
        "error": error,
        "open": night.self_check_in and night.closed_at is None and not night.teams,
    }
    with league_time(night.season.league):
        return render(
            request, "leagues/door.html", context, status=422 if error else 200
        )


@login_required
@require_POST
def door_switch(request: HttpRequest, night_id: int) -> HttpResponse:
    """The organizer turns check-in at the door on or off."""
    found = night_of(request, night_id)
    found.self_check_in = request.POST.get("door") == "on"
    found.save(update_fields=["self_check_in"])
    return redirect(reverse("night", args=[found.pk]) + "#door-qr")


@login_required
@require_GET
def checkin_sheet(request: HttpRequest, night_id: int) -> HttpResponse:
    """Every player checked in, with their own link and QR code, on one
    printable page (the door's QR code first)."""
    found = night_of(request, night_id)
    here = found.checkins.filter(present=True).select_related("player")
    players = [
        {
            "name": c.player.name,
            "link": my_link(request, c),
            "qr": qr_code(my_link(request, c)),
        }
        for c in sorted(here, key=lambda c: sort_key(c.player.name))
    ]
    context: dict[str, Any] = {"night": found, "players": players} | door_link(
        request, found
    )
    with league_time(found.season.league):
        return render(request, "leagues/checkin_sheet.html", context)


def door_link(request: HttpRequest, night: Night) -> dict[str, str]:
    link = _base(request) + reverse("door", args=[night.door_token])
    return {"door_link": link, "door_qr": qr_code(link)}
