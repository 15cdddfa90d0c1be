"""The table panel of the game page: the seats, the auction of the hand
being bid, whose call it is and, on a phone that may make it, the calls the
referee allows (``rules.referee.auction_turn``); once the auction is won
and trump named, what the record form is filled with."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from scorekeeper.models import Game
from scorekeeper.rules.cards import TRUMPS
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.referee import auction_turn
from scorekeeper.tablewords import bid_label, trump_label
from scorekeeper.web import access

from .parts import game_url_of
from .table import (
    NOBODY,
    PHONE_KEY,
    Table,
    auction_text,
    may_call_for,
    passed_out,
    table_of,
)


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
