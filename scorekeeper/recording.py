"""The referee step: the one way an event is written to a game's log.

``event_append`` referees the new event against the game's snapshot (the
engine's state after its last event, kept on the game's row) or, for a
void, a correction or a snapshot it cannot trust, replays the log plus the
new event through the rules engine; it refuses an illegal event with the
engine's message (nothing written). A legal event goes to the store
(``eventstore.append``: a stale ``expected_seq`` is a conflict, a repeated
event id is answered as it was the first time, stored once), then to every
projector (``projections.registry``), in the same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from django.db import DatabaseError, IntegrityError, transaction

from scorekeeper import eventstore, snapshots
from scorekeeper.eventstore import Busy, Conflict
from scorekeeper.gamelog import (
    MAX_EVENTS,
    GameLog,
    LogEntry,
    LogError,
    check_correction,
    check_entry_text,
    fold_entry,
    replay_log,
)
from scorekeeper.models import Game
from scorekeeper.projections import boards, game_rows, registry
from scorekeeper.rules.engine import Scoreboard, Snapshot, extend, snapshot_of
from scorekeeper.rules.events import HandCorrected


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
    state: Snapshot  # the engine's state once that event was in
    repeated: bool  # the event id was already stored: nothing new was written
    log: GameLog  # the log up to that event
    game_id: UUID = field(repr=False, compare=False)
    replayed: Scoreboard | None = field(default=None, repr=False, compare=False)

    @property
    def board(self) -> Scoreboard:
        """The whole scoreboard (every hand): the one the append made
        (replayed, or the board kept before it, extended), else the game's
        kept board or a replay of the log."""
        if self.replayed is not None:
            return self.replayed
        return boards.scoreboard(self.game_id, self.log)


def event_append(*, game: Game, expected_seq: int, entry: LogEntry) -> Appended:
    """Append ``entry`` as event ``expected_seq + 1`` of ``game``, refereed."""
    try:
        with transaction.atomic():
            return _append_refereed(game, expected_seq, entry)
    except game_rows.Moved:
        # Another append took this place in the log first, or the id is
        # stored already (the unique key on (game, event_id) stopped it).
        game.refresh_from_db(fields=["last_seq"])
        return _repeat_or_conflict(game, entry, game.last_seq)
    except IntegrityError:
        # Past the store's own write: a projector's fault, never a conflict
        # the table should answer (the transaction rolled back).
        raise
    except DatabaseError as error:
        # SQLite's busy timeout ran out, or the database failed the write:
        # the transaction rolled back, so the client may simply retry.
        raise Busy(str(error)) from None


def _append_refereed(game: Game, expected_seq: int, entry: LogEntry) -> Appended:
    row = game_rows.current_row(game, expected_seq)
    game.last_seq = row["last_seq"]  # the caller's copy too
    if game.last_seq != expected_seq:
        return _repeat_or_conflict(game, entry, game.last_seq)
    log = boards.game_log(game)
    seq = expected_seq + 1
    new_log = GameLog(log.variant, log.seats, log.first_dealer, (*log.entries, entry))
    try:
        _check_size_and_text(entry, seq)
        if isinstance(entry.event, HandCorrected):  # one that changes nothing
            check_correction(boards.scoreboard(game.pk, log), entry, seq)
        state, board = _referee(game, row, new_log)
    except LogError as error:
        repeat = eventstore.repeat_of(game, entry)  # answered, legal or not
        if repeat is not None:
            return _answer(game, repeat)
        raise Refused(error) from None
    try:  # a repeated id fails here, as a place taken by another append
        eventstore.append(game, expected_seq, entry)
    except (Conflict, IntegrityError):  # the log moved on: a repeat, or a conflict
        raise game_rows.Moved() from None
    was_finished = bool(row["finished"])
    change = registry.Committed(
        game, seq, state, board, _recorded_at(entry), row, was_finished
    )
    registry.project(change)
    boards.keep_entry(game.pk, seq, entry)
    if board is None:  # folded: the board kept before it, extended
        before = boards.kept_board(game.pk, log)
        board = None if before is None else extend(before, state)
    if board is not None:
        boards.keep_board(game.pk, seq, board)
    return Appended(seq, state, False, new_log, game.pk, board)


def _check_size_and_text(entry: LogEntry, seq: int) -> None:
    if seq > MAX_EVENTS:
        raise LogError(f"a game holds at most {MAX_EVENTS:,} events", event=seq)
    check_entry_text(entry, seq)


def _referee(
    game: Game, row: dict[str, Any], log: GameLog
) -> tuple[Snapshot, Scoreboard | None]:
    """The state after the log's last entry, and the scoreboard when it
    took a replay: folded into the trusted snapshot in O(1), or replayed
    from the start (a void, a correction, a snapshot not trusted).
    ``LogError`` when the rules refuse the entry."""
    seq = len(log.entries)
    before = snapshots.trusted(game, log.variant, seq - 1, row)
    if before is not None and row["hands_played"] == before.played:
        state = fold_entry(before, log.entries[-1])
        if state is not None:
            return state, None
    board = replay_log(log)
    return snapshot_of(board, seq), board


def _recorded_at(entry: LogEntry) -> datetime:
    """The entry's time as the store keeps it (without a zone: UTC)."""
    assert entry.at is not None, "given before storing"
    at = datetime.fromisoformat(entry.at)
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def _repeat_or_conflict(game: Game, entry: LogEntry, current: int) -> Appended:
    repeat = eventstore.repeat_of(game, entry)
    if repeat is not None:
        return _answer(game, repeat)
    raise Conflict(current)


def _answer(game: Game, seq: int) -> Appended:
    """A repeated event id: the answer the first request got."""
    log = eventstore.load(game, up_to=seq)
    board = replay_log(log)
    return Appended(seq, snapshot_of(board, seq), True, log, game.pk, board)
