"""A live auction's next call: whose turn it is and which calls the
referee allows (contract §4, §5; seed 000 'Bidding', seed 001 §5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.errors import Violation
from scorekeeper.rules.events import PASS, AuctionCall, Call
from scorekeeper.rules.referee import auction_turn, turn_of, verify_auction
from tests.factories import variant

CLASSIC = variant("classic", 4)
STUCK = variant("classic", 4, stick_the_dealer=True)
EUCHRE = variant("bid-euchre", 4)
TURN = turn_of(CLASSIC, 0, 1, False)  # Ann deals, Bob bids first


def test_the_first_call_is_the_first_bidders_with_a_pass_or_any_legal_bid() -> None:
    now = auction_turn(CLASSIC, TURN, [])
    assert now.seat == TURN.first_bidder
    assert now.calls == (PASS, *(rung.call for rung in CLASSIC.legal_ladder))
    assert now.high is None


def test_after_a_bid_only_higher_bids_or_a_pass_are_offered() -> None:
    ladder = [rung.call for rung in CLASSIC.legal_ladder]
    now = auction_turn(CLASSIC, TURN, [(1, ladder[1])])
    assert now.seat == 2
    assert now.calls == (PASS, *ladder[2:])
    assert now.high == (1, ladder[1])


def test_a_seat_that_passed_is_skipped() -> None:
    low, higher = (rung.call for rung in CLASSIC.legal_ladder[:2])
    auction: list[AuctionCall] = [(1, PASS), (2, low), (3, higher), (0, PASS)]
    assert auction_turn(CLASSIC, TURN, auction).seat == 2  # Bob passed: skipped


def test_the_auction_is_over_when_all_but_the_high_bidder_pass() -> None:
    low = CLASSIC.legal_ladder[0].call
    auction: list[AuctionCall] = [(1, low), (2, PASS), (3, PASS), (0, PASS)]
    now = auction_turn(CLASSIC, TURN, auction)
    assert (now.seat, now.calls, now.high) == (None, (), (1, low))


def test_a_stuck_dealer_is_offered_no_pass_house_rule() -> None:
    passes: list[AuctionCall] = [(1, PASS), (2, PASS), (3, PASS)]
    now = auction_turn(STUCK, TURN, passes)
    assert now.seat == TURN.dealer
    assert PASS not in now.calls
    assert now.calls == tuple(rung.call for rung in STUCK.legal_ladder)


def test_without_the_house_rule_the_dealer_may_pass_it_out() -> None:
    passes: list[AuctionCall] = [(1, PASS), (2, PASS), (3, PASS)]
    assert PASS in auction_turn(CLASSIC, TURN, passes).calls


def test_a_pepper_round_hand_has_no_auction_its_bid_is_forced_seed_001_5() -> None:
    pepper = turn_of(CLASSIC, 0, 1, True)
    now = auction_turn(CLASSIC, pepper, [])
    assert now.seat is None and now.calls == ()
    assert now.high == (pepper.first_bidder, pepper.forced_bid)


def test_a_call_out_of_turn_is_refused_as_the_referee_refuses_it() -> None:
    with pytest.raises(Violation, match="it was Bob's turn|it was seat 1's turn"):
        auction_turn(CLASSIC, TURN, [(2, PASS)])


def test_bid_euchre_gives_the_dealer_the_last_call() -> None:
    auction: list[AuctionCall] = [(1, PASS), (2, PASS), (3, PASS)]
    assert auction_turn(EUCHRE, TURN, auction).seat == 0
    assert auction_turn(EUCHRE, TURN, [*auction, (0, PASS)]).seat is None


@given(st.data())
def test_following_the_offered_calls_always_makes_an_auction_the_referee_accepts(
    data: st.DataObject,
) -> None:
    rules = data.draw(st.sampled_from([CLASSIC, STUCK, EUCHRE]))
    auction: list[AuctionCall] = []
    while (now := auction_turn(rules, TURN, auction)).seat is not None:
        call: Call = data.draw(st.sampled_from(now.calls))
        auction.append((now.seat, call))
    assert verify_auction(rules, TURN, auction) == now.high
