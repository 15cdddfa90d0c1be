"""Recording hands through the services, for tests that need a game
with some history."""

from __future__ import annotations

from datetime import datetime

from scorekeeper import services
from scorekeeper.models import Game
from scorekeeper.rules.events import Call

HandSpec = tuple[int, Call, str, list[int]]  # bidder, bid, trump, tricks


def record_hands(game: Game, now: datetime, *hands: HandSpec) -> None:
    """Each hand played out, appended after the game's last event."""
    for bidder, bid, trump, tricks in hands:
        services.hand_record(
            game=game,
            expected_seq=game.last_seq,
            bidder=bidder,
            bid=bid,
            trump=trump,
            tricks=tricks,
            now=now,
        )
