"""Voids and corrections: the log is only appended to (contract §1)."""

from __future__ import annotations

import pytest

from scorekeeper.rules.errors import VariantError, Violation
from scorekeeper.rules.events import HandVoided
from scorekeeper.rules.referee import can_hand, turn_of
from tests.factories import conceded, correct, passed, play, played, variant, void

CLASSIC = variant("classic", 4)
MOON = variant("moon-42")


def test_each_hand_moves_the_deal_one_seat_clockwise_seed_000_the_deal() -> None:
    board = play(CLASSIC, passed(), played(0, 1, 3, 3), passed(), first_dealer=2)
    assert [hand.dealer for hand in board.hands] == [2, 3, 0]
    assert [hand.first_bidder for hand in board.hands] == [3, 0, 1]
    assert board.next is not None and (board.next.dealer, board.next.number) == (1, 4)


def test_a_voided_hand_never_happened() -> None:
    board = play(CLASSIC, played(1, 3, 1, 5), played(0, 2, 4, 2), void(1))
    assert board.totals == (4, 2)
    assert [(hand.number, hand.event, hand.dealer) for hand in board.hands] == [
        (1, 2, 0)
    ]


def test_a_correction_replaces_the_hand_and_the_latest_one_wins() -> None:
    board = play(
        CLASSIC,
        played(1, 3, 1, 5),
        correct(1, played(1, 3, 4, 2)),
        correct(1, played(1, 3, 2, 4)),
    )
    assert board.totals == (2, 4)
    assert board.hands[0].event == 3


def test_a_correction_can_turn_a_hand_into_a_passed_out_one() -> None:
    board = play(CLASSIC, played(1, 3, 1, 5), correct(1, passed()))
    assert board.hands[0].outcome == "passed-out" and board.totals == (0, 0)


def test_a_void_or_correction_must_target_an_earlier_event() -> None:
    with pytest.raises(Violation, match="event 2: the target must be an earlier event"):
        play(CLASSIC, played(1, 3, 1, 5), void(2))
    with pytest.raises(Violation, match="from 1 to 1"):
        play(CLASSIC, played(1, 3, 1, 5), void(0))


def test_only_hands_can_be_voided_or_corrected() -> None:
    with pytest.raises(Violation, match="event 3: event 2 is not a hand"):
        play(CLASSIC, played(1, 3, 1, 5), correct(1, passed()), void(2))


def test_a_voided_hand_cannot_be_changed_again() -> None:
    with pytest.raises(Violation, match="event 3: hand event 1 was voided"):
        play(CLASSIC, played(1, 3, 1, 5), void(1), correct(1, passed()))


def test_an_illegal_correction_is_refused_as_its_own_event() -> None:
    with pytest.raises(Violation, match="event 2: .*adding up to 6"):
        play(CLASSIC, played(1, 3, 1, 5), correct(1, played(1, 3, 1, 1)))


def test_a_correction_that_makes_a_later_hand_illegal_is_that_hands_error() -> None:
    # Voiding hand 1 moves the pepper round: event 2 becomes hand 1, dealt by
    # Ann, so Bob (not Cat) had to take the bid.
    with pytest.raises(Violation) as refused:
        play(MOON, played(1, 4, 2, 4), played(2, 4, 2, 4), void(1))
    assert refused.value.event == 2
    assert "pepper round" in refused.value.message


def test_a_correction_that_ends_the_game_earlier_makes_later_hands_illegal() -> None:
    hands = [played(0, "big-pepper", 6, 0)] * 2 + [played(0, 1, 3, 3)] * 2
    with pytest.raises(Violation, match="game is over") as refused:
        play(CLASSIC, *hands, correct(3, played(0, "big-pepper", 6, 0)))
    assert refused.value.event == 4


def test_voiding_the_winning_hand_reopens_the_game() -> None:
    board = play(CLASSIC, *[played(0, "big-pepper", 6, 0)] * 3, void(3))
    assert (board.status, board.totals) == ("in-progress", (24, 0))
    assert board.hands[-1].event == 2 and board.next is not None


def test_a_passed_out_hand_still_counts_for_the_deal_but_a_voided_one_does_not() -> (
    None
):
    board = play(CLASSIC, passed(), passed(), void(1))
    assert [hand.dealer for hand in board.hands] == [0]


def test_can_hand_answers_without_raising() -> None:
    turn = turn_of(MOON, 0, 1, True)
    assert can_hand(MOON, turn, conceded(1, 4, 1))
    assert not can_hand(MOON, turn, passed())


def test_replay_refuses_a_wrong_number_of_seats_or_first_dealer() -> None:
    from scorekeeper.rules.engine import replay

    with pytest.raises(VariantError, match="set for 4 players, not 3"):
        replay(CLASSIC, ["a", "b", "c"], 0, [])
    with pytest.raises(VariantError, match="first dealer must be a seat from 0 to 3"):
        replay(CLASSIC, ["a", "b", "c", "d"], 4, [])


def test_events_are_frozen_facts() -> None:
    event = HandVoided(1)
    with pytest.raises(AttributeError):
        event.target = 2  # type: ignore[misc]


def test_hands_read_like_a_sequence_of_results() -> None:
    board = play(CLASSIC, passed(), played(0, 1, 3, 3), passed())
    every = list(board.hands)
    assert len(board.hands) == 3
    assert board.hands[1:] == tuple(every[1:])
    assert board.hands[-1] == every[2] and board.hands[-1].number == 3


def test_each_hand_names_the_event_a_void_or_correction_must_target() -> None:
    board = play(
        CLASSIC,
        played(1, 3, 1, 5),
        passed(),
        correct(1, played(1, 3, 2, 4)),
        passed(),
        void(2),
        passed(),
    )
    assert [(hand.event, hand.target) for hand in board.hands] == [
        (3, 1),
        (4, 4),
        (6, 6),
    ]
    plain = play(CLASSIC, passed(), passed())
    assert [hand.target for hand in plain.hands] == [1, 2]


def test_a_scoreboard_has_every_field() -> None:
    board = play(CLASSIC, passed())
    assert len(board) == len(type(board)._fields)
    assert board._asdict()["targets"] == ()
