"""``python manage.py trick``: who wins a trick, what may follow (contract §4).

trick --trump hearts JD AH 9H        -> {"winner": 0, "card": "JD", ...}
trick --trump hearts --led JD --hand AH,9C,JH
"""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from scorekeeper.rules.cards import (
    legal_follows,
    parse_card,
    parse_trump,
    trick_winner,
)
from scorekeeper.rules.errors import CardError


class Command(BaseCommand):
    help = "Referee a trick: the winner, or the cards that may follow a lead."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--trump", required=True, help="a suit, or no-trump")
        parser.add_argument("--led", help="the card led (with --hand)")
        parser.add_argument("--hand", help="the hand, comma-separated (with --led)")
        parser.add_argument("cards", nargs="*", help="the trick, in play order")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            answer = referee(options)
        except CardError as error:
            self.stderr.write(f"trick: {error.message}")
            sys.exit(2)
        self.stdout.write(json.dumps(answer, ensure_ascii=False))


def referee(options: dict[str, Any]) -> dict[str, object]:
    trump = parse_trump(options["trump"])
    if options["led"] is not None or options["hand"] is not None:
        if options["led"] is None or options["hand"] is None or options["cards"]:
            raise CardError("give --led CARD and --hand CARD,CARD,... and no trick")
        led = parse_card(options["led"])
        hand = [parse_card(text) for text in options["hand"].split(",")]
        follow = legal_follows(led, hand, trump)
        return {
            "must_follow": follow.must_follow,
            "legal": [str(card) for card in follow.legal],
            "reason": follow.reason,
        }
    if not options["cards"]:
        raise CardError("name the cards of the trick in play order, e.g. JD AH 9H")
    verdict = trick_winner([parse_card(text) for text in options["cards"]], trump)
    return {
        "winner": verdict.winner,
        "card": str(verdict.card),
        "reason": verdict.reason,
    }
