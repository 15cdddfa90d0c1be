"""A night's table, for the organizer: a substitute for a player who
leaves in the middle of a game."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from scorekeeper.games.forms import MAX_SEATS
from scorekeeper.leagues.models import CheckIn, Player, Seat, Substitution, Table
from scorekeeper.leagues.services import LeagueError
from scorekeeper.leagues.substitutes import substitute_seat
from scorekeeper.leagues.views import organizer, posted_id
from scorekeeper.tablewords import whole_number


def table_of(request: HttpRequest, table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__night__season__league", "game"),
        pk=table_id,
        round__night__season__league__organizers=organizer(request),
    )


@login_required
@require_http_methods(["GET", "POST"])
def substitute(request: HttpRequest, table_id: int) -> HttpResponse:
    table = table_of(request, table_id)
    error = ""
    if request.method == "POST":
        chosen = table.round.night.season.league.players.filter(
            pk=posted_id(request, "substitute")
        ).first()
        seat = whole_number(request.POST.get("seat", ""))
        try:
            made = substitute_seat(
                table=table,
                position=seat if seat is not None and seat < MAX_SEATS else -1,
                substitute=chosen,
                newcomer=request.POST.get("newcomer", "")[:200],
                from_hand=whole_number(request.POST.get("from_hand", "")) or 0,
                credit=request.POST.get("credit", ""),
                leaver_goes=request.POST.get("leaver_goes") == "on",
                now=timezone.now(),
            )
        except LeagueError as refused:
            error = refused.message
        else:  # the desk's row, or the night's page, says who sits where
            if request.POST.get("next") == "desk":
                desk = reverse("desk", args=[table.round.night_id])
                return redirect(f"{desk}#table-{table.pk}")
            night = reverse("night", args=[table.round.night_id])
            return redirect(f"{night}?sub={made.pk}")
    from_desk = "desk" in (request.GET.get("from"), request.POST.get("next"))
    context = _substitute_form(table) | {
        "error": error,
        "posted": request.POST,
        "from_desk": from_desk,
    }
    return render(
        request, "leagues/substitute.html", context, status=422 if error else 200
    )


def _substitute_form(table: Table) -> dict[str, Any]:
    """The seats, and who may take one: the players checked in tonight who
    sit at no table of the round."""
    night = table.round.night
    seats = list(table.seats.select_related("player"))
    busy = set(
        Seat.objects.filter(table__round=table.round).values_list("player", flat=True)
    )
    for started, joined in Substitution.objects.filter(
        table__round=table.round
    ).values_list("started", "substitute"):
        busy |= {started, joined}
    here = CheckIn.objects.filter(night=night, present=True).values("player")
    return {
        "table": table,
        "night": night,
        "seats": seats,
        "taken": set(table.substitutions.values_list("position", flat=True)),
        "candidates": Player.objects.filter(pk__in=here).exclude(pk__in=busy),
        "next_hand": table.game.hands_played + 1,
        "fixed": night.format == night.FIXED,
    }
