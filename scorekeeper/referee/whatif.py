"""What if this game had been played under other rules?

The game's hands are replayed, in order, under another variant. A hand the
other rules cannot express (a moon under classic, a concession where
nothing can be conceded, a pepper-round bid that other rules force
differently, a hand after that game would already be over) is left out and
listed with the engine's reason, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules.engine import HandResult, Scoreboard, replay
from scorekeeper.rules.errors import Violation
from scorekeeper.rules.events import Hand
from scorekeeper.rules.variants import Variant


@dataclass(frozen=True)
class Compared:
    real: HandResult
    other: HandResult | None  # None: the other rules cannot express this hand
    reason: str


@dataclass(frozen=True)
class WhatIf:
    board: Scoreboard  # the game under the other rules
    hands: list[Compared]

    @property
    def left_out(self) -> list[Compared]:
        return [hand for hand in self.hands if hand.other is None]


def what_if(game: Scoreboard, other: Variant) -> WhatIf:
    """``game``'s hands replayed under ``other`` (same seats and dealer)."""
    kept: list[Hand] = []
    reasons: dict[int, str] = {}
    board = replay(other, game.seats, game.first_dealer, kept)
    for result in game.hands:
        try:
            board = replay(other, game.seats, game.first_dealer, [*kept, result.hand])
        except Violation as refused:
            reasons[result.number] = f"{refused.message} ({refused.rule})"
            continue
        kept.append(result.hand)
    replayed = iter(board.hands)
    compared = [
        Compared(result, None, reasons[result.number])
        if result.number in reasons
        else Compared(result, next(replayed), "")
        for result in game.hands
    ]
    return WhatIf(board, compared)
