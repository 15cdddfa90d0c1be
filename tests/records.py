"""Games and hands made through the services, for tests that need a
stored game (and some history)."""

from __future__ import annotations

from datetime import UTC, datetime

from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.rules.events import Call
from tests.factories import NAMES

NOW = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)
HandSpec = tuple[int, Call, str, list[int]]  # bidder, bid, trump, tricks
HTMX = {"HX-Request": "true"}  # the header htmx sends
# Hand 1 of a moon-42 game as the record form posts it: Bob, forced to 4 in
# the pepper round, takes 5 with hearts trump.
MOON_HAND_1 = {
    "expected_seq": 0,
    "event_id": "e1",
    "bidder": "1",
    "bid": "4",
    "trump": "hearts",
    "outcome": "played",
    "taken": "5",
    "action": "save",
}


def new_game(
    preset: str = "classic", players: int = 4, now: datetime = NOW, **overrides: object
) -> Game:
    """Ann, Bob, Cat... (``players`` of them) start a game; Ann deals first."""
    return services.game_create(
        preset=preset,
        seats=list(NAMES[:players]),
        first_dealer=0,
        overrides=overrides,
        now=now,
    )


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
