"""Settling disputes: verify a log, referee a trick or a follow-suit."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper.gamelog import LogError, printable, read_and_replay
from scorekeeper.games import presenters
from scorekeeper.games.forms import ImportForm
from scorekeeper.games.parts import partial_of
from scorekeeper.referee.tricks import check_hand, check_trick, game_deck
from scorekeeper.refusals import in_a_log, players_words, sentence
from scorekeeper.rules.cards import (
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    legal_follows,
    parse_card,
    parse_trump,
    trick_winner,
)
from scorekeeper.rules.errors import CardError, VariantError
from scorekeeper.rules.variants import PRESETS
from scorekeeper.tablewords import whole_number

TRUMP_CHOICES = [
    ("hearts", "♥"),
    ("diamonds", "♦"),
    ("clubs", "♣"),
    ("spades", "♠"),
    ("no-trump", "NT"),
]


@require_http_methods(["GET", "POST"])
def verify(request: HttpRequest) -> HttpResponse:
    """A log's verdict: its scoreboard, or its first illegal event and why."""
    form = ImportForm(request.POST or None, request.FILES or None)
    context: dict[str, object] = {"form": form}
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            document = form.document()
            context["document"] = document.decode(errors="replace")
            log, board = read_and_replay(document)
        except LogError as refused:
            context["refusal"] = players_words(refused.message, refused.remedy)
            context["where"] = (
                "the log's header" if refused.event is None else in_a_log(refused.event)
            )
            context["offending"] = _offending(
                context.get("document", ""), refused.event
            )
            status = 422
        else:
            context["board"] = board
            context["sides"] = presenters.score_boxes(board)
            context["rows"] = presenters.history(board, log)
            context["status_line"] = presenters.status(board)
    return render(request, "referee/verify.html", context, status=status)


def _offending(document: object, event: int | None) -> str:
    """The refused event as it was written, when it can be found."""
    if not event or not isinstance(document, str):
        return ""
    try:
        events = json.loads(document).get("events")
        return printable(json.dumps(events[event - 1], ensure_ascii=False))
    except (ValueError, AttributeError, TypeError, IndexError, KeyError):
        return ""
    except RecursionError:  # an event nested thousands deep
        return ""


def _cards(text: str) -> list[Card]:
    return [
        parse_card(word) for word in text.replace(" ", ",").split(",") if word.strip()
    ]


@require_GET
def trick(request: HttpRequest) -> HttpResponse:
    """Tap the cards of a trick in play order; the page names the winner
    and why. Each tap is a plain link-free GET form, so it works without
    JavaScript; htmx only swaps the verdict in place."""
    trump_text = request.GET.get("trump", "hearts")
    played = request.GET.get("cards", "")
    tapped = request.GET.get("add", "")
    if request.GET.get("undo"):
        played = ",".join(played.split(",")[:-1])
    if request.GET.get("clear"):
        played = ""
    preset = request.GET.get("preset", "")
    seats = whole_number(request.GET.get("seats", "")) or None
    context: dict[str, object] = {
        "trump": trump_text,
        "trumps": TRUMP_CHOICES,
        "preset": preset,
        "seats": seats or "",
        "presets": [(name, sorted(by_seats)) for name, by_seats in PRESETS.items()],
    }
    ranks: tuple[str, ...] = RANKS
    try:
        trump = parse_trump(trump_text)
        game = game_deck(preset or None, seats if preset else None)
        ranks = game.deck_ranks if game else RANKS
        cards = _cards(",".join(filter(None, [played, tapped])))
        context["cards"] = cards
        context["played"] = ",".join(str(card) for card in cards)
        check_trick(game, cards)
        if cards:
            context["verdict"] = trick_winner(cards, trump)
        led, hand = request.GET.get("led", ""), request.GET.get("hand", "")
        context.update(led=led, hand=hand)
        if led.strip() and hand.strip():
            check_hand(game, parse_card(led), _cards(hand))
            context["follow"] = legal_follows(parse_card(led), _cards(hand), trump)
    except (CardError, VariantError) as error:
        context["error"] = sentence(error.message)
    context["grid"] = [
        (
            SUIT_NAMES[suit],
            [
                (f"{rank}{suit}", f"{rank}{SUIT_SYMBOLS[suit]}")
                for rank in reversed(ranks)
            ],
        )
        for suit in SUITS
    ]
    template = partial_of(request, "referee/trick.html", "referee")
    status = 422 if "error" in context else 200
    return render(request, template, context, status=status)
