"""Fixtures of the games' tests shared by several modules."""

from __future__ import annotations

import pytest

from scorekeeper.models import Game
from tests.records import new_game


@pytest.fixture
def classic(db: None) -> Game:
    """Ann, Bob, Cat and Dan at classic; Ann deals, Bob calls first."""
    return new_game("classic")
