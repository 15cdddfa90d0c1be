"""The organizer's pages for a league: signing up and in, the league (its
players and seasons), a season (standings, nights, export and import) and
a player. Each view checks the organizer, calls a service, renders."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import password_validators_help_texts
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.gamelog import LogError
from scorekeeper.leagues import services
from scorekeeper.leagues.collation import sort_key
from scorekeeper.leagues.deletion import season_delete as season_deletion
from scorekeeper.leagues.forms import (
    ImportSeasonForm,
    NameForm,
    NightForm,
    SeasonForm,
    SignupForm,
)
from scorekeeper.leagues.interchange import season_export, season_import
from scorekeeper.leagues.local_time import (
    COMMON_TIME_ZONES,
    league_time,
    league_time_zone_set,
)
from scorekeeper.leagues.models import League, Player, RegistryPaste, Season, Table
from scorekeeper.leagues.presenters import player_page, season_changes, season_page
from scorekeeper.leagues.repeats import once
from scorekeeper.leagues.season_list import seasons_listed
from scorekeeper.leagues.substitutes import player_substitutions
from scorekeeper.tablewords import whole_number
from scorekeeper.web.limits import rate_limited
from scorekeeper.web.qr import qr_code


def organizer(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # behind login_required
    return user


def league_of(request: HttpRequest, league_id: int) -> League:
    """The league, if this organizer runs it (else 404: not even its name)."""
    return get_object_or_404(League, pk=league_id, organizers=organizer(request))


def public_link(request: HttpRequest, season: Season) -> dict[str, str]:
    """The season's public link and its QR code, if it has one."""
    if not season.public_token:
        return {}
    link = request.build_absolute_uri(
        reverse("public_standings", args=[season.public_token])
    )
    return {"public_link": link, "public_qr": qr_code(link)}


def season_of(request: HttpRequest, season_id: int) -> Season:
    return get_object_or_404(
        Season.objects.select_related("league"),
        pk=season_id,
        league__organizers=organizer(request),
    )


def next_page(request: HttpRequest) -> str:
    """Where to go after signing up or in: ``next`` only if it is a path of
    this site (never another site, ``//host``, ``javascript:``, or a word
    that is no path such as ``NaN``); "" otherwise."""
    wanted = str(request.POST.get("next") or request.GET.get("next") or "")
    safe = url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return wanted if safe and wanted.startswith("/") else ""


@require_http_methods(["GET", "POST"])
@rate_limited("signup")
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        user = form.save_once() if form.is_valid() else form.already_signed_up()
        if user is not None:
            login(request, user)
            return redirect(next_page(request) or "leagues")
    context = {
        "form": form,
        "next": next_page(request),
        "password_rules": password_validators_help_texts(),
    }
    return render(request, "leagues/signup.html", context)


class _SignIn(LoginView):
    template_name = "leagues/login.html"
    redirect_authenticated_user = True

    def get_redirect_url(self, request: HttpRequest | None = None) -> str:
        """``next`` as sign-up reads it (a path of this site), and never this
        page itself: Django refuses a redirect back to the sign-in page with
        a ValueError (a 500) when a signed-in organizer opens it so."""
        wanted = next_page(request or self.request)
        return "" if urlsplit(wanted).path == self.request.path else wanted


_login = _SignIn.as_view()


@rate_limited("login")
def signin(request: HttpRequest) -> HttpResponse:
    """Django's sign-in; attempts per address are limited (RATE_LIMITS)."""
    response = _login(request)
    assert isinstance(response, HttpResponse)
    return response


@login_required
@require_http_methods(["GET", "POST"])
@once
def leagues(request: HttpRequest) -> HttpResponse:
    form = NameForm(request.POST or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            league = services.league_create(
                name=form.cleaned_data["name"],
                organizer=organizer(request),
                now=timezone.now(),
            )
        except services.LeagueError as refused:
            error = refused.message
        else:
            return redirect("league", league_id=league.pk)
    mine = organizer(request).leagues.order_by("name")
    return render(
        request, "leagues/leagues.html", {"leagues": mine, "form": form, "error": error}
    )


@login_required
@require_http_methods(["GET", "POST"])
@once
def league(request: HttpRequest, league_id: int) -> HttpResponse:
    found = league_of(request, league_id)
    form = SeasonForm(request.POST or None)
    pasted = _pasted(request, found)
    error = ""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            season = services.season_create(
                league=found,
                name=data["name"],
                preset=data["preset"],
                seats=data["seats"],
                overrides=form.overrides(),
                order=data["order"],
                best_nights=data["best_nights"],
                min_nights=data["min_nights"],
                now=timezone.now(),
            )
        except services.LeagueError as refused:
            error = refused.message
        else:
            return redirect("season", season_id=season.pk)
    return _league_page(request, found, season_form=form, error=error, pasted=pasted)


def _pasted(request: HttpRequest, found: League) -> RegistryPaste | None:
    """The paste the page follows (``?pasted=``), if it is this league's."""
    wanted = request.GET.get("pasted", "")
    if not (wanted.isascii() and wanted.isdigit() and len(wanted) < 12):
        return None
    return found.pastes.filter(pk=int(wanted)).first()


def _league_page(
    request: HttpRequest,
    found: League,
    *,
    season_form: SeasonForm | None = None,
    error: str = "",
    invite: str = "",
    pasted: RegistryPaste | None = None,
) -> HttpResponse:
    context = {
        "pasted": pasted.report if pasted is not None else None,
        "league": found,
        "players": sorted(found.players.all(), key=lambda p: sort_key(p.name)),
        "seasons": seasons_listed(found),
        "organizers": found.organizers.order_by("username"),
        "season_form": season_form or SeasonForm(),
        "error": error,
        "invite": invite,
        "time_zones": COMMON_TIME_ZONES,
    }
    return render(request, "leagues/league.html", context, status=422 if error else 200)


def _to_league(
    request: HttpRequest, found: League, action: Callable[[], object]
) -> HttpResponse:
    """Do the organizer's action: back to the league, or its page with the
    refusal in words (nothing changed)."""
    try:
        action()
    except services.LeagueError as refused:
        return _league_page(request, found, error=refused.message)
    return redirect("league", league_id=found.pk)


@login_required
@require_POST
def player_add(request: HttpRequest, league_id: int) -> HttpResponse:
    found = league_of(request, league_id)
    name = request.POST.get("name", "")
    return _to_league(
        request, found, lambda: services.player_add(league=found, name=name)
    )


@login_required
@require_POST
@once
def players_paste(request: HttpRequest, league_id: int) -> HttpResponse:
    """A pasted list of names into the registry; the league's page then
    says what became of each. A repeat (same one-time key) shows the same."""
    found = league_of(request, league_id)
    text = request.POST.get("names", "")
    try:
        paste = services.players_paste(league=found, text=text, now=timezone.now())
    except services.LeagueError as refused:
        return _league_page(request, found, error=refused.message)
    page = reverse("league", args=[found.pk])
    return redirect(f"{page}?pasted={paste.pk}#players")


@login_required
@require_POST
def player_rename(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(
        Player.objects.select_related("league"),
        pk=player_id,
        league__organizers=organizer(request),
    )
    name = request.POST.get("name", "")
    return _to_league(
        request,
        player.league,
        lambda: services.player_rename(player=player, name=name),
    )


@login_required
@require_POST
def player_merge(request: HttpRequest, league_id: int) -> HttpResponse:
    found = league_of(request, league_id)
    keep = found.players.filter(pk=posted_id(request, "keep")).first()
    merge = found.players.filter(pk=posted_id(request, "merge")).first()

    def merged() -> None:
        if keep is not None and merge is None and posted_id(request, "merge"):
            # A repeated merge: that entry went with the first one.
            raise services.LeagueError("that entry was merged already")
        if keep is None or merge is None:
            raise services.LeagueError("choose the two entries to merge")
        services.player_merge(keep=keep, merge=merge)

    return _to_league(request, found, merged)


@login_required
@require_POST
def league_time_zone(request: HttpRequest, league_id: int) -> HttpResponse:
    found = league_of(request, league_id)
    zone = request.POST.get("time_zone", "")
    return _to_league(
        request, found, lambda: league_time_zone_set(league=found, zone=zone)
    )


def row_id(value: object) -> int:
    """A row's id as a form or a link gives it (0, which is no row, when
    it is not one, or too long for one)."""
    number = whole_number(str(value or ""))
    return number if number is not None and number < 10**11 else 0


def posted_id(request: HttpRequest, key: str) -> int:
    """A row's id from a form (0, which is no row, when it is not one)."""
    return row_id(request.POST.get(key, ""))


@login_required
@require_POST
def invite_create(request: HttpRequest, league_id: int) -> HttpResponse:
    found = league_of(request, league_id)
    invite = services.invite_create(
        league=found, by=organizer(request), now=timezone.now()
    )
    link = request.build_absolute_uri(f"/invite/{invite.token}")
    return _league_page(request, found, invite=link)


@login_required
@require_http_methods(["GET", "POST"])
def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "GET":
        return render(request, "leagues/invite.html", {"token": token})
    try:
        joined = services.invite_accept(
            token=token, user=organizer(request), now=timezone.now()
        )
    except services.LeagueError as refused:
        return render(request, "problem.html", {"message": refused.message}, status=410)
    return redirect("league", league_id=joined.pk)


@login_required
@require_http_methods(["GET", "POST"])
@once
def season(request: HttpRequest, season_id: int) -> HttpResponse:
    found = season_of(request, season_id)
    with league_time(found.league):  # "today" where the league plays
        today = timezone.localdate()
    form = NightForm(request.POST or None, initial={"date": today})
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            night = services.night_create(
                season=found,
                day=form.cleaned_data["date"],
                format=form.cleaned_data["format"],
                label=form.cleaned_data["label"],
                now=timezone.now(),
            )
        except services.LeagueError as refused:
            error = refused.message
        else:
            return redirect("night", night_id=night.pk)
    context = season_page(found) | public_link(request, found)
    context |= {"form": form, "error": error, "changes": season_changes(found)}
    with league_time(found.league):  # the changes' times where it plays
        return render(
            request, "leagues/season.html", context, status=422 if error else 200
        )


@login_required
@require_GET
def season_download(request: HttpRequest, season_id: int) -> HttpResponse:
    found = season_of(request, season_id)
    response = JsonResponse(
        season_export(season=found),
        json_dumps_params={"ensure_ascii": False, "indent": 1},
    )
    response["Content-Disposition"] = f'attachment; filename="season-{found.pk}.json"'
    return response


@login_required
@require_POST
@rate_limited("import")
@once
def season_upload(request: HttpRequest, league_id: int) -> HttpResponse:
    found = league_of(request, league_id)
    form = ImportSeasonForm(request.POST, request.FILES)
    try:
        if not form.is_valid():
            raise services.LeagueError("choose a season file, or paste one")
        imported = season_import(league=found, text=form.document(), now=timezone.now())
    except (services.LeagueError, LogError) as refused:
        return _league_page(request, found, error=f"Not imported: {refused}")
    return redirect("season", season_id=imported.pk)


@login_required
@require_http_methods(["GET", "POST"])
@once  # sent again, it goes where the first went (the season is gone)
def season_delete(request: HttpRequest, season_id: int) -> HttpResponse:
    """Asks first (what goes), then deletes the season."""
    found = season_of(request, season_id)
    if request.method == "POST":
        season_deletion(season=found)
        return redirect("league", league_id=found.league_id)
    games = Table.objects.filter(round__night__season=found).count()
    context = {"season": found, "nights": found.nights.count(), "games": games}
    return render(request, "leagues/season_delete.html", context)


@login_required
@require_GET
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    found = get_object_or_404(
        Player.objects.select_related("league"),
        pk=player_id,
        league__organizers=organizer(request),
    )
    every_game = request.GET.get("games") == "all"
    page = player_page(found, every_game=every_game)
    page["substitutions"] = player_substitutions(found)
    return render(request, "leagues/player.html", page)
