"""A league's own time zone: every time its pages show is the time in
the room where it plays, not the server's."""

from __future__ import annotations

import zoneinfo
from contextlib import AbstractContextManager
from functools import lru_cache

from django.utils import timezone

from scorekeeper.leagues.models import League
from scorekeeper.leagues.services import LeagueError


@lru_cache(maxsize=1)
def time_zones() -> tuple[str, ...]:
    """The IANA time zones this machine knows, by name."""
    return tuple(sorted(zoneinfo.available_timezones()))


def league_time_zone_set(*, league: League, zone: str) -> League:
    """Where the league plays: its pages show every time in ``zone``."""
    if zone not in time_zones():
        raise LeagueError("choose a time zone from the list")
    league.time_zone = zone
    league.save(update_fields=["time_zone"])
    return league


def league_time(league: League) -> AbstractContextManager[None]:
    """Render inside this: times show in the league's zone (a zone this
    machine no longer knows falls back to the server's)."""
    zone = league.time_zone if league.time_zone in time_zones() else None
    return timezone.override(zone)
