"""The recap page in the table's words: each player's line, the biggest
swing, the hand that decided it, the awards with the rule behind each, the
chart, and the series the game is part of. The numbers come from
``projections.recap`` (the engine's replay and the rows' seat numbers);
this module only names and words them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper import tablewords
from scorekeeper.gamelog import GameLog
from scorekeeper.games import fragments, presenters
from scorekeeper.models import Game
from scorekeeper.projections.recap import (
    Award,
    AwardKind,
    PlayerLine,
    added,
    game_recap,
    player_lines,
    recap_awards,
)
from scorekeeper.rules.engine import HandResult, Scoreboard
from scorekeeper.rules.variants import Variant, find_variant
from scorekeeper.seatstats import no_stats
from scorekeeper.tablewords import bid_label, signed

from .parts import game_url_of
from .series import SeriesState
from .series_words import rule_label, rule_meaning, score_line, winner_line

AWARD_TITLES = {
    AwardKind.MOON_SHOOTER: "Moon shooter",
    AwardKind.SURE_HAND: "Sure hand",
    AwardKind.BRICK_WALL: "Brick wall",
    AwardKind.PEPPER_PROOF: "Pepper-proof",
}


def award_rule(kind: AwardKind, variant: Variant) -> str:
    """The rule that gives an award, as the page prints it beside it."""
    if kind is AwardKind.MOON_SHOOTER:
        return f"made a {top_words(variant)}"
    if kind is AwardKind.SURE_HAND:
        return "made the most bids"
    if kind is AwardKind.BRICK_WALL:
        return "set the bidders the most times, defending"
    return "made every pepper-round bid they had"


def top_words(variant: Variant) -> str:
    """The ladder's top bids: "moon or double moon", "big pepper"."""
    tops = [
        bid_label(call) for call, kind in variant.rungs if kind in ("top", "double-top")
    ]
    return " or ".join(tops)


def recap_context(
    game: Game, log: GameLog, board: Scoreboard, state: SeriesState | None
) -> dict[str, Any]:
    """What the recap page shows of ``game`` (``board``: its replay, named
    by who plays now) and of its series."""
    recap = game_recap(board)
    game_url = game_url_of(game.pk)
    return {
        "game": game,
        "game_url": game_url,
        "board": board,
        "finished": board.finished,
        "sides": presenters.score_boxes(board),
        "status_line": presenters.status(board) if board.finished else "",
        "status_rule": presenters.status_rule(board) if board.finished else "",
        "leaders": "" if board.finished else presenters.leaders_line(board),
        "top_words": top_words(board.variant),
        "pepper": board.variant.pepper_round_hands > 0
        or any(line.pepper_bids for line in recap.players),
        "players": _player_rows(board.seats, recap.players),
        "swing": _hand_words(board, recap.swing),
        "deciding": _hand_words(board, recap.deciding),
        "decided_by_end": board.decided == "ended",
        "awards": _award_rows(board.variant, board.seats, recap.awards),
        "chart_html": fragments.chart_html(game_url, board, len(log.entries)),
        "series": None if state is None else _series_words(game, state),
    }


def _player_rows(
    names: Sequence[str], lines: Sequence[PlayerLine]
) -> list[dict[str, object]]:
    return [
        {
            "name": names[line.seat],
            "bids": line.bids,
            "made": line.made,
            "set": line.set,
            "tops": f"{line.top_made} of {line.top_bids}" if line.top_bids else "–",
            "pepper": f"{line.pepper_made} of {line.pepper_bids}"
            if line.pepper_bids
            else "–",
            "defended": line.sets,
        }
        for line in lines
    ]


def _hand_words(board: Scoreboard, result: HandResult | None) -> dict[str, str] | None:
    """A hand as the recap tells it: "Hand 7 · Bob bid 4 ♥, took 6 ·
    Ann & Cat −8, Bob & Dan +8"."""
    if result is None:
        return None
    row = tablewords.hand_row(board, result)
    points = ", ".join(
        f"{name} {delta}"
        for name, delta in zip(board.side_names, row["deltas"], strict=True)
    )
    return {
        "number": str(result.number),
        "summary": row["summary"],
        "points": points,
        "totals": row["totals"],
        "explanation": row["explanation"],
    }


def _award_rows(
    variant: Variant, names: Sequence[str], awards: Sequence[Award]
) -> list[dict[str, str]]:
    return [
        {
            "title": AWARD_TITLES[award.kind],
            "rule": award_rule(award.kind, variant),
            "who": _listed([names[seat] for seat in award.seats]),
        }
        for award in awards
    ]


def _series_words(game: Game, state: SeriesState) -> dict[str, Any]:
    """The series on the recap: the rule, where it stands or who won it,
    each game, and each player's series (from the rows' seat numbers)."""
    first = state.games[0]
    variant = find_variant(first.preset, len(first.seats))
    lines = added(
        [
            player_lines(variant, row.seat_stats or no_stats(variant))
            for row in state.games
        ]
    )
    game_url = game_url_of(game.pk)
    return {
        "title": rule_label(state.rule),
        "meaning": rule_meaning(state.rule),
        "score": score_line(state.names, state.standing.wins),
        "winner": winner_line(state.names, state.standing),
        "games": [
            {
                "number": number,
                "line": _game_line(state.names, row),
                "current": row.pk == game.pk,
                "url": f"{game_url}series/{number}",
            }
            for number, row in enumerate(state.games, 1)
        ],
        "players": _player_rows(first.seats, lines),
        "awards": _award_rows(variant, first.seats, recap_awards(lines)),
    }


def _game_line(names: Sequence[str], row: Game) -> str:
    """ "Ann & Cat 52 – Bob & Dan 38: Ann & Cat won"."""
    totals = list(row.totals) or [0] * len(names)
    score = " – ".join(
        f"{name} {signed(total)}" for name, total in zip(names, totals, strict=True)
    )
    if not row.finished:
        return f"{score}: being played"
    return f"{score}: {_listed([names[side] for side in row.winners])} won"


def _listed(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]
