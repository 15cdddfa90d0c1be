"""The append-only event store: ``load`` a game's log, ``append`` to it.

``append`` is the only way an event is written. It replays the game's log
plus the new event through the rules engine and refuses an illegal event
with the engine's message (nothing written), refuses a stale
``expected_seq`` as a conflict, and answers a repeated event id as it
answered the first time, storing it once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple
from uuid import UUID

from django.db import IntegrityError, OperationalError, connection, transaction

from .gamelog import (
    GameLog,
    LogEntry,
    LogError,
    event_document,
    game_variant,
    parse_entry,
    replay_log,
)
from .models import Game, GameEvent
from .rules.engine import Scoreboard


class Conflict(Exception):
    """The log moved on since the client read it (another phone saved)."""

    def __init__(self, current_seq: int) -> None:
        super().__init__(f"the game is at event {current_seq}")
        self.current_seq = current_seq


class Refused(Exception):
    """The rules refuse the event: ``message`` is the engine's ``event N: ...``."""

    def __init__(self, error: LogError) -> None:
        super().__init__(str(error))
        self.message = str(error)
        self.rule_message = error.message
        self.event = error.event
        self.remedy = error.remedy


@dataclass(frozen=True, slots=True)
class Appended:
    seq: int  # the event's position in the log
    board: Scoreboard  # the game as it stood once that event was in
    repeated: bool  # the event id was already stored: nothing new was written
    log: GameLog  # the log up to that event


class Busy(Exception):
    """The database stayed locked by other writers: nothing was written; the
    same request may simply be sent again."""


# Parsed log entries by game, per process. Stored events never change, so a
# load only fetches the rows after those it already holds. Only rows read
# back from the database go in (never the entry being appended), so a
# rolled-back append leaves nothing behind.
_ENTRIES: dict[UUID, tuple[LogEntry, ...]] = {}
_ENTRIES_KEPT = 512


def _entries(game: Game) -> tuple[LogEntry, ...]:
    known = _ENTRIES.get(game.pk, ())
    if len(known) == game.last_seq:  # the game row says nothing is new
        return known
    rows = GameEvent.objects.filter(game=game, seq__gt=len(known))
    payloads = rows.order_by("seq").values_list("payload", flat=True)
    start = len(known) + 1
    entries = known + tuple(
        parse_entry(p, n) for n, p in enumerate(payloads, start=start)
    )
    if len(_ENTRIES) >= _ENTRIES_KEPT and game.pk not in _ENTRIES:
        _ENTRIES.pop(next(iter(_ENTRIES)))
    _ENTRIES[game.pk] = entries
    return entries


class Head(NamedTuple):
    """How far a game's log goes, and who may read it (its tokens)."""

    pk: UUID
    last_seq: int
    edit_token: str
    view_token: str


# The columns are the fields' names (Django's default for plain fields).
_HEAD_SQL = (
    "SELECT last_seq, edit_token, view_token FROM "
    + Game._meta.db_table
    + " WHERE id = %s"
)


def head(game_id: UUID) -> Head | None:
    """The live poll's one query. Plain SQL: through the ORM, building this
    query took several times longer than the database took to answer it."""
    key = Game._meta.pk.get_db_prep_value(game_id, connection)
    with connection.cursor() as cursor:
        cursor.execute(_HEAD_SQL, [key])
        row = cursor.fetchone()
    return None if row is None else Head(game_id, *row)


def load(game: Game, up_to: int | None = None) -> GameLog:
    """The game's log (up to event ``up_to``), as pepper-log v1 reads it."""
    entries = _entries(game)
    return GameLog(
        game_variant(game.preset, len(game.seats), game.overrides),
        tuple(game.seats),
        game.first_dealer,
        entries if up_to is None else entries[:up_to],
    )


def append(game: Game, expected_seq: int, entry: LogEntry) -> Appended:
    """Append ``entry`` as event ``expected_seq + 1`` of ``game``."""
    try:
        with transaction.atomic():
            return _append_locked(game, expected_seq, entry)
    except IntegrityError:
        # A racing append took the sequence number or the id between our
        # read and our write; the database's unique keys stopped it.
        return _after_race(game, entry)
    except OperationalError as error:
        if "locked" in str(error):  # SQLite's busy timeout ran out
            raise Busy() from None
        raise


def _append_locked(game: Game, expected_seq: int, entry: LogEntry) -> Appended:
    # PostgreSQL: writers of one game take turns on its row lock (a waiting
    # writer sleeps in the database, not in Python). SQLite: the IMMEDIATE
    # transaction already holds the database's write lock.
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if locked.last_seq != expected_seq:
        return _repeat_or_conflict(locked, entry, locked.last_seq)
    repeat = _seq_of(locked, entry.id)
    if repeat is not None:
        return _answer(locked, repeat)
    log = load(locked)
    if len(log.entries) != locked.last_seq:  # never expected; reload to be sure
        _ENTRIES.pop(locked.pk, None)
        log = load(locked)
    new_log = GameLog(log.variant, log.seats, log.first_dealer, (*log.entries, entry))
    try:
        board = replay_log(new_log)
    except LogError as error:
        raise Refused(error) from None
    seq = expected_seq + 1
    assert entry.id is not None and entry.at is not None, "services give both"
    recorded_at = datetime.fromisoformat(entry.at)
    assert recorded_at.tzinfo is not None, "services record aware times"
    payload = event_document(entry)
    GameEvent.objects.create(
        game=locked,
        seq=seq,
        event_id=entry.id,
        type=str(payload["type"]),
        payload=payload,
        recorded_at=recorded_at,
        recorded_by=entry.by or "",
    )
    _project(locked, board, seq, recorded_at)
    game.__dict__.update(locked.__dict__)  # the caller's game is current too
    return Appended(seq, board, repeated=False, log=new_log)


def _repeat_or_conflict(game: Game, entry: LogEntry, current: int) -> Appended:
    repeat = _seq_of(game, entry.id)
    if repeat is not None:
        return _answer(game, repeat)
    raise Conflict(current)


def _seq_of(game: Game, event_id: str | None) -> int | None:
    events = GameEvent.objects.filter(game=game, event_id=event_id)
    return events.values_list("seq", flat=True).first()


def _after_race(game: Game, entry: LogEntry) -> Appended:
    game.refresh_from_db(fields=["last_seq"])
    return _repeat_or_conflict(game, entry, game.last_seq)


def _answer(game: Game, seq: int) -> Appended:
    """A repeated event id: the answer the first request got."""
    log = load(game, up_to=seq)
    return Appended(seq, replay_log(log), repeated=True, log=log)


def _project(game: Game, board: Scoreboard, seq: int, at: datetime) -> None:
    """Keep the game's summary (for lists of games) in step with its log."""
    game.last_seq = seq
    game.hands_played = len(board.rows)
    game.totals = list(board.totals)
    game.finished = board.finished
    game.updated_at = at
    game.save(
        update_fields=["last_seq", "hands_played", "totals", "finished", "updated_at"]
    )
