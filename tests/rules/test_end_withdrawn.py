"""Issue 33: an organizer's call undone. A void that names the end event
in force withdraws the end (contract §6): every hand stays as it stood,
the game is played on, and it may be ended, and the end withdrawn, again.
A withdrawn end cannot be withdrawn twice, nor corrected."""

from __future__ import annotations

import pytest

from scorekeeper.rules.errors import Violation
from scorekeeper.rules.events import GameEnded
from tests.factories import correct, play, played, variant, void

MOON = variant("moon-42", pepper_round_hands=0)
# Bob & Dan make 4 (1-4), Ann & Cat make 4 (5-5): level when the round is called.
LEVEL = (played(1, 4, 1, 5), played(0, 4, 5, 1), GameEnded("round 1 called"))


def test_a_void_of_the_end_plays_the_game_on_with_every_hand() -> None:
    board = play(MOON, *LEVEL, void(3))
    assert (board.decided, board.ended, board.end_reason) == ("", 0, "")
    assert board.status != "finished" and board.next is not None
    assert board.next.number == 3
    assert board.totals == play(MOON, *LEVEL[:2]).totals
    assert [hand.target for hand in board.hands] == [1, 2]


def test_the_game_takes_hands_after_the_end_is_withdrawn() -> None:
    board = play(MOON, *LEVEL, void(3), played(2, 4, 4, 2))
    assert [hand.target for hand in board.hands] == [1, 2, 5]
    assert board.hands[-1].number == 3


def test_a_fix_after_the_end_stays_when_the_end_is_withdrawn() -> None:
    board = play(MOON, *LEVEL, correct(1, played(1, 5, 0, 6)), void(3))
    assert board.decided == "" and board.hands[0].event == 4
    assert board.totals == play(MOON, played(1, 5, 0, 6), LEVEL[1]).totals


def test_a_game_may_be_ended_and_its_end_withdrawn_again() -> None:
    again = (*LEVEL, void(3), played(2, 4, 4, 2), GameEnded("round 1 called"))
    ended = play(MOON, *again)
    assert (ended.decided, ended.ended) == ("ended", 6)
    board = play(MOON, *again, void(6), void(1))  # the hand events only
    assert board.decided == "" and [hand.target for hand in board.hands] == [2, 5]


def test_a_withdrawn_end_cannot_be_withdrawn_again() -> None:
    with pytest.raises(Violation, match="event 3 is not a hand") as refused:
        play(MOON, *LEVEL, void(3), void(3))
    assert refused.value.event == 5


def test_an_end_cannot_be_corrected() -> None:
    with pytest.raises(Violation, match="event 3 is not a hand"):
        play(MOON, *LEVEL, correct(3, played(1, 4, 1, 5)))
