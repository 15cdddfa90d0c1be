"""The rules as pages: each preset's settings, where they come from, where
the seeds disagree, and worked examples scored by the engine itself (what
they say: ``rules_text``); a game's rules, and its hands under other rules
(what if)."""

from __future__ import annotations

from uuid import UUID

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scorekeeper.gamelog import LogError, game_variant, replay_log
from scorekeeper.models import Game
from scorekeeper.projections.boards import game_log
from scorekeeper.referee.whatif import what_if
from scorekeeper.refusals import sentence
from scorekeeper.rules.explain import explain_status
from scorekeeper.rules.variants import PRESETS, Variant, overrides_of
from scorekeeper.rules_text import (
    CARD_RULES,
    DISAGREEMENTS,
    examples,
    rule_lines,
    rung,
)
from scorekeeper.tablewords import hand_summary, whole_number
from scorekeeper.web import access


def _page(
    request: HttpRequest,
    variant: Variant,
    title: str,
    house: dict[str, object],
    game: Game | None = None,
) -> HttpResponse:
    context = {
        "title": title,
        "variant": variant,
        "rungs": [rung(variant, rule) for rule in variant.ladder],
        "lines": rule_lines(variant, house),
        "ladder_source": variant.cite("ladder"),
        "scoring_source": variant.cite("scoring"),
        "examples": examples(variant),
        "disagreements": DISAGREEMENTS,
        "house": house,
        "game": game,
        "seat_counts": sorted(PRESETS[variant.preset]),
    }
    return render(request, "referee/rules_detail.html", context)


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    presets = [
        (name, by_seats[4].description, sorted(by_seats))
        for name, by_seats in PRESETS.items()
    ]
    context = {"presets": presets, "card_rules": CARD_RULES}
    return render(request, "referee/rules_index.html", context)


@require_GET
def rules_detail(request: HttpRequest, preset: str) -> HttpResponse:
    by_seats = PRESETS.get(preset)
    if by_seats is None:
        raise Http404("no such preset")
    seats = whole_number(request.GET.get("seats", "")) or 4
    variant = by_seats.get(seats, by_seats[4])
    return _page(request, variant, f"The rules: {preset}", {})


@require_GET
def game_rules(request: HttpRequest, game_id: UUID) -> HttpResponse:
    game, _ = access.game_for(request, game_id)
    variant = game_variant(game.preset, len(game.seats), game.overrides)
    return _page(request, variant, "This game's rules", overrides_of(variant), game)


def _overrides_asked(request: HttpRequest) -> dict[str, object]:
    """House settings from the what-if form; the variant checks them."""
    asked: dict[str, object] = {}
    for key in ("target_score", "pepper_round_hands"):
        value = request.GET.get(key, "").strip()
        if value:
            number = whole_number(value)
            asked[key] = value if number is None else number
    for key in ("exact_tie", "both_reach"):
        if request.GET.get(key):
            asked[key] = request.GET[key]
    return asked


@require_GET
def game_what_if(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The game's hands under another preset or other house settings."""
    game, _ = access.game_for(request, game_id)
    board = replay_log(game_log(game))
    context: dict[str, object] = {
        "game": game,
        "board": board,
        "presets": list(PRESETS),
        "asked": request.GET,
        "real_status": explain_status(board),
    }
    preset = request.GET.get("preset", "")
    status = 200
    if preset:
        try:
            other = game_variant(preset, len(game.seats), _overrides_asked(request))
        except LogError as refused:
            context["error"] = sentence(refused.message)
            status = 422
        else:
            result = what_if(board, other)
            context["result"] = result
            context["other_status"] = explain_status(result.board)
            context["totals"] = list(
                zip(board.side_names, board.totals, result.board.totals, strict=True)
            )
            context["rows"] = [
                (compared, hand_summary(board.variant, board.seats, compared.real.hand))
                for compared in result.hands
            ]
    return render(request, "referee/what_if.html", context, status=status)
