"""The `bid-euchre` preset (seed 002; contract §2)."""

from __future__ import annotations

import pytest

from scorekeeper.rules.errors import Violation
from scorekeeper.rules.events import HandRecorded
from tests.factories import conceded, play, played, variant

EUCHRE = variant("bid-euchre", 4)


def deltas(hand: HandRecorded) -> list[int]:
    return list(play(EUCHRE, hand).hands[0].deltas)


@pytest.mark.parametrize("seats", [4, 6, 8])
def test_four_six_or_eight_play_in_two_alternating_teams_seed_002(seats: int) -> None:
    rules = variant("bid-euchre", seats)
    assert (rules.sides, rules.tricks_per_hand) == (2, 8)
    assert [rules.side_of(seat) for seat in range(seats)] == [0, 1] * (seats // 2)


def test_six_players_sides_are_named_after_all_three_members() -> None:
    board = play(variant("bid-euchre", 6))
    assert board.side_names == ("Ann, Cat & Eve", "Bob, Dan & Fay")


def test_the_ladder_is_1_to_8_then_pepper_and_double_pepper_seed_002() -> None:
    assert [rule.call for rule in EUCHRE.ladder] == [
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        "pepper",
        "double-pepper",
    ]


def test_makers_score_every_trick_they_capture_seed_002_scoring() -> None:
    assert deltas(played(0, 3, 6, 2)) == [6, 2]


def test_euchred_makers_lose_the_number_they_bid_seed_002_scoring() -> None:
    assert deltas(played(0, 5, 4, 4)) == [-5, 4]
    assert deltas(played(1, 8, 1, 7)) == [1, -8]


def test_pepper_pays_and_costs_12_seed_002_scoring() -> None:
    assert deltas(played(1, "pepper", 0, 8)) == [0, 12]
    assert deltas(played(1, "pepper", 1, 7)) == [1, -12]


def test_double_pepper_pays_and_costs_24_seed_002_scoring() -> None:
    assert deltas(played(0, "double-pepper", 8, 0)) == [24, 0]
    assert deltas(played(0, "double-pepper", 7, 1)) == [-24, 1]


def test_opponents_always_score_their_tricks_and_never_lose_seed_002() -> None:
    assert deltas(played(0, 2, 8, 0)) == [8, 0]


def test_bid_euchre_has_no_negotiation_seed_002() -> None:
    with pytest.raises(Violation, match="bid-euchre has no negotiation"):
        play(EUCHRE, conceded(0, 3, 0))


def test_first_to_50_wins_seed_002_winning() -> None:
    board = play(EUCHRE, *[played(0, "double-pepper", 8, 0)] * 3)
    assert board.winners == (0,)
