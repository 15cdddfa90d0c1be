"""What a page tells a player when a change to a game is not saved: the
engine's refusal in their words (the hand named, the rule's source apart),
another phone's change, a busy database, or a league's rule. Nothing is
saved in any of these cases."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from enum import Enum

from scorekeeper.eventstore import Busy, Conflict, IdTaken
from scorekeeper.gamelog import GameLog, LogEntry, LogError, fold_entry
from scorekeeper.games import presenters
from scorekeeper.recording import Refused
from scorekeeper.refusals import (
    EventName,
    Refusal,
    hand_numbers,
    in_a_game,
    players_words,
)
from scorekeeper.rules.engine import HandResult, Scoreboard, snapshot_of
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.events import GameEnded, Hand, HandCorrected, HandVoided


class ChangeKind(Enum):
    """A change to a game that is not a new hand."""

    VOID = "void"
    CORRECT = "correct"
    END = "end"


# "look again before voiding": what the player was doing, in their words.
DOING = {
    ChangeKind.VOID: "voiding",
    ChangeKind.CORRECT: "correcting",
    ChangeKind.END: "ending it",
}
# Said after what was wrong with the form: nothing happened.
NOTHING_DONE = {
    ChangeKind.VOID: "Nothing was voided.",
    ChangeKind.CORRECT: "Nothing was corrected.",
    ChangeKind.END: "The game goes on.",
}
# A void or a correction that would make a later hand illegal: what it
# would do, and what to do instead ({why}: the rule that hand would break).
LATER_HAND_BROKEN = {
    ChangeKind.VOID: (
        "Voiding hand {number} would move every later hand to another dealer "
        "and first bidder, and hand {later} ({summary}) would no longer be "
        "legal: {why} Void from the last hand back, or correct hand {number} "
        "instead."
    ),
    ChangeKind.CORRECT: (
        "This correction of hand {number} would make hand {later} ({summary}) "
        "illegal: {why} Correct hand {later} first, or void from the last "
        "hand back."
    ),
}


def event_names(log: GameLog, board: Scoreboard) -> EventName:
    """How a page names an event of this game: "hand 5", not "event 7"."""
    events = [entry.event for entry in log.entries]
    return in_a_game(events, hand_numbers(board))


def refusal_of(refused: Refused, name: EventName) -> Refusal:
    """The rule broken, then what would make the hand legal, in a
    player's words (the engine's ``event N: ...`` stays in the log and
    the API); the rule's source apart."""
    return players_words(refused.rule_message, refused.remedy, name)


def hand_after_the_end(log: GameLog, board: Scoreboard, hand: Hand) -> Refusal:
    """Why ``hand`` cannot follow a game that is over, asked of the rules
    without saving it: a phone that saved it before hearing of the end is
    told the rule that ended the game, not to save it again (contract §5, §6)."""
    state = snapshot_of(board, len(log.entries))
    try:  # refereed as an append referees it: one more entry, no replay
        fold_entry(state, LogEntry(hand))
    except LogError as error:
        return refusal_of(Refused(error), event_names(log, board))
    return Refusal("")


def conflict_words(
    error: Conflict | Busy | IdTaken, changed: str, *, kept: bool
) -> str:
    """What a phone is told when its save did not land: ``changed``, what
    another phone did first (a conflict); ``kept``: the game goes on, so
    its form is shown again with what was entered."""
    if isinstance(error, Busy):
        said = (
            "The game's storage did not take the hand (busy or failing); "
            "nothing was saved."
        )
        return said + (" Your entry is still below: save it again." if kept else "")
    if isinstance(error, IdTaken):
        return (
            "This form was already used for a different entry; nothing was "
            "saved. Check the hands below" + (", then save again." if kept else ".")
        )
    if kept:
        return f"{changed} Your entry is still below: if it is a different hand, save it again."
    return changed


def same_hand(entered: Hand, logged: object) -> bool:
    """Whether the log's event ``logged`` is the hand ``entered``, whatever
    auction either records: the same hand saved on two phones."""
    if not isinstance(logged, type(entered)):
        return False
    return replace(entered, auction=None) == replace(logged, auction=None)


def try_change(
    change: Callable[[], object],
    kind: ChangeKind,
    log: GameLog,
    board: Scoreboard,
    result: HandResult | None = None,
) -> Refusal:
    """Append a void or a correction of ``result`` (or an end: None): an
    empty ``Refusal`` once saved, else what to tell the player (nothing
    was saved)."""
    try:
        change()
    except (Conflict, IdTaken):
        return Refusal(
            "The game changed on another phone meanwhile; "
            f"look again before {DOING[kind]}."
        )
    except Busy:
        return Refusal(
            "The game's storage did not take it (busy or failing); "
            "nothing was saved. Try again."
        )
    except RulesError as error:  # a refusal in words (an overseer's, say)
        return Refusal(error.message)
    except Refused as refused:
        name = event_names(log, board)
        later = next((h for h in board.hands if h.target == refused.event), None)
        if result is not None and later is not None and later.number > result.number:
            return _later_hand_broken(refused, kind, board, result, later, name)
        return refusal_of(refused, name)
    return Refusal("")


def _later_hand_broken(
    refused: Refused,
    kind: ChangeKind,
    board: Scoreboard,
    result: HandResult,
    later: HandResult,
    name: EventName,
) -> Refusal:
    """The change itself is fine, but a later hand would break: say so, and
    what to do instead (the engine's remedy is about that later hand)."""
    summary = presenters.hand_summary(board.variant, board.seats, later.hand)
    broken = players_words(refused.rule_message, name=name)
    text = LATER_HAND_BROKEN[kind].format(
        number=result.number, later=later.number, summary=summary, why=broken.text
    )
    return Refusal(text, broken.rule)


def what_changed(log: GameLog, board: Scoreboard, seen: int) -> str:
    """What the events after ``seen`` did, and who entered them: one event
    in its own words; several hands at once together; a mix (hands with a
    void or a correction) counted, since their numbers moved."""
    arrived = log.entries[seen:]
    entry = arrived[0] if arrived else None
    who = "the other phone" if entry is None or not entry.by else entry.by
    if len({e.by for e in arrived}) > 1:
        who = "the other phones"
    if len(arrived) > 1 and not all(_adds_a_hand(e.event) for e in arrived):
        return f"Just in from {who}: {_counted(log, arrived)}."
    if entry is not None and isinstance(entry.event, HandVoided):
        if isinstance(log.entries[entry.event.target - 1].event, GameEnded):
            return f"The game's end was just undone by {who}: play on."
        return f"A hand was just voided by {who}."
    if entry is not None and isinstance(entry.event, HandCorrected):
        return f"A hand was just corrected by {who}."
    if entry is not None and isinstance(entry.event, GameEnded):
        return f"The game was just ended by {who}."
    last = len(board.rows)  # each arrival added a row
    if len(arrived) > 1:  # a screen that missed a poll or two
        joined = "and" if len(arrived) == 2 else "to"
        return f"Hands {last - len(arrived) + 1} {joined} {last} were just recorded by {who}."
    return f"Hand {last} was just recorded by {who}."


def _adds_a_hand(event: object) -> bool:
    return not isinstance(event, HandVoided | HandCorrected | GameEnded)


def _counted(log: GameLog, arrived: Sequence[LogEntry]) -> str:
    """ "2 hands recorded, 1 voided": what a mix of events did (a void of
    the game's end said as the end undone: the game plays on)."""
    events = [e.event for e in arrived]
    undone = [
        v
        for v in events
        if isinstance(v, HandVoided)
        and isinstance(log.entries[v.target - 1].event, GameEnded)
    ]
    hands = sum(_adds_a_hand(v) for v in events)
    voided = sum(isinstance(v, HandVoided) for v in events) - len(undone)
    corrected = sum(isinstance(v, HandCorrected) for v in events)
    parts = [f"{hands} hand{'s' if hands != 1 else ''} recorded"] if hands else []
    parts += [f"{voided} voided"] if voided else []
    parts += [f"{corrected} corrected"] if corrected else []
    if any(isinstance(v, GameEnded) for v in events):
        parts.append("the game ended")
    if undone:
        parts.append("the game's end undone: play on")
    return ", ".join(parts)
