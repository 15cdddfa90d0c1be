"""The game's row as the read model keeps it: where its log ends
(``last_seq``), its summary for lists of games and the league standings
(totals, winners, each seat's bids and numbers), and the engine's state
after its last event (``snapshots.py``), the one a new hand is refereed
against. Moved with each append, in its transaction, from the event's seq
before to its own: a row found elsewhere means another append got there
first (``Moved``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import QuerySet

from scorekeeper import snapshots
from scorekeeper.eventstore import LOG_FIELDS, load
from scorekeeper.gamelog import replay_log
from scorekeeper.gamerows import move_row
from scorekeeper.models import Game
from scorekeeper.rules.engine import Scoreboard, Snapshot, snapshot_of
from scorekeeper.seatstats import SeatStats, add_hand, no_stats, seat_bids, seat_stats


class Moved(Exception):
    """The game row no longer stood at the seq the append expected."""


# What an append reads of the game's row, in one query: where its log
# stands, its snapshot, and the numbers a new hand adds to.
CURRENT = ("last_seq", "hands_played", "seat_stats", "finished", *snapshots.FIELDS)


def current_row(game: Game, expected_seq: int) -> dict[str, Any]:
    """The game's row as it stands. PostgreSQL: writers of one game queue
    on its row lock before any work, so under contention a loser learns it
    lost at once. SQLite: its IMMEDIATE transaction holds the database's
    write lock, and the move checks the seq, so the caller's copy of the
    row serves when it stands at ``expected_seq`` (its snapshot and numbers
    change only with its seq); else it is read again."""
    if not connection.features.has_select_for_update:
        kept = game.__dict__
        if kept.get("last_seq") == expected_seq and all(f in kept for f in CURRENT):
            return {field: kept[field] for field in CURRENT}
    rows = Game.objects.filter(pk=game.pk)
    if connection.features.has_select_for_update:
        rows = rows.select_for_update()
    row: dict[str, Any] = rows.values(*CURRENT).get()
    return row


def move(
    game: Game,
    change: tuple[Snapshot, Scoreboard | None, datetime],
    row: Mapping[str, Any],
    expected_seq: int,
) -> None:
    """Move the game's row from ``expected_seq`` to the event ``change``
    made (the engine's state after it, the board when the referee replayed
    the log, the event's time), with its summary and snapshot: the seat
    numbers are the row's with the hand added when the referee folded it,
    else a replay's. ``Moved`` if the row stands elsewhere."""
    state, board, at = change
    stats = None if board is not None else _folded_stats(state, row)
    if stats is None:
        stats = seat_stats(board or replay_log(load(game)))
    fields = {**_summary(state, stats), **snapshots.stored(game, state)}
    fields["updated_at"] = at
    if not move_row(game.pk, expected_seq, fields):
        raise Moved()
    game.__dict__.update(fields)


def _folded_stats(state: Snapshot, row: Mapping[str, Any]) -> list[SeatStats] | None:
    """The row's seat numbers with ``state``'s hand added (a copy: the row
    may be the caller's, and the append may roll back); None when they
    cannot be added to (not numbers this code wrote: a replay counts them)."""
    try:
        stats = [_copied(seat) for seat in row["seat_stats"]]
    except (KeyError, TypeError, AttributeError):
        return None
    variant = state.variant
    if not stats and row["hands_played"] == 0:
        stats = no_stats(variant)
    if len(stats) != variant.seats:
        return None
    if state.hand_set is not None:
        add_hand(variant, stats, state.hand_set.hand, state.hand_set.deltas)
    return stats


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
        board = replay_log(load(game))
        state = snapshot_of(board, game.last_seq)
        fields = {**_summary(state, seat_stats(board)), **snapshots.stored(game, state)}
        Game.objects.filter(pk=game.pk).update(**fields)
        count += 1
    return count
