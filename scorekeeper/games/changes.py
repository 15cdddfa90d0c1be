"""Changing a game: recording a hand, voiding or correcting one, ending the
game. Each parses the request, calls one service and renders; nothing is
saved unless the rules accept it."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import quote
from uuid import UUID

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper import tablewords
from scorekeeper.eventstore import Busy, Conflict, IdTaken
from scorekeeper.gamelog import GameLog, clean_text
from scorekeeper.games import presenters, services
from scorekeeper.games.forms import (
    HandForm,
    VoidForm,
    correction_initial,
    new_event_id,
)
from scorekeeper.models import Game, GameEvent
from scorekeeper.projections.boards import game_log, scoreboard
from scorekeeper.record_form import form_options
from scorekeeper.recording import Appended, Refused
from scorekeeper.refusals import Refusal
from scorekeeper.rules.engine import HandResult, Scoreboard
from scorekeeper.rules.events import HandRecorded
from scorekeeper.rules.referee import seat_calls, turn_of
from scorekeeper.rules.variants import find_variant
from scorekeeper.web import access
from scorekeeper.web.limits import rate_limited

from .outcomes import (
    NOTHING_DONE,
    ChangeKind,
    conflict_words,
    event_names,
    hand_after_the_end,
    refusal_of,
    same_hand,
    try_change,
    what_changed,
)
from .pages import current_state, game_page, refused_answer, save_answer
from .parts import BY_COOKIE, game_url_of, remembered_by
from .sharing import carry_new_events


@require_POST
@rate_limited("append")
def hand_create(request: HttpRequest, game_id: UUID) -> HttpResponse:
    game, _ = access.game_for(request, game_id, edit=True)
    variant = find_variant(game.preset, len(game.seats))
    passing = request.POST.get("action") == "pass"
    form = HandForm(request.POST, variant=variant, passing=passing)
    if not form.is_valid():
        log, board = current_state(game)
        return refused_answer(request, game, log, board, form)
    try:
        appended = _record(game, form)
    except (Conflict, Busy, IdTaken) as error:
        return _after_conflict(request, game, form, error)
    except Refused as refused:
        log, board = current_state(game)
        said = refusal_of(refused, event_names(log, board))
        form.add_error(None, said.text)
        form.rule_source = said.rule
        return refused_answer(request, game, log, board, form)
    by = form.cleaned_data.get("by") or ""
    response: HttpResponse
    if not getattr(request, "htmx", False):
        response = redirect(f"{game_url_of(game.pk)}?saved={appended.seq}")
    else:
        response = save_answer(request, game, appended.log, appended.board, by=by)
        takeovers = presenters.takeovers(game)  # kept: save_answer just read them
        carry_new_events(request, response, appended.log, takeovers)
    _remember_by(response, by)
    return response


def _record(game: Game, form: HandForm) -> Appended:
    data = form.cleaned_data
    common: dict[str, Any] = {
        "game": game,
        "expected_seq": data["expected_seq"],
        "event_id": data["event_id"],
        "by": data.get("by") or "",
        "now": timezone.now(),
    }
    calls = form.calls()
    if calls:  # seated by whose turn it was, for the hand about to be recorded
        turn = scoreboard(game.pk, game_log(game)).next
        if turn is not None:
            common["auction"] = seat_calls(form.variant, turn, calls)
    hand = form.hand()
    if not isinstance(hand, HandRecorded):
        return services.hand_pass_out(**common)
    return services.hand_record(
        bidder=hand.bidder,
        bid=hand.bid,
        trump=hand.trump,
        tricks=hand.tricks,
        free_tricks=hand.free_tricks,
        **common,
    )


def _after_conflict(
    request: HttpRequest,
    game: Game,
    form: HandForm,
    error: Conflict | Busy | IdTaken,
) -> HttpResponse:
    """Another phone saved first, or the database could not take the write:
    show the fresh game, keep what was entered."""
    status = 409
    if isinstance(error, Busy):
        game.refresh_from_db()  # the storage may answer reads still
        status = 503
    log, board = current_state(game)
    kept = not board.finished  # a finished game shows no form to save again
    changed = ""
    if isinstance(error, Conflict):
        changed = what_changed(log, board, form.cleaned_data["expected_seq"])
    message = conflict_words(error, changed, kept=kept)
    data = dict(form.data.items())
    data["expected_seq"] = str(game.last_seq)
    data["event_id"] = new_event_id()
    fresh = HandForm(data, variant=board.variant, passing=form.passing)
    if isinstance(error, Conflict) and not kept:
        entered = form.hand()
        if same_hand(entered, log.entries[-1].event):
            # Both phones entered the hand that won: it is saved, once.
            message += " It was the hand you entered: nothing more to save."
        else:  # why no hand can follow, where the form was
            said = hand_after_the_end(log, board, entered)
            if said.text:
                fresh.add_error(None, said.text)
                fresh.rule_source = said.rule
    response = game_page(
        request, game, log, board, form=fresh, message=message, status=status
    )
    response["HX-Retarget"] = "#game"  # the whole game changed, not only the form
    if status == 503:
        response["Retry-After"] = "5"
    return response


def _remember_by(response: HttpResponse, by: str) -> None:
    """A cookie value must be Latin-1 for every server (gunicorn refuses
    more), so the name is stored percent-encoded: "Łukasz" too."""
    if by:
        value = quote(by[:60], safe="")
        response.set_cookie(BY_COOKIE, value, max_age=365 * 24 * 3600, samesite="Lax")


def _sent_again(request: HttpRequest, game: Game) -> bool:
    """A POST whose event id is in the game's log already: the same change
    sent twice (a double tap, a resend), answered as the first was."""
    event_id = str(request.POST.get("event_id", ""))[:64]
    if not event_id or clean_text(event_id, limit=64) is not None:
        return False  # no id, or one no log holds (PostgreSQL refuses a NUL)
    stored = GameEvent.objects.filter(game=game, event_id=event_id)
    return request.method == "POST" and stored.exists()


def _back_to_game(game: Game, by: str) -> HttpResponse:
    """A change saved: back to the game page, remembering who entered it."""
    response = redirect("game", game_id=game.pk)
    _remember_by(response, by)
    return response


def _form_problem(form: VoidForm, kind: ChangeKind) -> str:
    """What was wrong with a submitted form, in one line (nothing saved)."""
    labels = {"reason": "The reason", "by": "“Entered by”"}
    problems = [
        f"{labels[field]}: {' '.join(str(error) for error in errors)}"
        if field in labels
        else "This form is out of date: open the hand again."
        for field, errors in form.errors.items()
    ]
    return " ".join([*dict.fromkeys(problems), NOTHING_DONE[kind]])


def _by_whom(
    request: HttpRequest,
    game: Game,
    what: str,
    reason: str,
    append: Callable[..., Appended],
    by: str,
) -> Callable[[], object]:
    """The table's own change (entered ``by``), or, on a closed league
    night, an organizer's, made as the league makes it (signed with their
    name, its reason in the log and in the night's change log).
    ``append`` takes ``by`` and ``note``."""
    if not game.locked:
        return lambda: append(by=by)
    user, overseer = request.user, access.overseer_of(request, game)
    assert isinstance(user, User) and overseer  # access gave the "correct" role
    return lambda: overseer.change(
        game=game,
        user=user,
        reason=reason,
        what=what,
        append=append,
        now=timezone.now(),
    )


def _hand_named(
    request: HttpRequest, game_id: UUID, target: int
) -> tuple[Game, GameLog, Scoreboard, HandResult | None]:
    """The game (edit link only), and the hand in force that a void or
    correction of the hand event ``target`` would change (None if none)."""
    game, _ = access.game_for(request, game_id, edit=True, correct=True)
    log = game_log(game)
    board = scoreboard(game.pk, log)
    result = next((hand for hand in board.hands if hand.target == target), None)
    return game, log, board, result


@require_http_methods(["GET", "POST"])
@rate_limited("append")
def game_end(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """End the game as it stands, after a confirmation and with a reason
    (a league round called by the clock): the highest total wins."""
    game, _ = access.game_for(request, game_id, edit=True)
    log = game_log(game)
    board = scoreboard(game.pk, log)
    if board.finished:
        return redirect("game", game_id=game.pk)
    form = VoidForm(
        request.POST or None,
        initial={
            "expected_seq": len(log.entries),
            "event_id": new_event_id(),
            "by": remembered_by(request),
            "reason": "time",
        },
    )
    error = Refusal("")
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        error = try_change(
            lambda: services.game_end(
                game=game,
                expected_seq=data["expected_seq"],
                reason=data["reason"],
                by=data["by"],
                event_id=data["event_id"],
                now=timezone.now(),
            ),
            ChangeKind.END,
            log,
            board,
        )
        if not error:
            return _back_to_game(game, data["by"])
    elif form.errors:
        error = Refusal(_form_problem(form, ChangeKind.END))
    return _end_page(request, game, board, form, error)


def _end_page(
    request: HttpRequest, game: Game, board: Scoreboard, form: VoidForm, error: Refusal
) -> HttpResponse:
    """The confirmation, naming the sides by who plays now (a substitute too)."""
    named = tablewords.board_now(board, presenters.takeovers(game))
    context = {
        "game": game,
        "form": form,
        "error": error,
        "sides": presenters.score_boxes(named),
        "leaders": presenters.leaders_line(named),
    }
    return render(request, "games/game_end.html", context, status=422 if error else 200)


@require_http_methods(["GET", "POST"])
@rate_limited("append")
def hand_void(request: HttpRequest, game_id: UUID, target: int) -> HttpResponse:
    game, log, board, result = _hand_named(request, game_id, target)
    if result is None:
        if _sent_again(request, game):  # this very void, sent twice: done
            return _back_to_game(game, str(request.POST.get("by", "")))
        return render(request, "games/gone.html", {"game": game}, status=404)
    form = VoidForm(
        request.POST or None,
        initial={
            "expected_seq": len(log.entries),
            "event_id": new_event_id(),
            "by": remembered_by(request),
        },
    )
    error = Refusal("")
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        void = partial(
            services.hand_void,
            game=game,
            expected_seq=data["expected_seq"],
            target=target,
            reason=data["reason"],
            event_id=data["event_id"],
            now=timezone.now(),
        )
        what = f"hand {result.number} voided"
        change = _by_whom(request, game, what, data["reason"], void, data["by"])
        error = try_change(change, ChangeKind.VOID, log, board, result)
        if not error:
            return _back_to_game(game, data["by"])
    elif form.errors:
        error = Refusal(_form_problem(form, ChangeKind.VOID))
    summary = presenters.hand_summary(board.variant, board.seats, result.hand)
    return render(
        request,
        "games/hand_void.html",
        {
            "game": game,
            "result": result,
            "summary": summary,
            "form": form,
            "error": error,
        },
        status=422 if error else 200,
    )


@require_http_methods(["GET", "POST"])
@rate_limited("append")
def hand_correct(request: HttpRequest, game_id: UUID, target: int) -> HttpResponse:
    game, log, board, result = _hand_named(request, game_id, target)
    if result is None:
        return render(request, "games/gone.html", {"game": game}, status=404)
    variant = board.variant
    passing = request.POST.get("action") == "pass"
    form = HandForm(
        request.POST or None,
        variant=variant,
        passing=passing,
        initial=correction_initial(
            result.hand, variant, seq=len(log.entries), by=remembered_by(request)
        ),
    )
    error = Refusal("")
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        correct = partial(
            services.hand_correct,
            game=game,
            expected_seq=data["expected_seq"],
            target=target,
            hand=form.hand(),
            event_id=data["event_id"],
            now=timezone.now(),
        )
        what = f"hand {result.number} corrected"
        reason = request.POST.get("reason", "")
        by = data.get("by") or ""
        error = try_change(
            _by_whom(request, game, what, reason, correct, by),
            ChangeKind.CORRECT,
            log,
            board,
            result,
        )
        if not error:
            return _back_to_game(game, data.get("by") or "")
    values = presenters.form_values(form)
    hand_turn = turn_of(variant, board.first_dealer, result.number, result.pepper_round)
    return render(
        request,
        "games/hand_correct.html",
        {
            "game": game,
            "result": result,
            "form": form,
            "options": form_options(values, board, hand_turn),
            "expected_seq": values.get("expected_seq"),
            "event_id": values.get("event_id"),
            "by": values.get("by"),
            "error": error,
            "board": board,
        },
        status=422 if error or form.errors else 200,
    )
