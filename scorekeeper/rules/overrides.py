"""The house settings a game may change (contract §5): their names, their
values' types, and the checks a value must pass before a variant takes it
(``with_overrides`` in variants.py, which also checks a minimum bid
against the preset's own ladder).
"""

from __future__ import annotations

from typing import Literal

from .errors import VariantError

BothReach = Literal["higher", "bidder"]
ExactTie = Literal["co-winners", "play-on", "pepper-round"]
EXACT_TIES: tuple[ExactTie, ...] = ("co-winners", "play-on", "pepper-round")
BOTH_REACH: tuple[BothReach, ...] = ("higher", "bidder")

# Every house setting of contract §5, in its order.
OVERRIDES = (
    "target_score",
    "exact_tie",
    "pepper_round_hands",
    "both_reach",
    "minimum_bid",
    "stick_the_dealer",
    "set_penalty",
    "top_bid_points",
    "defenders_shut_out_lose",
    "negotiation",
    "clubs_must_play",
    "no_trump",
    "one_call_each",
    "must_bid_to_win",
    "mercy",
    "hand_limit",
)
_BOOLEANS = (
    "stick_the_dealer",
    "defenders_shut_out_lose",
    "negotiation",
    "clubs_must_play",
    "no_trump",
    "one_call_each",
    "must_bid_to_win",
)


def _whole(value: object, low: int) -> bool:
    return type(value) is int and value >= low


def check_value(key: str, value: object) -> None:
    """Refuse a setting's value of the wrong type or out of range, in words."""
    if key in ("target_score", "top_bid_points") and not _whole(value, 1):
        raise VariantError(f"{key} must be a whole number of at least 1")
    if key in ("pepper_round_hands", "hand_limit") and not _whole(value, 0):
        raise VariantError(f"{key} must be a whole number of at least 0")
    if key == "exact_tie" and value not in EXACT_TIES:
        raise VariantError(f"exact_tie must be one of {', '.join(EXACT_TIES)}")
    if key == "both_reach" and value not in BOTH_REACH:
        raise VariantError(f"both_reach must be one of {', '.join(BOTH_REACH)}")
    if key in _BOOLEANS and type(value) is not bool:
        raise VariantError(f"{key} must be true or false")
    if key == "set_penalty" and value != "bid" and not _whole(value, 1):
        raise VariantError('set_penalty must be "bid" or a whole number of at least 1')
    if key == "mercy" and not (value is None or (type(value) is int and value < 0)):
        raise VariantError("mercy must be a negative whole number, or null for none")


def json_call(call: object) -> str:
    """A bid as a log writes it: 4 (a number) or "moon" (a name)."""
    return f'"{call}"' if isinstance(call, str) else str(call)
