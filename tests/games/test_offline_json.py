"""What a phone keeps to score offline (``offline.json``): the log and the
seats' takeovers, and, for a phone already holding the log's first N
events, only the events after them (kept in step at the cost of what
changed, after every save and every change another phone made)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from scorekeeper.games import services
from tests.records import NOW, new_game

pytestmark = pytest.mark.django_db


def test_a_phone_holding_the_start_of_the_log_is_sent_only_what_is_new() -> None:
    game = new_game()
    for _ in range(3):
        game.refresh_from_db()
        services.hand_pass_out(game=game, expected_seq=game.last_seq, now=NOW)
    client = Client()
    client.get(f"/join/{game.edit_token}")
    url = f"/games/{game.pk}/offline.json"
    stored = json.loads(client.get(f"/games/{game.pk}/log.json").content)
    whole = json.loads(client.get(url).content)
    assert whole == {"log": stored, "takeovers": []}
    newer = json.loads(client.get(url, {"after": "1"}).content)
    assert newer == {"after": 1, "events": stored["events"][1:], "takeovers": []}
    assert json.loads(client.get(url, {"after": "3"}).content)["events"] == []
    for after in ("0", "4", "x", "²"):  # nothing held, or not this log: all of it
        assert json.loads(client.get(url, {"after": after}).content) == whole
