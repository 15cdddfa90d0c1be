"""The table's phones on the game page: take or leave a seat, call in the
auction, name trump, and the panel's own poll. Each POST answers htmx
with the panel (and the record form's choices, filled from the auction),
and a page without JavaScript with the game page again."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from scorekeeper.gamerows import game_row
from scorekeeper.models import Game
from scorekeeper.projections.boards import game_log, scoreboard
from scorekeeper.record_form import form_options
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.tablewords import board_now, call_of, whole_number
from scorekeeper.web import access
from scorekeeper.web.limits import rate_limited

from . import presenters
from .pages import game_page
from .parts import table_context
from .sharing import carry_new_events
from .table import (
    FREE,
    TableRefused,
    auction_call,
    auction_trump,
    head_and_version,
    phone_of,
    seat_leave,
    seat_take,
)

PANEL = "games/_table.html"


def _board_of(game: Game) -> Scoreboard:
    log = game_log(game)
    return board_now(scoreboard(game.pk, log), presenters.takeovers(game))


def _seat_of(request: HttpRequest, board: Scoreboard) -> int | None:
    seat = whole_number(request.POST.get("seat", ""))
    return seat if seat is not None and seat < len(board.seats) else None


@require_POST
@rate_limited("append")
def table_seat(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """ "I am Ann" (this phone takes her seat, from another phone too) or
    "Leave" (nobody holds it: any phone calls for it)."""
    game, _ = access.game_for(request, game_id, edit=True)
    board = _board_of(game)
    seat, phone = _seat_of(request, board), phone_of(request)
    try:
        if seat is None:
            raise TableRefused("Choose a seat from the list.")
        if request.POST.get("action") == "leave":
            seat_leave(game=game, seat=seat, phone=phone)
        else:
            saw = request.POST.get("saw", FREE)
            seat_take(game=game, board=board, seat=seat, phone=phone, saw=saw)
    except TableRefused as refused:
        return _refused(request, game, board, refused)
    return _answer(request, game, board, fill_form=False)


@require_POST
@rate_limited("append")
def table_call(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """A call in the auction for a seat (``call``, as call number
    ``position``), or the winner's trump (``trump``)."""
    game, _ = access.game_for(request, game_id, edit=True)
    board, phone = _board_of(game), phone_of(request)
    seat = _seat_of(request, board)
    position = whole_number(request.POST.get("position", ""))
    try:
        if board.next is None:
            raise TableRefused("The game is over: there is no hand to bid.")
        if whole_number(request.POST.get("seq", "")) != game.last_seq:
            raise TableRefused(
                f"Hand {board.next.number - 1} was just recorded: "
                f"this is hand {board.next.number}'s auction now."
            )
        trump = request.POST.get("trump", "")
        if trump:
            auction_trump(game=game, board=board, trump=trump, phone=phone)
        elif seat is None or position is None or not request.POST.get("call"):
            raise TableRefused("Tap a call for the seat whose turn it is.")
        else:
            call = call_of(request.POST["call"].strip().lower())
            auction_call(
                game=game,
                board=board,
                seat=seat,
                call=call,
                position=position,
                phone=phone,
            )
    except TableRefused as refused:
        return _refused(request, game, board, refused)
    return _answer(request, game, board)


@require_GET
def table_poll(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The panel again if the table or the log moved since ``v``/``seq``;
    204 if not (one query). The game page's own poll serves the panel now
    (``game_poll`` with ``v``); this answers a page opened before that."""
    found = head_and_version(game_id)
    if found is None:
        return HttpResponse(status=404)
    head, version = found
    if access.role_of(request, head) is None:
        return HttpResponse(status=404)
    seen = (
        whole_number(request.GET.get("v", "")),
        whole_number(request.GET.get("seq", "")),
    )
    if seen == (version, head.last_seq):
        return HttpResponse(status=204)
    # The new panel has no poll of its own: the old page reloads once, into
    # the page whose one poll follows the table.
    return HttpResponse(headers={"HX-Refresh": "true"})


def panel_answer(
    request: HttpRequest, game_id: UUID, *, role: access.Role
) -> HttpResponse:
    """The game poll's answer when only the table moved (a seat taken, a
    call made, a hand saved on this phone): the panel, out of band, for
    the ``role`` the poll found. It says the phone's copy of the log is
    current (no events carried), or the offline script would fetch the
    log again for every call."""
    game = game_row(game_id)  # plain SQL, as the poll's head
    if game is None:  # deleted since the poll read its head
        return HttpResponse(status=404)
    log = game_log(game)
    takers = presenters.takeovers(game)
    board = board_now(scoreboard(game.pk, log), takers)
    response = HttpResponse(panel_html(request, game, board, role=role))
    carry_new_events(request, response, log, takers)
    return response


def panel_html(
    request: HttpRequest, game: Game, board: Scoreboard, *, role: access.Role
) -> str:
    """The panel as the game poll sends it: out of band, the form filled
    from a settled auction unless this phone's form was already
    (``filled=1``)."""
    filled = request.GET.get("filled") == "1"
    context = _panel_context(request, game, board, role=role, fill_form=not filled)
    context["table_oob"] = True
    return render_to_string(PANEL, context, request=request)


def _answer(
    request: HttpRequest, game: Game, board: Scoreboard, *, fill_form: bool = True
) -> HttpResponse:
    if getattr(request, "htmx", False):
        return _panel(request, game, board, role="edit", fill_form=fill_form)
    return redirect("game", game_id=game.pk)


def _refused(
    request: HttpRequest, game: Game, board: Scoreboard, refused: TableRefused
) -> HttpResponse:
    if getattr(request, "htmx", False):
        return _panel(request, game, board, role="edit", refused=refused, status=409)
    log = game_log(game)
    message = refused.message + (f" Rule: {refused.rule}" if refused.rule else "")
    played = scoreboard(game.pk, log)
    return game_page(request, game, log, played, message=message, status=409)


def _panel(
    request: HttpRequest,
    game: Game,
    board: Scoreboard,
    *,
    role: access.Role,
    refused: TableRefused | None = None,
    status: int = 200,
    fill_form: bool = True,
) -> HttpResponse:
    context = _panel_context(
        request, game, board, role=role, refused=refused, fill_form=fill_form
    )
    return render(request, PANEL, context, status=status)


def _panel_context(
    request: HttpRequest,
    game: Game,
    board: Scoreboard,
    *,
    role: access.Role,
    refused: TableRefused | None = None,
    fill_form: bool = True,
) -> dict[str, Any]:
    """The panel; with it, out of band, the record form's auction line as
    it goes, and once the auction is settled (``fill_form``: not already
    filled on this phone, whose entries a second fill would wipe) the
    form's choices filled from it."""
    context = table_context(request, game, board, role=role)
    context.update(refused=refused, panel_only=True)
    prefill = context["prefill"]
    if prefill and fill_form and role == "edit" and board.next is not None:
        values = {"outcome": "played", **prefill}
        context["options"] = form_options(values, board, board.next)
        context["values_auction"] = prefill.get("auction", "")
    return context
