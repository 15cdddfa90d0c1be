"""Two phones recorded one hand: which queued changes of this phone are
rivals of a hand another phone recorded meanwhile, both versions in words
("Ann's phone recorded hand 7 as ...; this phone has ..."), and the table's
choice of ours as a correction of theirs. Run on the phone (under Pyodide,
through ``phone``) and by the tests under CPython.

A queued change was made against the log as it stood at its
``expected_seq``; what the server's log holds after that position was
recorded elsewhere, except the positions this phone already settled
(``decided``: where its own changes landed, and the hands the table
already chose between). Pure: the standard library and the log core.
"""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.gamelog import GameLog, LogEntry, parse_entry, parse_log, replay_log
from scorekeeper.refusals import hand_numbers
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.events import (
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from scorekeeper.tablewords import Takeover, board_now, hand_summary

Queued = list[dict[str, Any]]
HANDS = (HandRecorded, HandPassedOut)


def _is_hand(event: dict[str, Any]) -> bool:
    return event.get("type") == "hand"


def rival_at(log: GameLog, item: dict[str, Any], decided: set[int]) -> int | None:
    """The log position of what another phone recorded in the place of the
    queued ``item`` (None: nothing; it simply follows the log). A hand
    meets only another hand: a void or a correction of some earlier hand
    recorded elsewhere does not take its place."""
    expected = item.get("expected_seq")
    if expected is None:
        return None
    ours_a_hand = _is_hand(item["event"])
    for position in range(expected + 1, len(log.entries) + 1):
        theirs = log.entries[position - 1].event
        if position not in decided and (not ours_a_hand or isinstance(theirs, HANDS)):
            return position
    return None


def rivals(
    log: GameLog, queued: Queued, decided: set[int]
) -> tuple[dict[int, dict[str, Any]], Queued]:
    """This phone's queued hands that rival hands in the log (by the
    position of theirs: one each, in order), and the rest of the queue."""
    found: dict[int, dict[str, Any]] = {}
    rest: Queued = []
    for item in queued:
        position = rival_at(log, item, decided | set(found))
        placed_hand = any(_is_hand(other["event"]) for other in rest)
        if position is not None and _is_hand(item["event"]) and not placed_hand:
            found[position] = item["event"]
        else:
            rest.append(item)
    return found, rest


def _before(log: GameLog, position: int) -> Scoreboard:
    return replay_log(
        GameLog(log.variant, log.seats, log.first_dealer, log.entries[: position - 1])
    )


def dispute(
    log_text: str,
    queued_text: str,
    takeovers_text: str = "[]",
    decided_text: str = "[]",
) -> str:
    """Both versions of the first queued change's place in words, or
    ``{"target": null}`` when nothing recorded elsewhere took its place
    (it is sent after what the log holds now)."""
    log = parse_log(json.loads(log_text))
    item = json.loads(queued_text)[0]
    position = rival_at(log, item, set(json.loads(decided_text)))
    if position is None:
        return json.dumps({"target": None})
    theirs = log.entries[position - 1]
    board = board_now(_before(log, position), takeovers(takeovers_text))
    ours = parse_entry(item["event"], position)
    phone = f"{theirs.by}'s phone" if theirs.by else "Another phone"
    return json.dumps(
        {
            "text": (
                f"{phone} recorded {_what(board, theirs)}; "
                f"this phone has {_what(board, ours)}."
            ),
            "target": position,
            "can_keep_ours": isinstance(theirs.event, HANDS)
            and isinstance(ours.event, HANDS),
        }
    )


def takeovers(takeovers_text: str) -> tuple[Takeover, ...]:
    """The game's substitutes as the server hands them to the phone with
    its log: ``[[seat, name, from_hand], ...]``."""
    return tuple(Takeover(*change) for change in json.loads(takeovers_text))


def _what(board: Scoreboard, entry: LogEntry) -> str:
    """An event as the dispute names it: "hand 7 as Bob bid 3 ♠, took 4"."""
    event = entry.event
    names = hand_numbers(board)
    if isinstance(event, HandVoided):
        return f"a void of hand {names.get(event.target, '?')}"
    if isinstance(event, HandCorrected):
        summary = hand_summary(board.variant, board.seats, event.hand)
        return f"a correction of hand {names.get(event.target, '?')} to {summary}"
    if isinstance(event, HANDS):
        summary = hand_summary(board.variant, board.seats, event)
        return f"hand {len(board.rows) + 1} as {summary}"
    return "the end of the game"


def keep_ours(
    log_text: str, queued_text: str, target: int, takeovers_text: str = "[]"
) -> str:
    """The first queued hand, kept over another phone's version of it (at
    log position ``target``): a correction of theirs, with a note saying
    so; it is sent after what the log holds now (``expected_seq`` None)."""
    log = parse_log(json.loads(log_text))
    item = json.loads(queued_text)[0]
    theirs = log.entries[target - 1]
    assert isinstance(theirs.event, HANDS)  # offered only then
    board = board_now(_before(log, target), takeovers(takeovers_text))
    ours = dict(item["event"])
    whose = f"{theirs.by}'s phone" if theirs.by else "another phone"
    note = (
        f"The table kept this phone's version of hand {len(board.rows) + 1} "
        f"over {whose}'s ({hand_summary(board.variant, board.seats, theirs.event)})."
    )
    hand = {
        k: v for k, v in ours.items() if k not in ("type", "id", "by", "note", "at")
    }
    correction = {
        "type": "correct",
        "target": target,
        "hand": hand,
        "id": f"{ours['id']}-kept",
        "note": note,
        **({"by": ours["by"]} if ours.get("by") else {}),
    }
    return json.dumps({"event": correction, "expected_seq": None, "target_of": None})
