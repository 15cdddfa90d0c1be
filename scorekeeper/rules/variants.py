"""House variants as data: the presets of contract §2 and house overrides.

A ``Variant`` holds every setting the presets differ in; presets are values,
not subclasses. ``find_variant(name, seats)`` picks a preset, and
``with_overrides`` applies a house's changes, refusing bad ones clearly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from .cards import TRUMPS
from .errors import VariantError
from .events import Call, HandRecorded

BothReach = Literal["higher", "bidder"]
ExactTie = Literal["co-winners", "play-on", "pepper-round"]
EXACT_TIES: tuple[ExactTie, ...] = ("co-winners", "play-on", "pepper-round")
BOTH_REACH: tuple[BothReach, ...] = ("higher", "bidder")
# A tie-break pepper round on a variant without one lasts this many hands
# (contract §2, `pepper-round`).
DEFAULT_TIE_PEPPER_ROUND = 4


@dataclass(frozen=True, slots=True)
class BidRule:
    """One rung of the bid ladder and how it scores.

    ``made_points`` None means one point per trick won; ``defender_points``
    None means each other side scores one point per trick, otherwise that
    many points if it took any trick at all; ``max_free_tricks`` None means
    the defenders cannot concede this bid.
    """

    call: Call
    tricks_needed: int
    made_points: int | None
    set_points: int
    defender_points: int | None = None
    max_free_tricks: int | None = None

    @property
    def label(self) -> str:
        return str(self.call).replace("-", " ")


# (bid, bidder's seat, tricks) or (bid, bidder's seat, free tricks, trump)
Outcome = tuple[Call, int, tuple[int, ...]] | tuple[Call, int, int, str]


@dataclass(frozen=True)
class Variant:
    preset: str
    seats: int
    teams: bool
    tricks_per_hand: int
    ladder: tuple[BidRule, ...]
    target_score: int
    pepper_round_hands: int
    exact_tie: ExactTie
    both_reach: BothReach
    defenders_shut_out_lose: bool
    clubs_must_play: bool
    one_call_each: bool
    description: str
    sources: tuple[tuple[str, str], ...]

    # Derived from the settings once per variant (cached_property writes the
    # instance dict, not a field: the variant stays frozen and comparable).
    @cached_property
    def sides(self) -> int:
        return 2 if self.teams else self.seats

    @cached_property
    def engine_constants(
        self,
    ) -> tuple[
        int, int, int, dict[Outcome, tuple[int, ...]], Call, tuple[int, ...], range
    ]:
        """What the engine's loop reads on every replay, gathered once."""
        return (
            self.seats,
            self.sides,
            self.target_score,
            self.outcomes,
            self.lowest_bid,
            (0,) * self.sides,
            range(self.sides),
        )

    @cached_property
    def rules_by_call(self) -> dict[Call, BidRule]:
        return {rule.call: rule for rule in self.ladder}

    @cached_property
    def outcomes(self) -> dict[Outcome, tuple[int, ...]]:
        """Every legal outcome of a bid hand and its score, worked out once.

        Keys are (bid, bidder's seat, tricks) for a played hand and (bid,
        bidder's seat, free tricks, trump) for a conceded one; at most a few
        thousand (8 seats x 10 bids x 9 splits). The engine looks a hand up
        here instead of checking and scoring it again; what is not here
        goes to the referee, which words every refusal.
        """
        table: dict[Outcome, tuple[int, ...]] = {}
        for rule in self.ladder:
            for seat in range(self.seats):
                for tricks in _splits(self.tricks_per_hand, self.sides):
                    hand = HandRecorded(seat, rule.call, "no-trump", tricks)
                    table[rule.call, seat, tricks] = self.score_hand(rule, hand)
                for free in range((rule.max_free_tricks or 0) + 1):
                    for trump in TRUMPS:
                        if rule.max_free_tricks is None or (
                            self.clubs_must_play and trump == "clubs"
                        ):
                            continue
                        hand = HandRecorded(seat, rule.call, trump, None, free)
                        table[rule.call, seat, free, trump] = self.score_hand(
                            rule, hand
                        )
        return table

    def score_hand(self, rule: BidRule, hand: HandRecorded) -> tuple[int, ...]:
        """Each side's points for one bid hand (seed 000 'Outcome', seed 001
        §3.2 and §4.2, seed 002 'Scoring', contract §2)."""
        bidder_side = hand.bidder % self.sides
        tricks = hand.tricks
        if tricks is None:  # conceded: the bidder scores the bid, defenders the gift
            free = hand.free_tricks or 0
            deltas = [free] * self.sides
            made = rule.made_points
            deltas[bidder_side] = self.tricks_per_hand - free if made is None else made
            return tuple(deltas)
        shut_out = -rule.set_points if self.defenders_shut_out_lose else 0
        deltas = [
            shut_out
            if won == 0
            else won
            if rule.defender_points is None
            else rule.defender_points
            for won in tricks
        ]
        won = tricks[bidder_side]
        if won < rule.tricks_needed:
            deltas[bidder_side] = -rule.set_points
        else:
            deltas[bidder_side] = won if rule.made_points is None else rule.made_points
        return tuple(deltas)

    @property
    def negotiation(self) -> bool:
        return any(rule.max_free_tricks is not None for rule in self.ladder)

    @cached_property
    def lowest_bid(self) -> Call:
        return self.ladder[0].call

    @property
    def highest_bid(self) -> Call:
        return self.ladder[-1].call

    def side_of(self, seat: int) -> int:
        """Partners sit opposite: seat i plays for side i % 2 in team games."""
        return seat % self.sides

    def bid_rule(self, call: Call) -> BidRule | None:
        """The ladder's rung for ``call`` (``True`` is not the bid 1)."""
        return None if type(call) is bool else self.rules_by_call.get(call)

    def cite(self, topic: str) -> str:
        return dict(self.sources)[topic]


def _splits(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to share ``total`` tricks among ``parts`` sides."""
    if parts == 1:
        return [(total,)]
    return [
        (first, *rest)
        for first in range(total + 1)
        for rest in _splits(total - first, parts - 1)
    ]


def _numbers(top: int, set_points: int) -> list[BidRule]:
    return [BidRule(n, n, None, set_points) for n in range(1, top + 1)]


_CLASSIC_SOURCES = (
    ("ladder", "seed 000 'Bidding'; seed 004"),
    ("scoring", "seed 000 'Outcome'; seed 004"),
    ("defenders", "seed 000 'Outcome'"),
    ("negotiation", "seed 000 'Outcome': every hand is played"),
    ("pepper_round", "contract §1: no pepper round unless the house sets one"),
    ("target", "seed 000 'Game'"),
    ("both_reach", "seed 000 'Game'"),
    ("exact_tie", "seed 004: all tied players are winners"),
    ("deal", "seed 000 'The Deal'"),
    ("auction", "seed 000 'Bidding'; seed 004"),
)
_CLASSIC_SMALL_SOURCES = (
    ("ladder", "seed 000 'Variations'; seed 003; seed 004"),
    ("scoring", "seed 003 'Two or Three Handed Variations'; seed 004"),
    *_CLASSIC_SOURCES[2:],
)
_MOON_SOURCES = (
    ("ladder", "seed 001 §3.1"),
    ("scoring", "seed 001 §4.2"),
    ("defenders", "seed 001 §4.2"),
    ("negotiation", "seed 001 §3.2"),
    ("clubs", "seed 001 §3.4"),
    ("pepper_round", "seed 001 §5"),
    ("target", "seed 001 §1"),
    ("both_reach", "seed 001 §4.2"),
    ("exact_tie", "seed 001 §4.2, option 1"),
    ("deal", "seed 001 §4.2"),
    ("auction", "seed 001 §3.1"),
)
_EUCHRE_SOURCES = (
    ("ladder", "seed 002 'Bidding'"),
    ("scoring", "seed 002 'Scoring'"),
    ("defenders", "seed 002 'Scoring'"),
    ("negotiation", "seed 002: every hand is played"),
    ("pepper_round", "contract §1: no pepper round unless the house sets one"),
    ("target", "seed 002 'Winning'"),
    ("both_reach", "seed 002 'Winning'"),
    ("exact_tie", "contract §2"),
    ("deal", "seed 002 'How to Play'"),
    ("auction", "seed 002 'Bidding'"),
)


def _classic(seats: int) -> Variant:
    tricks = 6 if seats == 4 else 8
    set_points = tricks  # -6 with four players, -8 with two or three
    return Variant(
        preset="classic",
        seats=seats,
        teams=seats == 4,
        tricks_per_hand=tricks,
        ladder=(
            *_numbers(tricks - 1, set_points),
            BidRule("little-pepper", tricks, None, set_points),
            BidRule("big-pepper", tricks, 2 * tricks, 2 * tricks),
        ),
        target_score=30,
        pepper_round_hands=0,
        exact_tie="co-winners",
        both_reach="higher",
        defenders_shut_out_lose=False,
        clubs_must_play=False,
        one_call_each=False,
        description=(
            "Pepper as most rule books give it: bid 1 to all the tricks, a set "
            f"costs {set_points}, big pepper pays double; first to 30."
        ),
        sources=_CLASSIC_SOURCES if seats == 4 else _CLASSIC_SMALL_SOURCES,
    )


def _moon_42() -> Variant:
    return Variant(
        preset="moon-42",
        seats=4,
        teams=True,
        tricks_per_hand=6,
        ladder=(
            BidRule(4, 4, 4, 4, None, 2),
            BidRule(5, 5, 5, 5, None, 1),
            BidRule(6, 6, 6, 6, None, 0),
            BidRule("moon", 6, 7, 7, 7, 0),
            BidRule("double-moon", 6, 14, 14, 14, 0),
        ),
        target_score=42,
        pepper_round_hands=4,
        exact_tie="play-on",
        both_reach="higher",
        defenders_shut_out_lose=True,
        clubs_must_play=True,
        one_call_each=False,
        description=(
            "Bill Wolf's Pepper: bids 4 to double moon, defenders may negotiate "
            "(never with clubs), a four-hand pepper round; first to 42."
        ),
        sources=_MOON_SOURCES,
    )


def _bid_euchre(seats: int) -> Variant:
    return Variant(
        preset="bid-euchre",
        seats=seats,
        teams=True,
        tricks_per_hand=8,
        ladder=(
            *[BidRule(n, n, None, n) for n in range(1, 9)],
            BidRule("pepper", 8, 12, 12),
            BidRule("double-pepper", 8, 24, 24),
        ),
        target_score=50,
        pepper_round_hands=0,
        exact_tie="co-winners",
        both_reach="bidder",
        defenders_shut_out_lose=False,
        clubs_must_play=False,
        one_call_each=True,
        description=(
            "Bid Euchre Pepper for 4, 6 or 8 with doubled decks: a set costs the "
            "number bid, pepper 12, double pepper 24; first to 50."
        ),
        sources=_EUCHRE_SOURCES,
    )


PRESETS: dict[str, dict[int, Variant]] = {
    "classic": {seats: _classic(seats) for seats in (4, 2, 3)},
    "moon-42": {4: _moon_42()},
    "bid-euchre": {seats: _bid_euchre(seats) for seats in (4, 6, 8)},
}
ALIASES = {"pepper": "classic", "hasenpfeffer": "classic", "moon": "moon-42"}


def find_variant(name: str, seats: int) -> Variant:
    """The preset called ``name`` (or an alias) for ``seats`` players."""
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in PRESETS:
        known = ", ".join(PRESETS)
        raise VariantError(f"there is no preset called {name!r}: choose {known}")
    by_seats = PRESETS[key]
    if seats not in by_seats:
        allowed = " or ".join(str(n) for n in sorted(by_seats))
        raise VariantError(f"{key} is played by {allowed} players, not {seats}")
    return by_seats[seats]


OVERRIDES = ("target_score", "exact_tie", "pepper_round_hands", "both_reach")


def with_overrides(variant: Variant, overrides: Mapping[str, object]) -> Variant:
    """``variant`` changed by a house's overrides, each checked.

    Accepted: ``target_score`` (int >= 1), ``exact_tie`` (co-winners,
    play-on, pepper-round), ``pepper_round_hands`` (int >= 0) and
    ``both_reach`` (higher, bidder): the settings the seeds disagree on.
    """
    changes: dict[str, object] = {}
    for key, value in overrides.items():
        if key in ("target_score", "pepper_round_hands"):
            low = 1 if key == "target_score" else 0
            if type(value) is not int or value < low:
                raise VariantError(f"{key} must be a whole number of at least {low}")
        elif key == "exact_tie":
            if value not in EXACT_TIES:
                raise VariantError(f"exact_tie must be one of {', '.join(EXACT_TIES)}")
        elif key == "both_reach":
            if value not in BOTH_REACH:
                raise VariantError(f"both_reach must be one of {', '.join(BOTH_REACH)}")
        else:
            raise VariantError(
                f"{key!r} is not a house setting: use {', '.join(OVERRIDES)}"
            )
        changes[key] = value
    return dataclasses.replace(variant, **changes)  # type: ignore[arg-type]


def overrides_of(variant: Variant) -> dict[str, object]:
    """The settings of ``variant`` that differ from its preset."""
    preset = PRESETS[variant.preset][variant.seats]
    return {
        key: getattr(variant, key)
        for key in OVERRIDES
        if getattr(variant, key) != getattr(preset, key)
    }
