"""A turn's legal choices (rules/choices.py): the engine accepts every hand
made of what they offer, and refuses every hand they do not offer, under
every preset and house setting that changes them."""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from scorekeeper.rules.cards import TRUMPS
from scorekeeper.rules.choices import Choices, legal_choices
from scorekeeper.rules.engine import Scoreboard, replay
from scorekeeper.rules.errors import Violation
from scorekeeper.rules.events import PASS, Call, Hand, HandPassedOut, HandRecorded
from scorekeeper.rules.referee import seat_calls, turn_of
from scorekeeper.rules.variants import PRESETS, Variant, with_overrides
from tests.factories import NAMES, variant
from tests.strategies import SEATINGS, splits

Game = tuple[Variant, int, list[Hand]]


@st.composite
def house_variants(draw: st.DrawFn) -> Variant:
    """A preset under the house settings the choices depend on."""
    preset, seats = draw(st.sampled_from(SEATINGS))
    rules = PRESETS[preset][seats]
    overrides: dict[str, Any] = {
        "stick_the_dealer": draw(st.booleans()),
        "no_trump": draw(st.booleans()),
        "minimum_bid": draw(st.sampled_from([call for call, _ in rules.rungs])),
        "pepper_round_hands": draw(st.integers(0, 3)),
        "one_call_each": draw(st.booleans()),
        "clubs_must_play": draw(st.booleans()),
    }
    if rules.sides == 2:
        overrides["negotiation"] = draw(st.booleans())
    return with_overrides(rules, overrides)


@st.composite
def offered_hands(draw: st.DrawFn, choices: Choices) -> Hand:
    """A hand made of what ``choices`` offer, as the record form makes one."""
    outcome = draw(st.sampled_from(choices.outcomes))
    if outcome == "passed-out":
        return HandPassedOut()
    bidder = draw(st.sampled_from(choices.bidders))
    trump = draw(st.sampled_from(choices.trumps))
    if outcome == "conceded":
        concedable = [rung for rung in choices.bids if rung.max_free_tricks is not None]
        rung = draw(st.sampled_from(concedable))
        assume(trump not in choices.must_play)
        free = draw(st.integers(0, rung.max_free_tricks or 0))
        return HandRecorded(bidder, rung.call, trump, None, free)
    rung = draw(st.sampled_from(choices.bids))
    tricks = draw(splits(choices.tricks_per_hand, choices.sides))
    return HandRecorded(bidder, rung.call, trump, tricks)


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A legal game under house settings, its hands drawn from the choices
    (each is refereed again by ``replay``), not yet finished."""
    rules = draw(house_variants())
    first_dealer = draw(st.integers(0, rules.seats - 1))
    hands: list[Hand] = []
    for _ in range(draw(st.integers(0, 6))):
        turn = _board(rules, first_dealer, hands).next
        if turn is None:
            break
        hands.append(draw(offered_hands(legal_choices(rules, turn))))
    assume(_board(rules, first_dealer, hands).next is not None)
    return rules, first_dealer, hands


def _board(rules: Variant, first_dealer: int, hands: list[Hand]) -> Scoreboard:
    return replay(rules, NAMES[: rules.seats], first_dealer, list(hands))


def _choices(game: Game) -> Choices:
    turn = _board(*game).next
    assert turn is not None
    return legal_choices(game[0], turn)


def _accepted(game: Game, hand: Hand) -> bool:
    rules, first_dealer, hands = game
    try:
        _board(rules, first_dealer, [*hands, hand])
    except Violation:
        return False
    return True


def _offered(choices: Choices, hand: Hand) -> bool:
    """Whether the record form, drawing ``choices``, could make ``hand``."""
    if isinstance(hand, HandPassedOut):
        return "passed-out" in choices.outcomes and hand.auction is None
    rung = next((rung for rung in choices.bids if _same(rung.call, hand.bid)), None)
    if (
        hand.bidder not in choices.bidders
        or rung is None
        or hand.trump not in choices.trumps
        or hand.auction is not None
    ):
        return False
    if hand.tricks is None:
        most = rung.max_free_tricks
        return (
            "conceded" in choices.outcomes
            and most is not None
            and hand.trump not in choices.must_play
            and 0 <= (hand.free_tricks or 0) <= most
        )
    return (
        len(hand.tricks) == choices.sides
        and all(0 <= count <= choices.tricks_per_hand for count in hand.tricks)
        and sum(hand.tricks) == choices.tricks_per_hand
    )


def _same(call: Call, other: Call) -> bool:
    return call == other and type(call) is type(other)


@st.composite
def any_hands(draw: st.DrawFn, rules: Variant) -> Hand:
    """A hand the form might or might not offer: any seat and one past
    either end, any rung of the whole ladder, any trump, any counts."""
    if draw(st.integers(0, 5)) == 0:
        return HandPassedOut()
    bidder = draw(st.integers(-1, rules.seats))
    call = draw(st.sampled_from([call for call, _ in rules.rungs]))
    trump = draw(st.sampled_from(TRUMPS))
    most = rules.tricks_per_hand
    if draw(st.booleans()):
        return HandRecorded(bidder, call, trump, None, draw(st.integers(0, most + 1)))
    if draw(st.booleans()):
        tricks = draw(splits(most, rules.sides))
    else:
        count = st.integers(-1, most + 1)
        size = st.sampled_from([rules.sides - 1, rules.sides, rules.sides + 1])
        tricks = tuple(
            draw(size.flatmap(lambda n: st.lists(count, min_size=n, max_size=n)))
        )
    return HandRecorded(bidder, call, trump, tricks)


@given(games(), st.data())
def test_every_hand_made_of_the_choices_offered_is_accepted(
    game: Game, data: st.DataObject
) -> None:
    choices = _choices(game)
    hand = data.draw(offered_hands(choices))
    assert _offered(choices, hand)
    assert _accepted(game, hand)


@given(games(), st.data())
def test_the_engine_accepts_a_hand_exactly_when_the_choices_offer_it(
    game: Game, data: st.DataObject
) -> None:
    hand = data.draw(any_hands(game[0]))
    assert _accepted(game, hand) == _offered(_choices(game), hand)


def _auction_to(
    rules: Variant, choices: Choices, bidder: int, call: Call
) -> list[Call]:
    """The calls of an auction ``bidder`` wins at ``call``: every seat
    before them passes, they bid, every seat after them passes (none
    after a top bid, which ends an open auction at once)."""
    before = (bidder - choices.turn.first_bidder) % rules.seats
    top = _same(call, rules.highest_bid) and not rules.one_call_each
    after = 0 if top else rules.seats - before - 1
    return [PASS] * before + [call] + [PASS] * after


@given(games(), st.data())
def test_an_auction_may_be_recorded_for_every_bidder_and_bid_offered(
    game: Game, data: st.DataObject
) -> None:
    rules, choices = game[0], _choices(game)
    bidder = data.draw(st.sampled_from(choices.bidders))
    call = data.draw(st.sampled_from(choices.bids)).call
    tricks = data.draw(splits(choices.tricks_per_hand, choices.sides))
    calls = _auction_to(rules, choices, bidder, call)
    auction = seat_calls(rules, choices.turn, calls)
    hand = HandRecorded(bidder, call, choices.trumps[0], tricks, auction=auction)
    assert _accepted(game, hand) == choices.may_auction


@given(games())
def test_a_hand_passed_out_by_an_auction_of_passes_is_accepted_when_a_pass_is(
    game: Game,
) -> None:
    rules, choices = game[0], _choices(game)
    auction = seat_calls(rules, choices.turn, [PASS] * rules.seats)
    hand = HandPassedOut(auction=auction)
    assert _accepted(game, hand) == ("passed-out" in choices.outcomes)


def test_the_pepper_round_offers_only_the_first_bidder_at_the_forced_bid() -> None:
    moon = variant("moon-42")
    choices = legal_choices(moon, turn_of(moon, 0, 1, pepper=True))
    assert choices.forced and not choices.may_auction
    assert choices.bidders == (1,)
    assert [rung.call for rung in choices.bids] == [moon.minimum_bid]
    assert choices.outcomes == ("played", "conceded")
    assert choices.must_play == {"clubs"}
    assert choices.most_free_tricks == moon.tricks_per_hand - moon.minimum_bid  # type: ignore[operator]


def test_a_stuck_dealer_means_no_hand_is_passed_out_contract_5() -> None:
    stuck = variant("classic", 4, stick_the_dealer=True)
    choices = legal_choices(stuck, turn_of(stuck, 0, 1, pepper=False))
    assert "passed-out" not in choices.outcomes
    assert choices.bidders == (0, 1, 2, 3)
    assert choices.most_free_tricks == 0  # classic has no negotiation
