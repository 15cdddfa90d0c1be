"""What the home page and the new-game form show: this browser's games,
each from its row's summary, and the house settings a new game may change.

Plain data for templates: no queries here, no rules decided here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from scorekeeper.house_rules import SETTINGS, Setting, bid_choices, preset_values
from scorekeeper.models import Game
from scorekeeper.rules.engine import side_names
from scorekeeper.rules.variants import find_variant
from scorekeeper.tablewords import signed

from .series import SeriesState
from .series_words import game_title, score_line, winner_line


@dataclass(frozen=True)
class GameCard:
    """A game in the list of games: its name or players, when it started,
    the score and whether it is over (from the game row's summary)."""

    game_id: object
    title: str
    players: str
    preset: str
    started: datetime
    hands: int
    score: str
    finished: bool
    series: str = ""  # "Best of 3 · game 2 · Ann & Cat 1 – Bob & Dan 0"


def game_card(game: Game, series: SeriesState | None = None) -> GameCard:
    seats = tuple(game.seats)
    names = side_names(find_variant(game.preset, len(seats)), seats)
    totals = list(game.totals) or [0] * len(names)
    score = " – ".join(
        f"{name} {signed(total)}" for name, total in zip(names, totals, strict=False)
    )
    players = ", ".join(seats)
    return GameCard(
        game.pk,
        game.name or players,
        players if game.name else "",
        game.preset,
        game.created_at,
        game.hands_played,
        score,
        game.finished,
        "" if series is None else series_line(game, series),
    )


def series_line(game: Game, state: SeriesState) -> str:
    """The game's place in its series, and the series' score or winner."""
    title = game_title(state.rule, state.number_of(game.pk))
    standing = winner_line(state.names, state.standing) or score_line(
        state.names, state.standing.wins
    )
    return f"{title} · {standing}"


@dataclass(frozen=True)
class HouseField:
    """One house setting on /games/new: its meaning, what was entered, each
    preset's own value (the page's script fills the chosen one in)."""

    setting: Setting
    value: str
    choices: list[tuple[str, str, str]]
    defaults_json: str
    placeholder: str


def house_fields(data: Mapping[str, object]) -> list[HouseField]:
    fields = []
    for setting in SETTINGS:
        defaults = preset_values(setting.key)
        if setting.kind == "yes-no":
            choices = [("yes", "yes", ""), ("no", "no", "")]
        elif setting.kind == "bid":
            choices = bid_choices()
        else:
            choices = [(value, label, "") for value, label in setting.choices]
        shown = ", ".join(
            f"{name} " + " or ".join(dict.fromkeys(v or "none" for v in seats.values()))
            for name, seats in defaults.items()
        )
        fields.append(
            HouseField(
                setting,
                str(data.get(setting.key, "") or ""),
                choices,
                json.dumps(defaults),
                f"as the rules say ({shown})",
            )
        )
    return fields
