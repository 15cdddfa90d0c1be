"""Each game's log and scoreboard as this process last read them, keyed by
the game and the number of events they hold: stored events never change,
so a page, a poll or a save that finds the game where they stand reads
them instead of the database and a replay, and a log that moved on is
read only after what is kept. Only committed events are kept (read back,
or added once their append has committed), so a rolled-back append
leaves nothing behind; ``forget`` drops a game after a rollback of several
appends that read each other uncommitted.
"""

from __future__ import annotations

import threading
from uuid import UUID

from django.db import transaction

from scorekeeper.eventstore import entries_after
from scorekeeper.gamelog import GameLog, LogEntry, game_variant, replay_log
from scorekeeper.models import Game
from scorekeeper.rules.engine import Scoreboard

_KEPT = 512  # games a process keeps
_ENTRIES: dict[UUID, tuple[LogEntry, ...]] = {}
_BOARDS: dict[UUID, tuple[int, Scoreboard]] = {}
# A worker of several threads (gunicorn's WEB_THREADS) shares them: two
# threads must not both drop the oldest game. Any tuple a thread keeps is a
# prefix of the committed log, so the last one kept wins harmlessly.
_LOCK = threading.Lock()


def game_log(game: Game, up_to: int | None = None) -> GameLog:
    """The game's log (up to event ``up_to``), as its row says it stands."""
    entries = _entries(game)
    return GameLog(
        game_variant(game.preset, len(game.seats), game.overrides),
        tuple(game.seats),
        game.first_dealer,
        entries if up_to is None else entries[:up_to],
    )


def _entries(game: Game) -> tuple[LogEntry, ...]:
    known = _ENTRIES.get(game.pk, ())
    if len(known) > game.last_seq:  # a kept log longer than the row: read again
        known = ()
    if len(known) == game.last_seq:  # the game row says nothing is new
        return known
    entries = known + entries_after(game, len(known))
    # Kept once what was read has committed (at once outside a transaction):
    # inside one, the events read may be its own appends, which a rollback
    # undoes, and another thread of this process must never be served them.
    transaction.on_commit(lambda: _put(_ENTRIES, game.pk, entries))
    return entries


def _put[T](kept: dict[UUID, T], game_id: UUID, value: T) -> None:
    with _LOCK:
        if len(kept) >= _KEPT and game_id not in kept:
            kept.pop(next(iter(kept)))
        kept[game_id] = value


def forget(game_id: UUID) -> None:
    """Drop what this process keeps of a game."""
    _ENTRIES.pop(game_id, None)
    _BOARDS.pop(game_id, None)


def scoreboard(game_id: UUID, log: GameLog) -> Scoreboard:
    """``replay_log(log)``, for ``log`` read from the game (whole or up to
    an event), kept: the next read at the same event needs no replay."""
    board = kept_board(game_id, log)
    if board is None:
        board = replay_log(log)
        keep_board(game_id, len(log.entries), board)
    return board


def kept_board(game_id: UUID, log: GameLog) -> Scoreboard | None:
    """The kept board, if it stands where ``log`` does: the same number of
    events (stored events never change) under the same rules and seats."""
    seq, board = _BOARDS.get(game_id, (-1, None))
    if board is None or seq != len(log.entries):
        return None
    same_rules = board.variant is log.variant or board.variant == log.variant
    same_seats = board.seats == log.seats and board.first_dealer == log.first_dealer
    return board if same_rules and same_seats else None


def keep_board(game_id: UUID, seq: int, board: Scoreboard) -> None:
    # At once outside a transaction; inside one, only if it commits.
    transaction.on_commit(lambda: _put(_BOARDS, game_id, (seq, board)))


def keep_entry(game_id: UUID, seq: int, entry: LogEntry) -> None:
    """Once the event ``seq`` commits, the kept log holds it too, so the
    next append need not fetch it: the entry as appended, which is the
    entry its stored form reads back as (tests/test_eventstore.py checks
    each kind)."""

    def kept() -> None:
        known = _ENTRIES.get(game_id, ())
        if len(known) == seq - 1:
            _put(_ENTRIES, game_id, (*known, entry))

    transaction.on_commit(kept)
