"""What the game's pages and live screens are built from: its address,
the score and whose turn, the record form, the kept history, and who
entered the last hand on this browser."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any
from urllib.parse import unquote
from uuid import UUID

from django.core.cache import cache
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe

from scorekeeper import tablewords
from scorekeeper.gamelog import GameLog
from scorekeeper.games import fragments, presenters
from scorekeeper.games.forms import HandForm, new_event_id
from scorekeeper.models import Game
from scorekeeper.record_form import form_options
from scorekeeper.rules.cards import TRUMPS
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.referee import Turn, auction_turn
from scorekeeper.tablewords import bid_label, trump_label
from scorekeeper.web import access

from .ending import ending
from .table import (
    NOBODY,
    PHONE_KEY,
    Table,
    auction_text,
    holder_mark,
    may_call_for,
    passed_out,
    table_of,
)

BY_COOKIE = "pepper_by"


@functools.lru_cache(maxsize=4096)
def game_url_of(game_id: UUID) -> str:
    """The game page's address (kept: ``reverse`` took ~40 µs of each save)."""
    return reverse("game", args=[game_id])


def partial_of(request: HttpRequest, template: str, partial: str) -> str:
    """The template for a page, or only its named partial for htmx."""
    return f"{template}#{partial}" if getattr(request, "htmx", False) else template


def board_context(game_url: str, log: GameLog, board: Scoreboard) -> dict[str, Any]:
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


def record_context(
    request: HttpRequest,
    game: Game,
    log: GameLog,
    board: Scoreboard,
    form: HandForm | None = None,
    by: str | None = None,
    prefill: dict[str, str] | None = None,
) -> dict[str, Any]:
    """What the record form shows: what was entered in ``form``, else a
    fresh form for the next hand ("entered by" as this browser last gave it),
    filled with ``prefill`` (what the table's live auction settled)."""
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
            **(prefill or {}),
        }
    )
    context: dict[str, Any] = {
        "form": form,
        "expected_seq": values.get("expected_seq"),
        "event_id": values.get("event_id"),
        "by": values.get("by", by),
        "values_auction": values.get("auction", ""),
    }
    if form is None and turn is not None and not prefill:
        html, context["options"] = _fresh_choices(game, board, turn, values)
        context["choices_html"] = mark_safe(html)  # our own autoescaping template
    else:
        context["options"] = form_options(values, board, turn) if turn else None
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
        options = form_options(values, board, turn)
        html = render_to_string(
            "games/_hand_choices.html", {"options": options, "board": board}
        )
        around = ("can_pass", "has_auction", "auction_example")
        kept = (html, {name: getattr(options, name) for name in around})
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


def history_html(
    game_url: str,
    board: Scoreboard,
    log: GameLog,
    role: access.Role,
    shown: int | None = HISTORY_SHOWN,
    *,
    takers: Sequence[tablewords.Takeover] = (),
) -> str:
    """The rendered history (the newest ``shown`` hands, None: all), kept per
    game, log length, role and length: a projection of the log, so it is
    new exactly when the log has grown (or a substitute came: ``takers``),
    or the rows are drawn anew (``fragments.drawn_by``); put together from
    each hand's kept row, so only new rows are rendered."""
    drawer = fragments.drawn_by(fragments.ROW_TEMPLATE)
    key = f"history:{drawer}:{game_url}:{len(log.entries)}:{role}:{shown}:{len(takers)}"
    html: str | None = cache.get(key)
    if html is None:
        newest = board.hands[-shown:] if shown else board.hands[:]
        results = newest[::-1]
        html = fragments.rows_html(game_url, board, log, role, results, takers)
        cache.set(key, html, timeout=3600)
    return mark_safe(html)  # rendered by our own autoescaping template


def remembered_by(request: HttpRequest) -> str:
    return unquote(request.COOKIES.get(BY_COOKIE, ""))


# The table panel of the game page: the seats, the auction of the hand
# being bid, whose call it is and, on a phone that may make it, the calls the
# referee allows (``rules.referee.auction_turn``); once the auction is won
# and trump named, what the record form is filled with.
def table_context(
    request: HttpRequest, game: Game, board: Scoreboard, *, role: access.Role
) -> dict[str, Any]:
    """What the table panel shows: the seats, the auction so far, whose
    call it is and, on a phone that may make it, the calls allowed."""
    table = table_of(game, game.last_seq)
    phone = str(request.session.get(PHONE_KEY, ""))
    names = board.seats
    context: dict[str, Any] = {
        "table": table,
        "board": board,
        "game_url": game_url_of(game.pk),
        "seq": game.last_seq,
        "role": role,
        "seats": [
            {
                "seat": seat,
                "name": name,
                "mine": bool(phone) and table.phones[seat] == phone,
                "taken": table.phones[seat] != NOBODY,
                "holder": (
                    holder_mark(table.phones[seat])
                    if table.phones[seat] != NOBODY
                    else ""
                ),
            }
            for seat, name in enumerate(names)
        ],
        "prefill": {},
    }
    seats = context["seats"]
    seated = any(s["taken"] for s in seats)
    context["seated"] = seated
    # Open to ask this phone to sit when others have: a table that records
    # on one phone sees one short line, its record form in reach.
    context["seats_open"] = seated and not any(s["mine"] for s in seats)
    # The live auction is for a table whose players sat down on their own
    # phones (or whose auction began); one phone keeps today's form alone.
    if board.next is not None and (seated or table.auction):
        context.update(_auction_context(board, table, phone))
    return context


def _auction_context(board: Scoreboard, table: Table, phone: str) -> dict[str, Any]:
    assert board.next is not None
    names, turn = board.seats, board.next
    now = auction_turn(board.variant, turn, table.auction)
    shown = [f"{names[seat]} {bid_label(call)}" for seat, call in table.auction]
    if now.seat is not None:
        shown.append(f"{names[now.seat]} …")
    context: dict[str, Any] = {
        "auction": True,
        "pepper": turn.pepper_round,
        "hand_number": turn.number,
        "calls_line": " · ".join(shown),
        "position": len(table.calls),
        "caller": None if now.seat is None else names[now.seat],
        "caller_seat": now.seat,
        "calls": [(str(c), bid_label(c)) for c in now.calls],
        "may_call": now.seat is not None and may_call_for(table, now.seat, phone),
        "caller_has_phone": now.seat is not None and table.phones[now.seat] != NOBODY,
        "passed_out": passed_out(now, table.auction),
        "trump": table.trump,
        "auction_so_far": auction_text(table.auction),
        "trump_label": trump_label(table.trump) if table.trump else "",
    }
    if now.seat is None and now.high is not None:
        bidder, bid = now.high
        context.update(
            winner=names[bidder],
            winning_bid=bid_label(bid),
            may_name_trump=not table.trump and may_call_for(table, bidder, phone),
            trumps=[
                (t, trump_label(t), t.replace("-", " "))
                for t in TRUMPS
                if t in board.variant.trumps
            ],
        )
        if table.trump:
            context["prefill"] = {
                "bidder": str(bidder),
                "bid": str(bid),
                "trump": table.trump,
                "auction_so_far": auction_text(table.auction),
                "auction": auction_text(table.auction),
            }
    elif context["passed_out"]:
        context["prefill"] = {"auction": auction_text(table.auction)}
    return context
