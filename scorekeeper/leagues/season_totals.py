"""What a season's page adds up over its nights besides the standings:
every player's feats joined night after night (the awards), each night's
points (the standings race) and the rules its games were played under.

A change lands on the season's latest night nearly always (tonight's
tables), so the nights before it are folded once and kept in the cache
under their versions: the first view after a change joins one night to
them instead of every night of the season (50 nights of 80 players: 4,000
feats joined again, and every night's summary read back).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field

from django.core.cache import cache

from scorekeeper.leagues.awards import Feats, joined
from scorekeeper.leagues.models import Night, Season
from scorekeeper.leagues.night_rows import NightSummary
from scorekeeper.leagues.results import SeasonNights

RulesPlayed = Counter[tuple[str, int, str]]  # (preset, seats, house rules): games


@dataclass(frozen=True)
class SeasonTotals:
    """Player ids, not names (they are put in when the page is shown)."""

    feats: dict[str, Feats] = field(default_factory=dict)
    # Per night with a finished game (date order): each player's points.
    points: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    rules: RulesPlayed = field(default_factory=Counter)

    def then(self, day: str, summary: NightSummary) -> SeasonTotals:
        """These totals with one more night's."""
        points = self.points
        if summary.tallies:
            tallies = summary.tallies.items()
            points = [*points, (day, {pid: t.points for pid, t in tallies})]
        return SeasonTotals(
            joined([self.feats, summary.feats]),
            points,
            self.rules + Counter(summary.rules),
        )


def season_totals(season: Season, nights: SeasonNights) -> SeasonTotals:
    """The season's totals: those of the nights before its latest night
    with tables (kept in the cache under their versions), then that
    night's (the nights after it have no tables: nothing to add)."""
    played = [night for night in nights.nights if _has_tables(nights, night)]
    if not played:
        return SeasonTotals()
    *earlier, latest = played
    marks = ",".join(f"{night.pk}={nights.versions[night.pk]}" for night in earlier)
    digest = hashlib.sha256(marks.encode()).hexdigest()[:32]
    key = f"season:totals:{season.pk}:{digest}"
    before: SeasonTotals | None = cache.get(key)
    if before is not None:
        [(day, summary)] = nights.summaries([latest])
        return before.then(day, summary)
    before = SeasonTotals()  # every night read at once: two queries
    *summaries, (day, summary) = nights.summaries(played)
    for earlier_day, earlier_summary in summaries:
        before = before.then(earlier_day, earlier_summary)
    cache.set(key, before, timeout=None)
    return before.then(day, summary)


def _has_tables(nights: SeasonNights, night: Night) -> bool:
    """Its kept version is "revision:" and nothing after for a night
    without tables (``night_rows.night_versions``)."""
    return not nights.versions[night.pk].endswith(":")
