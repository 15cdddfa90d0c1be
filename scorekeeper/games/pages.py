"""The game's pages: the score, the record form, the TV view and the live
poll. HTMX requests get the named partial of the same template, so every
page works without it."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any
from urllib.parse import unquote
from uuid import UUID

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper.eventstore import head, load, scoreboard
from scorekeeper.gamelog import GameLog
from scorekeeper.gamerows import game_row
from scorekeeper.games import fragments, lobby, presenters, seat_players, services
from scorekeeper.games.forms import (
    GameForm,
    HandForm,
    new_event_id,
    whole_number,
)
from scorekeeper.games.house_rules import SETTINGS
from scorekeeper.models import Game
from scorekeeper.refusals import sentence
from scorekeeper.rules.engine import Scoreboard, replay
from scorekeeper.rules.events import GameEnded, HandCorrected, HandVoided
from scorekeeper.rules.referee import Turn
from scorekeeper.rules.variants import PRESETS
from scorekeeper.web import access
from scorekeeper.web.limits import rate_limited

from .ending import ending
from .sharing import carry_new_events, share_links

BY_COOKIE = "pepper_by"


@functools.lru_cache(maxsize=4096)
def game_url_of(game_id: UUID) -> str:
    """The game page's address (kept: ``reverse`` took ~40 µs of each save)."""
    return reverse("game", args=[game_id])


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
    cards = [lobby.game_card(game) for game in games]
    return render(request, "games/home.html", {"cards": cards, "kept": access.KEPT})


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


@require_GET
def game_tv(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The score for a TV or a tablet: big totals and the last hands, kept
    live by the same poll as every game page (either link may watch)."""
    game, _ = access.game_for(request, game_id)
    log = load(game)
    played = scoreboard(game.pk, log)
    takers = seat_players.takeovers(game)
    board = seat_players.board_now(played, takers)
    game_url = game_url_of(game.pk)
    context = {
        **_board_context(game_url, log, board),
        "history_html": _history_html(game_url, played, log, "view", takers=takers),
        "chart_html": fragments.chart_html(game_url, board, len(log.entries)),
    }
    return render(request, "games/game_tv.html", context)


@require_GET
def game_chart(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The score chart alone: a saved hand's answer loads it after the save
    (it sits below the form), so drawing it never slows a save down."""
    game, _ = access.game_for(request, game_id)
    log = load(game)
    # Named by who plays now, as the page's own chart.
    board = seat_players.board_now(
        scoreboard(game.pk, log), seat_players.takeovers(game)
    )
    game_url = game_url_of(game.pk)
    context = {"chart_html": fragments.chart_html(game_url, board, len(log.entries))}
    return render(request, "games/game_detail.html#chart", context)


def _board_context(game_url: str, log: GameLog, board: Scoreboard) -> dict[str, Any]:
    """The score and whose turn it is: what every live screen of a game
    shows (the page, the TV view, a poll's answer, a save's answer)."""
    turn = board.next
    return {
        "game_url": game_url,
        "board": board,
        # What the templates test and print often, read once here (each
        # look-up through the board costs a template several µs).
        "finished": board.finished,
        "tied": bool(board.tied),
        "next_number": None if turn is None else turn.number,
        "sides": presenters.score_boxes(board),
        "long_names": presenters.long_names(board),
        "turn_line": presenters.turn_line(board),
        "forced_line": presenters.forced_line(board, turn),
        # Worded only where shown (a game won or tied): the template calls them.
        "status_line": functools.partial(presenters.status, board),
        "status_rule": functools.partial(presenters.status_rule, board),
        "seq": len(log.entries),
        "ended": ending(log, board),
    }


@require_GET
def game_poll(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """Has the game moved on since event ``seq``? 204 if not (one indexed
    query); else the fresh score and history, swapped in out of band, a
    note of what changed, and the record form for the next hand. If
    someone has touched this phone's form (``form=touched``), the page's
    script carries what was entered into the new one, and the note goes by
    its Save bar; else (``form=untouched``) the new form simply replaces it."""
    seen = whole_number(request.GET.get("seq", "")) or 0
    now = head(game_id)
    role = None if now is None else access.role_of(request, now)
    if now is None or role is None:
        if now is not None and access.held_token(request, now.pk):
            return access.links_replaced(request)
        return HttpResponse(status=404)
    if seen == now.last_seq:
        return HttpResponse(status=204)
    game = game_row(game_id)  # plain SQL, as head: the poll is the hot path
    if game is None:  # deleted since head read it
        return HttpResponse(status=404)
    log = load(game)
    played = scoreboard(game.pk, log)
    takers = seat_players.takeovers(game)
    board = seat_players.board_now(played, takers)
    game_url = game_url_of(game.pk)
    state = request.GET.get("form") if role == "edit" else None
    note = what_changed(log, board, min(seen, len(log.entries)))
    context = {
        **_board_context(game_url, log, board),
        "history_html": _history_html(game_url, played, log, role, takers=takers),
        "board_oob": True,
        "poller_oob": True,
        "note": note,
        "role": role,
        "record_state": state if state in ("touched", "untouched") else None,
        "chart_html": fragments.chart_html(game_url, board, len(log.entries)),
    }
    if state in ("touched", "untouched") and not board.finished:
        # A fresh form for the next hand; a touched one is re-aimed: the
        # page's script carries what was entered into it, where the new
        # hand allows it, and the note sits by its Save bar.
        context.update(_record_context(request, game, log, board), record_oob=True)
        if state == "touched":
            context["reaimed_note"] = (
                f"{note} Your entry is kept, now for hand {len(board.rows) + 1}:"
                " if it was the same hand, start a fresh form."
            )
    response = render(request, "games/game_detail.html#polled", context)
    carry_new_events(request, response, log, takers)
    return response


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


def what_changed(log: GameLog, board: Scoreboard, seen: int) -> str:
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
        **_board_context(game_url, log, board),
        **_record_context(request, game, log, board, form, by),
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
        context["history_html"] = _history_html(
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
    # the request's context processors (no form token, no script nonce).
    response = HttpResponse(render_to_string(template, context), status=status)
    response["HX-Reswap"] = "none"
    response["HX-Trigger"] = "pepper-saved"
    return response


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
    by = remembered_by(request) if by is None else by
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
        "expected_seq": values.get("expected_seq"),
        "event_id": values.get("event_id"),
        "by": values.get("by", by),
        "values_auction": values.get("auction", ""),
    }
    if form is None and turn is not None:
        html, context["options"] = _fresh_choices(game, board, turn, values)
        context["choices_html"] = mark_safe(html)  # our own autoescaping template
    else:
        context["options"] = (
            presenters.form_options(values, board, turn) if turn else None
        )
    return context


def _fresh_choices(
    game: Game, board: Scoreboard, turn: Turn, values: dict[str, Any]
) -> tuple[str, dict[str, object]]:
    """The record form's choices with nothing chosen yet, and what the form
    shows around them (the auction's example, whether a hand may be passed
    out): they depend on the game and on whether this hand's bid is forced,
    so they are kept."""
    forced = f"{turn.first_bidder}:{turn.forced_bid}" if turn.pepper_round else "-"
    key = f"choices:{game.pk}:{forced}:{len(game.seat_notes)}"  # a substitute's name
    kept = _CHOICES.get(key)
    if kept is None:
        options = presenters.form_options(values, board, turn)
        html = render_to_string(
            "games/_hand_choices.html", {"options": options, "board": board}
        )
        around = ("can_pass", "has_auction", "auction_example")
        kept = (html, {name: options[name] for name in around})
        if len(_CHOICES) >= _CHOICES_KEPT:
            _CHOICES.pop(next(iter(_CHOICES)), None)
        _CHOICES[key] = kept
    return kept


# The fresh forms' choices, per process: never changed once made (a new
# name or forced bid makes a new key), and read from the process itself,
# not a cache that copies them in and out (~10 µs a save).
_CHOICES: dict[str, tuple[str, dict[str, object]]] = {}
_CHOICES_KEPT = 1024


HISTORY_SHOWN = 50  # newest hands on a game page; "Show all" for the rest


def _history_html(
    game_url: str,
    board: Scoreboard,
    log: GameLog,
    role: access.Role,
    shown: int | None = HISTORY_SHOWN,
    *,
    takers: Sequence[seat_players.Takeover] = (),
) -> str:
    """The rendered history (the newest ``shown`` hands, None: all), kept per
    game, log length, role and length: a projection of the log, so it is
    new exactly when the log has grown (or a substitute came: ``takers``);
    put together from each hand's kept row, so only new rows are rendered."""
    key = f"history:{game_url}:{len(log.entries)}:{role}:{shown}:{len(takers)}"
    html: str | None = cache.get(key)
    if html is None:
        newest = board.hands[-shown:] if shown else board.hands[:]
        results = newest[::-1]
        html = fragments.rows_html(game_url, board, log, role, results, takers)
        cache.set(key, html, timeout=3600)
    return mark_safe(html)  # rendered by our own autoescaping template


def remembered_by(request: HttpRequest) -> str:
    return unquote(request.COOKIES.get(BY_COOKIE, ""))
