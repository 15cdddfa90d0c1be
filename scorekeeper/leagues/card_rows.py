"""A paper score card's rows, as an organizer types them in. Pure: the
standard library and the rules.

A row is one hand of the card's grid: the bidder (the seat's number on
the card, or the start of a name: "A" for Ann when no other name at the
table starts with A), the bid ("4", "moon", "m", "double moon", "dm"),
trump (S, H, D, C, or N for no trump), and the result: the tricks the
bidders took, C for a conceded hand (C1, C2: with that many free tricks
to the defenders), or P when the hand was passed out. A table where each
plays alone gives every player's tricks, "2/3/3".

Reading a row checks only that it can be read; whether the hand is legal
is the engine's to say, when the row is recorded as a hand event.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.rules.events import Call, Hand, HandPassedOut, HandRecorded
from scorekeeper.rules.referee import Turn
from scorekeeper.rules.variants import Variant

CELL_LIMIT = 20  # characters a cell may hold
_SPACES = re.compile(r"[\s_-]+")
_COUNTS = re.compile(r"^\d+(?:\s*[/ ,]\s*\d+)+$", re.ASCII)
_CONCEDED = re.compile(r"^c(?:onceded)?\s*(\d*)$", re.ASCII)
_PASSED = frozenset({"p", "pass", "passed", "passed out", "po"})
_TRUMPS = {
    "spades": ("s", "♠", "spade", "spades"),
    "hearts": ("h", "♥", "heart", "hearts"),
    "diamonds": ("d", "♦", "diamond", "diamonds"),
    "clubs": ("c", "♣", "club", "clubs"),
    "no-trump": ("n", "nt", "no trump", "notrump", "no trumps"),
}
TRUMP_OF = {word: trump for trump, words in _TRUMPS.items() for word in words}


class RowError(Exception):
    """A row that cannot be read; the message says why, in words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Typed:
    """A row's four cells as typed."""

    bidder: str = ""
    bid: str = ""
    trump: str = ""
    result: str = ""

    @property
    def blank(self) -> bool:
        return not any(cell.strip() for cell in vars(self).values())


@dataclass(frozen=True)
class Entry:
    """A row read: a passed-out hand, or a bid hand whose bidder and bid
    may be left to the pepper round's forced ones (None)."""

    passed_out: bool
    bidder: int | None = None
    bid: Call | None = None
    trump: str = ""
    tricks: tuple[int, ...] | int | None = None  # the bidders', or every side's
    free_tricks: int | None = None  # a conceded hand


def _plain(text: str) -> str:
    return _SPACES.sub(" ", text.strip().casefold())


def read_row(typed: Typed, variant: Variant, names: Sequence[Sequence[str]]) -> Entry:
    """``names``: per seat, the names it may be typed by (the game's own,
    and a substitute's)."""
    if any(len(cell) > CELL_LIMIT for cell in vars(typed).values()):
        raise RowError(f"a cell holds at most {CELL_LIMIT} characters")
    result = _plain(typed.result)
    if not result:
        raise RowError(
            "say the result: the bidders' tricks, C (conceded) or P (passed out)"
        )
    if result in _PASSED:
        if typed.bidder.strip() or typed.bid.strip() or typed.trump.strip():
            raise RowError(
                "a passed-out hand has no bidder, bid or trump: leave them blank"
            )
        return Entry(passed_out=True)
    trump = read_trump(typed.trump, variant)
    bidder = read_bidder(typed.bidder, names) if typed.bidder.strip() else None
    bid = read_bid(typed.bid, variant) if typed.bid.strip() else None
    conceded = _CONCEDED.match(result)
    if conceded:
        free = int(conceded.group(1) or 0)
        return Entry(False, bidder, bid, trump, None, free)
    return Entry(False, bidder, bid, trump, _tricks(result, variant))


def read_bidder(text: str, names: Sequence[Sequence[str]]) -> int:
    """A seat: its number on the card (1 first), or the start of a name."""
    typed = text.strip()
    if typed.isascii() and typed.isdigit():
        if 1 <= int(typed) <= len(names):
            return int(typed) - 1
        raise RowError(f"there is no seat {typed}: the seats are 1 to {len(names)}")
    wanted = _plain(typed)
    exact = {s for s, seat in enumerate(names) for n in seat if _plain(n) == wanted}
    if len(exact) == 1:
        return exact.pop()
    starts = {
        s for s, seat in enumerate(names) for n in seat if _plain(n).startswith(wanted)
    }
    if len(starts) == 1:
        return starts.pop()
    everyone = ", ".join(seat[0] for seat in names)
    if not starts:
        raise RowError(f"“{typed}” is nobody at this table ({everyone})")
    both = " or ".join(names[s][0] for s in sorted(starts))
    raise RowError(f"“{typed}” could be {both}: type more letters or the seat number")


def read_bid(text: str, variant: Variant) -> Call:
    """A bid of the game's ladder: a number, a name, the start of a name
    or a name's initials ("dm": double moon)."""
    typed = text.strip()
    if typed.isascii() and typed.isdigit():
        return int(typed)
    wanted = _plain(typed)
    named = [rule for rule in variant.ladder if isinstance(rule.call, str)]
    for test in (
        lambda label: label == wanted,
        lambda label: label.startswith(wanted),
        lambda label: "".join(word[0] for word in label.split()) == wanted,
    ):
        found = [rule.call for rule in named if test(_plain(rule.label))]
        if len(found) == 1:
            return found[0]
    ladder = ", ".join(rule.label for rule in variant.ladder)
    raise RowError(f"“{typed}” is not a bid of this game: {ladder}")


def read_trump(text: str, variant: Variant) -> str:
    typed = _plain(text)
    if not typed:
        raise RowError("say trump: S, H, D, C or N (no trump)")
    trump = TRUMP_OF.get(typed)
    if trump is None:
        raise RowError(f"“{text.strip()}” is not a trump: S, H, D, C or N (no trump)")
    return trump


def _tricks(result: str, variant: Variant) -> tuple[int, ...] | int:
    if result.isascii() and result.isdigit():
        taken = int(result)
        if variant.sides > 2:
            raise RowError(
                "each plays alone at this table: give every player's tricks, "
                "in seat order, like " + "/".join(["2"] * variant.sides)
            )
        if taken > variant.tricks_per_hand:
            raise RowError(f"a hand has {variant.tricks_per_hand} tricks")
        return taken
    if _COUNTS.match(result):
        counts = tuple(int(count) for count in re.findall(r"\d+", result))
        if len(counts) != variant.sides:
            raise RowError(f"give {variant.sides} counts of tricks, one a side")
        return counts
    raise RowError(
        f"“{result}” is not a result: the bidders' tricks, "
        "C (conceded) or P (passed out)"
    )


def hand_of(entry: Entry, variant: Variant, turn: Turn) -> Hand:
    """The hand event of a row read, as hand ``turn``: a pepper round's
    forced bidder and bid fill the cells left blank."""
    if entry.passed_out:
        return HandPassedOut()
    bidder = entry.bidder
    if bidder is None and turn.forced_bid is not None:
        bidder = turn.first_bidder
    bid = entry.bid if entry.bid is not None else turn.forced_bid
    if bidder is None:
        raise RowError("say who took the bid")
    if bid is None:
        raise RowError("say the bid")
    if entry.tricks is None:
        return HandRecorded(bidder, bid, entry.trump, None, entry.free_tricks)
    return HandRecorded(
        bidder, bid, entry.trump, _per_side(entry.tricks, bidder, variant)
    )


def _per_side(
    tricks: tuple[int, ...] | int, bidder: int, variant: Variant
) -> tuple[int, ...]:
    if isinstance(tricks, tuple):
        return tricks
    counts = [variant.tricks_per_hand - tricks] * 2
    counts[variant.side_of(bidder)] = tricks
    return tuple(counts)


def keys(names: Sequence[str]) -> list[str]:
    """Each name's shortest start no other name shares, for the card's key
    ("A" for Ann; "An" and "Ab" for Ann and Abe)."""
    plain = [_plain(name) for name in names]
    found = []
    for i, name in enumerate(names):
        others = [p for j, p in enumerate(plain) if j != i]
        size = next(
            (
                n
                for n in range(1, len(name) + 1)
                if not any(o.startswith(plain[i][:n]) for o in others)
            ),
            len(name),
        )
        found.append(name[:size])
    return found
