"""House variants as data: the presets of contract §2 and house overrides.

A ``Variant`` holds every setting the presets differ in; presets are values,
not subclasses. ``find_variant(name, seats)`` picks a preset, and
``with_overrides`` applies a house's changes, refusing bad ones clearly.
The ladder's rungs are in ladder.py, the house settings' names and checks
in overrides.py, and where each rule comes from in sources.py.
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
from .ladder import BidRule, Outcome, RungKind, numbered_rungs, trick_splits
from .overrides import (
    OVERRIDES,
    BothReach,
    ExactTie,
    check_value,
    json_call,
)
from .sources import (
    CLASSIC_SMALL_SOURCES,
    CLASSIC_SOURCES,
    EUCHRE_SOURCES,
    EXACT_TIE_SOURCES,
    HOUSE_TOPICS,
    MOON_SOURCES,
)

# Imported from here since before the ladder, settings and sources split off.
__all__ = [
    "DEFAULT_TIE_PEPPER_ROUND",
    "EXACT_TIE_SOURCES",
    "OVERRIDES",
    "PRESETS",
    "BidRule",
    "Variant",
    "find_variant",
    "json_call",
    "overrides_of",
    "with_overrides",
]

# A tie-break pepper round on a variant without one lasts this many hands
# (contract §2, `pepper-round`).
DEFAULT_TIE_PEPPER_ROUND = 4


@dataclass(frozen=True)
class Variant:
    preset: str
    seats: int
    teams: bool
    tricks_per_hand: int
    rungs: tuple[tuple[Call, RungKind], ...]  # the ladder, low to high
    numbered_made_value: bool  # a made number bid scores its value (moon-42)
    top_pays_defenders: bool  # defenders with a trick score a top bid's points
    target_score: int
    pepper_round_hands: int
    exact_tie: ExactTie
    both_reach: BothReach
    minimum_bid: Call
    stick_the_dealer: bool
    set_penalty: int | Literal["bid"]
    top_bid_points: int
    defenders_shut_out_lose: bool
    negotiation: bool
    clubs_must_play: bool
    no_trump: bool
    one_call_each: bool
    must_bid_to_win: bool
    mercy: int | None
    hand_limit: int
    description: str
    sources: tuple[tuple[str, str], ...]
    deck_ranks: tuple[str, ...] = ("9", "10", "J", "Q", "K", "A")
    copies: int = 1  # of each card: bid-euchre deals a deck per pair of players

    # Derived from the settings once per variant (cached_property writes the
    # instance dict, not a field: the variant stays frozen and comparable).
    @cached_property
    def sides(self) -> int:
        return 2 if self.teams else self.seats

    @cached_property
    def ladder(self) -> tuple[BidRule, ...]:
        """Each rung's rule, from the preset's ladder and the house's
        set_penalty, top_bid_points and negotiation (contract §2, §5)."""
        return tuple(self._rule(call, kind) for call, kind in self.rungs)

    def _rule(self, call: Call, kind: RungKind) -> BidRule:
        tricks = self.tricks_per_hand
        if kind in ("top", "double-top"):
            points = self.top_bid_points * (2 if kind == "double-top" else 1)
            paid = points if self.top_pays_defenders else None
            free = 0 if self.negotiation else None
            return BidRule(call, tricks, points, points, paid, free, points)
        needed = tricks if kind == "little" else int(call)
        made = needed if kind == "number" and self.numbered_made_value else None
        penalty = needed if self.set_penalty == "bid" else self.set_penalty
        free = tricks - needed if self.negotiation else None
        return BidRule(call, needed, made, penalty, None, free, needed)

    @cached_property
    def trumps(self) -> frozenset[str]:
        """The trumps a hand may name (no-trump only where the house allows)."""
        return frozenset(t for t in TRUMPS if self.no_trump or t != "no-trump")

    @cached_property
    def engine_constants(
        self,
    ) -> tuple[
        int,
        int,
        int,
        dict[Outcome, tuple[int, ...]],
        Call,
        tuple[int, ...] | None,
        range,
        frozenset[str],
    ]:
        """What the engine's loop reads on every replay, gathered once."""
        return (
            self.seats,
            self.sides,
            self.target_score,
            self.outcomes,
            self.lowest_bid,
            None if self.stick_the_dealer else (0,) * self.sides,
            range(self.sides),
            self.trumps,
        )

    @cached_property
    def legal_ladder(self) -> tuple[BidRule, ...]:
        """The rungs a hand may bid: from the minimum bid up."""
        return self.ladder[self.rank_of(self.minimum_bid) or 0 :]

    def rank_of(self, call: Call) -> int | None:
        """The rung's position on the ladder (a number and its text differ)."""
        for rank, (rung, _) in enumerate(self.rungs):
            if rung == call and type(rung) is type(call):
                return rank
        return None

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
        for rule in self.legal_ladder:
            for seat in range(self.seats):
                for tricks in trick_splits(self.tricks_per_hand, self.sides):
                    hand = HandRecorded(seat, rule.call, "no-trump", tricks)
                    table[rule.call, seat, tricks] = self.score_hand(rule, hand)
                for free in range((rule.max_free_tricks or 0) + 1):
                    for trump in self.trumps:
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
        if tricks is None:  # conceded: the bidder scores the bid's value
            deltas = [hand.free_tricks or 0] * self.sides
            deltas[bidder_side] = rule.value
            return tuple(deltas)
        shut_out = -rule.value if self.defenders_shut_out_lose else 0
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
    def lowest_bid(self) -> Call:
        """The lowest legal bid: what a pepper round forces."""
        return self.minimum_bid

    @property
    def highest_bid(self) -> Call:
        return self.ladder[-1].call

    def side_of(self, seat: int) -> int:
        """Partners sit opposite: seat i plays for side i % 2 in team games."""
        return seat % self.sides

    def bid_rule(self, call: Call) -> BidRule | None:
        """The ladder's rung for ``call`` (``True`` is not the bid 1; the
        text "4" is not the bid 4)."""
        rank = None if type(call) is bool else self.rank_of(call)
        return None if rank is None else self.ladder[rank]

    def cite(self, topic: str) -> str:
        """Where the rule on ``topic`` comes from: a seed, the contract, or
        "house rule" when this game's house changed the setting behind it."""
        changed = overrides_of(self)
        if any(key in changed for key in HOUSE_TOPICS.get(topic, ())):
            return "house rule"
        return dict(self.sources)[topic]


# The settings every preset shares unless it says otherwise (contract §5).
_HOUSE_DEFAULTS: dict[str, object] = {
    "stick_the_dealer": False,
    "no_trump": True,
    "must_bid_to_win": False,
    "mercy": None,
    "hand_limit": 0,
}


def _classic(seats: int) -> Variant:
    tricks = 6 if seats == 4 else 8
    set_points = tricks  # -6 with four players, -8 with two or three
    return Variant(
        preset="classic",
        seats=seats,
        teams=seats == 4,
        tricks_per_hand=tricks,
        rungs=(
            *numbered_rungs(tricks - 1),
            ("little-pepper", "little"),
            ("big-pepper", "top"),
        ),
        numbered_made_value=False,
        top_pays_defenders=False,
        target_score=30,
        pepper_round_hands=0,
        exact_tie="co-winners",
        both_reach="higher",
        minimum_bid=1,
        set_penalty=set_points,
        top_bid_points=2 * tricks,
        defenders_shut_out_lose=False,
        negotiation=False,
        clubs_must_play=False,
        one_call_each=False,
        description=(
            "Pepper as most rule books give it: bid 1 to all the tricks, a set "
            f"costs {set_points}, big pepper pays double; first to 30."
        ),
        sources=CLASSIC_SOURCES if seats == 4 else CLASSIC_SMALL_SOURCES,
        **_HOUSE_DEFAULTS,  # type: ignore[arg-type]
    )


def _moon_42() -> Variant:
    return Variant(
        preset="moon-42",
        seats=4,
        teams=True,
        tricks_per_hand=6,
        rungs=(
            (4, "number"),
            (5, "number"),
            (6, "number"),
            ("moon", "top"),
            ("double-moon", "double-top"),
        ),
        numbered_made_value=True,
        top_pays_defenders=True,
        target_score=42,
        pepper_round_hands=4,
        exact_tie="play-on",
        both_reach="higher",
        minimum_bid=4,
        set_penalty="bid",
        top_bid_points=7,
        defenders_shut_out_lose=True,
        negotiation=True,
        clubs_must_play=True,
        one_call_each=False,
        description=(
            "Bill Wolf's Pepper: bids 4 to double moon, defenders may negotiate "
            "(never with clubs), a four-hand pepper round; first to 42."
        ),
        sources=MOON_SOURCES,
        **_HOUSE_DEFAULTS,  # type: ignore[arg-type]
    )


def _bid_euchre(seats: int) -> Variant:
    return Variant(
        preset="bid-euchre",
        seats=seats,
        teams=True,
        tricks_per_hand=8,
        rungs=(*numbered_rungs(8), ("pepper", "top"), ("double-pepper", "double-top")),
        numbered_made_value=False,
        top_pays_defenders=False,
        target_score=50,
        pepper_round_hands=0,
        exact_tie="co-winners",
        both_reach="bidder",
        minimum_bid=1,
        set_penalty="bid",
        top_bid_points=12,
        defenders_shut_out_lose=False,
        negotiation=False,
        clubs_must_play=False,
        one_call_each=True,
        description=(
            "Bid Euchre Pepper for 4, 6 or 8 with doubled decks: a set costs the "
            "number bid, pepper 12, double pepper 24; first to 50."
        ),
        sources=EUCHRE_SOURCES,
        deck_ranks=("J", "Q", "K", "A"),  # seed 002: one J Q K A set per pair
        copies=seats // 2,
        **_HOUSE_DEFAULTS,  # type: ignore[arg-type]
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


def _check(variant: Variant, key: str, value: object) -> None:
    """Refuse an override of the wrong type or out of range, in words."""
    check_value(key, value)
    if key == "minimum_bid" and (type(value) is bool or variant.rank_of(value) is None):  # type: ignore[arg-type]
        bids = ", ".join(json_call(call) for call, _ in variant.rungs)
        raise VariantError(
            f"minimum_bid must be a bid of {variant.preset}'s ladder: {bids} "
            f"(got {json_call(value)})"
        )


def with_overrides(variant: Variant, overrides: Mapping[str, object]) -> Variant:
    """``variant`` changed by a house's overrides (contract §5), each checked;
    an unknown setting or a value of the wrong type is refused."""
    for key, value in overrides.items():
        if key not in OVERRIDES:
            raise VariantError(
                f"{key!r} is not a house setting: use {', '.join(OVERRIDES)}"
            )
        _check(variant, key, value)
    changed = dataclasses.replace(variant, **overrides)  # type: ignore[arg-type]
    if changed.negotiation and changed.sides > 2:
        raise VariantError(
            "negotiation needs two sides: with each player for himself a hand "
            "cannot be conceded"
        )
    return changed


def overrides_of(variant: Variant) -> dict[str, object]:
    """The settings of ``variant`` that differ from its preset."""
    preset = PRESETS[variant.preset][variant.seats]
    return {
        key: getattr(variant, key)
        for key in OVERRIDES
        if getattr(variant, key) != getattr(preset, key)
        or type(getattr(variant, key)) is not type(getattr(preset, key))
    }
