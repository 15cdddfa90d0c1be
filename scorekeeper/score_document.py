"""The pepper-score v1 document (contract §3): a scoreboard as ``replay
--json`` prints it, the JSON API answers it and the phone shows it, each
hand with the sentence that explains its score. Pure, like the rules: the
phone runs it under Pyodide.
"""

from __future__ import annotations

from scorekeeper.rules.engine import HandResult, Scoreboard, Snapshot
from scorekeeper.rules.events import HandRecorded
from scorekeeper.rules.explain import explain_hand
from scorekeeper.rules.referee import Turn
from scorekeeper.rules.variants import overrides_of


def score_document(board: Scoreboard, *, hands: bool = True) -> dict[str, object]:
    """The pepper-score v1 document printed by ``replay --json`` (contract §3)."""
    variant = board.variant
    sides = variant.sides
    return {
        "format": "pepper-score",
        "version": 1,
        "variant": variant.preset,
        "overrides": overrides_of(variant),
        "sides": [
            {"name": name, "seats": list(range(side, variant.seats, sides))}
            for side, name in enumerate(board.side_names)
        ],
        "hands": [hand_document(board, result) for result in board.hands]
        if hands
        else [],
        "totals": list(board.totals),
        "status": board.status,
        "winners": list(board.winners),
        "tied": list(board.tied),
        "next": turn_document(board.next),
    }


def turn_document(turn: Turn | None) -> dict[str, object] | None:
    """What the next hand needs, as pepper-score v1 writes it."""
    if turn is None:
        return None
    return {
        "hand": turn.number,
        "dealer": turn.dealer,
        "first_bidder": turn.first_bidder,
        "pepper_round": turn.pepper_round,
        "forced_bid": turn.forced_bid,
    }


def hand_document(
    board: Scoreboard | Snapshot, result: HandResult
) -> dict[str, object]:
    document: dict[str, object] = {
        "number": result.number,
        "event": result.event,
        "dealer": result.dealer,
        "first_bidder": result.first_bidder,
    }
    hand = result.hand
    if isinstance(hand, HandRecorded):
        document.update(bidder=hand.bidder, bid=hand.bid, trump=hand.trump)
        if hand.tricks is not None:
            document["tricks"] = list(hand.tricks)
        else:
            document["free_tricks"] = hand.free_tricks
    document.update(
        outcome=result.outcome,
        pepper_round=result.pepper_round,
        deltas=list(result.deltas),
        totals=list(result.totals),
        explanation=explain_hand(board, result),
    )
    return document
