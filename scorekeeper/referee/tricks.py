"""The trick referee behind ``manage.py trick`` and ``/trick``: who wins a
trick, what may follow a lead, with the game's deck limiting the cards
(contract §4). Pure: the rules only."""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.cards import (
    Card,
    check_deck,
    legal_follows,
    parse_card,
    parse_trump,
    trick_winner,
)
from scorekeeper.rules.errors import CardError
from scorekeeper.rules.variants import Variant, find_variant


def game_deck(preset: str | None, seats: int | None) -> Variant | None:
    """The game whose deck the cards must come from (None: any cards)."""
    if preset is None:
        if seats is not None:
            raise CardError("--seats needs --preset: the preset decides the deck")
        return None
    return find_variant(preset, seats or 4)  # every preset is played by four


def check_trick(game: Variant | None, cards: list[Card]) -> None:
    """One card per seat, and only cards the game's deck holds."""
    if game is not None:
        ranks, copies = game.deck_ranks, game.copies
        check_deck(cards, ranks=ranks, copies=copies, most=game.seats, what="a trick")


def check_hand(game: Variant | None, led: Card, hand: list[Card]) -> None:
    """A hand of at most a deal's cards; with the card led, no card more
    often than the deck holds it."""
    if game is not None:
        ranks, copies, size = game.deck_ranks, game.copies, game.tricks_per_hand
        check_deck(hand, ranks=ranks, copies=copies, most=size, what="a hand")
        check_deck(
            [led, *hand], ranks=ranks, copies=copies, most=size + 1, what="the table"
        )


def referee(options: dict[str, Any]) -> dict[str, object]:
    trump = parse_trump(options["trump"])
    game = game_deck(options.get("preset"), options.get("seats"))
    if options["led"] is not None or options["hand"] is not None:
        if options["led"] is None or options["hand"] is None or options["cards"]:
            raise CardError("give --led CARD and --hand CARD,CARD,... and no trick")
        led = parse_card(options["led"])
        hand = [parse_card(text) for text in options["hand"].split(",")]
        check_hand(game, led, hand)
        follow = legal_follows(led, hand, trump)
        return {
            "must_follow": follow.must_follow,
            "legal": [str(card) for card in follow.legal],
            "reason": follow.reason,
        }
    if not options["cards"]:
        raise CardError("name the cards of the trick in play order, e.g. JD AH 9H")
    cards = [parse_card(text) for text in options["cards"]]
    check_trick(game, cards)
    verdict = trick_winner(cards, trump)
    return {
        "winner": verdict.winner,
        "card": str(verdict.card),
        "reason": verdict.reason,
    }
