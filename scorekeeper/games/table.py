"""The table's phones: each player's seat on a phone, and the hand's
auction bid from those phones, one call at a time, refereed by
``rules.referee.auction_turn``. Kept in the database (``LiveTable``), so
every phone and every server sees one table; nothing here is in the log
until the hand is saved with its auction (the record form carries it).

A phone is its browser's session: ``phone_of`` gives it a random id."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from django.db import IntegrityError
from django.http import HttpRequest
from django.utils.crypto import salted_hmac

from scorekeeper.gamerows import Head, head_with
from scorekeeper.models import Game
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.events import AuctionCall, Call
from scorekeeper.rules.referee import AuctionTurn, auction_turn
from scorekeeper.tablewords import bid_label, trump_label

from .models import LiveTable

PHONE_KEY = "pepper_phone"
NOBODY = ""


class TableRefused(Exception):
    """A seat or a call the table cannot take, in a player's words."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.message, self.rule = message, rule


def phone_of(request: HttpRequest) -> str:
    """This browser's phone id, made on its first seat or call."""
    phone = request.session.get(PHONE_KEY)
    if not isinstance(phone, str) or not phone:
        phone = secrets.token_urlsafe(9)
        request.session[PHONE_KEY] = phone
    return phone


class Table(NamedTuple):
    """The table as one read of its row gives it: the seats' phones and
    the calls of the hand after event ``seq`` (none if the log moved on)."""

    version: int
    phones: tuple[str, ...]
    calls: tuple[tuple[int, Call, str], ...]  # (seat, call, phone)
    trump: str

    @property
    def auction(self) -> tuple[AuctionCall, ...]:
        return tuple((seat, call) for seat, call, _ in self.calls)


# The live poll's one query when the page shows the table panel: the
# game's head and its table's version (0 before anyone sat or called).
_HEAD_AND_VERSION_SQL = (
    "SELECT g.last_seq, g.edit_token, g.view_token, g.locked, t.version FROM "
    + Game._meta.db_table
    + " g LEFT JOIN "
    + LiveTable._meta.db_table
    + " t ON t.game_id = g.id WHERE g.id = %s"
)


def head_and_version(game_id: UUID) -> tuple[Head, int] | None:
    """The game's head and its table's version, in one query."""
    found = head_with(game_id, _HEAD_AND_VERSION_SQL)
    if found is None:
        return None
    found_head, (version,) = found
    return found_head, int(version or 0)


def table_of(game: Game, seq: int) -> Table:
    """The table of ``game`` at the log's event ``seq``."""
    row = LiveTable.objects.filter(pk=game.pk).first()
    return _read(row, len(game.seats), seq)


def _read(row: LiveTable | None, seats: int, seq: int) -> Table:
    if row is None:
        return Table(0, (NOBODY,) * seats, (), "")
    phones = tuple(str(p) for p in row.phones) + (NOBODY,) * seats
    fresh = row.hand_seq == seq
    calls = tuple((int(s), c, str(p)) for s, c, p in row.calls) if fresh else ()
    return Table(row.version, phones[:seats], calls, row.trump if fresh else "")


def _write(game: Game, table: Table, seq: int, **changes: object) -> bool:
    """Store ``changes`` if the table is still at ``table.version``: of two
    phones at once, only the first (the other re-reads and is told)."""
    values: dict[str, object] = {
        "phones": list(table.phones),
        "hand_seq": seq,
        "calls": [list(c) for c in table.calls],
        "trump": table.trump,
        **changes,
    }
    if table.version == 0:
        try:
            LiveTable.objects.create(pk=game.pk, version=1, **values)
        except IntegrityError:  # another phone made the row first
            return False
        return True
    moved = LiveTable.objects.filter(pk=game.pk, version=table.version)
    return moved.update(version=table.version + 1, **values) == 1


FREE = "free"  # what a page saw of a seat nobody held


def holder_mark(phone: str) -> str:
    """What a page may show of the phone holding a seat, so that a move
    can name the holder it saw: a short keyed digest, never the phone's
    own id (its cookie, a credential)."""
    return salted_hmac("pepper.seat-holder", phone, algorithm="sha256").hexdigest()[:12]


def seat_take(
    *, game: Game, board: Scoreboard, seat: int, phone: str, saw: str
) -> None:
    """This phone sits at ``seat`` (and leaves any other it held). A seat
    held by another phone is handed over only if this phone saw that
    phone hold it: ``saw`` is ``FREE`` or the holder's ``holder_mark``
    as the page showed it (two phones moving a gone phone's seat at once:
    the second is told, not handed it silently)."""
    seq = game.last_seq
    for _ in range(3):
        table = table_of(game, seq)
        holder = table.phones[seat]
        if holder == phone:
            return
        if holder != NOBODY and saw != holder_mark(holder):
            moved = (
                "taken by another phone" if saw == FREE else "moved to another phone"
            )
            raise TableRefused(
                f"{board.seats[seat]}'s seat was just {moved}. "
                "Tap it again to move it to this phone."
            )
        phones = tuple(
            phone if s == seat else (NOBODY if p == phone else p)
            for s, p in enumerate(table.phones)
        )
        if _write(game, table, seq, phones=list(phones)):
            return
    raise TableRefused("The table is busy: try again.")


def seat_leave(*, game: Game, seat: int, phone: str) -> None:
    """The seat is left with nobody: any phone may call for it."""
    seq = game.last_seq
    for _ in range(3):
        table = table_of(game, seq)
        if table.phones[seat] == NOBODY:
            return
        phones = [NOBODY if s == seat else p for s, p in enumerate(table.phones)]
        if _write(game, table, seq, phones=phones):
            return
    raise TableRefused("The table is busy: try again.")


def may_call_for(table: Table, seat: int, phone: str) -> bool:
    """A seat's calls come from its phone, or from any phone when it has none."""
    return table.phones[seat] in (NOBODY, phone)


def auction_call(
    *, game: Game, board: Scoreboard, seat: int, call: Call, position: int, phone: str
) -> None:
    """Call ``call`` for ``seat`` as the auction's call number ``position``
    (0 first). Refused out of turn, off the ladder, from a phone not at
    that seat, or when another phone made that call first."""
    assert board.next is not None
    seq, names = game.last_seq, board.seats
    for _ in range(3):
        table = table_of(game, seq)
        if len(table.calls) > position:
            _told_already_called(table.calls[position], seat, call, phone, names)
            return
        if len(table.calls) < position:
            raise TableRefused("The auction was started again: look again and call.")
        now = auction_turn(board.variant, board.next, table.auction)
        _verify_call(now, table, seat, call, phone, names, board)
        calls = [*map(list, table.calls), [seat, call, phone]]
        if _write(game, table, seq, calls=calls, trump=""):
            return
    raise TableRefused("The table is busy: try again.")


def _told_already_called(
    made: tuple[int, Call, str],
    seat: int,
    call: Call,
    phone: str,
    names: Sequence[str],
) -> None:
    """That call was made already: by this phone (a repeat: done), or by
    another, who was first."""
    if made == (seat, call, phone):
        return
    who, what = names[made[0]], bid_label(made[1])
    raise TableRefused(
        f"{who}'s call was just made by another phone: {what}. Yours was not taken."
    )


def _verify_call(
    now: AuctionTurn,
    table: Table,
    seat: int,
    call: Call,
    phone: str,
    names: Sequence[str],
    board: Scoreboard,
) -> None:
    rule = board.variant.cite("auction")
    if now.seat is None:
        raise TableRefused("The auction is over: no more calls.", rule)
    if seat != now.seat:
        raise TableRefused(
            f"It is {names[now.seat]}'s turn to call, not {names[seat]}'s.", rule
        )
    if not may_call_for(table, seat, phone):
        raise TableRefused(
            f"{names[seat]}'s seat is on another phone: call from there, "
            "or take the seat on this phone first."
        )
    if call not in now.calls:
        offered = ", ".join(bid_label(c) for c in now.calls)
        raise TableRefused(
            f"{names[seat]} cannot call {bid_label(call)} now: the calls left "
            f"are {offered}.",
            rule,
        )


def auction_trump(*, game: Game, board: Scoreboard, trump: str, phone: str) -> None:
    """The auction's winner names trump, from the winner's phone (or any
    phone, when the winner's seat has none)."""
    assert board.next is not None
    seq, names = game.last_seq, board.seats
    for _ in range(3):
        table = table_of(game, seq)
        now = auction_turn(board.variant, board.next, table.auction)
        if now.seat is not None or now.high is None:
            raise TableRefused("Trump is named once the auction is won.")
        bidder = now.high[0]
        if table.trump:
            if table.trump == trump:
                return
            raise TableRefused(
                f"{names[bidder]} already named {trump_label(table.trump)} trump."
            )
        if not may_call_for(table, bidder, phone):
            raise TableRefused(
                f"{names[bidder]} won the bid: trump is named from their phone."
            )
        if trump not in board.variant.trumps:
            raise TableRefused(f"{trump} is not a trump in this game.")
        if _write(game, table, seq, trump=trump):
            return
    raise TableRefused("The table is busy: try again.")


def auction_text(auction: Sequence[AuctionCall]) -> str:
    """The calls as the record form's auction line takes them."""
    return ", ".join(bid_label(call) for _, call in auction)


def passed_out(now: AuctionTurn, auction: Sequence[AuctionCall]) -> bool:
    return now.seat is None and now.high is None and bool(auction)
