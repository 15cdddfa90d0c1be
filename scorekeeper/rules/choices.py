"""A turn's legal choices: what the referee lets a table record as the next
hand (or as the hand a correction replaces), asked before anything is
entered. The record form, on the server and on the phone, offers exactly
these; ``verify_hand`` (referee.py) accepts every hand made of them and
refuses every other (tests/rules/test_choices.py checks both ways).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from .cards import TRUMPS
from .ladder import BidRule
from .referee import Turn
from .variants import Variant

# How a hand may end: played out (each side's tricks), conceded by the
# defenders (contract §5, negotiation), or passed out by every seat.
Outcome = Literal["played", "conceded", "passed-out"]


class Choices(NamedTuple):
    """What hand ``turn.number`` may be: any bidder with any bid, any
    trump, then one of the outcomes. A played hand gives each side from 0
    to ``tricks_per_hand`` tricks, adding up to ``tricks_per_hand``; a
    conceded one grants the defenders at most the bid's
    ``max_free_tricks``, never with a trump in ``must_play``."""

    turn: Turn
    bidders: tuple[int, ...]  # seats
    bids: tuple[BidRule, ...]  # low to high
    trumps: tuple[str, ...]
    outcomes: tuple[Outcome, ...]
    must_play: frozenset[str]  # trumps with which a hand is played out
    may_auction: bool  # the auction may be recorded (not when the bid is forced)
    tricks_per_hand: int
    sides: int

    @property
    def forced(self) -> bool:
        """The pepper round: the bidder and the bid are the rules', not chosen."""
        return self.turn.pepper_round

    @property
    def most_free_tricks(self) -> int:
        """The most free tricks any of the bids lets the defenders be granted."""
        return max((rung.max_free_tricks or 0 for rung in self.bids), default=0)


def legal_choices(variant: Variant, turn: Turn) -> Choices:
    """The choices of hand ``turn``: in the pepper round only the first
    bidder, at the forced bid, with no auction and no pass (seed 001 §5,
    contract §2); else every seat and every bid from the house's minimum
    up (contract §1, §5), and a pass unless the dealer is stuck (contract
    §5). A concession needs negotiation (seed 001 §3.2), never with clubs
    trump where the defenders must play (seed 001 §3.4)."""
    forced = turn.pepper_round
    bids = tuple(
        rung
        for rung in variant.legal_ladder
        if not forced or rung.call == turn.forced_bid
    )
    outcomes: list[Outcome] = ["played"]
    if any(rung.max_free_tricks is not None for rung in bids):
        outcomes.append("conceded")
    if not forced and not variant.stick_the_dealer:
        outcomes.append("passed-out")
    return Choices(
        turn=turn,
        bidders=(turn.first_bidder,) if forced else tuple(range(variant.seats)),
        bids=bids,
        trumps=tuple(trump for trump in TRUMPS if trump in variant.trumps),
        outcomes=tuple(outcomes),
        must_play=frozenset({"clubs"} if variant.clubs_must_play else ()),
        may_auction=not forced,
        tricks_per_hand=variant.tricks_per_hand,
        sides=variant.sides,
    )
