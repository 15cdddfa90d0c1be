"""Who plays each seat, hand by hand, when a player was replaced in the
middle of a game (a league night's substitute: "Bob → Ann from hand 3").

The log keeps each seat's first name for the whole game; the game's page
names the player who plays now wherever it says who plays now (the record
form's buttons, whose deal and bid it is, the totals), and each hand of
the history by who played it (hands before the substitution keep the
log's name).

The table knows nothing of leagues: a capability that seats substitutes
hands in its ``finder`` at start-up (``finders.append``). It is asked only
for a game whose row carries a seat note, and its answer is kept in the
cache under the number of notes (a new substitution adds one), so a game
page still reads one row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.core.cache import cache

from scorekeeper.gamelog import GameLog
from scorekeeper.games import presenters
from scorekeeper.models import Game
from scorekeeper.rules.engine import HandResult, Scoreboard
from scorekeeper.tablewords import Takeover, board_at

finders: list[Callable[[Game], Sequence[Takeover]]] = []


def takeovers(game: Game) -> tuple[Takeover, ...]:
    """The game's substitutions (none, and no query, for a game without a
    seat note)."""
    if not game.seat_notes:
        return ()
    key = f"takeovers:v2:{game.pk}:{len(game.seat_notes)}"
    found: tuple[Takeover, ...] | None = cache.get(key)
    if found is None:
        found = tuple(each for find in finders for each in find(game))
        cache.set(key, found, timeout=3600)
    return found


def history(
    board: Scoreboard, log: GameLog, changes: Sequence[Takeover]
) -> list[presenters.HistoryRow]:
    """The history (newest first), each hand named by who played it."""
    if not changes:
        return presenters.history(board, log)
    return presenters.history(
        board, log, lambda result: board_at(board, changes, result.number)
    )


def history_row(
    board: Scoreboard, changes: Sequence[Takeover], result: HandResult
) -> presenters.HistoryRow:
    """One hand of the history, named by who played it."""
    return presenters.history_row(board_at(board, changes, result.number), result)
