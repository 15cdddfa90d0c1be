"""A league night's pages: the door (check-in of up to 80 names, found by
a search), rounds (start, links and QR codes, call), closing and the
printable sheet. The desk and the TV, which poll, are in ``screens``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.leagues import round_clock, rounds, services, undo
from scorekeeper.leagues.checkin import check_in_last_night
from scorekeeper.leagues.forms import TeamsForm
from scorekeeper.leagues.local_time import league_time
from scorekeeper.leagues.models import CheckIn, Movement, Night, Player, Round
from scorekeeper.leagues.movement_card import movement_cards
from scorekeeper.leagues.presenters import door, night_page
from scorekeeper.leagues.substitutes import Substituted, night_substitution
from scorekeeper.leagues.tv_link import tv_link
from scorekeeper.leagues.views import organizer, posted_id, row_id
from scorekeeper.models import Game
from scorekeeper.tablewords import whole_number
from scorekeeper.web.qr import qr_code

# The parts of the night's page an htmx request may ask for, by the id of
# the element it swaps (its HX-Target); any other gets the whole page.
PARTS = {"names": "names", "door": "door"}


def night_of(request: HttpRequest, night_id: int) -> Night:
    return get_object_or_404(
        Night.objects.select_related("season__league"),
        pk=night_id,
        season__league__organizers=organizer(request),
    )


def render_night(
    request: HttpRequest,
    night: Night,
    template: str,
    context: dict[str, Any],
    status: int = 200,
) -> HttpResponse:
    """A night's page, its times in the league's time zone."""
    with league_time(night.season.league):
        return render(request, template, context, status=status)


def _page(
    request: HttpRequest, night: Night, error: str = "", part: str = ""
) -> HttpResponse:
    """The night's page, or the part of it an htmx request swaps."""
    base = request.build_absolute_uri("/").rstrip("/")
    query = request.GET.get("q", request.POST.get("q", ""))[:60]
    context = night_page(night, base, now=timezone.now(), query=query)
    template = "leagues/night.html"
    if getattr(request, "htmx", False):
        part = part or PARTS.get(request.htmx.target or "", "")  # type: ignore[attr-defined]
        template += f"#{part}" if part else ""
    context |= {"error": error, "just_in": _just_in(night, base, request.GET.get("in"))}
    context["seated_sub"] = _seated_sub(night, request.GET.get("sub"))
    context |= tv_link(request, night)
    return render_night(request, night, template, context, 422 if error else 200)


def _just_in(night: Night, base: str, player: object) -> dict[str, str] | None:
    """The player the organizer just checked in: their own night's link
    and QR code, shown at the door to scan there and then."""
    pk = row_id(player)
    if not pk:
        return None
    here = night.checkins.filter(player=pk, present=True).select_related("player")
    found = here.first()
    return None if found is None else _own_link(found.player.name, base, found.token)


def _seated_sub(night: Night, asked: object) -> Substituted | None:
    """The substitution just seated, said at the top of the page."""
    pk = row_id(asked)
    return night_substitution(night, pk) if pk else None


def _own_link(name: str, base: str, token: str) -> dict[str, str]:
    link = base + reverse("my_night", args=[token])
    return {"name": name, "link": link, "qr": qr_code(link)}


@login_required
@require_GET
def night(request: HttpRequest, night_id: int) -> HttpResponse:
    return _page(request, night_of(request, night_id))


def _done(
    request: HttpRequest,
    found: Night,
    action: Callable[[], object],
    to: str = "",
    part: str = "",
) -> HttpResponse:
    """Do the organizer's action: back to the night (at ``to``, a place on
    it), or the night's page with the refusal in words (nothing changed);
    htmx gets ``part`` of the page, done or refused."""
    try:
        action()
    except services.LeagueError as refused:
        return _page(request, found, refused.message, part)
    if part and getattr(request, "htmx", False):
        return _page(request, found, part=part)
    if request.POST.get("next") == "desk":
        return redirect("desk", night_id=found.pk)
    return redirect(reverse("night", args=[found.pk]) + to)


@login_required
@require_POST
def check_in(request: HttpRequest, night_id: int) -> HttpResponse:
    """A tap on a name: here (again), or gone. htmx swaps that name's
    button and the counts; without it, back to the same place."""
    found = night_of(request, night_id)
    players = found.season.league.players
    player = players.filter(pk=posted_id(request, "player")).first()

    def arrive_or_leave() -> CheckIn | None:
        if player is None:
            raise services.LeagueError("choose a player of this league")
        if request.POST.get("action") == "out":
            services.check_out(night=found, player=player)
            return None
        return services.check_in(night=found, player=player, now=timezone.now())

    if getattr(request, "htmx", False):
        return _tapped(request, found, player, arrive_or_leave)
    query = request.POST.get("q", "")[:60]
    asked: dict[str, object] = {"q": query} if query else {}
    if player is not None and request.POST.get("action") != "out":
        asked["in"] = player.pk
    place = (f"?{urlencode(asked)}" if asked else "") + (
        f"#p-{player.pk}" if player else "#door"
    )
    return _done(request, found, arrive_or_leave, place)


def _tapped(
    request: HttpRequest,
    found: Night,
    player: Player | None,
    action: Callable[[], CheckIn | None],
) -> HttpResponse:
    """The tapped name's button (and, out of band, the counts, the round's
    controls and, for an arrival, their own night's link and QR code),
    with the refusal beside it if there is one."""
    error, arrived = "", None
    try:
        arrived = action()
    except services.LeagueError as refused:
        error = refused.message
    context = door(found) | {"night": found, "error": error}
    if arrived is not None and player is not None:
        base = request.build_absolute_uri("/").rstrip("/")
        context["just_in"] = _own_link(player.name, base, arrived.token)
    listed = context["listed"]
    context["entry"] = next(
        (each for each in listed if player and each.player.pk == player.pk), None
    )
    status = 422 if error else 200
    return render_night(request, found, "leagues/night.html#tapped", context, status)


@login_required
@require_POST
def check_in_regulars(request: HttpRequest, night_id: int) -> HttpResponse:
    """Check in everyone from the season's previous night, in one POST."""
    found = night_of(request, night_id)
    return _done(
        request,
        found,
        lambda: check_in_last_night(night=found, now=timezone.now()),
        "#door",
        part="door",
    )


@login_required
@require_POST
def newcomer(request: HttpRequest, night_id: int) -> HttpResponse:
    found = night_of(request, night_id)
    name = request.POST.get("name", "")
    return _done(
        request,
        found,
        lambda: services.newcomer_check_in(night=found, name=name, now=timezone.now()),
        "#door",
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
    return render_night(
        request, found, "leagues/teams.html", context, 422 if error else 200
    )


@login_required
@require_POST
def round_start(request: HttpRequest, night_id: int) -> HttpResponse:
    found = night_of(request, night_id)
    three_handed = request.POST.get("seating") == "three-handed"
    number = posted_id(request, "number") or None  # the round its button named
    movement = request.POST.get("movement", "")

    def start() -> None:
        now = timezone.now()
        new = rounds.round_start(
            night=found,
            rng=random.SystemRandom(),
            now=now,
            three_handed=three_handed,
            number=number,
            movement=movement if movement in Movement.values else Movement.CIRCLE,
            minutes=_minutes(request.POST.get("minutes", "")),
            auto_call=bool(request.POST.get("auto_call")),
            by=request.user if request.user.is_authenticated else None,
        )
        if new.started_at == now:  # not the same form sent again
            round_clock.round_clock_ask(played=new)

    return _done(request, found, start, "#rounds")


LONGEST_ROUND = 240  # minutes


def _minutes(typed: str) -> int | None:
    """A round's length as typed (blank: no clock), refused in words."""
    if not typed.strip():
        return None
    minutes = whole_number(typed)
    if minutes is None or not 1 <= minutes <= LONGEST_ROUND:
        raise services.LeagueError(
            f"A round's length is a whole number of minutes, 1 to {LONGEST_ROUND}."
        )
    return minutes


@login_required
@require_http_methods(["GET", "POST"])
def round_call(request: HttpRequest, round_id: int) -> HttpResponse:
    played = get_object_or_404(
        Round.objects.select_related("night__season__league"),
        pk=round_id,
        night__season__league__organizers=organizer(request),
    )
    if request.method == "GET":
        return _confirm(request, played.night, "call", played)
    by = organizer(request).get_username()
    return _done(
        request,
        played.night,
        lambda: rounds.round_call(round=played, by=by, now=timezone.now()),
        "#rounds",
    )


@login_required
@require_POST
def round_call_undo(request: HttpRequest, round_id: int) -> HttpResponse:
    played = get_object_or_404(
        Round.objects.select_related("night__season__league"),
        pk=round_id,
        night__season__league__organizers=organizer(request),
    )
    user = organizer(request)
    return _done(
        request,
        played.night,
        lambda: undo.round_call_undo(round=played, user=user, now=timezone.now()),
        "#rounds",
    )


@login_required
@require_POST
def night_close_undo(request: HttpRequest, night_id: int) -> HttpResponse:
    found = night_of(request, night_id)
    user = organizer(request)
    return _done(
        request,
        found,
        lambda: undo.night_close_undo(night=found, user=user, now=timezone.now()),
        "#rounds",
    )


def _confirm(
    request: HttpRequest, found: Night, what: str, played: Round | None = None
) -> HttpResponse:
    open_games = Game.objects.filter(
        table__round__night=found,
        table__round__called_at__isnull=True,  # a called round's tables stay
        finished=False,
    )
    if played is not None:
        open_games = open_games.filter(table__round=played)
    context = {
        "night": found,
        "what": what,
        "round": played,
        "unfinished": open_games.filter(last_seq__gt=0),
        "unplayed": open_games.filter(last_seq=0),
        "from_desk": request.GET.get("from") == "desk",
    }
    return render_night(request, found, "leagues/confirm.html", context)


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
        lambda: rounds.night_close(night=found, by=by, now=timezone.now()),
    )


@login_required
@require_GET
def sheet(request: HttpRequest, night_id: int) -> HttpResponse:
    """Every table's link and QR code on one printable page (whole, for an
    htmx request too: it has no part to swap)."""
    found = night_of(request, night_id)
    base = request.build_absolute_uri("/").rstrip("/")
    context = night_page(found, base, now=timezone.now())
    return render_night(request, found, "leagues/sheet.html", context)


@login_required
@require_GET
def movement_card(request: HttpRequest, night_id: int) -> HttpResponse:
    """Each player's table and seat, round by round, as far as the
    movement lets them be known: a page to print on A4 and hand out."""
    found = night_of(request, night_id)
    asked = request.GET.get("movement", "")
    last = found.rounds.last()
    movement = asked if asked in Movement.values else None
    movement = movement or (last.movement if last else Movement.CIRCLE)
    context = movement_cards(found, movement) | {
        "night": found,
        "league": found.season.league,
    }
    return render_night(request, found, "leagues/movement_card.html", context)
