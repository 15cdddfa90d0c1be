"""What each seat did in one game, read off its replayed log: the hands it
bid and made (by bid), the sets and concessions of its side on defence,
its run of made and set bids, its best hand. The game row keeps this beside
its totals (every append rewrites it), so a league's standings, player
pages and awards read rows and replay nothing.

A bid is made when the bidders took the tricks it needed, or when the
defenders conceded it to them. "Sets" counts the hands a seat defended in
which the bidders fell short; "conceded" the hands its side gave the
bidders without playing them out.
"""

from __future__ import annotations

from typing import TypedDict

from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.events import Hand, HandRecorded
from scorekeeper.rules.variants import Variant


class SeatStats(TypedDict):
    bids: dict[str, list[int]]  # per bid ("3", "pepper", "moon"): [bid, made]
    sets: int  # bidders set while this seat defended
    conceded: int  # hands this seat's side conceded as defenders
    run: str  # this seat's bids in order: "M" made, "S" set
    best: int  # the most its side scored in one hand this seat bid and made


def made(variant: Variant, hand: HandRecorded) -> bool:
    if hand.tricks is None:
        return True  # conceded to the bidders
    rule = variant.bid_rule(hand.bid)
    assert rule is not None  # the engine keeps only legal hands
    return hand.tricks[variant.side_of(hand.bidder)] >= rule.tricks_needed


def seat_stats(board: Scoreboard) -> list[SeatStats]:
    variant = board.variant
    stats = no_stats(variant)
    for result in board.hands:
        add_hand(variant, stats, result.hand, result.deltas)
    return stats


def no_stats(variant: Variant) -> list[SeatStats]:
    """Every seat's numbers before the first hand."""
    return [
        SeatStats(bids={}, sets=0, conceded=0, run="", best=0)
        for _ in range(variant.seats)
    ]


def add_hand(
    variant: Variant, stats: list[SeatStats], hand: Hand, deltas: tuple[int, ...]
) -> None:
    """Count one more effective hand (and what it scored) in ``stats``: an
    append folds its hand in without reading the hands before it."""
    if not isinstance(hand, HandRecorded):
        return  # passed out: nobody bid
    bidders = variant.side_of(hand.bidder)
    won = made(variant, hand)
    mine = stats[hand.bidder]
    counts = mine["bids"].setdefault(str(hand.bid), [0, 0])
    counts[0] += 1
    counts[1] += int(won)
    mine["run"] += "M" if won else "S"
    if won:
        mine["best"] = max(mine["best"], deltas[bidders])
    for seat, theirs in enumerate(stats):
        if variant.side_of(seat) != bidders:
            theirs["sets"] += int(not won)
            theirs["conceded"] += int(hand.tricks is None)


def seat_bids(stats: list[SeatStats]) -> tuple[list[int], list[int]]:
    """Per seat: the hands it bid, and of those the ones made."""
    bids = [sum(n for n, _ in seat["bids"].values()) for seat in stats]
    made = [sum(m for _, m in seat["bids"].values()) for seat in stats]
    return bids, made
