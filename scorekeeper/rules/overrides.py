"""The house settings a game may change (contract §5): their names, their
values' types, and the checks a value must pass before a variant takes it
(``with_overrides`` in variants.py, which also checks a minimum bid
against the preset's own ladder).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from .errors import VariantError

BothReach = Literal["higher", "bidder"]
ExactTie = Literal["co-winners", "play-on", "pepper-round"]
EXACT_TIES: tuple[ExactTie, ...] = ("co-winners", "play-on", "pepper-round")
BOTH_REACH: tuple[BothReach, ...] = ("higher", "bidder")

Check = tuple[Callable[[object], bool], str]  # a value's test; what it must be


def _whole(value: object, low: int) -> bool:
    return type(value) is int and value >= low


def _at_least(low: int) -> Check:
    return (lambda value: _whole(value, low)), f"a whole number of at least {low}"


def _one_of(names: tuple[str, ...]) -> Check:
    return (lambda value: value in names), f"one of {', '.join(names)}"


_FLAG: Check = (lambda value: type(value) is bool), "true or false"

# Every house setting of contract §5, in its order, with the check its
# value must pass (minimum_bid's, against the ladder, is in variants.py).
_CHECKS: dict[str, Check] = {
    "target_score": _at_least(1),
    "exact_tie": _one_of(EXACT_TIES),
    "pepper_round_hands": _at_least(0),
    "both_reach": _one_of(BOTH_REACH),
    "minimum_bid": ((lambda value: True), ""),
    "stick_the_dealer": _FLAG,
    "set_penalty": (
        (lambda value: value == "bid" or _whole(value, 1)),
        '"bid" or a whole number of at least 1',
    ),
    "top_bid_points": _at_least(1),
    "defenders_shut_out_lose": _FLAG,
    "negotiation": _FLAG,
    "clubs_must_play": _FLAG,
    "no_trump": _FLAG,
    "one_call_each": _FLAG,
    "must_bid_to_win": _FLAG,
    "mercy": (
        (lambda value: value is None or (type(value) is int and value < 0)),
        "a negative whole number, or null for none",
    ),
    "hand_limit": _at_least(0),
}
OVERRIDES = tuple(_CHECKS)


def check_value(key: str, value: object) -> None:
    """Refuse a setting's value of the wrong type or out of range, in words."""
    test, words = _CHECKS[key]
    if not test(value):
        raise VariantError(f"{key} must be {words}")


def json_call(call: object) -> str:
    """A bid as a log writes it: 4 (a number) or "moon" (a name)."""
    return f'"{call}"' if isinstance(call, str) else str(call)
