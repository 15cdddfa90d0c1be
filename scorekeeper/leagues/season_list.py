"""The league's seasons as its page lists them, each with the rules its
games were played under: the season's own ("moon-42, 4 seats"), or, for
an imported season whose games mix presets and seat counts, the mix
("mixed rules: classic, moon-42; 2 to 4 seats"), never one preset claimed
for games played under others."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, TextField
from django.db.models.functions import Cast

from scorekeeper.leagues.models import League, Season, Table

Rules = tuple[str, int, str]  # preset, seats, house rules as JSON (keys sorted)


@dataclass(frozen=True)
class Listed:
    season: Season
    rules: str


def seasons_listed(league: League) -> list[Listed]:
    """The league's seasons, newest first, each with its rules line (two
    queries, whatever the number of games)."""
    played: defaultdict[int, set[Rules]] = defaultdict(set)
    tables = (
        Table.objects.filter(round__night__season__league=league)
        .annotate(players=Count("seats"), house=Cast("game__overrides", TextField()))
        .values_list("round__night__season", "game__preset", "players", "house")
        .distinct()
    )
    for season, preset, seats, house in tables:
        played[season].add((preset, seats, _sorted(json.loads(house))))
    return [
        Listed(season, rules_line(season, played[season.pk]))
        for season in league.seasons.order_by("-created_at")
    ]


def rules_line(season: Season, played: Iterable[Rules]) -> str:
    """The season's rules in a few words: its own while no game was played
    under others, the games' own when they all share one, else the presets
    and seat counts its games mix."""
    kinds = set(played)
    if len(kinds) <= 1:
        own = (season.preset, season.seats, _sorted(season.overrides))
        preset, seats, house = kinds.pop() if kinds else own
        limit = json.loads(house).get("hand_limit")
        return f"{preset}, {seats} seats" + (f", {limit} hands a game" if limit else "")
    presets = ", ".join(sorted({preset for preset, _, _ in kinds}))
    fewest, most = min(s for _, s, _ in kinds), max(s for _, s, _ in kinds)
    counts = f"{fewest} seats" if fewest == most else f"{fewest} to {most} seats"
    houses = {house for _, _, house in kinds}
    return f"mixed rules: {presets}; {counts}" + (
        "; house rules vary" if len(houses) > 1 else ""
    )


def _sorted(house: object) -> str:
    return json.dumps(house, sort_keys=True)
