"""The referee: may this hand, or this auction, stand? (contract §1, §4)

Each check comes as a pair: ``verify_x`` raises a ``Violation`` naming the
rule and saying, in a player's words, what is wrong; ``can_x`` answers
yes or no. ``names`` are the seats' names, used in messages only.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import NamedTuple

from .cards import TRUMPS
from .errors import Violation
from .events import PASS, AuctionCall, Call, Hand, HandPassedOut, HandRecorded
from .variants import BidRule, Variant, json_call


class Turn(NamedTuple):
    """Who deals hand ``number``, who bids first, and what bid is forced."""

    number: int
    dealer: int
    first_bidder: int
    pepper_round: bool
    forced_bid: Call | None


def turn_of(variant: Variant, first_dealer: int, number: int, pepper: bool) -> Turn:
    """The deal moves one seat clockwise each hand, passed-out ones too;
    the seat after the dealer bids first (seed 000 'The Deal', contract §1)."""
    dealer = (first_dealer + number - 1) % variant.seats
    forced = variant.lowest_bid if pepper else None
    return Turn(number, dealer, (dealer + 1) % variant.seats, pepper, forced)


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def verify_hand(
    variant: Variant, turn: Turn, hand: Hand, names: Sequence[str] = ()
) -> BidRule | None:
    """Raise a ``Violation`` unless ``hand`` may be recorded as hand ``turn``;
    return the bid's rule (None for a passed-out hand)."""
    if type(hand) is HandPassedOut:
        _verify_passed_out(variant, turn, hand, names)
        return None
    assert type(hand) is HandRecorded
    rule = _verify_contract(variant, turn, hand, names)
    if hand.tricks is not None:
        _verify_tricks(variant, hand.tricks)
    else:
        _verify_concession(variant, rule, hand)
    if hand.auction is not None:
        outcome = verify_auction(variant, turn, hand.auction, names)
        if outcome != (hand.bidder, hand.bid):
            won = "was passed out" if outcome is None else _won(names, *outcome)
            raise Violation(
                f"the auction {won}, but the hand says "
                f"{seat_name(names, hand.bidder)} bid {hand.bid}",
                rule=variant.cite("auction"),
                remedy="make the hand's bidder and bid those the auction ended on",
            )
    return rule


def can_hand(
    variant: Variant, turn: Turn, hand: Hand, names: Sequence[str] = ()
) -> bool:
    try:
        verify_hand(variant, turn, hand, names)
    except Violation:
        return False
    return True


def _won(names: Sequence[str], seat: int, call: Call) -> str:
    return f"was won by {seat_name(names, seat)} bidding {call}"


def _verify_passed_out(
    variant: Variant, turn: Turn, hand: HandPassedOut, names: Sequence[str]
) -> None:
    if turn.pepper_round:
        raise Violation(
            f"hand {turn.number} is in the pepper round: "
            f"{seat_name(names, turn.first_bidder)} must bid {turn.forced_bid}, "
            "so it cannot be passed out",
            rule=variant.cite("pepper_round"),
            remedy=f"record {seat_name(names, turn.first_bidder)}'s bid of {turn.forced_bid}",
        )
    if variant.stick_the_dealer:
        raise Violation(
            "the dealer is stuck: when everyone else passes, "
            f"{seat_name(names, turn.dealer)} (the dealer) must bid, so no hand "
            "is passed out",
            rule="house rule: stick the dealer",
            remedy=f"record {seat_name(names, turn.dealer)}'s bid",
        )
    if hand.auction is not None:
        outcome = verify_auction(variant, turn, hand.auction, names)
        if outcome is not None:
            raise Violation(
                f"the auction {_won(names, *outcome)}, so the hand was not passed out",
                rule=variant.cite("auction"),
                remedy="record the hand the auction was won with, or an auction of passes",
            )


def _verify_contract(
    variant: Variant, turn: Turn, hand: HandRecorded, names: Sequence[str]
) -> BidRule:
    if not 0 <= hand.bidder < variant.seats:
        raise Violation(
            f"the bidder must be a seat from 0 to {variant.seats - 1}",
            rule="contract §1",
            remedy="name one of the players as the bidder",
        )
    rule = _verify_bid(variant, hand.bid)
    if hand.trump not in TRUMPS:
        raise Violation(
            f"{hand.trump!r} is not a trump: choose clubs, diamonds, hearts, "
            "spades or no-trump",
            rule="contract §1",
            remedy="choose clubs, diamonds, hearts, spades or no-trump",
        )
    if hand.trump not in variant.trumps:
        raise Violation(
            "this house plays without no-trump: every hand names a trump suit",
            rule="house rule: no no-trump",
            remedy="choose clubs, diamonds, hearts or spades",
        )
    if turn.pepper_round and (
        hand.bidder != turn.first_bidder
        or hand.bid != turn.forced_bid
        or hand.auction is not None
    ):
        raise Violation(
            f"hand {turn.number} is in the pepper round: "
            f"{seat_name(names, turn.first_bidder)}, after the dealer, takes the "
            f"bid at {turn.forced_bid} and nobody else bids",
            rule=variant.cite("pepper_round"),
            remedy=f"record {seat_name(names, turn.first_bidder)} bidding {turn.forced_bid}, with no auction",
        )
    return rule


def _verify_bid(variant: Variant, call: Call) -> BidRule:
    """The rule of a bid on the ladder, at or above the house's minimum."""
    rule = variant.bid_rule(call)
    ladder = ", ".join(json_call(rung.call) for rung in variant.legal_ladder)
    if rule is None:
        written = str(call).strip()
        raise Violation(
            f"the bid {json_call(call)} is text: write it as the number {written}"
            if isinstance(call, str) and written.isdigit()
            else f"{variant.preset} has no bid {json_call(call)}: the bids are {ladder}",
            rule=variant.cite("ladder"),
            remedy=f"choose one of {ladder}",
        )
    if (variant.rank_of(call) or 0) < (variant.rank_of(variant.minimum_bid) or 0):
        raise Violation(
            f"the lowest bid here is {json_call(variant.minimum_bid)}, "
            f"so {json_call(call)} cannot be bid",
            rule=variant.cite("ladder"),
            remedy=f"choose one of {ladder}",
        )
    return rule


def _verify_tricks(variant: Variant, tricks: tuple[int, ...]) -> None:
    if (
        len(tricks) != variant.sides
        or min(tricks) < 0
        or sum(tricks) != variant.tricks_per_hand
    ):
        got = ", ".join(str(count) for count in tricks) or "none"
        raise Violation(
            f"the tricks must be {variant.sides} counts, one per side, none "
            f"negative, adding up to {variant.tricks_per_hand} (got {got})",
            rule=variant.cite("scoring"),
            remedy=f"give the sides' tricks so that they add up to {variant.tricks_per_hand}",
        )


def _verify_concession(variant: Variant, rule: BidRule, hand: HandRecorded) -> None:
    free = hand.free_tricks
    assert free is not None
    most = rule.max_free_tricks
    if most is None:
        raise Violation(
            f"{variant.preset} has no negotiation: the hand must be played out",
            rule=variant.cite("negotiation"),
            remedy="record it as played, with each side's tricks",
        )
    if variant.clubs_must_play and hand.trump == "clubs":
        raise Violation(
            "with clubs trump the defenders must play the hand",
            rule=variant.cite("clubs"),
            remedy="record it as played, with each side's tricks",
        )
    if not 0 <= free <= most:
        raise Violation(
            f"on a bid of {rule.label} the defenders may be granted at most "
            f"{most} free trick{'' if most == 1 else 's'} (got {free})",
            rule=variant.cite("negotiation"),
            remedy=f"grant at most {most}, or record the hand as played",
        )


class _Auction:
    """An auction in progress: whose call is next, who has passed, the high
    bid (contract §4)."""

    def __init__(self, variant: Variant, turn: Turn, names: Sequence[str]) -> None:
        self.variant, self.names = variant, names
        self.rule = variant.cite("auction")
        self.passed: set[int] = set()
        self.high: tuple[int, Call] | None = None
        self.high_rank = -1
        self.calls = 0
        self.expected: int | None = turn.first_bidder
        self.dealer = turn.dealer
        self.lowest = variant.minimum_bid

    def stuck(self, seat: int) -> bool:
        """Stick the dealer: when every other seat has passed without a
        bid, the dealer may not pass (contract §5)."""
        return (
            self.variant.stick_the_dealer
            and seat == self.dealer
            and self.high is None
            and len(self.passed - {seat}) == self.variant.seats - 1
        )

    def _check_stuck(self, seat: int, position: int) -> None:
        if self.stuck(seat):
            raise Violation(
                f"call {position}: everyone else passed, so "
                f"{seat_name(self.names, seat)}, the dealer, is stuck and must bid",
                rule="house rule: stick the dealer",
                remedy=f"give {seat_name(self.names, seat)}'s bid instead of a pass",
            )

    def take(self, seat: int, call: Call) -> None:
        """One call: refused unless it is that seat's turn and a legal call."""
        self.calls += 1
        position, names = self.calls, self.names
        if self.expected is None:
            raise Violation(
                f"call {position}: the auction was already over",
                rule=self.rule,
                remedy="leave out the calls after the auction ended",
            )
        if seat != self.expected:
            raise Violation(
                f"call {position}: it was {seat_name(names, self.expected)}'s turn, "
                f"not {seat_name(names, seat)}'s",
                rule=self.rule,
                remedy="give each call to the seat whose turn it was",
            )
        if call == PASS:
            self._check_stuck(seat, position)
            self.passed.add(seat)
        else:
            rank = _ladder_rank(self.variant, call)
            if rank is None or rank < (_ladder_rank(self.variant, self.lowest) or 0):
                try:
                    _verify_bid(self.variant, call)
                except Violation as refused:
                    raise Violation(
                        f"call {position}: {refused.message}",
                        rule=refused.rule,
                        remedy=refused.remedy,
                    ) from None
            assert rank is not None  # _verify_bid refused every other call
            if self.high is not None and rank <= self.high_rank:
                raise Violation(
                    f"call {position}: a bid must be higher than {self.high[1]}",
                    rule=self.rule,
                    remedy="each bid must beat the last, or be a pass",
                )
            self.high, self.high_rank = (seat, call), rank
        self.expected = _next_caller(
            self.variant, seat, position, self.passed, self.high, self.high_rank
        )


def verify_auction(
    variant: Variant,
    turn: Turn,
    auction: Sequence[AuctionCall],
    names: Sequence[str] = (),
) -> tuple[int, Call] | None:
    """Referee an auction; return (high bidder, bid), or None if all passed.

    The first call is the first bidder's; each next call belongs to the next
    seat clockwise that has not passed; every bid beats the bids before it.
    ``bid-euchre`` gives every seat exactly one call, ending with the dealer;
    the others end when all but the high bidder have passed, or at once on
    the ladder's highest bid (contract §4).
    """
    if turn.pepper_round:
        raise Violation(
            "a pepper-round hand has no auction: the bid is forced",
            rule=variant.cite("pepper_round"),
            remedy="leave the auction out: the bid is forced",
        )
    state = _Auction(variant, turn, names)
    for seat, call in auction:
        state.take(seat, call)
    if state.expected is not None:
        raise Violation(
            f"the auction is unfinished: {seat_name(names, state.expected)} has not called",
            rule=state.rule,
            remedy="give every call up to the end of the auction",
        )
    return state.high


def seat_calls(
    variant: Variant, turn: Turn, calls: Sequence[Call]
) -> tuple[AuctionCall, ...]:
    """Give each call, in the order made, to the seat whose turn it was, so
    a table need only remember the calls. Once a call breaks a rule (or the
    auction is over) the rest keep the seat then expected, and
    ``verify_auction`` refuses the auction at that call."""
    state = _Auction(variant, turn, ())
    seated: list[AuctionCall] = []
    for call in calls:
        seat = turn.first_bidder if state.expected is None else state.expected
        seated.append((seat, call))
        with contextlib.suppress(Violation):
            state.take(seat, call)
    return tuple(seated)


class AuctionTurn(NamedTuple):
    """Where a live auction stands: whose call is next (None once it is
    over), the calls that seat may make (pass first, then the bids low to
    high), and the high bid so far (bidder's seat, bid)."""

    seat: int | None
    calls: tuple[Call, ...]
    high: tuple[int, Call] | None


def auction_turn(
    variant: Variant, turn: Turn, auction: Sequence[AuctionCall]
) -> AuctionTurn:
    """The next call of an auction so far (refereed as ``verify_auction``
    does, raising its ``Violation``): the seat after the last caller that
    has not passed, and a pass (not for a stuck dealer) or any legal bid
    above the high bid (contract §4, §5). A pepper-round hand has no
    auction: it is over at once, the first bidder high at the forced bid
    (seed 001 §5)."""
    if turn.pepper_round:
        assert turn.forced_bid is not None
        return AuctionTurn(None, (), (turn.first_bidder, turn.forced_bid))
    state = _Auction(variant, turn, ())
    for seat, call in auction:
        state.take(seat, call)
    if state.expected is None:
        return AuctionTurn(None, (), state.high)
    seat = state.expected
    bids = tuple(
        rung.call
        for rung in variant.legal_ladder
        if (_ladder_rank(variant, rung.call) or 0) > state.high_rank
    )
    calls = bids if state.stuck(seat) else (PASS, *bids)
    return AuctionTurn(seat, calls, state.high)


def can_auction(
    variant: Variant,
    turn: Turn,
    auction: Sequence[AuctionCall],
    names: Sequence[str] = (),
) -> bool:
    try:
        verify_auction(variant, turn, auction, names)
    except Violation:
        return False
    return True


def _ladder_rank(variant: Variant, call: Call) -> int | None:
    for rank, rung in enumerate(variant.ladder):
        if rung.call == call and type(rung.call) is type(call):
            return rank
    return None


def _next_caller(
    variant: Variant,
    seat: int,
    calls: int,
    passed: set[int],
    high: tuple[int, Call] | None,
    high_rank: int,
) -> int | None:
    """Whose call is next, or None once the auction is over."""
    seats = variant.seats
    if variant.one_call_each:  # bid-euchre: one call each, ending with the dealer
        return None if calls == seats else (seat + 1) % seats
    still_in = seats - len(passed)
    if high_rank == len(variant.ladder) - 1 or still_in == (0 if high is None else 1):
        return None
    following = (seat + 1) % seats
    while following in passed:
        following = (following + 1) % seats
    return following
