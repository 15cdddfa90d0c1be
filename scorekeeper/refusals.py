"""A refusal as a player reads it on a page.

The engine's words name log positions ("event 11: ...", "ended at event
8") and end with the rule's source ("(contract §6)"): the API, the log and
the commands keep them, as the public contract requires. A page says the
same in a player's words: the hand an event is ("hand 5"), the source
on a line of its own ("Rule: contract §6"), and a true minus sign ("−10").

Pure: no Django, no database; a page passes how to name an event.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.events import Event, GameEnded, HandCorrected, HandVoided
from scorekeeper.tablewords import true_minus

# The source the engine appends to a broken rule: "(seed 001 §4.2)",
# "(contract §6)", "(house rule: stick the dealer)".
_SOURCE = re.compile(r"\s*\(((?:contract|seed|house rule)\b[^()]*)\)\s*$")
# A log position in the engine's words: "event 8", "hand event 3", and the
# "at" before it ("ended at event 8"), which goes when the name is empty.
_POSITION = re.compile(r"(?P<at> at)?(?P<space> |^)(?:hand )?event (?P<n>\d+)\b")

EventName = Callable[[int], str]


@dataclass(frozen=True)
class Refusal:
    """What a page shows: the sentence a player reads (what is wrong, then
    what would make it legal), and where the rule comes from, if known."""

    text: str
    rule: str = ""

    def __bool__(self) -> bool:
        return bool(self.text)


def sentence(message: str) -> str:
    """A message as a sentence: capital first letter, full stop."""
    return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 102nd."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{'th' if number % 100 in (11, 12, 13) else suffix}"


def in_a_log(number: int) -> str:
    """An event of a log that was not stored (an import, a verdict)."""
    return f"the log's {ordinal(number)} event"


def hand_numbers(board: Scoreboard) -> dict[int, int]:
    """Each hand in force by its log position: hand event -> hand number
    (what ``in_a_game`` names hands by)."""
    return {result.target: result.number for result in board.hands}


def in_a_game(events: Sequence[Event], hands: Mapping[int, int]) -> EventName:
    """An event of a stored game, named as its table knows it: the hand
    in force it set (``hands``: hand event -> hand number), the void or
    correction it is; the end needs no name ("the game was ended")."""

    def name(position: int) -> str:
        if position in hands:
            return f"hand {hands[position]}"
        if not 1 <= position <= len(events):
            return "this change"
        event = events[position - 1]
        if isinstance(event, GameEnded):
            return ""
        if isinstance(event, HandVoided):
            return "a void"
        if isinstance(event, HandCorrected):
            return "a correction"
        return "that hand"  # a hand event no longer in force: voided

    return name


def players_words(
    message: str, remedy: str = "", name: EventName = in_a_log
) -> Refusal:
    """The engine's ``message`` (without its ``event N:`` prefix) and
    ``remedy`` in a player's words."""
    found = _SOURCE.search(message)
    rule = true_minus(found.group(1)) if found else ""
    what = _SOURCE.sub("", message)
    text = sentence(_named(what, name))
    if remedy:
        text += f" To make it legal: {_named(remedy, name).rstrip('.')}."
    return Refusal(true_minus(text), rule)  # "mercy at −10", as a page writes it


def _named(text: str, name: EventName) -> str:
    def replace(found: re.Match[str]) -> str:
        called = name(int(found["n"]))
        if not called:
            return ""
        return f"{found['at'] or ''}{found['space']}{called}"

    return _POSITION.sub(replace, text)
