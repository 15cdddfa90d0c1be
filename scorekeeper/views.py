"""Pages: parse the request, call a service, render. HTMX requests get the
named partial of the same template, so every page works without it."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any
from urllib.parse import quote, unquote
from uuid import UUID

import segno
from django.core.cache import cache
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import access, presenters, services
from .eventstore import Appended, Busy, Conflict, IdTaken, Refused, head, load
from .forms import (
    GameForm,
    HandForm,
    ImportForm,
    VoidForm,
    new_event_id,
    whole_number,
)
from .gamelog import GameLog, LogError, replay_log, score_document
from .house_rules import SETTINGS
from .limits import rate_limited
from .models import Game, new_token
from .rules.engine import HandResult, Scoreboard, replay
from .rules.events import GameEnded, HandCorrected, HandRecorded, HandVoided
from .rules.referee import Turn, seat_calls, turn_of
from .rules.variants import PRESETS, Variant, find_variant

BY_COOKIE = "pepper_by"


def partial_of(request: HttpRequest, template: str, partial: str) -> str:
    """The template for a page, or only its named partial for htmx."""
    return f"{template}#{partial}" if getattr(request, "htmx", False) else template


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    held = Game.objects.filter(pk__in=access.held_games(request))
    games = [
        game
        for game in held.order_by("finished", "-updated_at")
        if access.role_of(request, game)
    ]
    cards = [presenters.game_card(game) for game in games]
    return render(
        request, "scorekeeper/home.html", {"cards": cards, "kept": access.KEPT}
    )


@require_http_methods(["GET", "POST"])
@rate_limited("game_create")
def game_new(request: HttpRequest) -> HttpResponse:
    form = GameForm(request.POST or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(
                preset=form.cleaned_data["preset"],
                seats=form.seats(),
                first_dealer=form.cleaned_data["first_dealer"],
                overrides=form.overrides(),
                name=form.cleaned_data.get("name") or "",
                now=timezone.now(),
            )
        except services.SetupError as refused:
            error = presenters.sentence(refused.message)
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
        "scorekeeper/game_new.html",
        {
            "form": form,
            "presets": presets,
            "error": error,
            "seat_fields": [
                (seat, str(form.data.get(f"seat_{seat}", "")).strip())
                for seat in range(8)
            ],
            "any_name": any(form.data.get(f"seat_{seat}") for seat in range(8)),
            "house_fields": presenters.house_fields(form.data),
            "house_open": any(form.data.get(s.key) for s in SETTINGS),
            "first_dealer": dealer or 0,
        },
        status=status,
    )


@require_GET
def game_detail(request: HttpRequest, game_id: UUID) -> HttpResponse:
    game, role = access.game_for(request, game_id)
    request.session.modified = True  # renews the browser's hold on its games
    log = load(game)
    board = replay_log(log)
    after = request.GET.get("after")
    if after is not None and board.rows:
        number, note = _nearest_hand(after, len(board.rows))
        return _as_it_stood(request, game, board, number, note)
    if after is not None:
        message = "No hand has been played yet, so there is no earlier score."
        return _game_page(request, game, log, board, role=role, message=message)
    saved = whole_number(request.GET.get("saved", "")) == len(log.entries)
    return _game_page(request, game, log, board, role=role, saved=saved)


@require_GET
def game_tv(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The score for a TV or a tablet: big totals and the last hands, kept
    live by the same poll as every game page (either link may watch)."""
    game, _ = access.game_for(request, game_id)
    log = load(game)
    board = replay_log(log)
    game_url = reverse("game", args=[game.pk])
    context = {
        **_board_context(game_url, log, board),
        "history_html": _history_html(game_url, board, log, "view"),
    }
    return render(request, "scorekeeper/game_tv.html", context)


def _board_context(game_url: str, log: GameLog, board: Scoreboard) -> dict[str, Any]:
    """The score and whose turn it is: what every live screen of a game
    shows (the page, the TV view, a poll's answer, a save's answer)."""
    return {
        "game_url": game_url,
        "board": board,
        "sides": presenters.sides(board),
        "long_names": presenters.long_names(board),
        "turn_line": presenters.turn_line(board),
        "forced_line": presenters.forced_line(board, board.next),
        "status_line": presenters.status(board),
        "status_rule": presenters.status_rule(board),
        "chart": presenters.chart(board),
        "seq": len(log.entries),
    }


@require_GET
def game_poll(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """Has the game moved on since event ``seq``? 204 if not (one indexed
    query); else the fresh score and history, swapped in out of band, a
    note of what changed, and the record form: a fresh one if nobody has
    touched it (``form=untouched``), else re-aimed at the next hand with
    what was entered kept (``form=touched``)."""
    seen = whole_number(request.GET.get("seq", "")) or 0
    now = head(game_id)
    role = None if now is None else access.role_of(request, now)
    if now is None or role is None:
        if now is not None and access.held_token(request, now.pk):
            return access.links_replaced(request)
        return HttpResponse(status=404)
    if seen == now.last_seq:
        return HttpResponse(status=204)
    game = Game.objects.get(pk=game_id)
    log = load(game)
    board = replay_log(log)
    game_url = reverse("game", args=[game.pk])
    state = request.GET.get("form") if role == "edit" else None
    note = _what_changed(log, board, min(seen, len(log.entries)))
    if state == "touched" and not board.finished:
        note += (
            f" Your entry below is kept, now for hand {len(board.rows) + 1}:"
            " if it was the same hand, start a fresh form."
        )
    context = {
        **_board_context(game_url, log, board),
        "history_html": _history_html(game_url, board, log, role),
        "board_oob": True,
        "poller_oob": True,
        "note": note,
        "role": role,
        "record_state": state if state in ("touched", "untouched") else None,
    }
    if state == "untouched":
        context.update(_record_context(request, game, log, board), record_oob=True)
    return render(request, "scorekeeper/game_detail.html#polled", context)


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
        "game_url": reverse("game", args=[game.pk]),
        "board": then,
        "number": number,
        "sides": presenters.sides(then),
        "status_line": presenters.status(then),
        "rows": rows,
        "note": note,
    }
    return render(request, "scorekeeper/game_then.html", context)


@require_POST
@rate_limited("append")
def hand_create(request: HttpRequest, game_id: UUID) -> HttpResponse:
    game, _ = access.game_for(request, game_id, edit=True)
    variant = find_variant(game.preset, len(game.seats))
    passing = request.POST.get("action") == "pass"
    form = HandForm(request.POST, variant=variant, passing=passing)
    if not form.is_valid():
        log, board = _current(game)
        return _game_page(
            request, game, log, board, form=form, status=422, partial="live"
        )
    try:
        appended = _record(game, form)
    except (Conflict, Busy, IdTaken) as error:
        return _after_conflict(request, game, form, error)
    except Refused as refused:
        form.add_error(None, _refusal(refused))
        log, board = _current(game)
        return _game_page(
            request, game, log, board, form=form, status=422, partial="live"
        )
    by = form.cleaned_data.get("by") or ""
    response = (
        _game_page(
            request,
            game,
            appended.log,
            appended.board,
            partial="saved",
            by=by,
            saved=True,
        )
        if getattr(request, "htmx", False)
        else redirect(f"{reverse('game', args=[game.pk])}?saved={appended.seq}")
    )
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
        turn = replay_log(load(game)).next
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
        message = (
            "The game's storage did not take the hand (busy or failing); "
            "nothing was saved. Your entry is still below: save it again."
        )
        status = 503
    log, board = _current(game)
    if isinstance(error, IdTaken):
        message = (
            "This form was already used for a different entry; nothing was "
            "saved. Check the hands below, then save again."
        )
    elif status == 409:
        message = _what_changed(log, board, form.cleaned_data["expected_seq"])
        message += (
            " Your entry is still below: if it is a different hand, save it again."
        )
    data = dict(form.data.items())
    data["expected_seq"] = str(game.last_seq)
    data["event_id"] = new_event_id()
    fresh = HandForm(data, variant=board.variant)
    response = _game_page(
        request, game, log, board, form=fresh, message=message, status=status
    )
    response["HX-Retarget"] = "#game"  # the whole game changed, not only the form
    if status == 503:
        response["Retry-After"] = "5"
    return response


def _what_changed(log: GameLog, board: Scoreboard, seen: int) -> str:
    """What the first event after ``seen`` did, and who entered it."""
    entry = log.entries[seen] if seen < len(log.entries) else None
    who = "the other phone" if entry is None or not entry.by else entry.by
    if entry is not None and isinstance(entry.event, HandVoided):
        return f"A hand was just voided by {who}."
    if entry is not None and isinstance(entry.event, HandCorrected):
        return f"A hand was just corrected by {who}."
    if entry is not None and isinstance(entry.event, GameEnded):
        return f"The game was just ended by {who}."
    number = len(board.rows) - (len(log.entries) - seen - 1)
    return f"Hand {number} was just recorded by {who}."


def _current(game: Game) -> tuple[GameLog, Scoreboard]:
    game.refresh_from_db()
    log = load(game)
    return log, replay_log(log)


def _game_page(
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
    game_url = reverse("game", args=[game.pk])
    context: dict[str, Any] = {
        **_board_context(game_url, log, board),
        **_record_context(request, game, log, board, form, by),
        "game": game,
        "message": message,
        "role": role,
    }
    if saved and role == "edit" and board.hands:
        # "Hand 7 saved: ..." where the player tapped, with an Undo (a void).
        context["saved_line"] = presenters.saved_line(board)
        context["undo_target"] = board.hands[-1].target
        context["undo_id"] = new_event_id()
    if role == "edit" and partial == "game":
        context["links"] = _share_links(request, game)
    htmx = getattr(request, "htmx", False)
    if htmx and partial == "saved":
        context["new_row"] = presenters.history_row(board, board.hands[-1])
        context["poller_oob"] = True  # this phone has seen its own hand
    elif partial == "game" or not htmx:
        shown = None if request.GET.get("hands") == "all" else HISTORY_SHOWN
        context["history_html"] = _history_html(game_url, board, log, role, shown)
        context["hidden_hands"] = 0 if shown is None else len(board.hands) - shown
        context["history_shown"] = HISTORY_SHOWN
        context["voided"] = presenters.voided(board, log)
        context["ended"] = presenters.ending(log)
    template = partial_of(request, "scorekeeper/game_detail.html", partial)
    return render(request, template, context, status=status)


def _record_context(
    request: HttpRequest,
    game: Game,
    log: GameLog,
    board: Scoreboard,
    form: HandForm | None = None,
    by: str | None = None,
) -> dict[str, Any]:
    """What the record form shows: what was entered in ``form``, else a
    fresh form for the next hand ("entered by" as this browser last gave it)."""
    turn = board.next
    by = _remembered_by(request) if by is None else by
    # A fresh form needs only its defaults; no Form object is built for it.
    values = (
        presenters.form_values(form)
        if form is not None
        else {
            "expected_seq": len(log.entries),
            "event_id": new_event_id(),
            "outcome": "played",
            "by": by,
        }
    )
    context: dict[str, Any] = {
        "form": form,
        "options": presenters.form_options(values, board, turn) if turn else None,
        "expected_seq": values.get("expected_seq"),
        "event_id": values.get("event_id"),
        "by": values.get("by", by),
        "values_auction": values.get("auction", ""),
    }
    if form is None and turn is not None:
        context["choices_html"] = _fresh_choices(
            game, board, turn, {**context, "board": board}
        )
    return context


def _fresh_choices(
    game: Game, board: Scoreboard, turn: Turn, context: dict[str, Any]
) -> str:
    """The record form's choices with nothing chosen yet: they depend on the
    game and on whether this hand's bid is forced, so they are kept."""
    forced = f"{turn.first_bidder}:{turn.forced_bid}" if turn.pepper_round else "-"
    key = f"choices:{game.pk}:{forced}"
    html: str | None = cache.get(key)
    if html is None:
        html = render_to_string("scorekeeper/_hand_choices.html", context)
        cache.set(key, html, timeout=3600)
    return mark_safe(html)  # rendered by our own autoescaping template


HISTORY_SHOWN = 50  # newest hands on a game page; "Show all" for the rest


def _history_html(
    game_url: str,
    board: Scoreboard,
    log: GameLog,
    role: access.Role,
    shown: int | None = HISTORY_SHOWN,
) -> str:
    """The rendered history (the newest ``shown`` hands, None: all), kept per
    game, log length, role and length: a projection of the log, so it is
    new exactly when the log has grown."""
    key = f"history:{game_url}:{len(log.entries)}:{role}:{shown}"
    html: str | None = cache.get(key)
    if html is None:
        rows = presenters.history(board, log)[:shown]
        context = {"rows": rows, "game_url": game_url, "role": role}
        html = render_to_string("scorekeeper/_history_rows.html", context)
        cache.set(key, html, timeout=3600)
    return mark_safe(html)  # rendered by our own autoescaping template


def _refusal(refused: Refused) -> str:
    """The rule broken, then what would make the hand legal."""
    fix = f" To make it legal: {refused.remedy}." if refused.remedy else ""
    return presenters.sentence(refused.rule_message) + fix


def _remember_by(response: HttpResponse, by: str) -> None:
    """A cookie value must be Latin-1 for every server (gunicorn refuses
    more), so the name is stored percent-encoded: "Łukasz" too."""
    if by:
        value = quote(by[:60], safe="")
        response.set_cookie(BY_COOKIE, value, max_age=365 * 24 * 3600, samesite="Lax")


def _remembered_by(request: HttpRequest) -> str:
    return unquote(request.COOKIES.get(BY_COOKIE, ""))


def _back_to_game(game: Game, by: str) -> HttpResponse:
    """A change saved: back to the game page, remembering who entered it."""
    response = redirect("game", game_id=game.pk)
    _remember_by(response, by)
    return response


def _form_problem(form: VoidForm) -> str:
    """What was wrong with a submitted form, in one line (nothing saved)."""
    labels = {"reason": "The reason", "by": "“Entered by”"}
    problems = [
        f"{labels[field]}: {' '.join(str(error) for error in errors)}"
        if field in labels
        else "This form is out of date: open the hand again."
        for field, errors in form.errors.items()
    ]
    return " ".join(dict.fromkeys(problems)) + " Nothing was voided."


def _try_change(
    change: Callable[[], object], doing: str, board: Scoreboard, result: HandResult
) -> str:
    """Append a void or a correction of ``result``: "" once saved, else what
    to tell the player (nothing was saved)."""
    try:
        change()
    except (Conflict, IdTaken):
        return (
            f"The game changed on another phone meanwhile; look again before {doing}."
        )
    except Busy:
        return "The game's storage did not take it (busy or failing); nothing was saved. Try again."
    except Refused as refused:
        later = next((h for h in board.hands if h.target == refused.event), None)
        if later is not None and later.number > result.number:
            return _later_hand_broken(refused, doing, board, result, later)
        return _refusal(refused)
    return ""


def _later_hand_broken(
    refused: Refused,
    doing: str,
    board: Scoreboard,
    result: HandResult,
    later: HandResult,
) -> str:
    """The change itself is fine, but a later hand would break: say so, and
    what to do instead (the engine's remedy is about that later hand)."""
    summary = presenters.hand_summary(board.variant, board.seats, later.hand)
    why = presenters.sentence(refused.rule_message)
    if doing == "voiding":
        return (
            f"Voiding hand {result.number} would move every later hand to another "
            f"dealer and first bidder, and hand {later.number} ({summary}) would no "
            f"longer be legal: {why} Void from the last hand back, or correct "
            f"hand {result.number} instead."
        )
    return (
        f"This correction of hand {result.number} would make hand {later.number} "
        f"({summary}) illegal: {why} Correct hand {later.number} first, or void "
        "from the last hand back."
    )


def _hand_named(
    request: HttpRequest, game_id: UUID, target: int
) -> tuple[Game, GameLog, Scoreboard, HandResult | None]:
    """The game (edit link only), and the hand in force that a void or
    correction of the hand event ``target`` would change (None if none)."""
    game, _ = access.game_for(request, game_id, edit=True)
    log = load(game)
    board = replay_log(log)
    result = next((hand for hand in board.hands if hand.target == target), None)
    return game, log, board, result


@require_http_methods(["GET", "POST"])
@rate_limited("append")
def game_end(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """End the game as it stands, after a confirmation and with a reason
    (a league round called by the clock): the highest total wins."""
    game, _ = access.game_for(request, game_id, edit=True)
    log = load(game)
    board = replay_log(log)
    if board.finished:
        return redirect("game", game_id=game.pk)
    form = VoidForm(
        request.POST or None,
        initial={
            "expected_seq": len(log.entries),
            "event_id": new_event_id(),
            "by": _remembered_by(request),
            "reason": "time",
        },
    )
    error = ""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.game_end(
                game=game,
                expected_seq=data["expected_seq"],
                reason=data["reason"],
                by=data["by"],
                event_id=data["event_id"],
                now=timezone.now(),
            )
        except (Conflict, IdTaken):
            error = "The game changed on another phone meanwhile; look again before ending it."
        except Busy:
            error = "The game's storage did not take it (busy or failing); nothing was saved. Try again."
        except Refused as refused:
            error = _refusal(refused)
        else:
            return _back_to_game(game, data["by"])
    elif form.errors:
        error = _form_problem(form).replace("Nothing was voided.", "The game goes on.")
    context = {
        "game": game,
        "form": form,
        "error": error,
        "sides": presenters.sides(board),
        "leaders": presenters.leaders_line(board),
    }
    return render(
        request, "scorekeeper/game_end.html", context, status=422 if error else 200
    )


@require_http_methods(["GET", "POST"])
@rate_limited("append")
def hand_void(request: HttpRequest, game_id: UUID, target: int) -> HttpResponse:
    game, log, board, result = _hand_named(request, game_id, target)
    if result is None:
        return render(request, "scorekeeper/gone.html", {"game": game}, status=404)
    form = VoidForm(
        request.POST or None,
        initial={
            "expected_seq": len(log.entries),
            "event_id": new_event_id(),
            "by": _remembered_by(request),
        },
    )
    error = ""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        error = _try_change(
            lambda: services.hand_void(
                game=game,
                expected_seq=data["expected_seq"],
                target=target,
                reason=data["reason"],
                by=data["by"],
                event_id=data["event_id"],
                now=timezone.now(),
            ),
            "voiding",
            board,
            result,
        )
        if not error:
            return _back_to_game(game, data["by"])
    elif form.errors:
        error = _form_problem(form)
    summary = presenters.hand_summary(board.variant, board.seats, result.hand)
    return render(
        request,
        "scorekeeper/hand_void.html",
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
        return render(request, "scorekeeper/gone.html", {"game": game}, status=404)
    variant = board.variant
    passing = request.POST.get("action") == "pass"
    form = HandForm(
        request.POST or None,
        variant=variant,
        passing=passing,
        initial=_initial(result.hand, variant, len(log.entries), request),
    )
    error = ""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        error = _try_change(
            lambda: services.hand_correct(
                game=game,
                expected_seq=data["expected_seq"],
                target=target,
                hand=form.hand(),
                by=data.get("by") or "",
                event_id=data["event_id"],
                now=timezone.now(),
            ),
            "correcting",
            board,
            result,
        )
        if not error:
            return _back_to_game(game, data.get("by") or "")
    values = presenters.form_values(form)
    hand_turn = turn_of(variant, board.first_dealer, result.number, result.pepper_round)
    return render(
        request,
        "scorekeeper/hand_correct.html",
        {
            "game": game,
            "result": result,
            "form": form,
            "options": presenters.form_options(values, board, hand_turn),
            "expected_seq": values.get("expected_seq"),
            "event_id": values.get("event_id"),
            "by": values.get("by"),
            "error": error,
            "board": board,
        },
        status=422 if error or form.errors else 200,
    )


def _initial(
    hand: object, variant: Variant, seq: int, request: HttpRequest
) -> dict[str, Any]:
    initial: dict[str, Any] = {
        "expected_seq": seq,
        "event_id": new_event_id(),
        "by": _remembered_by(request),
        "outcome": "played",
    }
    if isinstance(hand, HandRecorded):
        initial.update(bidder=str(hand.bidder), bid=str(hand.bid), trump=hand.trump)
        if hand.tricks is None:
            initial.update(outcome="conceded", free_tricks=str(hand.free_tricks))
        elif variant.sides == 2:
            initial["taken"] = str(hand.tricks[variant.side_of(hand.bidder)])
        else:
            initial.update(
                {f"tricks_{seat}": count for seat, count in enumerate(hand.tricks)}
            )
    return initial


@require_http_methods(["GET", "POST"])
@rate_limited("import")
def game_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    error, earlier = "", None
    if request.method == "POST" and form.is_valid():
        try:
            document = form.document()
            if request.POST.get("again") != "1":
                earlier = _imported_before(request, document)
            if earlier is None:
                game = services.game_import(document=document, now=timezone.now())
        except LogError as refused:
            error = str(refused)
        else:
            if earlier is None:
                access.grant(request, game, game.edit_token)
                return redirect("game", game_id=game.pk)
            form = ImportForm(initial={"text": document.decode(errors="replace")})
    return render(
        request,
        "scorekeeper/game_import.html",
        {"form": form, "error": error, "earlier": earlier},
        status=422 if error else 200,
    )


def _imported_before(request: HttpRequest, document: bytes) -> Game | None:
    """A game this browser holds that was imported from the same log."""
    digest = services.log_digest(document)
    held = Game.objects.filter(import_digest=digest, pk__in=access.held_games(request))
    return next((game for game in held if access.role_of(request, game)), None)


@require_GET
def game_log(request: HttpRequest, game_id: UUID) -> JsonResponse:
    """The stored log; ``?download=1`` saves it as a file (a phone would
    otherwise only show it as text)."""
    game, _ = access.game_for(request, game_id)
    response = JsonResponse(
        services.game_export(game=game), json_dumps_params={"indent": 1}
    )
    if request.GET.get("download"):
        day = game.created_at.date().isoformat()
        response["Content-Disposition"] = f'attachment; filename="pepper-{day}.json"'
    return response


@require_GET
def game_score(request: HttpRequest, game_id: UUID) -> JsonResponse:
    game, _ = access.game_for(request, game_id)
    board = replay_log(load(game))
    return JsonResponse(score_document(board), json_dumps_params={"indent": 1})


@require_GET
@rate_limited("join", methods=("GET",))
def join(request: HttpRequest, token: str) -> HttpResponse:
    """Open a shared link: the browser holds the game's edit or read-only
    right from now on (until the link is replaced)."""
    game = Game.objects.filter(Q(edit_token=token) | Q(view_token=token)).first()
    if game is None:
        raise Http404("this link is not (or no longer) a game's")
    access.grant(request, game, token)
    return redirect("game", game_id=game.pk)


@require_http_methods(["GET", "POST"])
def links_replace(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """New edit and read-only links; the old ones stop working at once.
    GET asks first: every phone at the table will need the new link."""
    game, _ = access.game_for(request, game_id, edit=True)
    if request.method == "GET":
        return render(request, "scorekeeper/links_replace.html", {"game": game})
    game.edit_token, game.view_token = new_token(), new_token()
    game.save(update_fields=["edit_token", "view_token"])
    access.grant(request, game, game.edit_token)
    return redirect("game", game_id=game.pk)


def _share_links(request: HttpRequest, game: Game) -> list[tuple[str, str, str]]:
    """(label, absolute link, QR code as an SVG data URI), edit link first."""
    links = []
    for label, token in (
        ("Edit link", game.edit_token),
        ("Read-only link", game.view_token),
    ):
        url = request.build_absolute_uri(reverse("join", args=[token]))
        links.append((label, url, _qr_code(url)))
    return links


@lru_cache(maxsize=256)
def _qr_code(url: str) -> str:
    """A link's QR code as an SVG data URI. Drawing one takes milliseconds,
    more than the rest of the page, and a link's code never changes."""
    return str(segno.make(url, error="m").svg_data_uri(scale=3, border=2))
