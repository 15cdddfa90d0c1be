"""The organizer's prize lists (a night's, a season's) and the league's
rule for ties: services, ``<entity>_<action>``. What the lines mean and
who takes each prize is the pure ``prizes`` module's."""

from __future__ import annotations

from scorekeeper.leagues.models import League, Night, Season
from scorekeeper.leagues.prizes import TIES, PrizeError, prize_lines
from scorekeeper.leagues.services import LeagueError


def _lines(text: str) -> list[str]:
    try:
        return prize_lines(text)
    except PrizeError as refused:
        raise LeagueError(refused.message) from None


def season_prizes_set(*, season: Season, text: str) -> None:
    """The season's prizes, one a line by place; blank: none."""
    season.prizes = _lines(text)
    season.save(update_fields=["prizes"])


def night_prizes_set(*, night: Night, text: str) -> None:
    """The night's prizes, one a line by place; blank: none."""
    night.prizes = _lines(text)
    night.save(update_fields=["prizes"])


def league_prize_ties_set(*, league: League, ties: str) -> None:
    if ties not in TIES:
        raise LeagueError("choose how tied players share the prizes")
    league.prize_ties = ties
    league.save(update_fields=["prize_ties"])
