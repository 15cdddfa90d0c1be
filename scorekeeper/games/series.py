"""A series as the pages read it: its rule, its games' rows in order and
where it stands (``rules.series`` counts the winners each game's row
keeps). Two queries for a game of a series, none for any other game
(its row says it has no series)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import takewhile
from uuid import UUID

from scorekeeper.models import Game
from scorekeeper.rules.engine import side_names
from scorekeeper.rules.series import (
    SeriesRule,
    SeriesStanding,
    series_rule,
    series_standing,
)
from scorekeeper.rules.variants import find_variant

from .models import Series


@dataclass(frozen=True)
class SeriesState:
    """A series, its games (rows, in the order they were started) and
    where it stands after those that are finished."""

    series: Series
    rule: SeriesRule
    games: tuple[Game, ...]
    names: tuple[str, ...]  # the sides' names, the same in every game
    standing: SeriesStanding

    def number_of(self, game_id: UUID) -> int:
        """The game's number in the series (1 for the first)."""
        return next(n for n, game in enumerate(self.games, 1) if game.pk == game_id)

    def after(self, game_id: UUID) -> Game | None:
        """The game started after this one, if any."""
        number = self.number_of(game_id)
        return self.games[number] if number < len(self.games) else None

    @property
    def last(self) -> Game:
        return self.games[-1]


def series_of(game: Game) -> SeriesState | None:
    """The series ``game`` is one game of (None: it is a game of its own)."""
    if game.series_id is None:
        return None
    series = Series.objects.filter(pk=game.series_id).first()
    if series is None:
        return None
    rows = Game.objects.filter(series_id=series.pk)
    return state_of(series, rows)


def series_states(ids: Iterable[UUID]) -> dict[UUID, SeriesState]:
    """Several series by id (the home page's list), in two queries."""
    wanted = set(ids)
    if not wanted:
        return {}
    rows: dict[UUID, list[Game]] = {key: [] for key in wanted}
    for row in Game.objects.filter(series_id__in=wanted):
        rows[row.series_id].append(row)  # type: ignore[index]
    return {
        series.pk: state_of(series, rows[series.pk])
        for series in Series.objects.filter(pk__in=wanted)
        if rows[series.pk]
    }


def state_of(series: Series, rows: Iterable[Game]) -> SeriesState:
    """The series from its row and its games' rows (in any order)."""
    by_id = {row.pk.hex: row for row in rows}
    games = tuple(by_id[key] for key in series.games if key in by_id)
    first = games[0]
    variant = find_variant(first.preset, len(first.seats))
    rule = series_rule(series.rule)
    return SeriesState(
        series,
        rule,
        games,
        side_names(variant, first.seats),
        series_standing(rule, variant.sides, finished_winners(games)),
    )


def finished_winners(games: Sequence[Game]) -> list[tuple[int, ...]]:
    """Each finished game's winners, in order, up to the first game still
    being played (a series counts its games in the order they were played)."""
    return [tuple(game.winners) for game in takewhile(lambda g: g.finished, games)]
