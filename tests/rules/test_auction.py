"""The auction referee (contract §4; seed 000 'Bidding', seed 002 'Bidding')."""

from __future__ import annotations

import pytest

from scorekeeper.rules.errors import Violation
from scorekeeper.rules.events import AuctionCall, Call
from scorekeeper.rules.referee import can_auction, seat_calls, turn_of, verify_auction
from tests.factories import passed, play, played, variant

CLASSIC = variant("classic", 4)
MOON = variant("moon-42", pepper_round_hands=0)
EUCHRE = variant("bid-euchre", 4)
TURN = turn_of(CLASSIC, 0, 1, False)  # Ann deals, Bob bids first


def test_the_contracts_example_auction_is_won_by_the_last_bid_standing() -> None:
    auction: list[AuctionCall] = [(1, "pass"), (2, 3), (3, 4), (0, "pass"), (2, "pass")]
    assert verify_auction(CLASSIC, TURN, auction) == (3, 4)
    assert can_auction(CLASSIC, TURN, auction)


def test_the_first_call_belongs_to_the_seat_after_the_dealer_seed_000() -> None:
    with pytest.raises(Violation, match="call 1: it was Bob's turn, not Cat's"):
        verify_auction(CLASSIC, TURN, [(2, 3)], ["Ann", "Bob", "Cat", "Dan"])
    assert not can_auction(CLASSIC, TURN, [(2, 3)])


def test_a_seat_that_passed_never_calls_again_seed_000_bidding() -> None:
    auction: list[AuctionCall] = [(1, "pass"), (2, 3), (3, "pass"), (0, 4), (1, 5)]
    with pytest.raises(Violation, match="call 5: it was seat 2's turn, not seat 1's"):
        verify_auction(CLASSIC, TURN, auction)


def test_each_bid_must_be_higher_than_the_one_before_seed_000_bidding() -> None:
    with pytest.raises(Violation, match="call 2: a bid must be higher than 3"):
        verify_auction(CLASSIC, TURN, [(1, 3), (2, 3)])


def test_a_call_that_is_not_on_the_ladder_is_refused() -> None:
    with pytest.raises(Violation, match='call 1: classic has no bid "moon"'):
        verify_auction(CLASSIC, TURN, [(1, "moon")])


def test_the_highest_bid_ends_the_auction_at_once_seed_004() -> None:
    assert verify_auction(CLASSIC, TURN, [(1, "big-pepper")]) == (1, "big-pepper")
    with pytest.raises(Violation, match="call 2: the auction was already over"):
        verify_auction(CLASSIC, TURN, [(1, "big-pepper"), (2, "pass")])


def test_an_auction_is_over_when_all_but_the_high_bidder_pass() -> None:
    auction: list[AuctionCall] = [(1, 2), (2, "pass"), (3, "pass"), (0, "pass")]
    assert verify_auction(CLASSIC, TURN, auction) == (1, 2)
    with pytest.raises(Violation, match="already over"):
        verify_auction(CLASSIC, TURN, [*auction, (1, 3)])


def test_an_unfinished_auction_is_refused() -> None:
    with pytest.raises(Violation, match="unfinished: seat 3 has not called"):
        verify_auction(CLASSIC, TURN, [(1, 2), (2, 3)])


def test_when_everyone_passes_the_hand_is_passed_out_seed_001_3_1() -> None:
    everyone: list[AuctionCall] = [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")]
    assert verify_auction(MOON, TURN, everyone) is None
    assert play(MOON, passed(everyone)).hands[0].outcome == "passed-out"


def test_the_dealer_may_still_bid_after_three_passes() -> None:
    auction: list[AuctionCall] = [(1, "pass"), (2, "pass"), (3, "pass"), (0, 4)]
    assert verify_auction(MOON, TURN, auction) == (0, 4)


def test_bid_euchre_gives_each_seat_one_call_ending_with_the_dealer_seed_002() -> None:
    auction: list[AuctionCall] = [(1, 3), (2, "pass"), (3, 5), (0, "pass")]
    assert verify_auction(EUCHRE, TURN, auction) == (3, 5)
    with pytest.raises(Violation, match="unfinished"):
        verify_auction(EUCHRE, TURN, auction[:3])
    with pytest.raises(Violation, match="already over"):
        verify_auction(EUCHRE, TURN, [*auction, (1, 6)])


def test_bid_euchre_auction_goes_on_after_double_pepper() -> None:
    auction: list[AuctionCall] = [
        (1, "double-pepper"),
        (2, "pass"),
        (3, "pass"),
        (0, "pass"),
    ]
    assert verify_auction(EUCHRE, TURN, auction) == (1, "double-pepper")


def test_the_auction_must_agree_with_the_recorded_bidder_and_bid() -> None:
    auction: list[AuctionCall] = [(1, "pass"), (2, 3), (3, 4), (0, "pass"), (2, "pass")]
    assert play(CLASSIC, played(3, 4, 2, 4, auction=auction)).totals == (2, 4)
    with pytest.raises(Violation, match="was won by Dan bidding 4, but the hand says"):
        play(CLASSIC, played(2, 3, 3, 3, auction=auction))
    everyone: list[AuctionCall] = [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")]
    with pytest.raises(Violation, match="the auction was passed out, but"):
        play(CLASSIC, played(2, 3, 3, 3, auction=everyone))


def test_a_passed_out_hand_cannot_have_a_winning_bid() -> None:
    with pytest.raises(Violation, match="won by Bob bidding 2, so the hand was not"):
        play(CLASSIC, passed([(1, 2), (2, "pass"), (3, "pass"), (0, "pass")]))


def test_a_pepper_round_hand_has_no_auction_seed_001_5() -> None:
    rules = variant("moon-42")
    with pytest.raises(Violation, match="pepper round"):
        play(rules, played(1, 4, 2, 4, auction=[(1, 4)]))
    with pytest.raises(Violation, match="has no auction"):
        verify_auction(rules, turn_of(rules, 0, 1, True), [(1, 4)])


def test_calls_alone_are_seated_by_whose_turn_it_was() -> None:
    calls: list[Call] = ["pass", 3, 4, "pass", "pass"]
    seated = seat_calls(CLASSIC, TURN, calls)
    assert seated == ((1, "pass"), (2, 3), (3, 4), (0, "pass"), (2, "pass"))
    assert verify_auction(CLASSIC, TURN, seated) == (3, 4)
    assert seat_calls(EUCHRE, TURN, [3, "pass", 5, "pass"]) == (
        (1, 3),
        (2, "pass"),
        (3, 5),
        (0, "pass"),
    )


def test_seated_calls_that_break_a_rule_are_refused_at_that_call() -> None:
    low = seat_calls(CLASSIC, TURN, [3, 3, "pass", "pass"])
    with pytest.raises(Violation, match="call 2: a bid must be higher than 3"):
        verify_auction(CLASSIC, TURN, low)
    extra = seat_calls(CLASSIC, TURN, ["big-pepper", "pass"])
    with pytest.raises(Violation, match="call 2: the auction was already over"):
        verify_auction(CLASSIC, TURN, extra)
