"""What the app does to a game, as plainly named functions.

Each takes keyword arguments only, including the time (``now``), and
changes a game only by appending one event through ``eventstore.append``.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from django.db import transaction

from scorekeeper import eventstore
from scorekeeper.eventstore import Appended
from scorekeeper.gamelog import (
    GameLog,
    LogEntry,
    LogError,
    clean_text,
    game_variant,
    log_document,
    parse_seats,
    read_and_replay,
    read_log,
)
from scorekeeper.models import Game
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.events import (
    AuctionCall,
    Call,
    Event,
    GameEnded,
    Hand,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from scorekeeper.rules.variants import overrides_of


class SetupError(Exception):
    """A new game that cannot be set up: the message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def game_create(
    *,
    preset: str,
    seats: Sequence[str],
    first_dealer: int,
    overrides: Mapping[str, object] | None = None,
    name: str = "",
    now: datetime,
) -> Game:
    try:
        names = parse_seats(list(seats))
        variant = game_variant(preset, len(names), overrides or {})
    except LogError as error:
        raise SetupError(error.message) from None
    if not 0 <= first_dealer < len(names):
        raise SetupError("the first dealer must be one of the players")
    problem = clean_text(name.strip(), limit=60)
    if problem:
        raise SetupError(f"the game's name {problem}")
    return Game.objects.create(
        name=name.strip(),
        preset=variant.preset,
        overrides=dict(overrides or {}),
        seats=list(names),
        first_dealer=first_dealer,
        created_at=now,
        updated_at=now,
        totals=[0] * variant.sides,
    )


def hand_record(
    *,
    game: Game,
    expected_seq: int,
    bidder: int,
    bid: Call,
    trump: str,
    tricks: Sequence[int] | None = None,
    free_tricks: int | None = None,
    auction: Sequence[AuctionCall] | None = None,
    by: str = "",
    event_id: str | None = None,
    now: datetime,
) -> Appended:
    """Record a bid hand: played (``tricks``) or conceded (``free_tricks``)."""
    hand = _hand(bidder, bid, trump, tricks, free_tricks, auction)
    return _append(game, expected_seq, hand, by=by, event_id=event_id, now=now)


def hand_pass_out(
    *,
    game: Game,
    expected_seq: int,
    auction: Sequence[AuctionCall] | None = None,
    by: str = "",
    event_id: str | None = None,
    now: datetime,
) -> Appended:
    hand = HandPassedOut(None if auction is None else tuple(auction))
    return _append(game, expected_seq, hand, by=by, event_id=event_id, now=now)


def hand_void(
    *,
    game: Game,
    expected_seq: int,
    target: int,
    reason: str = "",
    by: str = "",
    note: str = "",
    event_id: str | None = None,
    now: datetime,
) -> Appended:
    """The hand event at log position ``target`` never happened."""
    event = HandVoided(target, reason.strip())
    return _append(
        game, expected_seq, event, by=by, note=note, event_id=event_id, now=now
    )


def hand_correct(
    *,
    game: Game,
    expected_seq: int,
    target: int,
    hand: Hand,
    by: str = "",
    note: str = "",
    event_id: str | None = None,
    now: datetime,
) -> Appended:
    """The hand event at log position ``target`` is replaced by ``hand``
    (``note``: why, e.g. an organizer's reason after a night closed)."""
    event = HandCorrected(target, hand)
    return _append(
        game, expected_seq, event, by=by, note=note, event_id=event_id, now=now
    )


def log_digest(document: str | bytes) -> str:
    """What identifies a log's content: the SHA-256 of its canonical form
    (so spacing and key order do not matter)."""
    return digest_of(read_log(document))


def digest_of(log: GameLog) -> str:
    """The ``import_digest`` of a log read: its canonical form's SHA-256."""
    canonical = json.dumps(log_document(log), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8", "backslashreplace")).hexdigest()


def game_end(
    *,
    game: Game,
    expected_seq: int,
    reason: str = "",
    by: str = "",
    event_id: str | None = None,
    now: datetime,
) -> Appended:
    """End the game as it stands (contract §6): the highest total wins."""
    event = GameEnded(reason.strip())
    return _append(game, expected_seq, event, by=by, event_id=event_id, now=now)


def game_import(*, document: str | bytes, by: str = "", now: datetime) -> Game:
    """A new game from a pepper-log v1 document, refused whole if any event
    is illegal (``LogError``: ``event N: ...`` or ``log: ...``)."""
    log, board = read_and_replay(document)
    return game_store(log=log, board=board, by=by, now=now)


def game_store(
    *,
    log: GameLog,
    board: Scoreboard,
    digest: str = "",
    by: str = "",
    now: datetime,
) -> Game:
    """A new game of a log already read and refereed (``board`` is its
    replay; ``digest`` its ``digest_of``, when known): stored whole, as
    ``game_import`` stores a document."""
    with transaction.atomic():
        game = Game.objects.create(
            import_digest=digest or digest_of(log),
            preset=log.variant.preset,
            overrides=overrides_of(log.variant),
            seats=list(log.seats),
            first_dealer=log.first_dealer,
            created_at=now,
            updated_at=now,
            **eventstore.summary(board, len(log.entries)),
        )
        eventstore.store_all(
            game, [_completed(entry, by=by, now=now) for entry in log.entries]
        )
    return game


def game_export(*, game: Game) -> dict[str, object]:
    """The game's pepper-log v1 document: its stored log."""
    return log_document(eventstore.load(game))


def _hand(
    bidder: int,
    bid: Call,
    trump: str,
    tricks: Sequence[int] | None,
    free_tricks: int | None,
    auction: Sequence[AuctionCall] | None,
) -> HandRecorded:
    return HandRecorded(
        bidder,
        bid,
        trump,
        None if tricks is None else tuple(tricks),
        free_tricks,
        None if auction is None else tuple(auction),
    )


def _append(
    game: Game,
    expected_seq: int,
    event: Event,
    *,
    by: str,
    note: str = "",
    event_id: str | None,
    now: datetime,
) -> Appended:
    entry = LogEntry(
        event,
        id=event_id or uuid.uuid4().hex,
        at=now.isoformat(),
        by=by.strip()[:60] or None,
        note=note.strip() or None,
    )
    return eventstore.append(game, expected_seq, entry)


def _completed(entry: LogEntry, *, by: str, now: datetime) -> LogEntry:
    """An imported event as it is stored: one without an id, a time or an
    author gets them."""
    return replace(
        entry,
        id=entry.id or uuid.uuid4().hex,
        at=entry.at or now.isoformat(),
        by=entry.by or (by or None),
    )
