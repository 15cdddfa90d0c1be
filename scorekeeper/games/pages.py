"""The game's pages: the home page, a new game, the score with its record
form, and the score as it stood after a hand. HTMX requests get the named
partial of the same template, so every page works without it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple
from uuid import UUID

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper import tablewords
from scorekeeper.gamelog import GameLog
from scorekeeper.games import fragments, lobby, presenters, services
from scorekeeper.games.forms import SERIES_CHOICES, GameForm, HandForm, new_event_id
from scorekeeper.house_rules import SETTINGS
from scorekeeper.models import Game
from scorekeeper.projections.boards import game_log, scoreboard
from scorekeeper.refusals import sentence
from scorekeeper.rules.engine import Scoreboard, replay
from scorekeeper.rules.variants import PRESETS
from scorekeeper.tablewords import Takeover, voided, whole_number
from scorekeeper.web import access
from scorekeeper.web.limits import rate_limited

from .parts import (
    HISTORY_SHOWN,
    board_context,
    game_url_of,
    history_html,
    partial_of,
    record_context,
    table_context,
)
from .series import series_states
from .series_panel import series_context
from .sharing import LINKS_NEW, share_links
from .table import phone_of


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    held = Game.objects.filter(pk__in=access.held_games(request))
    games = [
        game
        for game in held.order_by("finished", "-updated_at")
        if access.role_of(request, game)
    ]
    series = series_states(game.series_id for game in games if game.series_id)
    cards = [
        lobby.game_card(game, series.get(game.series_id) if game.series_id else None)
        for game in games
    ]
    return render(request, "games/home.html", {"cards": cards, "kept": access.KEPT})


@require_http_methods(["GET", "POST"])
@rate_limited("game_create")
def game_new(request: HttpRequest) -> HttpResponse:
    form = GameForm(request.POST or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        game_id, edit_token = form.chosen()
        try:
            game = services.game_create(
                game_id=game_id,
                edit_token=edit_token,
                preset=form.cleaned_data["preset"],
                seats=form.seats(),
                first_dealer=form.cleaned_data["first_dealer"],
                overrides=form.overrides(),
                name=form.cleaned_data.get("name") or "",
                series=form.series_rule(),
                now=timezone.now(),
            )
        except services.SetupError as refused:
            error = sentence(refused.message)
        else:
            access.grant(request, game, game.edit_token)  # the creator may edit
            return redirect("game", game_id=game.pk)
    presets = [
        (name, by_seats[4].description, sorted(by_seats))
        for name, by_seats in PRESETS.items()
    ]
    status = 422 if request.method == "POST" else 200
    dealer = whole_number(str(form.data.get("first_dealer", "0")))
    return render(
        request,
        "games/game_new.html",
        {
            "form": form,
            "presets": presets,
            "error": error,
            "seat_fields": [
                (seat, str(form.data.get(f"seat_{seat}", "")).strip())
                for seat in range(8)
            ],
            "any_name": any(form.data.get(f"seat_{seat}") for seat in range(8)),
            "house_fields": lobby.house_fields(form.data),
            "house_open": any(form.data.get(s.key) for s in SETTINGS),
            "first_dealer": dealer or 0,
            "series_choices": SERIES_CHOICES,
        },
        status=status,
    )


@require_GET
def game_detail(request: HttpRequest, game_id: UUID) -> HttpResponse:
    game, role = access.game_for(request, game_id)
    access.renew(request, timezone.localdate())
    log = game_log(game)
    board = scoreboard(game.pk, log)
    after = request.GET.get("after")
    if after is not None and board.rows:
        number, note = _nearest_hand(after, len(board.rows))
        return _as_it_stood(request, game, board, number, note)
    if after is not None:
        message = "No hand has been played yet, so there is no earlier score."
        return game_page(request, game, log, board, role=role, message=message)
    saved = whole_number(request.GET.get("saved", "")) == len(log.entries)
    return game_page(request, game, log, board, role=role, saved=saved)


def _nearest_hand(asked: str, hands: int) -> tuple[int, str]:
    """The hand ``?after=`` names, or the nearest real one and why."""
    number = whole_number(asked)
    if number is None:
        return (
            hands,
            f"“{asked[:20]}” is not a hand number: this is after the last hand.",
        )
    if number < 1:
        return 1, f"There is no hand {number}: this is after the first hand."
    if number > hands:
        return hands, (
            f"There is no hand {number}: the game has {hands} "
            f"hand{'s' if hands > 1 else ''}; this is after the last."
        )
    return number, ""


def _as_it_stood(
    request: HttpRequest, game: Game, board: Scoreboard, number: int, note: str = ""
) -> HttpResponse:
    """The game as it stood after hand ``number``: its first hands replayed."""
    hands = [result.hand for result in board.hands[:number]]
    then = replay(board.variant, board.seats, board.first_dealer, hands)
    rows = presenters.history(
        then, GameLog(then.variant, then.seats, then.first_dealer, ())
    )
    context = {
        "game": game,
        "game_url": game_url_of(game.pk),
        "board": then,
        "number": number,
        "sides": presenters.score_boxes(then),
        "status_line": presenters.status(then),
        "rows": rows,
        "note": note,
    }
    return render(request, "games/game_then.html", context)


def current_state(game: Game) -> tuple[GameLog, Scoreboard]:
    game.refresh_from_db()
    log = game_log(game)
    return log, scoreboard(game.pk, log)


GAME_TEMPLATE = "games/game_detail.html"


class _GameView(NamedTuple):
    """A game as its page shows it: ``played`` names each hand by who
    played it, ``board`` the sides by who plays now (a substitute too)."""

    game: Game
    log: GameLog
    played: Scoreboard
    board: Scoreboard
    takers: Sequence[Takeover]
    url: str


def _view_of(game: Game, log: GameLog, played: Scoreboard) -> _GameView:
    takers = presenters.takeovers(game)
    board = tablewords.board_now(played, takers)
    return _GameView(game, log, played, board, takers, game_url_of(game.pk))


def _live_context(
    request: HttpRequest,
    view: _GameView,
    *,
    role: access.Role,
    form: HandForm | None = None,
    message: str = "",
    by: str | None = None,
    prefill: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The score, whose turn it is and the record form (the live part)."""
    return {
        **board_context(view.url, view.log, view.board),
        **record_context(request, view.game, view.log, view.board, form, by, prefill),
        "game": view.game,
        "message": message,
        "role": role,
    }


def _saved_context(view: _GameView) -> dict[str, Any]:
    """ "Hand 7 saved: ..." where the player tapped, with an Undo (a void)."""
    last = tablewords.board_at(view.played, view.takers, len(view.played.rows))
    return {
        "saved_line": presenters.saved_line(last),
        "undo_target": view.board.hands[-1].target,
        "undo_id": new_event_id(),
    }


def _history_context(
    request: HttpRequest, view: _GameView, role: access.Role
) -> dict[str, Any]:
    """The hands (the newest ``HISTORY_SHOWN``, or all), the voided ones
    and the chart."""
    shown = None if request.GET.get("hands") == "all" else HISTORY_SHOWN
    played, log = view.played, view.log
    return {
        "history_html": history_html(
            view.url, played, log, role, shown, takers=view.takers
        ),
        "hidden_hands": 0 if shown is None else len(played.hands) - shown,
        "history_shown": HISTORY_SHOWN,
        "voided": voided(played, log),
        "chart_html": fragments.chart_html(view.url, view.board, len(log.entries)),
    }


def game_page(
    request: HttpRequest,
    game: Game,
    log: GameLog,
    board: Scoreboard,
    *,
    role: access.Role = "edit",
    form: HandForm | None = None,
    message: str = "",
    status: int = 200,
    saved: bool = False,
) -> HttpResponse:
    """The game page: the score, the record form (``form`` as entered,
    else a fresh one), the history and chart, and for the edit link the
    share links; htmx gets its "game" part. ``saved``: the last hand was
    just saved from this page."""
    view = _view_of(game, log, board)
    if role == "edit":
        phone_of(request)  # this phone's id, before its first tap
    table = table_context(request, game, view.board, role=role)
    context = _live_context(
        request, view, role=role, form=form, message=message, prefill=table["prefill"]
    )
    context["table_html"] = render_to_string(
        "games/_table.html", table, request=request
    )
    if saved and role == "edit" and board.hands:
        context.update(_saved_context(view))
    if role == "edit":
        context["links"] = share_links(request, game)
        told = messages.get_messages(request)  # read: said once
        context["links_new"] = any(LINKS_NEW in m.extra_tags for m in told)
    context.update(series_context(game, role=role))
    context.update(_history_context(request, view, role))
    template = partial_of(request, GAME_TEMPLATE, "game")
    return render(request, template, context, status=status)


def refused_answer(
    request: HttpRequest, game: Game, log: GameLog, board: Scoreboard, form: HandForm
) -> HttpResponse:
    """A hand not saved (something missing, or the rules refused it): the
    form again as entered, saying why. htmx swaps the live part only; a
    page without it gets the whole game, its share links left out."""
    view = _view_of(game, log, board)
    context = _live_context(request, view, role="edit", form=form)
    htmx = getattr(request, "htmx", False)
    if not htmx:
        context.update(_history_context(request, view, "edit"))
    template = partial_of(request, GAME_TEMPLATE, "live")
    return render(request, template, context, status=422)


def save_answer(
    request: HttpRequest, game: Game, log: GameLog, board: Scoreboard, *, by: str
) -> HttpResponse:
    """An htmx save's answer: the new hand's row and "Hand 7 saved" with
    its Undo. While the game goes on, only what the save changed, out of
    band (the form stays, its choices fresh); once it is won, the saved
    part with the winner."""
    view = _view_of(game, log, board)
    context = _live_context(request, view, role="edit", by=by)
    context.update(_saved_context(view))
    context["new_row_html"] = fragments.rows_html(
        view.url, view.played, log, "edit", view.played.hands[-1:], view.takers
    )
    context["poller_oob"] = True  # this phone has seen its own hand
    if view.board.finished:
        context.update(series_context(game, role="edit"), series_oob=True)
        return render(request, f"{GAME_TEMPLATE}#saved", context)
    context.update(lean=True, board_oob=True)
    template = f"{GAME_TEMPLATE}#lean"
    # All out of band; the form was not touched since. Nothing in it needs
    # the request's context processors (no form token, no script nonce):
    # rendered without them (a save's hottest part).
    response = HttpResponse(render_to_string(template, context), status=200)
    response["HX-Reswap"] = "none"
    response["HX-Trigger"] = "pepper-saved"
    return response
