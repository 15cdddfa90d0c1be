"""``python manage.py demo_game``: a moon-42 game in progress, so a newcomer
sees a real scoreboard at once. Only when there is no game yet."""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.rules.events import HandRecorded


class Command(BaseCommand):
    help = "Create a demo game in progress if the database has no game."

    def handle(self, *args: Any, **options: Any) -> None:
        existing = Game.objects.order_by("created_at").first()
        if existing is not None:
            self.stdout.write("There are games already; no demo added.")
            self._announce(existing)
            return
        start = timezone.now() - timedelta(minutes=50)
        game = services.game_create(
            preset="moon-42",
            seats=["Ann", "Bob", "Cat", "Dan"],
            first_dealer=0,
            now=start,
        )
        hands: list[dict[str, Any]] = [
            {"bidder": 1, "bid": 4, "trump": "hearts", "tricks": [1, 5]},
            {"bidder": 2, "bid": 4, "trump": "spades", "free_tricks": 1},
            {"bidder": 3, "bid": 4, "trump": "clubs", "tricks": [3, 3]},
            {"bidder": 0, "bid": 4, "trump": "diamonds", "tricks": [5, 1]},
            {"bidder": 2, "bid": "moon", "trump": "no-trump", "tricks": [6, 0]},
            {"bidder": 1, "bid": 5, "trump": "hearts", "tricks": [2, 4]},
        ]
        for seq, hand in enumerate(hands):
            services.hand_record(
                game=game,
                expected_seq=seq,
                by="Ann",
                now=start + timedelta(minutes=6 * seq),
                **hand,
            )
        services.hand_pass_out(
            game=game, expected_seq=6, by="Bob", now=start + timedelta(minutes=40)
        )
        services.hand_correct(
            game=game,
            expected_seq=7,
            target=6,
            hand=HandRecorded(1, 5, "hearts", (1, 5)),
            by="Cat",
            now=start + timedelta(minutes=45),
        )
        self._announce(game)

    def _announce(self, game: Game) -> None:
        """Games are reached by their links: print the demo's."""
        port = os.environ.get("PORT", "8000")
        self.stdout.write(
            f"Open the demo game: http://127.0.0.1:{port}/join/{game.edit_token}"
        )
