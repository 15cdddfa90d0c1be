"""The append-only event store: ``load`` a game's log, ``append`` to it.

``append`` is the only way an event is written. It referees the new event
against the game's snapshot (the engine's state after its last event,
kept on the game row) or, for a void, a correction or a snapshot it cannot
trust, replays the game's log plus the new event through the rules engine;
it refuses an illegal event with the engine's message (nothing written),
refuses a stale ``expected_seq`` as a conflict, and answers a repeated
event id as it answered the first time, storing it once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import QuerySet

from scorekeeper import gamerows, snapshots
from scorekeeper.gamelog import (
    MAX_EVENTS,
    GameLog,
    LogEntry,
    LogError,
    check_entry_text,
    event_document,
    fold_entry,
    game_variant,
    parse_entry,
    replay_log,
)

# The live poll's one query (``head``) reads the game row in plain SQL, as
# gamerows does; it is imported from here, as before it moved there.
from scorekeeper.gamerows import Head as Head
from scorekeeper.gamerows import head as head
from scorekeeper.models import Game, GameEvent
from scorekeeper.rules.engine import Scoreboard, Snapshot, extend, snapshot_of
from scorekeeper.seatstats import SeatStats, add_hand, no_stats, seat_bids, seat_stats


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
        return scoreboard(self.game_id, self.log)


class Busy(Exception):
    """The database could not take the write (locked by other writers past
    the timeout, or a fault: disk full, read-only, connection lost):
    nothing was written; the same request may simply be sent again."""


class IdTaken(Exception):
    """The event id is stored already, for a different event: a client
    reusing an id, not retrying one. Nothing was written."""

    def __init__(self, event_id: str, seq: int) -> None:
        super().__init__(f"id {event_id!r} is already used by event {seq}")
        self.event_id = event_id
        self.seq = seq


# Parsed log entries by game, per process. Stored events never change, so a
# load only fetches the rows after those it already holds. Only committed
# events go in (read back, or added once their append has committed), so a
# rolled-back append leaves nothing behind.
_ENTRIES: dict[UUID, tuple[LogEntry, ...]] = {}
_ENTRIES_KEPT = 512
# A worker of several threads (gunicorn's WEB_THREADS) shares them: two
# threads must not both drop the oldest game. Any tuple a thread keeps is a
# prefix of the committed log, so the last one kept wins harmlessly.
_ENTRIES_LOCK = threading.Lock()


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
    _put(_ENTRIES, game.pk, entries)
    return entries


def _put[T](kept: dict[UUID, T], game_id: UUID, value: T) -> None:
    """Keep ``value`` for the game, dropping the oldest game kept when the
    process already keeps ``_ENTRIES_KEPT`` of them."""
    with _ENTRIES_LOCK:
        if len(kept) >= _ENTRIES_KEPT and game_id not in kept:
            kept.pop(next(iter(kept)))
        kept[game_id] = value


def forget(game_id: UUID) -> None:
    """Drop what this process keeps of a game's log. For a transaction of
    several appends that rolled back: each append read back the events
    before it, uncommitted, and those must not stay as the game's log."""
    _ENTRIES.pop(game_id, None)
    _BOARDS.pop(game_id, None)


# The scoreboard of each game's log as this process last had it, with the
# number of events it holds: a page, a poll or a save that finds the log
# where the board stands reads it instead of replaying every hand; an
# append of a hand or an end extends it in O(1) (``rules.engine.extend``).
# Kept only once the events it holds are committed (``transaction.on_commit``).
_BOARDS: dict[UUID, tuple[int, Scoreboard]] = {}


def scoreboard(game_id: UUID, log: GameLog) -> Scoreboard:
    """``replay_log(log)``, for ``log`` read from the game (whole or up to
    an event), kept: the next read at the same event needs no replay."""
    board = _kept_board(game_id, log)
    if board is None:
        board = replay_log(log)
        _keep_board(game_id, len(log.entries), board)
    return board


def _kept_board(game_id: UUID, log: GameLog) -> Scoreboard | None:
    """The kept board, if it stands where ``log`` does: the same number of
    events (stored events never change) under the same rules and seats."""
    seq, board = _BOARDS.get(game_id, (-1, None))
    if board is None or seq != len(log.entries):
        return None
    same_rules = board.variant is log.variant or board.variant == log.variant
    same_seats = board.seats == log.seats and board.first_dealer == log.first_dealer
    return board if same_rules and same_seats else None


def _keep_board(game_id: UUID, seq: int, board: Scoreboard) -> None:
    # At once outside a transaction; inside one, only if it commits.
    transaction.on_commit(lambda: _put(_BOARDS, game_id, (seq, board)))


# What ``load`` reads of a game's row.
LOG_FIELDS = ("pk", "preset", "seats", "first_dealer", "overrides", "last_seq")


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
            return _append_claimed(game, expected_seq, entry)
    except (_Moved, IntegrityError):
        # Another append took this place in the log first (the game row no
        # longer stood at ``expected_seq``), or the id is stored already
        # (the unique key on (game, event_id) stopped the insert).
        return _after_race(game, entry)
    except DatabaseError as error:
        # SQLite's busy timeout ran out, or the database failed the write:
        # the transaction rolled back, so the client may simply retry.
        raise Busy(str(error)) from None


class _Moved(Exception):
    """The game row no longer stood at the expected seq: roll back."""


def _append_claimed(game: Game, expected_seq: int, entry: LogEntry) -> Appended:
    row = _current_row(game, expected_seq)
    game.last_seq = row["last_seq"]  # the caller's copy too
    if game.last_seq != expected_seq:
        return _repeat_or_conflict(game, entry, game.last_seq)
    log = load(game)
    if len(log.entries) != game.last_seq:  # never expected; reload to be sure
        _ENTRIES.pop(game.pk, None)
        log = load(game)
    if expected_seq >= MAX_EVENTS:
        error = LogError(
            f"a game holds at most {MAX_EVENTS:,} events", event=expected_seq + 1
        )
        raise Refused(error)
    try:
        check_entry_text(entry, expected_seq + 1)
    except LogError as error:
        raise Refused(error) from None
    new_log = GameLog(log.variant, log.seats, log.first_dealer, (*log.entries, entry))
    try:
        state, board, moved = _referee(game, row, new_log)
    except LogError as error:
        repeat = _seq_of(game, entry.id)  # a repeat is answered, legal or not
        if repeat is not None:
            return _answer(game, repeat, entry)
        raise Refused(error) from None
    seq = expected_seq + 1
    stored = _row(game, seq, entry)
    gamerows.insert_event(stored)  # a repeated id fails the unique key here
    _claim(game, expected_seq, moved, stored["recorded_at"])  # the caller's game too
    transaction.on_commit(lambda: _remember(game.pk, seq, entry))
    if board is None:  # folded: the board kept before it, extended
        before = _kept_board(game.pk, log)
        board = None if before is None else extend(before, state)
    if board is not None:
        _keep_board(game.pk, seq, board)
    return Appended(seq, state, False, new_log, game.pk, board)


# What an append reads of the game's row, in one query: where its log
# stands, its snapshot, and the numbers a new hand adds to.
_CURRENT = ("last_seq", "hands_played", "seat_stats", *snapshots.FIELDS)


def _current_row(game: Game, expected_seq: int) -> dict[str, Any]:
    """The game's row as it stands. PostgreSQL: writers of one game queue
    on its row lock before any work, so under contention a loser learns it
    lost at once. SQLite: its IMMEDIATE transaction holds the database's
    write lock, and the claim checks the seq, so the caller's copy of the
    row serves when it stands at ``expected_seq`` (its snapshot and numbers
    change only with its seq); else it is read again."""
    if not connection.features.has_select_for_update:
        kept = game.__dict__
        if kept.get("last_seq") == expected_seq and all(f in kept for f in _CURRENT):
            return {field: kept[field] for field in _CURRENT}
    rows = Game.objects.filter(pk=game.pk)
    if connection.features.has_select_for_update:
        rows = rows.select_for_update()
    row: dict[str, Any] = rows.values(*_CURRENT).get()
    return row


def _referee(
    game: Game, row: dict[str, Any], log: GameLog
) -> tuple[Snapshot, Scoreboard | None, dict[str, object]]:
    """The state after the log's last entry, the scoreboard when it took a
    replay, and the row's summary: folded into the trusted snapshot in
    O(1), or replayed from the start (a void, a correction, a snapshot not
    trusted). ``LogError`` when the rules refuse the entry."""
    seq = len(log.entries)
    before = snapshots.trusted(game, log.variant, seq - 1, row)
    try:  # a copy: the row's numbers may be the caller's, and this may roll back
        stats = [_copied(seat) for seat in row["seat_stats"]]
    except (KeyError, TypeError, AttributeError):  # not numbers this code wrote
        stats = []
    state = None
    if before is not None and row["hands_played"] == before.played:
        if not stats and before.played == 0:
            stats = no_stats(log.variant)
        if len(stats) == log.variant.seats:  # the row's numbers are whole
            state = fold_entry(before, log.entries[-1])
    if state is None:
        board = replay_log(log)
        state, fields = _replayed(game, board, seq)
        return state, board, fields
    if state.hand_set is not None:
        add_hand(log.variant, stats, state.hand_set.hand, state.hand_set.deltas)
    return state, None, {**_summary(state, stats), **snapshots.stored(game, state)}


def store_all(game: Game, entries: Sequence[LogEntry]) -> None:
    """A new game's whole log at once: an import, replayed and accepted
    whole beforehand (its game row already carries ``summary``)."""
    rows = (_row(game, seq, entry) for seq, entry in enumerate(entries, start=1))
    GameEvent.objects.bulk_create(GameEvent(**row) for row in rows)


def _copied(seat: SeatStats) -> SeatStats:
    bids = {bid: list(counts) for bid, counts in seat["bids"].items()}
    return SeatStats(
        bids=bids,
        sets=seat["sets"],
        conceded=seat["conceded"],
        run=seat["run"],
        best=seat["best"],
    )


def summary(board: Scoreboard, seq: int) -> dict[str, object]:
    """The game row's projection of its log, for lists of games and the
    league standings (which read it instead of replaying every game)."""
    return _summary(snapshot_of(board, seq), seat_stats(board))


def _replayed(
    game: Game, board: Scoreboard, seq: int
) -> tuple[Snapshot, dict[str, object]]:
    """A replayed game's state after event ``seq``, and its row's fields
    (summary and snapshot), the state taken once (it looks for the hand
    event ``seq`` set among every hand)."""
    state = snapshot_of(board, seq)
    fields = {**_summary(state, seat_stats(board)), **snapshots.stored(game, state)}
    return state, fields


def _summary(state: Snapshot, stats: list[SeatStats]) -> dict[str, object]:
    bids, made = seat_bids(stats)
    return {
        "last_seq": state.seq,
        "hands_played": state.played,
        "totals": list(state.totals),
        "finished": state.finished,
        "winners": list(state.winners) if state.finished else [],
        "seat_bids": bids,
        "seat_made": made,
        "seat_stats": stats,
    }


def rebuild_rows(games: QuerySet[Game]) -> int:
    """Each game's row projection recomputed from its log (after the
    projection gains a column, or to prove it equals the running one);
    returns how many rows were rewritten."""
    count = 0
    for game in games.only(*LOG_FIELDS):
        _, fields = _replayed(game, replay_log(load(game)), game.last_seq)
        Game.objects.filter(pk=game.pk).update(**fields)
        count += 1
    return count


def _row(game: Game, seq: int, entry: LogEntry) -> dict[str, Any]:
    """Event ``seq`` as it is stored, by column: its pepper-log v1 form, and
    a time without a zone read as UTC. (A plain mapping: an append inserts
    it in plain SQL, and building a model instance for it took ~20 µs.)"""
    assert entry.id is not None and entry.at is not None, "given before storing"
    payload = event_document(entry)
    at = datetime.fromisoformat(entry.at)
    return {
        "game_id": game.pk,
        "seq": seq,
        "event_id": entry.id,
        "type": str(payload["type"]),
        "payload": payload,
        "recorded_at": at if at.tzinfo else at.replace(tzinfo=UTC),
        "recorded_by": entry.by or "",
    }


# Told, in the transaction that moved a game's row (an append, or a rebuild
# of the row), which game it was and whether it was finished before: what a
# capability keeps of game rows (the league's night tallies) stays in step
# with them. A capability adds itself when it starts, so this log core
# never imports it.
row_watchers: list[Callable[[Game, bool], None]] = []


def _claim(
    game: Game, expected_seq: int, summary: dict[str, object], at: datetime
) -> None:
    """Move the game row from ``expected_seq`` to the next event, with the
    game's summary (for lists of games) and snapshot in step with its log;
    ``_Moved`` if another append got there first (the guard, whatever the
    database)."""
    moved = {**summary, "updated_at": at}
    if not gamerows.move_row(game.pk, expected_seq, moved):
        raise _Moved()
    was_finished = game.__dict__.get("finished", True)  # unread: say it was
    game.__dict__.update(moved)
    for watcher in row_watchers:
        watcher(game, was_finished)


def _remember(game_id: UUID, seq: int, entry: LogEntry) -> None:
    """Once the event is durable, the process's parsed log holds it too, so
    the next append need not fetch it: the entry as appended, which is the
    entry its stored form reads back as (tests/test_eventstore.py checks
    each kind), without parsing that form again (~20 µs a save)."""
    known = _ENTRIES.get(game_id, ())
    if len(known) == seq - 1:
        _put(_ENTRIES, game_id, (*known, entry))


def _repeat_or_conflict(game: Game, entry: LogEntry, current: int) -> Appended:
    repeat = _seq_of(game, entry.id)
    if repeat is not None:
        return _answer(game, repeat, entry)
    raise Conflict(current)


def _seq_of(game: Game, event_id: str | None) -> int | None:
    events = GameEvent.objects.filter(game=game, event_id=event_id)
    return events.values_list("seq", flat=True).first()


def _after_race(game: Game, entry: LogEntry) -> Appended:
    game.refresh_from_db(fields=["last_seq"])
    return _repeat_or_conflict(game, entry, game.last_seq)


def _answer(game: Game, seq: int, entry: LogEntry) -> Appended:
    """A repeated event id: the answer the first request got, if it is the
    same event (who entered it and when may differ on a retry)."""
    log = load(game, up_to=seq)
    if log.entries[-1].event != entry.event:
        raise IdTaken(str(entry.id), seq)
    board = replay_log(log)
    return Appended(seq, snapshot_of(board, seq), True, log, game.pk, board)
