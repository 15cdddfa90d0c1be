"""A night's results and rules on paper and in public: the night's public
page (through its season's public link), the prize lists an organizer
sets, and the rules sheet put on each table."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper.gamelog import game_variant
from scorekeeper.leagues import prize_lists
from scorekeeper.leagues.forms import PrizesForm
from scorekeeper.leagues.nights import night_of
from scorekeeper.leagues.prizes import TIES
from scorekeeper.leagues.public_night import night_html, published_night
from scorekeeper.leagues.services import LeagueError
from scorekeeper.leagues.views import season_of
from scorekeeper.rules.variants import overrides_of
from scorekeeper.rules_text import rule_lines, rung
from scorekeeper.web.qr import qr_code


@require_GET
def public_night(request: HttpRequest, token: str, night_id: int) -> HttpResponse:
    """One night's score cards, standings, prizes and awards, read only,
    for anyone with the season's public link; any other link is a 404."""
    found = published_night(token, night_id)
    if found is None:
        raise Http404
    context = {"results": night_html(found, token), "title": found.title}
    return render(request, "leagues/public_night.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def season_prizes(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's prizes and the league's rule for ties."""
    found = season_of(request, season_id)
    league = found.league

    def save(form: PrizesForm) -> None:
        prize_lists.season_prizes_set(season=found, text=form.cleaned_data["prizes"])
        ties = form.cleaned_data["ties"] or league.prize_ties
        prize_lists.league_prize_ties_set(league=league, ties=ties)

    initial = {"prizes": "\n".join(found.prizes), "ties": league.prize_ties}
    back = reverse("season", args=[found.pk]) + "#standings"
    context = {"what": found.name, "back": back, "ties": TIES, "season": found}
    return _prizes(request, initial, save, context)


@login_required
@require_http_methods(["GET", "POST"])
def night_prizes(request: HttpRequest, night_id: int) -> HttpResponse:
    found = night_of(request, night_id)

    def save(form: PrizesForm) -> None:
        prize_lists.night_prizes_set(night=found, text=form.cleaned_data["prizes"])

    what = found.date.strftime("%a %-d %b %Y") + (
        f" · {found.label}" if found.label else ""
    )
    back = reverse("night", args=[found.pk]) + "#prizes"
    context = {"what": what, "back": back, "night": found}
    return _prizes(request, {"prizes": "\n".join(found.prizes)}, save, context)


def _prizes(
    request: HttpRequest,
    initial: dict[str, str],
    save: Callable[[PrizesForm], None],
    context: dict[str, object],
) -> HttpResponse:
    """The prize form; saved, back to the page (the refusal in words, and
    nothing changed, otherwise)."""
    form = PrizesForm(request.POST or None, initial=initial)
    error = ""
    if request.method == "POST":
        if form.is_valid():
            try:
                save(form)
            except LeagueError as refused:
                error = refused.message
            else:
                return redirect(str(context["back"]))
        else:
            error = "a prize list is at most 2,000 characters"
    context |= {"form": form, "error": error}
    status = 422 if error else 200
    return render(request, "leagues/prizes.html", context, status=status)


@login_required
@require_GET
def rules_sheet(request: HttpRequest, night_id: int) -> HttpResponse:
    """The season's rules on one printed page for each table: the preset
    and the house rules in the rules pages' words, and a QR code of the
    preset's rules page."""
    found = night_of(request, night_id)
    season = found.season
    variant = game_variant(season.preset, season.seats, season.overrides)
    house = overrides_of(variant)
    link = request.build_absolute_uri(
        reverse("rules_detail", args=[variant.preset]) + f"?seats={variant.seats}"
    )
    context = {
        "night": found,
        "season": season,
        "league": season.league,
        "variant": variant,
        "rungs": [rung(variant, rule) for rule in variant.ladder],
        "lines": rule_lines(variant, house),
        "house": house,
        "link": link,
        "qr": qr_code(link),
    }
    return render(request, "leagues/rules_sheet.html", context)
