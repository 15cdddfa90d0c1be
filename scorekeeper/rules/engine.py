"""The engine: fold a game's events into a scoreboard (contract §1-§3).

The effective game is the hand events in log order, corrected, without the
voided ones. A new hand is checked and scored against the game so far; a
void or a correction replays the effective game from the start, so a change
that makes a later hand illegal is reported as that later hand's error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .errors import VariantError, Violation
from .events import Event, Hand, HandPassedOut, HandRecorded, HandVoided
from .referee import Turn, turn_of, verify_hand
from .variants import DEFAULT_TIE_PEPPER_ROUND, BidRule, Variant


class HandResult(NamedTuple):
    """One effective hand: where it sits, what was recorded, what it scored."""

    number: int
    event: int  # 1-based log position of the event that last set this hand
    dealer: int
    first_bidder: int
    pepper_round: bool
    hand: Hand
    deltas: tuple[int, ...]
    totals: tuple[int, ...]

    @property
    def outcome(self) -> str:
        if isinstance(self.hand, HandPassedOut):
            return "passed-out"
        return "conceded" if self.hand.tricks is None else "played"


@dataclass(frozen=True, slots=True)
class Scoreboard:
    variant: Variant
    seats: tuple[str, ...]
    first_dealer: int
    hands: tuple[HandResult, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    tied: tuple[int, ...]  # sides level at the top at or above the target
    pepper_round_until: int  # the last hand of the current pepper round, if any
    next: Turn | None

    @property
    def finished(self) -> bool:
        return bool(self.winners)

    @property
    def status(self) -> str:
        return "finished" if self.winners else "in-progress"

    @property
    def side_names(self) -> tuple[str, ...]:
        return side_names(self.variant, self.seats)


def side_names(variant: Variant, seats: Sequence[str]) -> tuple[str, ...]:
    """ "Ann & Cat" for a team, the player's name when each plays alone."""
    names = []
    for side in range(variant.sides):
        members = list(seats[side :: variant.sides])
        names.append(
            members[0]
            if len(members) == 1
            else ", ".join(members[:-1]) + " & " + members[-1]
        )
    return tuple(names)


def score_hand(variant: Variant, rule: BidRule, hand: HandRecorded) -> list[int]:
    """Each side's points for one bid hand (seed 000 'Outcome', seed 001
    §3.2 and §4.2, seed 002 'Scoring', contract §2)."""
    sides = variant.sides
    bidder_side = hand.bidder % sides
    tricks = hand.tricks
    if tricks is None:  # conceded: bidder scores the bid, defenders the gift
        free = hand.free_tricks or 0
        deltas = [free] * sides
        made = rule.made_points
        deltas[bidder_side] = (
            made if made is not None else variant.tricks_per_hand - free
        )
        return deltas
    deltas = []
    for side in range(sides):
        won = tricks[side]
        if side == bidder_side:
            if won >= rule.tricks_needed:
                deltas.append(rule.made_points if rule.made_points is not None else won)
            else:
                deltas.append(-rule.set_points)
        elif won == 0:
            deltas.append(-rule.set_points if variant.defenders_shut_out_lose else 0)
        elif rule.defender_points is None:
            deltas.append(won)
        else:
            deltas.append(rule.defender_points)
    return deltas


class _Fold:
    """The game so far: totals, results and who, if anyone, has won."""

    __slots__ = (
        "variant",
        "names",
        "first_dealer",
        "totals",
        "results",
        "winners",
        "tied",
        "pepper_until",
    )

    def __init__(
        self, variant: Variant, names: tuple[str, ...], first_dealer: int
    ) -> None:
        self.variant = variant
        self.names = names
        self.first_dealer = first_dealer
        self.totals = [0] * variant.sides
        self.results: list[HandResult] = []
        self.winners: tuple[int, ...] = ()
        self.tied: tuple[int, ...] = ()
        self.pepper_until = variant.pepper_round_hands

    def turn(self) -> Turn:
        number = len(self.results) + 1
        pepper = number <= self.pepper_until
        return turn_of(self.variant, self.first_dealer, number, pepper)

    def play(self, position: int, hand: Hand) -> None:
        variant = self.variant
        turn = self.turn()
        try:
            if self.winners:
                raise self._game_over(turn.number)
            rule = verify_hand(variant, turn, hand, self.names)
        except Violation as violation:
            raise violation.at_event(position) from None
        totals = self.totals
        bidder_side = None
        if rule is None:
            deltas = [0] * variant.sides
        else:
            assert isinstance(hand, HandRecorded)
            bidder_side = hand.bidder % variant.sides
            deltas = score_hand(variant, rule, hand)
            for side, delta in enumerate(deltas):
                totals[side] += delta
        self.results.append(
            HandResult(
                turn.number,
                position,
                turn.dealer,
                turn.first_bidder,
                turn.pepper_round,
                hand,
                tuple(deltas),
                tuple(totals),
            )
        )
        if max(totals) >= variant.target_score:
            self._settle(turn.number, bidder_side)

    def _settle(self, number: int, bidder_side: int | None) -> None:
        """Who has won, if anyone, once a side is at or above the target
        (contract §2: both reach it, exact ties)."""
        variant, totals = self.variant, self.totals
        target = variant.target_score
        reached = [side for side, total in enumerate(totals) if total >= target]
        self.tied = ()
        if (
            bidder_side in reached
            and len(reached) > 1
            and variant.both_reach == "bidder"
        ):
            self.winners = (reached[reached.index(bidder_side)],)
            return
        top = max(totals)
        leaders = tuple(side for side in reached if totals[side] == top)
        if len(leaders) == 1 or variant.exact_tie == "co-winners":
            self.winners = leaders
            return
        self.tied = leaders
        if variant.exact_tie == "pepper-round":
            length = variant.pepper_round_hands or DEFAULT_TIE_PEPPER_ROUND
            self.pepper_until = number + length

    def _game_over(self, number: int) -> Violation:
        names = side_names(self.variant, self.names)
        won = " and ".join(names[side] for side in self.winners)
        return Violation(
            f"the game is over: {won} won after hand {number - 1}, so there is "
            "no hand after it",
            rule=self.variant.cite("target"),
        )

    def scoreboard(self) -> Scoreboard:
        return Scoreboard(
            variant=self.variant,
            seats=self.names,
            first_dealer=self.first_dealer,
            hands=tuple(self.results),
            totals=tuple(self.totals),
            winners=self.winners,
            tied=self.tied,
            pepper_round_until=self.pepper_until,
            next=None if self.winners else self.turn(),
        )


def replay(
    variant: Variant, seats: Sequence[str], first_dealer: int, events: Sequence[Event]
) -> Scoreboard:
    """Fold ``events`` into the scoreboard, or raise the first ``Violation``
    (its ``event`` is the 1-based position of the offending event)."""
    names = tuple(seats)
    if len(names) != variant.seats:
        raise VariantError(
            f"{variant.preset} here is set for {variant.seats} players, "
            f"not {len(names)}"
        )
    if not 0 <= first_dealer < variant.seats:
        last = variant.seats - 1
        raise VariantError(f"the first dealer must be a seat from 0 to {last}")
    fold = _Fold(variant, names, first_dealer)
    # Each hand event not voided, by log position: the hand in force and the
    # position of the event that set it (the hand itself or its correction).
    hands: dict[int, tuple[Hand, int]] = {}
    for position, event in enumerate(events, start=1):
        if isinstance(event, HandRecorded | HandPassedOut):
            hands[position] = (event, position)
            fold.play(position, event)
            continue
        _check_target(events, hands, position, event.target)
        if isinstance(event, HandVoided):
            del hands[event.target]
        else:
            hands[event.target] = (event.hand, position)
        fold = _Fold(variant, names, first_dealer)
        for hand, set_at in hands.values():
            fold.play(set_at, hand)
    return fold.scoreboard()


def _check_target(
    events: Sequence[Event],
    hands: dict[int, tuple[Hand, int]],
    position: int,
    target: int,
) -> None:
    """A void or correction must name an earlier hand event not voided."""
    if target in hands:
        return
    if not 1 <= target < position:
        message = f"the target must be an earlier event, from 1 to {position - 1}"
    elif type(events[target - 1]) in (HandRecorded, HandPassedOut):
        message = f"hand event {target} was voided: it cannot be changed again"
    else:
        message = f"event {target} is not a hand: only hands can be voided or corrected"
    raise Violation(message, rule="contract §1", event=position)
