"""An organizer fixes a called game: after an ``end`` only a void or a
correction of an earlier hand may follow; the game stays ended, won by
the highest totals once the fix is in (contract §6)."""

from __future__ import annotations

import pytest

from scorekeeper.rules.errors import Violation
from scorekeeper.rules.events import GameEnded
from tests.factories import correct, play, played, variant, void

MOON = variant("moon-42", pepper_round_hands=0)
# Bob & Dan make 4 (1-4), Ann & Cat make 4 (5-5): level when the round is called.
LEVEL = (played(1, 4, 1, 5), played(0, 4, 5, 1), GameEnded("time"))


def test_a_called_game_tied_at_the_top_has_co_winners() -> None:
    board = play(MOON, *LEVEL)
    assert (board.totals, board.winners, board.decided) == ((5, 5), (0, 1), "ended")


def test_a_void_after_the_end_leaves_the_game_ended_won_by_the_new_highest() -> None:
    board = play(MOON, *LEVEL, void(1))
    assert board.totals == (4, 1)
    assert (board.winners, board.decided, board.end_reason) == ((0,), "ended", "time")
    assert board.status == "finished" and board.next is None
    assert [hand.target for hand in board.hands] == [2]


def test_a_correction_after_the_end_rescores_the_called_game() -> None:
    board = play(MOON, *LEVEL, correct(1, played(1, 5, 0, 6)))
    # Ann & Cat, shut out of hand 1, lose the bid: -5, then +4.
    assert board.totals == (-1, 6) and board.winners == (1,)
    assert board.hands[0].event == 4 and board.hands[0].target == 1


def test_several_fixes_may_follow_an_end() -> None:
    board = play(MOON, *LEVEL, void(2), correct(1, played(0, 4, 4, 2)))
    assert board.totals == (4, 2) and board.winners == (0,)


def test_a_fix_that_wins_the_game_before_its_end_is_refused_naming_the_end() -> None:
    rules = variant("classic", target_score=5)
    with pytest.raises(Violation, match="before the game was ended at event 2") as fix:
        play(rules, played(1, 3, 2, 4), GameEnded(), correct(1, played(1, 5, 1, 5)))
    assert fix.value.event == 3
    assert "Bob & Dan win after hand 1" in fix.value.message


def test_a_fix_that_wins_before_a_later_hand_is_refused_at_the_fix() -> None:
    rules = variant("classic", target_score=10)
    events = (played(1, 3, 2, 4), played(0, 3, 4, 2), GameEnded())
    with pytest.raises(Violation, match="ended at event 3") as fix:
        play(rules, *events, correct(1, played(1, "big-pepper", 0, 6)))
    assert fix.value.event == 4


def test_a_fix_that_makes_a_later_hand_illegal_is_that_hands_error() -> None:
    rules = variant("moon-42")  # the first 4 hands are a pepper round
    # Ann deals hand 1 (Bob must bid 4), Bob deals hand 2 (Cat must bid 4).
    events = (played(1, 4, 1, 5), played(2, 4, 5, 1), GameEnded())
    with pytest.raises(Violation) as later:
        play(rules, *events, void(1))  # Cat's hand becomes hand 1: Bob's bid
    assert later.value.event == 2
