"""What the desk and the TV show while a round is played, worked out
without a database or a clock (the time is an argument): which tables
need a look first, and the night's standings with the games in play
counted as they stand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from enum import IntEnum

from scorekeeper.leagues.standings import GameResult, Tally, night_tallies

# A table with no hand for this long is worth a look from the desk (a
# dispute, a phone gone flat, a table that forgot to record).
QUIET = timedelta(minutes=10)


class Attention(IntEnum):
    """How much a table needs the organizer; the desk lists the lowest first."""

    QUIET = 0  # in play, nothing recorded for QUIET
    PLAYING = 1
    DONE = 2  # finished, or its round is over


def attention(
    *, finished: bool, last_change: datetime, now: datetime, in_play: bool = True
) -> Attention:
    """A table's attention: ``last_change`` is when its game last changed
    (its start if no hand yet); ``in_play`` is false once its round is
    called or the night closed (nothing is waited for any more)."""
    if finished or not in_play:
        return Attention.DONE
    if now - last_change >= QUIET:
        return Attention.QUIET
    return Attention.PLAYING


def as_it_stands(game: GameResult, *, recorded: bool) -> GameResult | None:
    """A game as the standings count it now: a finished game as it is; one
    in play as if it were ended now (pepper-log v1 §6, ``end``: the highest
    total wins, all tied at the top win); one that has
    recorded nothing counts for nobody (``None``), as calling its round
    would leave it."""
    if game.finished:
        return game
    if not recorded:
        return None
    best = max(game.totals)
    winners = frozenset(side for side, total in enumerate(game.totals) if total == best)
    return replace(game, finished=True, winners=winners)


def live_tallies(games: Iterable[tuple[GameResult, bool]]) -> dict[str, Tally]:
    """The night's tallies per player with every game counted as it stands
    (each given with whether it has recorded anything)."""
    counted = (as_it_stands(game, recorded=recorded) for game, recorded in games)
    return night_tallies(game for game in counted if game is not None)
