"""A save's and a poll's answer carry the events after those the phone
says its copy holds (``X-Pepper-Have-Seq``), encoded as
``offline.json?after=N`` encodes them: the phone keeps its copy of the log
in step with no second request after every change."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.games import services
from scorekeeper.games.sharing import CARRIED_MAX
from scorekeeper.models import Game
from tests.conftest import join
from tests.records import HTMX, NOW, new_game

pytestmark = pytest.mark.django_db

HAND = {
    "bidder": "1",
    "bid": "1",
    "trump": "hearts",
    "outcome": "played",
    "action": "save",
}


def passed_out(game: Game, hands: int) -> None:
    for _ in range(hands):
        game.refresh_from_db()
        services.hand_pass_out(game=game, expected_seq=game.last_seq, now=NOW)
    game.refresh_from_db()


def save(client: Client, game: Game, held: int | None, **extra: str) -> Any:
    """The phone saves a hand by htmx, saying how many events it holds."""
    headers = dict(HTMX)
    if held is not None:
        headers["X-Pepper-Have-Seq"] = str(held)
    data = {**HAND, "taken": "3", "expected_seq": game.last_seq, **extra}
    data.setdefault("event_id", f"e{game.last_seq}")
    return client.post(f"/games/{game.pk}/hands", data, headers=headers)


def poll(client: Client, game: Game, seq: int, held: int | None) -> Any:
    headers = {} if held is None else {"X-Pepper-Have-Seq": str(held)}
    return client.get(f"/games/{game.pk}/poll", {"seq": seq}, headers=headers)


def carried(response: Any) -> Any:
    return json.loads(response.headers["X-Pepper-Events"])


def offline_after(client: Client, game: Game, after: int) -> Any:
    return json.loads(
        client.get(f"/games/{game.pk}/offline.json?after={after}").content
    )


@pytest.fixture
def game(client: Client) -> Game:
    """Three passed-out hands; the test client holds the edit link."""
    game = new_game()
    passed_out(game, 3)
    join(client, game)
    return game


def test_it_carries_the_saved_hand_as_offline_json_sends_it(
    client: Client, game: Game
) -> None:
    response = save(client, game, held=3)
    assert response.status_code == 200
    found = carried(response)
    assert found == offline_after(client, game, 3)
    log = json.loads(client.get(f"/games/{game.pk}/log.json").content)
    assert len(found["events"]) == 1 and found["events"] == log["events"][3:]
    assert found["events"][0]["tricks"] == [3, 3] and found["takeovers"] == []


def test_it_carries_what_another_phone_saved_meanwhile_too(
    client: Client, game: Game
) -> None:
    passed_out(game, 2)  # the other phone's; this phone still holds 3 events
    found = carried(save(client, game, held=3))
    assert found["after"] == 3 and len(found["events"]) == 3
    assert found == offline_after(client, game, 3)


def test_it_carries_nothing_when_the_phone_does_not_say_what_it_holds(
    client: Client, game: Game
) -> None:
    assert "X-Pepper-Events" not in save(client, game, held=None).headers
    for held in (99, "x", "²"):  # not this log: offline.json
        game.refresh_from_db()
        response = client.post(
            f"/games/{game.pk}/hands",
            {**HAND, "taken": "3", "expected_seq": game.last_seq, "event_id": held},
            headers={**HTMX, "X-Pepper-Have-Seq": str(held)},
        )
        assert response.status_code == 200
        assert "X-Pepper-Events" not in response.headers


def test_a_save_without_htmx_or_not_saved_carries_nothing(
    client: Client, game: Game
) -> None:
    data = {**HAND, "taken": "3", "expected_seq": game.last_seq, "event_id": "p"}
    headers = {"X-Pepper-Have-Seq": "3"}
    plain = client.post(f"/games/{game.pk}/hands", data, headers=headers)
    assert plain.status_code == 302 and "X-Pepper-Events" not in plain.headers
    stale = save(client, game, held=3)  # made before the hand just saved
    assert stale.status_code == 409 and "X-Pepper-Events" not in stale.headers
    game.refresh_from_db()
    refused = save(client, game, held=4, taken="9")  # more tricks than a hand has
    assert refused.status_code == 422 and "X-Pepper-Events" not in refused.headers


def test_a_name_beyond_latin_1_is_carried_in_ascii_escapes(
    client: Client, game: Game
) -> None:
    response = save(client, game, held=3, by="Łukasz 🂡")
    assert response.headers["X-Pepper-Events"].isascii()
    assert carried(response)["events"][0]["by"] == "Łukasz 🂡"


def test_a_phone_far_behind_is_carried_nothing_and_asks_offline_json(
    client: Client, game: Game
) -> None:
    passed_out(game, CARRIED_MAX // 40)  # a passed-out hand: ~70 characters
    assert "X-Pepper-Events" not in save(client, game, held=3).headers
    game.refresh_from_db()
    assert "X-Pepper-Events" in save(client, game, held=game.last_seq).headers


def test_the_save_makes_no_more_queries_for_what_it_carries(
    client: Client, game: Game
) -> None:
    save(client, game, held=None, event_id="warm")  # the kept choices and history
    game.refresh_from_db()
    counts = []
    for held in (None, game.last_seq + 1):
        with CaptureQueriesContext(connection) as queries:
            assert save(client, game, held=held).status_code == 200
        game.refresh_from_db()
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_poll_carries_what_changed_and_nothing_when_the_phone_holds_it(
    client: Client, game: Game
) -> None:
    changed = poll(client, game, seq=2, held=2)
    assert changed.status_code == 200
    assert carried(changed) == offline_after(client, game, 2)
    assert len(carried(changed)["events"]) == 1
    # Its copy already holds the latest (kept since the poll left): nothing.
    assert carried(poll(client, game, seq=2, held=3))["events"] == []
    assert "X-Pepper-Events" not in poll(client, game, seq=2, held=None).headers
    assert poll(client, game, seq=3, held=2).status_code == 204  # nothing new


def test_a_phone_holding_a_log_with_no_events_yet_is_carried_them_all(
    client: Client, game: Game
) -> None:
    found = carried(save(client, game, held=0))
    assert found["after"] == 0 and len(found["events"]) == 4
    log = json.loads(client.get(f"/games/{game.pk}/log.json").content)
    assert found["events"] == log["events"]
