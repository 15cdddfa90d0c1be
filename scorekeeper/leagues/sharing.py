"""A season's numbers leaving the organizer's pages: the public read-only
standings link (made, replaced and revoked as game links are) and the CSV
files of the standings, of every hand and of the changes after closing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from scorekeeper.leagues import services
from scorekeeper.leagues.exports import (
    SEASON_STANDINGS,
    STANDINGS,
    csv_lines,
    hand_rows,
    hands_head,
    most_sides,
    standings_rows,
)
from scorekeeper.leagues.local_time import league_time
from scorekeeper.leagues.nights import night_of
from scorekeeper.leagues.presenters import season_changes
from scorekeeper.leagues.public_page import numbers_html, public_season
from scorekeeper.leagues.results import night_numbers, season_rows
from scorekeeper.leagues.views import season_of


@login_required
@require_POST
def season_public(request: HttpRequest, season_id: int) -> HttpResponseBase:
    found = season_of(request, season_id)
    if request.POST.get("action") == "revoke":
        services.season_link_revoke(season=found)
    else:
        services.season_link_new(season=found)
    return redirect(reverse("season", args=[found.pk]) + "#public")


@require_GET
def public_standings(request: HttpRequest, token: str) -> HttpResponseBase:
    """The season's standings, race, awards and ratings, read only, for
    anyone with the link; a revoked link is a 404. The body comes from the
    cache while nothing on it changed (``public_page``)."""
    found = public_season(token)
    if found is None:
        raise Http404
    context = {
        "season_name": found.name,
        "league_name": found.league,
        "numbers": numbers_html(found, token),
    }
    return render(request, "leagues/public.html", context)


@login_required
@require_GET
def season_standings_csv(request: HttpRequest, season_id: int) -> HttpResponseBase:
    found = season_of(request, season_id)
    lines = standings_rows(season_rows(found), season=True)
    return _csv(SEASON_STANDINGS, lines, f"standings-season-{found.pk}.csv")


@login_required
@require_GET
def night_standings_csv(request: HttpRequest, night_id: int) -> HttpResponseBase:
    found = night_of(request, night_id)
    rows, _, _ = night_numbers(found)
    lines = standings_rows(rows, season=False)
    return _csv(STANDINGS, lines, f"standings-{found.date}.csv")


@login_required
@require_GET
def season_hands_csv(request: HttpRequest, season_id: int) -> HttpResponseBase:
    found = season_of(request, season_id)
    sides = most_sides(found)
    rows = hand_rows(found, sides)
    return _csv(hands_head(sides), rows, f"hands-season-{found.pk}.csv")


CHANGES = ("night", "at", "by", "what", "reason")


@login_required
@require_GET
def season_changes_csv(request: HttpRequest, season_id: int) -> HttpResponseBase:
    """Every line of the season's nights' change logs (a change after a
    night's close, before and after, as the night's log says it; a call
    or a close undone), times where the league plays."""
    found = season_of(request, season_id)
    with league_time(found.league):
        rows = [
            [
                " ".join(filter(None, [str(change.night.date), change.night.label])),
                timezone.localtime(change.at).strftime("%Y-%m-%d %H:%M"),
                change.by.username,
                change.what,
                change.reason,
            ]
            for change in season_changes(found)
        ]
    return _csv(CHANGES, rows, f"changes-season-{found.pk}.csv")


def _csv(
    head: Iterable[str], rows: Iterable[Iterable[Any]], name: str
) -> HttpResponseBase:
    response = StreamingHttpResponse(
        csv_lines(head, rows), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
