"""The `moon-42` preset: Bill Wolf's rules (seed 001; contract §2)."""

from __future__ import annotations

import pytest

from scorekeeper.rules.errors import Violation
from scorekeeper.rules.events import HandRecorded
from tests.factories import conceded, passed, play, played, variant

MOON = variant("moon-42", pepper_round_hands=0)
WITH_PEPPER = variant("moon-42")


def deltas(hand: HandRecorded) -> list[int]:
    return list(play(MOON, hand).hands[0].deltas)


def test_the_bids_are_4_5_6_moon_double_moon_seed_001_3_1() -> None:
    assert [rule.call for rule in MOON.ladder] == [4, 5, 6, "moon", "double-moon"]
    with pytest.raises(Violation, match="no bid 3.*seed 001 §3.1|no bid 3"):
        play(MOON, played(1, 3, 3, 3))


def test_making_the_bid_scores_its_value_not_the_tricks_seed_001_4_2() -> None:
    assert deltas(played(1, 4, 1, 5)) == [1, 4]
    assert deltas(played(1, "moon", 0, 6)) == [-7, 7]
    assert deltas(played(1, "double-moon", 0, 6)) == [-14, 14]


def test_going_set_loses_the_bids_value_seed_001_4_2() -> None:
    assert deltas(played(1, 5, 2, 4)) == [2, -5]
    assert deltas(played(1, 6, 1, 5)) == [1, -6]


def test_defenders_score_a_point_per_trick_on_4_5_6_seed_001_3_1() -> None:
    assert deltas(played(0, 4, 4, 2)) == [4, 2]


def test_any_trick_against_a_moon_scores_7_seed_001_4_2() -> None:
    assert deltas(played(1, "moon", 1, 5)) == [7, -7]
    assert deltas(played(1, "moon", 3, 3)) == [7, -7]


def test_any_trick_against_a_double_moon_scores_14_seed_001_4_2() -> None:
    assert deltas(played(0, "double-moon", 5, 1)) == [-14, 14]


def test_defenders_with_no_trick_lose_the_bid_value_seed_001_4_2() -> None:
    assert deltas(played(1, 4, 0, 6)) == [-4, 4]
    assert deltas(played(1, 5, 0, 6)) == [-5, 5]


def test_conceded_hand_scores_bid_for_bidder_and_free_tricks_seed_001_3_2() -> None:
    assert deltas(conceded(1, 4, 2)) == [2, 4]
    assert deltas(conceded(0, 5, 1)) == [5, 1]
    assert deltas(conceded(1, "moon", 0)) == [0, 7]
    assert play(MOON, conceded(1, 4, 0)).hands[0].outcome == "conceded"


@pytest.mark.parametrize(
    ("bid", "free", "most"),
    [
        (4, 3, "2 free tricks"),
        (5, 2, "1 free trick "),
        (6, 1, "0 free tricks"),
        ("double-moon", 1, "0 free tricks"),
    ],
)
def test_free_tricks_are_at_most_2_on_4_1_on_5_none_above_seed_001_3_2(
    bid: object, free: int, most: str
) -> None:
    with pytest.raises(Violation, match=f"at most {most}"):
        play(MOON, conceded(1, bid, free))  # type: ignore[arg-type]


def test_free_tricks_cannot_be_negative() -> None:
    with pytest.raises(Violation, match="got -1"):
        play(MOON, conceded(1, 4, -1))


def test_with_clubs_trump_the_defenders_must_play_seed_001_3_4() -> None:
    with pytest.raises(Violation) as refused:
        play(MOON, conceded(1, 4, 0, trump="clubs"))
    assert str(refused.value) == (
        "event 1: with clubs trump the defenders must play the hand (seed 001 §3.4)"
    )


def test_the_first_four_hands_are_the_pepper_round_seed_001_5() -> None:
    board = play(WITH_PEPPER, *[played(seat, 4, 2, 4) for seat in (1, 2, 3, 0)])
    assert [hand.pepper_round for hand in board.hands] == [True] * 4
    assert board.next is not None
    assert (board.next.pepper_round, board.next.forced_bid) == (False, None)


def test_in_the_pepper_round_the_seat_after_the_dealer_takes_4_seed_001_5() -> None:
    board = play(WITH_PEPPER)
    assert board.next is not None
    assert (board.next.first_bidder, board.next.forced_bid) == (1, 4)
    with pytest.raises(Violation, match="Bob, after the dealer, takes the bid at 4"):
        play(WITH_PEPPER, played(2, 4, 2, 4))
    with pytest.raises(Violation, match="pepper round"):
        play(WITH_PEPPER, played(1, 5, 1, 5))


def test_the_pepper_round_cannot_be_passed_out_seed_001_5() -> None:
    with pytest.raises(Violation, match="cannot be passed out"):
        play(WITH_PEPPER, passed())


def test_pepper_round_hands_may_still_be_negotiated_seed_001_5() -> None:
    assert play(WITH_PEPPER, conceded(1, 4, 2)).totals == (2, 4)


def test_first_to_42_wins_seed_001_1() -> None:
    board = play(MOON, *[played(1, "double-moon", 0, 6)] * 3)
    assert (board.totals, board.winners) == ((-42, 42), (1,))


TIED_AT_42 = (
    *[played(0, 4, 4, 2)] * 9,  # 36-18
    played(1, 4, 2, 4),  # 38-22
    *[played(1, 5, 1, 5)] * 4,  # 42-42
)


def test_an_exact_tie_at_or_above_42_plays_on_seed_001_4_2() -> None:
    board = play(MOON, *TIED_AT_42)
    assert board.totals == (42, 42)
    assert (board.status, board.winners, board.tied) == ("in-progress", (), (0, 1))
    level = play(MOON, *TIED_AT_42, passed())
    assert (level.status, level.tied) == ("in-progress", (0, 1))
    after = play(MOON, *TIED_AT_42, played(0, 4, 4, 2))
    assert (after.totals, after.winners, after.tied) == ((46, 44), (0,), ())


def test_exact_tie_pepper_round_option_forces_the_next_hand_seed_001_4_2() -> None:
    rules = variant("moon-42", pepper_round_hands=0, exact_tie="pepper-round")
    board = play(rules, *TIED_AT_42)
    assert board.next is not None
    assert (board.next.number, board.next.pepper_round) == (15, True)
    assert (board.next.first_bidder, board.next.forced_bid) == (3, 4)
    with pytest.raises(Violation, match="hand 15 is in the pepper round"):
        play(rules, *TIED_AT_42, played(0, 5, 5, 1))
    after = play(rules, *TIED_AT_42, played(3, 4, 3, 3))
    assert after.hands[-1].pepper_round
    assert (after.totals, after.winners) == ((45, 38), (0,))


def test_when_both_reach_42_the_higher_wins_not_the_bidder_seed_001_4_2() -> None:
    board = play(
        MOON,
        played(0, 4, 0, 6),  # -4 6
        *[played(0, 4, 4, 2)] * 10,  # 36 26
        played(1, 4, 1, 5),  # 37 30
        *[played(1, 4, 2, 4)] * 3,  # both reach 42 in the last hand
    )
    assert board.hands[-2].totals == (41, 38)
    assert (board.totals, board.winners) == ((43, 42), (0,))
