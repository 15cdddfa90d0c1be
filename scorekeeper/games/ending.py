"""A called game's end as its page tells it: who ended it, when and why,
and the fixes made after it (contract §6: a void or a correction of an
earlier hand may follow an end; the game stays ended, won by the highest
totals once the fix is in).

Plain data for templates, from the log and its scoreboard: no queries.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.gamelog import GameLog, LogEntry
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.events import (
    GameEnded,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from scorekeeper.tablewords import clock, hand_summary


@dataclass(frozen=True)
class Fix:
    """A void or a correction made after the game was ended."""

    what: str  # "hand 5 corrected", "hand voided (Bob bid 3 ♠, took 4)"
    by: str
    at: str
    reason: str


@dataclass(frozen=True)
class Ending:
    by: str
    at: str
    reason: str
    fixes: tuple[Fix, ...]

    @property
    def fixed_line(self) -> str:
        """For the winner banner: "Fixed after the end: hand 5 corrected
        by Ann." ("" when nothing was)."""
        if not self.fixes:
            return ""
        done = "; ".join(f"{fix.what} by {fix.by}" for fix in self.fixes)
        return f"Fixed after the end: {done}. The totals and the result include it."


def ending(log: GameLog, board: Scoreboard) -> Ending | None:
    """The end event and what followed it; None unless the game was ended
    (a game won by its score has no end event)."""
    if board.decided != "ended":
        return None
    entries = log.entries
    end = next(n for n, entry in enumerate(entries) if type(entry.event) is GameEnded)
    event = entries[end].event
    assert isinstance(event, GameEnded)
    fixes = tuple(_fix(log, board, entry) for entry in entries[end + 1 :])
    return Ending(_by(entries[end]), _at(entries[end]), event.reason, fixes)


def _fix(log: GameLog, board: Scoreboard, entry: LogEntry) -> Fix:
    event = entry.event
    reason = entry.note or ""
    if isinstance(event, HandCorrected):
        number = next(
            (hand.number for hand in board.hands if hand.target == event.target), None
        )
        what = "a hand corrected" if number is None else f"hand {number} corrected"
    else:
        assert isinstance(event, HandVoided)  # only these follow an end
        original = log.entries[event.target - 1].event
        assert isinstance(original, HandRecorded | HandPassedOut)
        summary = hand_summary(board.variant, board.seats, original)
        what = f"a hand voided ({summary})"
        reason = reason or event.reason
    return Fix(what, _by(entry), _at(entry), reason)


def _by(entry: LogEntry) -> str:
    return entry.by or "someone"


def _at(entry: LogEntry) -> str:
    """ "Sun 22 Nov 2026, 20:00 UTC", as the history writes a change's time."""
    return clock(entry.at or "")
