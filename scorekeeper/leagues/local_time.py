"""A league's own time zone: every time its pages show is the time in
the room where it plays, not the server's."""

from __future__ import annotations

import zoneinfo
from contextlib import AbstractContextManager
from functools import lru_cache

from django.utils import timezone

from scorekeeper.leagues.models import League
from scorekeeper.leagues.services import LeagueError

# Offered as the field's suggestions (a datalist); any other zone this
# machine knows is typed (its name, or its city: "Denver", "new york").
COMMON_TIME_ZONES = (
    "America/Anchorage",
    "America/Chicago",
    "America/Denver",
    "America/Halifax",
    "America/Los_Angeles",
    "America/New_York",
    "America/Phoenix",
    "America/St_Johns",
    "America/Toronto",
    "America/Vancouver",
    "Australia/Sydney",
    "Europe/Amsterdam",
    "Europe/Berlin",
    "Europe/Dublin",
    "Europe/London",
    "Europe/Oslo",
    "Europe/Paris",
    "Pacific/Honolulu",
    "UTC",
)


@lru_cache(maxsize=1)
def time_zones() -> tuple[str, ...]:
    """The IANA time zones this machine knows, by name."""
    return tuple(sorted(zoneinfo.available_timezones()))


def find_time_zone(typed: str) -> str:
    """The zone ``typed`` names: its IANA name in any case, or its city
    ("paris", "New York"); refused in words when none or several match."""
    wanted = "_".join(typed.split()).casefold()
    if not wanted:
        raise LeagueError("type the time zone, e.g. Europe/Paris or Chicago")
    named = [zone for zone in time_zones() if zone.casefold() == wanted]
    found = named or [
        zone for zone in time_zones() if zone.casefold().rsplit("/", 1)[-1] == wanted
    ]
    if len(found) == 1:
        return found[0]
    if found:
        raise LeagueError(f"{typed.strip()} is in several zones: {', '.join(found)}")
    raise LeagueError(
        f"no time zone is called {typed.strip()}: type the zone's name, "
        "e.g. Europe/Paris, or its city, e.g. Chicago"
    )


def league_time_zone_set(*, league: League, zone: str) -> League:
    """Where the league plays: its pages show every time in ``zone`` (as
    ``find_time_zone`` reads it)."""
    league.time_zone = find_time_zone(zone)
    league.save(update_fields=["time_zone"])
    return league


def league_time(league: League) -> AbstractContextManager[None]:
    """Render inside this: times show in the league's zone (a zone this
    machine no longer knows falls back to the server's)."""
    zone = league.time_zone if league.time_zone in time_zones() else None
    return timezone.override(zone)
