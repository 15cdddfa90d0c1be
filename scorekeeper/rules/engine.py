"""The engine: fold a game's events into a scoreboard (contract §1-§3).

The effective game is the hand events in log order, corrected, without the
voided ones. A new hand is checked and scored against the game so far; a
void or a correction replays the effective game from the start, so a change
that makes a later hand illegal is reported as that later hand's error.

What the engine answers is in scoreboard.py; the fold of each hand or end,
and of one event into a snapshot, in fold.py; the replay of a log here.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import VariantError, Violation
from .events import (
    Event,
    GameEnded,
    Hand,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from .fold import Fold, after_end, extend, fold_event
from .scoreboard import (
    ENGINE_VERSION,
    HandResult,
    Hands,
    Row,
    Scoreboard,
    Snapshot,
    next_turn,
    side_names,
    snapshot_of,
)
from .variants import Variant

# The names the rest of the project imports from here, as before the
# scoreboard and the fold had modules of their own.
__all__ = [
    "ENGINE_VERSION",
    "HandResult",
    "Hands",
    "Row",
    "Scoreboard",
    "Snapshot",
    "extend",
    "fold_event",
    "next_turn",
    "can_correct",
    "replay",
    "side_names",
    "snapshot_of",
    "verify_correction",
]


def replay(
    variant: Variant, seats: Sequence[str], first_dealer: int, events: Sequence[Event]
) -> Scoreboard:
    """Fold ``events`` into the scoreboard, or raise the first ``Violation``
    (its ``event`` is the 1-based position of the offending event).

    After an end event only voids and corrections may follow (an organizer
    fixing a called game, contract §6): each is folded in as anywhere else,
    and the game ends again, as it then stands, where it was ended. A void
    that names the end event itself withdraws the end (an organizer's call
    undone, contract §6): the game goes on from its hands as they stand."""
    names = tuple(seats)
    if len(names) != variant.seats:
        raise VariantError(
            f"{variant.preset} here is set for {variant.seats} players, "
            f"not {len(names)}"
        )
    if not 0 <= first_dealer < variant.seats:
        last = variant.seats - 1
        raise VariantError(f"the first dealer must be a seat from 0 to {last}")
    fold = Fold(variant, names, first_dealer)
    stream = enumerate(events, start=1)
    # Each hand event not voided, by log position: (the position of the event
    # that set it, the hand in force). Kept only once a void or a correction
    # appears: until then every hand event is in force as it was recorded.
    hands: dict[int, tuple[int, Hand]] = {}
    unfiled = 1  # the first position not yet filed in ``hands``
    ended: tuple[int, GameEnded] | None = None  # the end event in force
    ends: set[int] = set()  # every end event's position, withdrawn or not
    while (
        change := fold.play(stream) if ended is None else next(stream, None)
    ) is not None:
        position, event = change
        if ended is not None and not isinstance(event, HandVoided | HandCorrected):
            raise after_end(ended[0], position)
        if isinstance(event, GameEnded):
            fold.end(position, event)
            ended = (position, event)
            ends.add(position)
            continue
        assert isinstance(event, HandVoided | HandCorrected)
        for earlier in range(unfiled, position):
            if earlier not in ends:
                hands[earlier] = (earlier, events[earlier - 1])  # type: ignore[assignment]
        unfiled = position + 1
        withdrawn = ended is not None and event.target == ended[0]
        if withdrawn and isinstance(event, HandVoided):  # the end withdrawn
            ended = None
            fold = Fold(variant, names, first_dealer)
            _refold(fold, hands, ended, position)
            continue
        _check_target(events, hands, position, event.target)
        if isinstance(event, HandVoided):
            del hands[event.target]
        else:
            hands[event.target] = (position, event.hand)
        fold = Fold(variant, names, first_dealer)
        _refold(fold, hands, ended, position)
    return fold.scoreboard(tuple(hands), 0 if ended is None else ended[0])


def verify_correction(
    board: Scoreboard, correction: HandCorrected, position: int
) -> None:
    """Raise a ``Violation`` when ``correction`` (to be the log's event at
    ``position``) would leave its hand as it already reads: a correction
    corrects something (contract §1), so one that changes nothing is
    refused and nothing is written. A target that is no hand in force is
    left to ``replay``, which refuses it in its own words."""
    in_force = next(
        (result.hand for result in board.hands if result.target == correction.target),
        None,
    )
    if in_force is not None and in_force == correction.hand:
        raise Violation(
            f"nothing to correct: hand event {correction.target} already reads so",
            rule="contract §1",
            remedy="change what was wrong, or leave the hand as it is",
            event=position,
        )


def can_correct(board: Scoreboard, correction: HandCorrected, position: int) -> bool:
    try:
        verify_correction(board, correction, position)
    except Violation:
        return False
    return True


def _refold(
    fold: Fold,
    hands: dict[int, tuple[int, Hand]],
    ended: tuple[int, GameEnded] | None,
    position: int,
) -> None:
    """Replay the hands in force after the change at ``position``; a game
    that had been ended ends there again, unless the change makes it won
    before its end (then the change is refused, contract §6)."""
    try:
        fold.play(iter(hands.values()))
    except Violation:
        # Once won, every later hand is refused: the game was won before
        # its end, which is the change's fault, not that later hand's.
        if ended is not None and fold.winners:
            raise _won_before_end(fold, ended[0], position) from None
        raise
    if ended is not None:
        if fold.winners:
            raise _won_before_end(fold, ended[0], position)
        fold.end(*ended)


def _won_before_end(fold: Fold, end: int, position: int) -> Violation:
    names = side_names(fold.variant, fold.names)
    won = " and ".join(names[side] for side in fold.winners)
    return Violation(
        f"this change makes {won} win after hand {len(fold.results)}, before the "
        f"game was ended at event {end}: a game that was won cannot be ended",
        rule="contract §6",
        remedy="change the hand so that nobody has won before the end, "
        "or start a new game",
        event=position,
    )


def _check_target(
    events: Sequence[Event],
    hands: dict[int, tuple[int, Hand]],
    position: int,
    target: int,
) -> None:
    """A void or correction must name an earlier hand event not voided."""
    if target in hands:
        return
    if not 1 <= target < position:
        message = f"the target must be an earlier event, from 1 to {position - 1}"
    elif type(events[target - 1]) in (HandRecorded, HandPassedOut):
        message = f"hand event {target} was voided: it cannot be changed again"
    else:
        message = f"event {target} is not a hand: only hands can be voided or corrected"
    remedy = "name the log position of a hand still in force"
    raise Violation(message, rule="contract §1", remedy=remedy, event=position)
