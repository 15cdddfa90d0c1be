"""The bid ladder: the kinds of rung a preset's ladder is made of, and
``BidRule``, one rung with how it scores once a house's settings are
applied (``Variant.ladder`` builds them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .events import Call

# How a rung of the ladder scores, whatever the house changes: a number of
# tricks, little-pepper (all the tricks, a point a trick), a top bid (big
# pepper, pepper, moon) or twice a top bid (double pepper, double moon).
RungKind = Literal["number", "little", "top", "double-top"]


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
    # The bid's value (contract §5): the number bid, the tricks little-pepper
    # needs, or a top bid's points. A conceded hand scores it; a side shut
    # out loses it where defenders_shut_out_lose.
    value: int = 0

    @property
    def label(self) -> str:
        return str(self.call).replace("-", " ")


# (bid, bidder's seat, tricks) or (bid, bidder's seat, free tricks, trump)
Outcome = tuple[Call, int, tuple[int, ...]] | tuple[Call, int, int, str]


def trick_splits(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to share ``total`` tricks among ``parts`` sides."""
    if parts == 1:
        return [(total,)]
    return [
        (first, *rest)
        for first in range(total + 1)
        for rest in trick_splits(total - first, parts - 1)
    ]


def numbered_rungs(top: int) -> list[tuple[Call, RungKind]]:
    return [(n, "number") for n in range(1, top + 1)]
