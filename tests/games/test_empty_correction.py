"""Issue 33: on an open game too, a correction to what the hand already
reads is refused in a player's words and stores nothing; the same hand
corrected to anything else is stored as ever."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.test import Client

from scorekeeper.games import services
from scorekeeper.models import Game, GameEvent
from scorekeeper.recording import Refused
from scorekeeper.rules.events import HandRecorded
from tests.conftest import join
from tests.records import new_game, record_hands

pytestmark = pytest.mark.django_db


def _form(taken: int) -> dict[str, str | int]:
    """Hand 2 as it was recorded: Bob bids 2 in spades; his side took ``taken``."""
    return {
        "expected_seq": 2,
        "event_id": f"fix-{taken}",
        "bidder": "1",
        "bid": "2",
        "trump": "spades",
        "outcome": "played",
        "taken": str(taken),
        "by": "Eve",
        "action": "save",
    }


@pytest.fixture
def game(client: Client, now: datetime) -> Game:
    played = new_game()
    record_hands(played, now, (0, 3, "hearts", [6, 0]), (1, 2, "spades", [1, 5]))
    join(client, played)
    return played


def test_the_same_hand_again_is_refused_in_words_and_stores_nothing(
    client: Client, game: Game
) -> None:
    response = client.post(f"/games/{game.pk}/hands/2/correct", _form(5))
    page = response.content.decode()
    assert response.status_code == 422
    assert "Nothing to correct: hand 2 already reads so." in page
    assert "change what was wrong, or leave the hand as it is." in page
    assert "event 3" not in page
    assert GameEvent.objects.filter(game=game).count() == 2
    game.refresh_from_db()
    assert game.last_seq == 2


def test_a_real_correction_of_the_same_hand_is_stored(
    client: Client, game: Game
) -> None:
    response = client.post(f"/games/{game.pk}/hands/2/correct", _form(2))
    assert response.status_code == 302
    assert GameEvent.objects.filter(game=game).count() == 3


def test_the_service_refuses_it_with_the_engines_words(
    game: Game, now: datetime
) -> None:
    with pytest.raises(Refused, match="event 3: nothing to correct: hand event 2"):
        services.hand_correct(
            game=game,
            expected_seq=2,
            target=2,
            hand=HandRecorded(1, 2, "spades", (1, 5)),
            now=now,
        )
    assert GameEvent.objects.filter(game=game).count() == 2
