"""A league of nine players and its season (classic, 4 hands a game)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from scorekeeper.leagues import services
from scorekeeper.leagues.models import League, Season
from tests.leagues.nights import NAMES
from tests.records import NOW


@pytest.fixture
def organizer() -> User:
    return User.objects.create_user("org", password="a long passphrase")


@pytest.fixture
def league(organizer: User) -> League:
    found = services.league_create(name="Thursday", organizer=organizer, now=NOW)
    for name in NAMES:
        services.player_add(league=found, name=name)
    return found


@pytest.fixture
def season(league: League) -> Season:
    return services.season_create(
        league=league,
        name="Autumn",
        preset="classic",
        overrides={"hand_limit": 4},
        now=NOW,
    )
