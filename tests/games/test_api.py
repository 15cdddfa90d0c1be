"""The JSON API: every status, and many clients appending at once."""

from __future__ import annotations

import json
import random
import threading
import time
from datetime import datetime
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from scorekeeper.models import Game, GameEvent
from tests.records import new_game


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def send(client: Client, game: Game, token: str, **body: Any) -> Any:
    return client.post(
        f"/api/games/{game.pk}/events",
        json.dumps(body),
        content_type="application/json",
        headers=bearer(token),
    )


HAND = {"type": "hand", "bidder": 1, "bid": 4, "trump": "hearts", "tricks": [1, 5]}


def test_the_edit_token_appends_and_gets_the_new_scoreboard(
    client: Client, moon_game: Game
) -> None:
    response = send(
        client,
        moon_game,
        moon_game.edit_token,
        expected_seq=0,
        id="a1",
        by="Ann",
        **HAND,
    )
    assert response.status_code == 201
    standing = response.json()
    assert (standing["seq"], standing["totals"], standing["status"]) == (
        1,
        [1, 4],
        "in-progress",
    )
    assert standing["hand"]["deltas"] == [1, 4] and "score" not in standing
    assert standing["next"]["hand"] == 2
    stored = GameEvent.objects.get().payload
    assert (stored["id"], stored["by"], stored["tricks"]) == ("a1", "Ann", [1, 5])


def test_either_token_reads_the_scoreboard(client: Client, moon_game: Game) -> None:
    send(client, moon_game, moon_game.edit_token, expected_seq=0, id="a1", **HAND)
    for token in (moon_game.edit_token, moon_game.view_token):
        response = client.get(f"/api/games/{moon_game.pk}", headers=bearer(token))
        assert response.status_code == 200 and response.json()["totals"] == [1, 4]


@pytest.mark.parametrize(
    "headers", [{}, bearer("not-a-token"), {"Authorization": "Basic abc"}]
)
def test_no_valid_token_is_401(
    client: Client, moon_game: Game, headers: dict[str, str]
) -> None:
    read = client.get(f"/api/games/{moon_game.pk}", headers=headers)
    write = client.post(
        f"/api/games/{moon_game.pk}/events",
        "{}",
        content_type="application/json",
        headers=headers,
    )
    assert (read.status_code, write.status_code) == (401, 401)
    assert write["WWW-Authenticate"].startswith("Bearer")


def test_the_read_only_token_cannot_append(client: Client, moon_game: Game) -> None:
    response = send(
        client, moon_game, moon_game.view_token, expected_seq=0, id="a1", **HAND
    )
    assert response.status_code == 403
    assert GameEvent.objects.count() == 0


def test_a_stale_expected_seq_is_409_with_the_current_scoreboard(
    client: Client, moon_game: Game
) -> None:
    send(client, moon_game, moon_game.edit_token, expected_seq=0, id="a1", **HAND)
    response = send(
        client, moon_game, moon_game.edit_token, expected_seq=0, id="b1", **HAND
    )
    assert response.status_code == 409
    assert response.json()["current_seq"] == 1 and response.json()["totals"] == [1, 4]


def test_the_whole_scoreboard_comes_only_when_asked_for(
    client: Client, moon_game: Game
) -> None:
    response = client.post(
        f"/api/games/{moon_game.pk}/events?board=full",
        json.dumps({"expected_seq": 0, "id": "a1", **HAND}),
        content_type="application/json",
        headers=bearer(moon_game.edit_token),
    )
    score = response.json()["score"]
    assert (score["format"], score["seq"], len(score["hands"])) == (
        "pepper-score",
        1,
        1,
    )


def test_an_id_reused_for_a_different_hand_is_409_naming_the_id(
    client: Client, moon_game: Game
) -> None:
    send(client, moon_game, moon_game.edit_token, expected_seq=0, id="a1", **HAND)
    other = {**HAND, "tricks": [3, 3]}
    response = send(
        client, moon_game, moon_game.edit_token, expected_seq=1, id="a1", **other
    )
    assert response.status_code == 409
    assert "'a1' is already used by event 1" in response.json()["error"]
    assert GameEvent.objects.count() == 1


def test_an_illegal_event_is_422_with_the_engines_message(
    client: Client, moon_game: Game
) -> None:
    clubs = {
        "type": "hand",
        "bidder": 1,
        "bid": 4,
        "trump": "clubs",
        "conceded": {"free_tricks": 0},
    }
    response = send(
        client, moon_game, moon_game.edit_token, expected_seq=0, id="c1", **clubs
    )
    assert response.status_code == 422
    assert response.json()["error"] == (
        "event 1: with clubs trump the defenders must play the hand (seed 001 §3.4)"
    )
    assert GameEvent.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('"hand"', "the body must be a JSON object"),
        ("{not json", "the body must be a JSON object"),
        (json.dumps({**HAND, "id": "x"}), '"expected_seq" must be'),
        (json.dumps({**HAND, "expected_seq": 0}), '"id" is needed'),
        (
            json.dumps({"type": "deal", "expected_seq": 0, "id": "x"}),
            'event 1: "type" must be',
        ),
    ],
)
def test_a_malformed_request_is_422(
    client: Client, moon_game: Game, body: str, message: str
) -> None:
    response = client.post(
        f"/api/games/{moon_game.pk}/events",
        body,
        content_type="application/json",
        headers=bearer(moon_game.edit_token),
    )
    assert response.status_code == 422 and response.json()["error"].startswith(message)


def test_a_repeated_id_is_201_again_and_stored_once(
    client: Client, moon_game: Game
) -> None:
    first = send(
        client, moon_game, moon_game.edit_token, expected_seq=0, id="same", **HAND
    )
    again = send(
        client, moon_game, moon_game.edit_token, expected_seq=0, id="same", **HAND
    )
    assert (again.status_code, again.json()) == (201, first.json())
    assert GameEvent.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_8_clients_x_20_appends_with_retries_lose_and_double_nothing(
    now: datetime,
) -> None:
    game = new_game()
    token = game.edit_token
    barrier = threading.Barrier(8)

    def client_work(index: int) -> None:
        client = Client()
        try:
            barrier.wait()
            for number in range(20):
                event_id = f"c{index}-{number}"
                answered = False
                while not answered:
                    seen = client.get(
                        f"/api/games/{game.pk}", headers=bearer(token)
                    ).json()["seq"]
                    body = {"type": "hand", "passed_out": True, "id": event_id}
                    response = send(client, game, token, expected_seq=seen, **body)
                    if response.status_code == 201 and number % 5 == 0:
                        # As if the answer were lost: the queue sends it again.
                        again = send(client, game, token, expected_seq=seen, **body)
                        assert (
                            again.status_code == 201 and again.json() == response.json()
                        )
                    answered = response.status_code == 201
                    if not answered:
                        assert response.status_code in (409, 503), response.content
                        time.sleep(random.uniform(0, 0.004))
        finally:
            connection.close()

    threads = [threading.Thread(target=client_work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rows = GameEvent.objects.filter(game=game)
    assert sorted(rows.values_list("seq", flat=True)) == list(range(1, 161))
    assert len(set(rows.values_list("event_id", flat=True))) == 160
