"""Builders for events, variants and logs, shared by every test."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.rules.engine import Scoreboard, replay
from scorekeeper.rules.events import (
    AuctionCall,
    Call,
    Event,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from scorekeeper.rules.variants import Variant, find_variant, with_overrides

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


def variant(preset: str = "classic", seats: int = 4, **overrides: object) -> Variant:
    return with_overrides(find_variant(preset, seats), overrides)


def played(
    bidder: int,
    bid: Call,
    *tricks: int,
    trump: str = "hearts",
    auction: Sequence[AuctionCall] | None = None,
) -> HandRecorded:
    return HandRecorded(
        bidder,
        bid,
        trump,
        tuple(tricks),
        None,
        None if auction is None else tuple(auction),
    )


def conceded(bidder: int, bid: Call, free: int, trump: str = "spades") -> HandRecorded:
    return HandRecorded(bidder, bid, trump, None, free)


def passed(auction: Sequence[AuctionCall] | None = None) -> HandPassedOut:
    return HandPassedOut(None if auction is None else tuple(auction))


def void(target: int) -> HandVoided:
    return HandVoided(target, "mistake")


def correct(target: int, hand: HandRecorded | HandPassedOut) -> HandCorrected:
    return HandCorrected(target, hand)


def play(rules: Variant, *events: Event, first_dealer: int = 0) -> Scoreboard:
    return replay(rules, NAMES[: rules.seats], first_dealer, list(events))


def log_document(
    variant: object = "classic", *events: dict[str, Any], first_dealer: int = 0
) -> dict[str, Any]:
    """A pepper-log document: Ann, Bob, Cat and Dan, Ann dealing first."""
    return {
        "format": "pepper-log",
        "version": 1,
        "variant": variant,
        "seats": list(NAMES[:4]),
        "first_dealer": first_dealer,
        "events": list(events),
    }
