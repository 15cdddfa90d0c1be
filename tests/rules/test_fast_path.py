"""The engine's quick look-up never accepts what the referee refuses, and
scores exactly as the variant's ``score_hand`` does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.cards import TRUMPS
from scorekeeper.rules.engine import replay
from scorekeeper.rules.errors import Violation
from scorekeeper.rules.events import (
    AuctionCall,
    Call,
    Hand,
    HandPassedOut,
    HandRecorded,
)
from scorekeeper.rules.referee import can_hand, turn_of, verify_hand
from scorekeeper.rules.variants import PRESETS, Variant
from tests.factories import NAMES
from tests.strategies import SEATINGS

CALLS: list[Call] = [
    1,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    "moon",
    "double-moon",
    "pepper",
    "little-pepper",
    "big-pepper",
    "double-pepper",
    "nonsense",
]


@st.composite
def any_hand(draw: st.DrawFn, rules: Variant) -> Hand:
    """Hands near the rules' edges: legal, or wrong in one or more fields."""
    auction: tuple[AuctionCall, ...] | None = draw(
        st.none() | st.just(((rules.seats - 1, "pass"),))
    )
    if draw(st.integers(0, 7)) == 0:
        return HandPassedOut(auction)
    bidder = draw(st.integers(-1, rules.seats))
    bid = draw(st.sampled_from(CALLS))
    trump = draw(st.sampled_from([*TRUMPS, "stars"]))
    if draw(st.booleans()):
        free = draw(st.integers(-1, 3))
        return HandRecorded(bidder, bid, trump, None, free, auction)
    size = draw(st.sampled_from([rules.sides, rules.sides, rules.sides + 1]))
    tricks = draw(
        st.lists(st.integers(-1, rules.tricks_per_hand), min_size=size, max_size=size)
    )
    return HandRecorded(bidder, bid, trump, tuple(tricks), None, auction)


@given(st.sampled_from(SEATINGS), st.data())
def test_replay_accepts_a_first_hand_exactly_when_the_referee_does(
    seating: tuple[str, int], data: st.DataObject
) -> None:
    rules = PRESETS[seating[0]][seating[1]]
    first_dealer = data.draw(st.integers(0, rules.seats - 1))
    hand = data.draw(any_hand(rules))
    turn = turn_of(rules, first_dealer, 1, rules.pepper_round_hands >= 1)
    names = NAMES[: rules.seats]
    try:
        board = replay(rules, names, first_dealer, [hand])
    except Violation:
        assert not can_hand(rules, turn, hand)
        return
    rule = verify_hand(rules, turn, hand)
    assert can_hand(rules, turn, hand)
    if rule is None:
        assert board.totals == (0,) * rules.sides
    else:
        assert isinstance(hand, HandRecorded)
        assert board.totals == rules.score_hand(rule, hand)


def test_every_outcome_in_the_table_is_legal_and_scored_as_the_rules_say() -> None:
    for by_seats in PRESETS.values():
        for rules in by_seats.values():
            turn = turn_of(rules, 0, 1, pepper=False)
            for key, deltas in rules.outcomes.items():
                call, bidder = key[0], key[1]
                if len(key) == 3:
                    hand = HandRecorded(bidder, call, "hearts", key[2])
                else:
                    hand = HandRecorded(bidder, call, key[3], None, key[2])
                rule = verify_hand(rules, turn, hand)
                assert rule is not None and rules.score_hand(rule, hand) == deltas
