"""``python manage.py trick``: who wins a trick, what may follow (contract §4).

trick --trump hearts JD AH 9H        -> {"winner": 0, "card": "JD", ...}
trick --trump hearts --led JD --hand AH,9C,JH
trick --preset bid-euchre --seats 6 --trump hearts JD JD AH   (the game's deck)
"""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any

from scorekeeper.management.contract import ContractCommand
from scorekeeper.referee.tricks import referee
from scorekeeper.rules.errors import CardError, VariantError


class Command(ContractCommand):
    help = "Referee a trick: the winner, or the cards that may follow a lead."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--trump", required=True, help="a suit, or no-trump")
        parser.add_argument("--led", help="the card led (with --hand)")
        parser.add_argument("--hand", help="the hand, comma-separated (with --led)")
        parser.add_argument(
            "--preset", help="the game's preset: its deck limits the cards"
        )
        parser.add_argument(
            "--seats", type=int, help="the number of players (with --preset; 4)"
        )
        parser.add_argument("cards", nargs="*", help="the trick, in play order")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            answer = referee(options)
        except (CardError, VariantError) as error:
            self.stderr.write(f"trick: {error.message}")
            sys.exit(2)
        self.stdout.write(json.dumps(answer, ensure_ascii=False))
