"""A called game's end as its page tells it: who ended it, when and why,
and the fixes made after it (contract §6: a void or a correction of an
earlier hand may follow an end; the game stays ended, won by the highest
totals once the fix is in), each before and after, as the night's change
log says it ("hand 2 (Bob bid 3 ♥): took 6 → took 3"), and the winner
when it changed.

Plain data for templates, from the log and its scoreboard: no queries
(the game before and after each fix is a replay of the log's start).
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.gamelog import GameLog, LogEntry
from scorekeeper.games.change_lines import change_words
from scorekeeper.rules.engine import Scoreboard, replay
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

    what: str  # "hand 5 (Bob bid 3 ♠): took 6 → took 3", "a hand voided (...)"
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
        """For the winner banner: "Fixed after the end by Ann: hand 5 (Bob
        bid 3 ♠): took 6 → took 3." ("" when nothing was)."""
        if not self.fixes:
            return ""
        done = " Then ".join(f"by {fix.by}: {fix.what}." for fix in self.fixes)
        return f"Fixed after the end {done} The totals and the result include it."


def ending(log: GameLog, board: Scoreboard) -> Ending | None:
    """The end event and what followed it; None unless the game was ended
    (a game won by its score has no end event)."""
    if board.decided != "ended":
        return None
    entries = log.entries
    end = board.ended - 1  # the end in force (an earlier one may be withdrawn)
    event = entries[end].event
    assert isinstance(event, GameEnded)
    fixes = tuple(_fix(log, board, n) for n in range(end + 1, len(entries)))
    return Ending(_by(entries[end]), _at(entries[end]), event.reason, fixes)


def _fix(log: GameLog, board: Scoreboard, position: int) -> Fix:
    """The fix at ``position`` (0-based) in words: what it changed, before
    and after, and the winner if that changed."""
    entry = log.entries[position]
    event = entry.event
    reason = entry.note or ""
    changed = change_words(_replayed(log, position), _replayed(log, position + 1))
    if isinstance(event, HandCorrected):
        number = next(
            (hand.number for hand in board.hands if hand.target == event.target), None
        )
        named = "a hand corrected" if number is None else f"hand {number} corrected"
        what = changed or named
    else:
        assert isinstance(event, HandVoided)  # only these follow an end
        original = log.entries[event.target - 1].event
        assert isinstance(original, HandRecorded | HandPassedOut)
        summary = hand_summary(board.variant, board.seats, original)
        what = f"a hand voided ({summary})" + (f"; {changed}" if changed else "")
        reason = reason or event.reason
    return Fix(what, _by(entry), _at(entry), reason)


def _replayed(log: GameLog, events: int) -> Scoreboard:
    """The game as its first ``events`` events leave it."""
    return replay(log.variant, log.seats, log.first_dealer, log.events[:events])


def _by(entry: LogEntry) -> str:
    return entry.by or "someone"


def _at(entry: LogEntry) -> str:
    """ "Sun 22 Nov 2026, 20:00 UTC", as the history writes a change's time."""
    return clock(entry.at or "")
