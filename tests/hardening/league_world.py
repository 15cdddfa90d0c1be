"""The world the hardening tests act in, and the routes they try: an
organizer signed in, their league of nine players and its season; the
league's URL names (actions and pages that only read) and every route of
the site."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import League, Night, Season
from scorekeeper.models import Game
from tests.leagues.nights import play_hand, progressive_night
from tests.records import NOW

PASSWORD = "pepper on thursdays"
# The league's URLs that only read (GET): every other one is an action.
READ_ONLY = {
    "player",
    "season_export",
    "season_standings_csv",
    "season_changes_csv",
    "season_hands_csv",
    "public_standings",
    "public_night",
    "rules_sheet",
    "night",
    "night_standings_csv",
    "sheet",
    "desk",
    "night_tv",
    "score_card",
    "score_cards",
    "card_entry",
    "tv_by_link",
    "checkin_sheet",
    "my_night",
    "movement_card",
}


def league_url_names() -> set[str]:
    """The names of the URL patterns in scorekeeper/leagues/urls.py."""
    from scorekeeper.leagues import urls

    return {p.name for p in urls.urlpatterns if isinstance(p, URLPattern) and p.name}


def league_actions() -> set[str]:
    return league_url_names() - READ_ONLY


@dataclass
class World:
    """An organizer signed in on ``client``, their league of nine players
    and its season (classic, 4 hands a game)."""

    client: Client
    organizer: User
    league: League
    season: Season
    spare: int = 0  # another season's id (one to delete)

    def night(self, *, fixed: bool = False) -> Night:
        if not fixed:
            return progressive_night(self.season, date(2026, 11, 19))
        season = services.season_create(
            league=self.league, name="Six", preset="bid-euchre", seats=6, now=NOW
        )
        night = services.night_create(
            season=season, day=date(2026, 11, 20), format=Night.FIXED, now=NOW
        )
        for player in self.league.players.all()[:6]:
            services.check_in(night=night, player=player, now=NOW)
        return night

    def playing_night(self) -> Night:
        """A night whose round 1 has a hand at every table."""
        night = self.night()
        rounds.round_start(night=night, rng=random.Random(3), now=NOW)
        for game in Game.objects.filter(table__round__night=night):
            play_hand(game)
        return night


def make_world() -> World:
    organizer = User.objects.create_user("org", password=PASSWORD)
    league = services.league_create(name="Thursday", organizer=organizer, now=NOW)
    for name in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"):
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league,
        name="Autumn",
        preset="classic",
        overrides={"hand_limit": 4},
        now=NOW,
    )
    client = Client()
    client.force_login(organizer)
    return World(client, organizer, league, season)


def url_of(name: str, **kwargs: Any) -> str:
    return reverse(name, kwargs=kwargs)


def every_route() -> list[tuple[str, str]]:
    """(route, name) of every URL pattern of the site."""
    found: list[tuple[str, str]] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLPattern):
                found.append((route, pattern.name or ""))
            else:
                walk(pattern.url_patterns, route)

    walk(get_resolver().url_patterns, "")
    return found
