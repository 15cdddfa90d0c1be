"""The series panel of a game page: which game of which series this is,
the series score, the series' winner once it is decided and, on a phone
that may edit, the one tap that starts the next game."""

from __future__ import annotations

import uuid
from typing import Any

from scorekeeper.models import Game, new_token
from scorekeeper.rules.series import next_first_dealer
from scorekeeper.rules.variants import find_variant
from scorekeeper.web import access

from .parts import game_url_of
from .series import series_of
from .series_words import game_title, rule_meaning, score_line, winner_line


def series_context(game: Game, *, role: access.Role) -> dict[str, Any]:
    """``{"series": ...}`` for a game of a series (two queries), else
    nothing (none). The next game's id and edit link are chosen here, with
    the form: the same tap sent twice starts one game."""
    state = series_of(game)
    if state is None:
        return {}
    number = state.number_of(game.pk)
    following = state.after(game.pk)
    game_url = game_url_of(game.pk)
    row = state.games[number - 1]  # read with the series: as it stands now
    may_start = (
        role == "edit"
        and row.finished
        and following is None
        and not state.standing.over
    )
    return {
        "series": {
            "title": game_title(state.rule, number),
            "meaning": rule_meaning(state.rule),
            "score": score_line(state.names, state.standing.wins),
            "winner": winner_line(state.names, state.standing),
            "may_start": may_start,
            "next_number": len(state.games) + 1,
            "next_dealer": _next_dealer(row) if may_start else "",
            "next_url": f"{game_url}next",
            "next_game_id": str(uuid.uuid4()) if may_start else "",
            "next_edit_token": new_token() if may_start else "",
            "following_url": ""
            if following is None
            else f"{game_url}series/{number + 1}",
            "following_number": number + 1,
            "recap_url": f"{game_url}recap",
            "export_url": f"{game_url}series.json",
        }
    }


def _next_dealer(game: Game) -> str:
    """Who deals first in the next game (the row counts the hands played)."""
    variant = find_variant(game.preset, len(game.seats))
    seat = next_first_dealer(variant, game.first_dealer, game.hands_played)
    return str(game.seats[seat])
