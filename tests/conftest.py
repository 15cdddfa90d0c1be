from __future__ import annotations

from datetime import datetime

import pytest
from django.core.cache import cache
from django.test import Client

from scorekeeper.models import Game
from scorekeeper.web.rate_counts import counts
from tests.records import NOW, new_game


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Each test starts with an empty cache: the test database reuses ids,
    so a cached night of an earlier test could match a key of this one;
    and with no rate-limit counts."""
    cache.clear()
    counts().clear()


@pytest.fixture
def now() -> datetime:
    return NOW


def join(client: Client, game: Game, token: str | None = None) -> None:
    """The test client opens the game's edit link (or the token given)."""
    client.get(f"/join/{token or game.edit_token}")


@pytest.fixture
def moon_game(db: None, client: Client) -> Game:
    """Ann, Bob, Cat and Dan start a moon-42 game; Ann deals first; the
    test client holds its edit link."""
    game = new_game("moon-42")
    join(client, game)
    return game
