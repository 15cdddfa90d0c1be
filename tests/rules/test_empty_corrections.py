"""Issue 33: a correction corrects something (contract §1). One that would
leave its hand as it already reads is refused before anything is written;
one that changes anything (the tricks, the bidder, a pass) is legal, and a
target that is no hand in force is left to the replay to refuse."""

from __future__ import annotations

import pytest

from scorekeeper.rules.engine import can_correct, verify_correction
from scorekeeper.rules.errors import Violation
from tests.factories import correct, passed, play, played, variant, void

CLASSIC = variant("classic", 4)


def test_a_correction_to_what_the_hand_already_reads_is_refused() -> None:
    board = play(CLASSIC, played(1, 3, 1, 5), played(2, 3, 4, 2))
    same = correct(2, played(2, 3, 4, 2))
    with pytest.raises(Violation) as refused:
        verify_correction(board, same, 3)
    assert refused.value.event == 3 and refused.value.rule == "contract §1"
    assert "hand event 2 already reads so" in refused.value.message
    assert refused.value.message.startswith("nothing to correct")
    assert refused.value.remedy
    assert not can_correct(board, same, 3)


def test_the_hand_in_force_is_the_corrected_one_not_the_first_record() -> None:
    board = play(CLASSIC, played(1, 3, 1, 5), correct(1, played(1, 3, 4, 2)))
    assert can_correct(board, correct(1, played(1, 3, 1, 5)), 3)  # back: a change
    assert not can_correct(board, correct(1, played(1, 3, 4, 2)), 3)


@pytest.mark.parametrize(
    "hand",
    [played(1, 3, 2, 4), played(0, 3, 1, 5), played(1, 4, 1, 5), passed()],
    ids=["tricks", "bidder", "bid", "passed out"],
)
def test_a_correction_that_changes_anything_is_legal(hand: object) -> None:
    board = play(CLASSIC, played(1, 3, 1, 5))
    verify_correction(board, correct(1, hand), 2)  # type: ignore[arg-type]
    assert can_correct(board, correct(1, hand), 2)  # type: ignore[arg-type]


def test_a_target_no_longer_in_force_is_left_to_the_replay() -> None:
    board = play(CLASSIC, played(1, 3, 1, 5), played(2, 3, 4, 2), void(1))
    assert can_correct(board, correct(1, played(1, 3, 1, 5)), 4)
