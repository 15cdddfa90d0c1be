"""The `classic` preset (seeds 000, 003, 004; contract §2)."""

from __future__ import annotations

import pytest

from scorekeeper.rules.errors import Violation
from scorekeeper.rules.events import HandRecorded
from scorekeeper.rules.variants import Variant
from tests.factories import conceded, passed, play, played, variant

FOUR = variant("classic", 4)
THREE = variant("classic", 3)
TWO = variant("classic", 2)


def deltas(rules: Variant, hand: HandRecorded) -> list[int]:
    return list(play(rules, hand).hands[0].deltas)


def test_four_players_play_six_tricks_in_two_partnerships_seed_000() -> None:
    assert (FOUR.tricks_per_hand, FOUR.sides, FOUR.teams) == (6, 2, True)
    assert [FOUR.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]


def test_four_player_ladder_is_1_to_5_then_little_and_big_pepper_seed_000() -> None:
    assert [rule.call for rule in FOUR.ladder] == [
        1,
        2,
        3,
        4,
        5,
        "little-pepper",
        "big-pepper",
    ]
    with pytest.raises(Violation, match="no bid 6"):
        play(FOUR, played(1, 6, 0, 6))


def test_makers_score_a_point_per_trick_won_seed_000_outcome() -> None:
    assert deltas(FOUR, played(1, 3, 1, 5)) == [1, 5]


def test_a_set_costs_6_whatever_the_bid_seed_000_outcome() -> None:
    assert deltas(FOUR, played(1, 1, 6, 0)) == [6, -6]
    assert deltas(FOUR, played(1, 5, 2, 4)) == [2, -6]


def test_little_pepper_takes_all_six_for_six_points_seed_004() -> None:
    assert deltas(FOUR, played(0, "little-pepper", 6, 0)) == [6, 0]
    assert deltas(FOUR, played(0, "little-pepper", 5, 1)) == [-6, 1]


def test_big_pepper_pays_and_costs_12_seed_000_outcome() -> None:
    assert deltas(FOUR, played(1, "big-pepper", 0, 6)) == [0, 12]
    assert deltas(FOUR, played(1, "big-pepper", 1, 5)) == [1, -12]


def test_opponents_score_a_point_per_trick_and_lose_nothing_shut_out_seed_000() -> None:
    assert deltas(FOUR, played(1, 2, 0, 6)) == [0, 6]


def test_classic_has_no_negotiation_every_hand_is_played_seed_000() -> None:
    with pytest.raises(Violation, match="classic has no negotiation") as refused:
        play(FOUR, conceded(1, 3, 0))
    assert refused.value.event == 1


def test_classic_has_no_pepper_round() -> None:
    board = play(FOUR, passed())
    assert not board.hands[0].pepper_round
    assert board.next is not None and board.next.forced_bid is None


def test_three_players_play_eight_tricks_each_for_himself_seed_003() -> None:
    assert (THREE.tricks_per_hand, THREE.sides, THREE.teams) == (8, 3, False)
    assert [rule.call for rule in THREE.ladder][-3:] == [
        7,
        "little-pepper",
        "big-pepper",
    ]


def test_three_player_set_costs_8_seed_003() -> None:
    assert deltas(THREE, played(2, 7, 1, 1, 6)) == [1, 1, -8]
    assert deltas(THREE, played(0, "little-pepper", 7, 1, 0)) == [-8, 1, 0]


def test_three_player_big_pepper_pays_and_costs_16_seed_000_variations() -> None:
    assert deltas(THREE, played(0, "big-pepper", 8, 0, 0)) == [16, 0, 0]
    assert deltas(THREE, played(0, "big-pepper", 7, 0, 1)) == [-16, 0, 1]


def test_two_players_score_as_three_with_a_dummy_hand_unplayed_seed_003() -> None:
    assert (TWO.tricks_per_hand, TWO.sides) == (8, 2)
    assert deltas(TWO, played(1, 5, 2, 6)) == [2, 6]
    assert deltas(TWO, played(1, 7, 2, 6)) == [2, -8]


def test_tricks_must_add_up_to_the_hand_seed_000() -> None:
    with pytest.raises(Violation, match="adding up to 6 \\(got 3, 2\\)"):
        play(FOUR, played(1, 3, 3, 2))
    with pytest.raises(Violation, match="2 counts"):
        play(FOUR, played(1, 3, 3, 2, 1))
    with pytest.raises(Violation, match="none negative"):
        play(FOUR, played(1, 3, -1, 7))
    with pytest.raises(Violation, match="got none"):
        play(FOUR, played(1, 3))


def test_the_bidder_must_be_a_seat_and_the_trump_a_suit() -> None:
    with pytest.raises(Violation, match="seat from 0 to 3"):
        play(FOUR, played(4, 3, 3, 3))
    with pytest.raises(Violation, match="'purple' is not a trump"):
        play(FOUR, played(1, 3, 3, 3, trump="purple"))


def test_first_to_30_wins_seed_000_game() -> None:
    board = play(FOUR, *[played(0, "big-pepper", 6, 0)] * 3)
    assert (board.status, board.winners, board.next) == ("finished", (0,), None)
    assert board.finished and not play(FOUR).finished


def test_when_both_reach_30_the_higher_wins_seed_000_game() -> None:
    board = play(
        FOUR,
        *[played(0, 1, 1, 5)] * 2,  # set twice: -6, +5 each time
        *[played(0, "big-pepper", 6, 0)] * 2,
        played(1, 4, 3, 3),
        *[played(1, "big-pepper", 0, 6)] * 2,
        played(0, 1, 3, 3),  # from 29-28 both reach 30 in this hand
    )
    assert board.hands[-2].totals == (29, 28)
    assert (board.totals, board.winners) == ((32, 31), (0,))


def test_an_exact_tie_at_or_above_30_makes_all_tied_winners_seed_004() -> None:
    board = play(
        FOUR,
        played(0, 1, 1, 5),
        *[played(0, "big-pepper", 6, 0)] * 2,
        *[played(1, "big-pepper", 0, 6)] * 2,
        played(0, 1, 5, 1),
    )
    assert board.totals == (30, 30)
    assert (board.status, board.winners) == ("finished", (0, 1))


def test_no_hand_after_the_game_is_won() -> None:
    with pytest.raises(
        Violation, match="the game is over: Ann & Cat won after hand 3"
    ) as refused:
        play(FOUR, *[played(0, "big-pepper", 6, 0)] * 3, passed())
    assert refused.value.event == 4
