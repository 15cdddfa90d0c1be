from __future__ import annotations

from datetime import UTC, datetime

import pytest

from scorekeeper.models import Game
from scorekeeper.services import game_create

NOW = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)


@pytest.fixture
def now() -> datetime:
    return NOW


@pytest.fixture
def moon_game(db: None) -> Game:
    """Ann, Bob, Cat and Dan start a moon-42 game; Ann deals first."""
    return game_create(
        preset="moon-42", seats=["Ann", "Bob", "Cat", "Dan"], first_dealer=0, now=NOW
    )
