"""Issue "Hardening" 1-3, 9-13: no input answers 5xx, and nothing a
database would refuse reaches it (SQLite and PostgreSQL store the same)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client

from scorekeeper.gamelog import NAME_LIMIT
from scorekeeper.games import services
from scorekeeper.models import Game, GameEvent
from tests.conftest import join
from tests.games.test_api import HAND, bearer, send
from tests.records import MOON_HAND_1, new_game


@pytest.mark.parametrize("name", ["Łukasz", "Дима", "李"])
def test_a_name_outside_latin_1_is_remembered_without_a_server_error(
    client: Client, moon_game: Game, name: str
) -> None:
    response = client.post(f"/games/{moon_game.pk}/hands", {**MOON_HAND_1, "by": name})
    assert response.status_code == 302
    response.serialize_headers()  # what a WSGI server sends: Latin-1 only
    assert response.cookies["pepper_by"].value.isascii()
    assert GameEvent.objects.get().recorded_by == name
    page = client.get(f"/games/{moon_game.pk}/").content.decode()
    assert f'value="{name}"' in page


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"id": "x" * 65}, '"id" is longer than 64 characters'),
        ({"id": "a\x00b"}, '"id" holds a control character'),
        ({"note": "a\x00b"}, '"note" holds a control character'),
        ({"by": "B" * 61}, '"by" is longer than 60 characters'),
        ({"by": "Ann\x00"}, '"by" holds a control character'),
        ({"note": "n" * 501}, '"note" is longer than 500 characters'),
        ({"note": "\ud800"}, '"note" holds a broken character'),
        ({"at": "9999-12-31T23:59:59-23:59"}, '"at" is out of the range'),
    ],
)
def test_text_a_database_would_refuse_is_refused_first_by_the_api(
    client: Client, moon_game: Game, change: dict[str, str], words: str
) -> None:
    body = {"expected_seq": 0, "id": "a1", **HAND, **change}
    response = client.post(
        f"/api/games/{moon_game.pk}/events",
        json.dumps(body),  # a lone surrogate travels as a \\ud800 escape
        content_type="application/json",
        headers=bearer(moon_game.edit_token),
    )
    assert response.status_code == 422
    assert words in response.json()["error"]
    assert GameEvent.objects.count() == 0


@pytest.mark.parametrize(
    ("seats", "event"),
    [
        (["Ann\x00", "Bob", "Cat", "Dan"], {}),
        (["Ann", "Bob", "Cat", "D" * (NAME_LIMIT + 1)], {}),
        (["Ann", "Bob", "Cat", "Dan"], {"note": "\ud800"}),
        (["Ann", "Bob", "Cat", "Dan"], {"at": "9999-12-31T23:59:59-23:59"}),
    ],
)
def test_an_import_a_database_would_refuse_is_refused_whole(
    client: Client, db: None, seats: list[str], event: dict[str, str]
) -> None:
    log = {
        "format": "pepper-log",
        "version": 1,
        "variant": "moon-42",
        "seats": seats,
        "first_dealer": 0,
        "events": [{**HAND, **event}],
    }
    response = client.post("/games/import", {"text": json.dumps(log)})
    assert response.status_code == 422
    assert Game.objects.count() == 0


@pytest.mark.parametrize("digit", ["²", "٣", "𝟙"])
def test_unicode_digits_are_refused_not_crashed_on(
    client: Client, moon_game: Game, digit: str
) -> None:
    game_url = f"/games/{moon_game.pk}/"
    new = {"preset": "classic", "seat_0": "A", "first_dealer": digit}  # one seat
    assert client.post("/games/new", new).status_code == 422
    for field in ("bid", "auction"):
        posted = client.post(f"{game_url}hands", {**MOON_HAND_1, field: digit})
        assert posted.status_code == 422, field
    assert client.get(f"{game_url}?after={digit}").status_code == 200
    what_if = client.get(f"{game_url}what-if?preset=classic&target_score={digit}")
    assert what_if.status_code == 422
    assert client.get(f"/rules/classic/?seats={digit}").status_code == 200
    # read as "nothing seen yet": a game still at event 0 has nothing new
    assert client.get(f"{game_url}poll?seq={digit}").status_code == 204
    assert GameEvent.objects.count() == 0


def test_json_nested_a_hundred_thousand_deep_is_refused_in_words(
    client: Client, moon_game: Game
) -> None:
    deep = "[" * 30_000 + "]" * 30_000  # under the API's 64 kB
    api = client.post(
        f"/api/games/{moon_game.pk}/events",
        deep,
        content_type="application/json",
        headers=bearer(moon_game.edit_token),
    )
    assert api.status_code == 422 and "nested too deeply" in api.json()["error"]
    verify = client.post("/verify", {"text": deep})
    assert verify.status_code == 422 and "nested too deeply" in verify.content.decode()


def test_a_bearer_token_outside_ascii_is_401_not_a_crash(
    client: Client, moon_game: Game
) -> None:
    response = client.get(f"/api/games/{moon_game.pk}", headers=bearer("café"))
    assert response.status_code == 401


def _disk_full(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
) -> Any:
    """The database refuses every INSERT, however the app builds it."""
    if sql.lstrip().upper().startswith("INSERT"):
        raise OperationalError("database or disk is full")
    return execute(sql, params, many, context)


def test_a_database_fault_during_a_save_is_503_and_keeps_the_form(
    client: Client, moon_game: Game
) -> None:
    with connection.execute_wrapper(_disk_full):
        page = client.post(f"/games/{moon_game.pk}/hands", {**MOON_HAND_1, "by": "Ann"})
        api = send(
            client, moon_game, moon_game.edit_token, expected_seq=0, id="a", **HAND
        )
    assert page.status_code == 503 and page["Retry-After"]
    text = page.content.decode()
    assert "nothing was saved" in text and 'value="Ann"' in text
    assert api.status_code == 503 and api["Retry-After"]
    assert "busy" in api.json()["error"]
    assert not GameEvent.objects.filter(game=moon_game).exists()


def test_a_database_fault_elsewhere_is_503_in_words(
    client: Client, moon_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(services, "game_links_replace", broken)
    response = client.post(f"/games/{moon_game.pk}/links/replace")
    assert response.status_code == 503 and response["Retry-After"]
    assert "not answering" in response.content.decode()


def test_a_ten_megabyte_api_body_is_413_in_json(
    client: Client, moon_game: Game
) -> None:
    body = json.dumps({"expected_seq": 0, "id": "a", **HAND, "note": "n" * 10**7})
    response = client.post(
        f"/api/games/{moon_game.pk}/events",
        body,
        content_type="application/json",
        headers=bearer(moon_game.edit_token),
    )
    assert response.status_code == 413 and "too large" in response.json()["error"]


def test_a_pasted_log_over_the_body_limit_is_413_in_words(
    client: Client, db: None
) -> None:
    response = client.post("/games/import", {"text": "x" * 2_600_000})
    assert response.status_code == 413
    assert "too large" in response.content.decode()


def test_an_upload_over_a_megabyte_says_so_not_invalid_json(
    client: Client, db: None
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("big.json", b"{" + b" " * 1_000_000 + b"}")
    response = client.post("/games/import", {"upload": upload})
    text = response.content.decode()
    assert response.status_code == 422 and "larger than 1 MB" in text
    assert "not valid JSON" not in text


def test_a_void_form_with_bad_fields_says_what_is_wrong(
    client: Client, db: None
) -> None:
    game = new_game("moon-42")
    join(client, game)
    send(client, game, game.edit_token, expected_seq=0, id="a", **HAND)
    response = client.post(
        f"/games/{game.pk}/hands/1/void",
        {"expected_seq": "x", "event_id": "v1", "reason": "r" * 300},
    )
    text = response.content.decode()
    assert response.status_code == 422
    assert "The reason" in text and "Nothing was voided" in text
    assert GameEvent.objects.filter(type="void").count() == 0


def test_a_join_link_redirects_at_once_to_a_url_without_the_token(
    client: Client, moon_game: Game
) -> None:
    response = client.get(f"/join/{moon_game.view_token}")
    assert response.status_code == 302
    assert moon_game.view_token not in response["Location"]
