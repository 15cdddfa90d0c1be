"""The game's pages: the home page, a new game, the score with its record
form, and the score as it stood after a hand. HTMX requests get the named
partial of the same template, so every page works without it."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper.eventstore import load, scoreboard
from scorekeeper.gamelog import GameLog
from scorekeeper.games import fragments, lobby, presenters, seat_players, services
from scorekeeper.games.forms import GameForm, HandForm, new_event_id, whole_number
from scorekeeper.house_rules import SETTINGS
from scorekeeper.models import Game
from scorekeeper.refusals import sentence
from scorekeeper.rules.engine import Scoreboard, replay
from scorekeeper.rules.variants import PRESETS
from scorekeeper.web import access
from scorekeeper.web.compiled import render_compiled
from scorekeeper.web.limits import rate_limited

from .parts import (
    HISTORY_SHOWN,
    board_context,
    game_url_of,
    history_html,
    partial_of,
    record_context,
)
from .sharing import share_links


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    held = Game.objects.filter(pk__in=access.held_games(request))
    games = [
        game
        for game in held.order_by("finished", "-updated_at")
        if access.role_of(request, game)
    ]
    cards = [lobby.game_card(game) for game in games]
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
        },
        status=status,
    )


@require_GET
def game_detail(request: HttpRequest, game_id: UUID) -> HttpResponse:
    game, role = access.game_for(request, game_id)
    access.renew(request, timezone.localdate())
    log = load(game)
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
    log = load(game)
    return log, scoreboard(game.pk, log)


def game_page(
    request: HttpRequest,
    game: Game,
    log: GameLog,
    board: Scoreboard,
    *,
    form: HandForm | None = None,
    message: str = "",
    status: int = 200,
    partial: str = "game",
    role: access.Role = "edit",
    by: str | None = None,
    saved: bool = False,
) -> HttpResponse:
    game_url = game_url_of(game.pk)
    # Named by who plays now; the history by who played each hand.
    takers = seat_players.takeovers(game)
    played, board = board, seat_players.board_now(board, takers)
    context: dict[str, Any] = {
        **board_context(game_url, log, board),
        **record_context(request, game, log, board, form, by),
        "game": game,
        "message": message,
        "role": role,
    }
    if saved and role == "edit" and board.hands:
        # "Hand 7 saved: ..." where the player tapped, with an Undo (a void).
        last = seat_players.board_at(played, takers, len(played.rows))
        context["saved_line"] = presenters.saved_line(last)
        context["undo_target"] = board.hands[-1].target
        context["undo_id"] = new_event_id()
    if role == "edit" and partial == "game":
        context["links"] = share_links(request, game)
    htmx = getattr(request, "htmx", False)
    if htmx and partial == "saved":
        context["new_row_html"] = fragments.rows_html(
            game_url, played, log, role, played.hands[-1:], takers
        )
        context["poller_oob"] = True  # this phone has seen its own hand
        if not board.finished:  # the form stays: only what the save changed
            partial = "lean"
            context.update(lean=True, board_oob=True)
    elif partial == "game" or not htmx:
        shown = None if request.GET.get("hands") == "all" else HISTORY_SHOWN
        context["history_html"] = history_html(
            game_url, played, log, role, shown, takers=takers
        )
        context["hidden_hands"] = 0 if shown is None else len(board.hands) - shown
        context["history_shown"] = HISTORY_SHOWN
        context["voided"] = presenters.voided(played, log)
        context["chart_html"] = fragments.chart_html(game_url, board, len(log.entries))
    template = partial_of(request, "games/game_detail.html", partial)
    if partial != "lean":
        return render(request, template, context, status=status)
    # All out of band; the form was not touched since. Nothing in it needs
    # the request's context processors (no form token, no script nonce), so
    # the partial is rendered as compiled Python (a save's hottest part).
    response = HttpResponse(render_compiled(template, context), status=status)
    response["HX-Reswap"] = "none"
    response["HX-Trigger"] = "pepper-saved"
    return response
