"""Issue "Hardening": whatever a client sends to the API, a form or the
import, the answer is never a 5xx (run on SQLite and, in CI, PostgreSQL).
The test client re-raises a view's exception, so a crash fails loudly."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.models import Game
from tests.test_api import HAND, bearer

# Text that has broken things: control characters, NUL, other digits, lone
# surrogates (only in JSON, where they travel as escapes), very long text.
NASTY = st.sampled_from(
    [
        "",
        "\x00",
        "a\x00b",
        "²",
        "٣",
        "𝟙",
        "-1",
        "1e9",
        "9" * 30,
        "Łukasz",
        "\u202e",
        "x" * 70,
        "n" * 600,
        "<script>",
        "' OR 1=1",
        "\ud800",
        "pass, ², 4",
        "moon",
    ]
)
FORM_TEXT = (NASTY | st.text(max_size=20)).filter(
    lambda text: (
        "\ud800" not in text and all(not 0xD800 <= ord(c) <= 0xDFFF for c in text)
    )
)
JSON_LEAVES = (
    st.none() | st.booleans() | st.integers(-5, 10**12) | NASTY | st.text(max_size=10)
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=8,
)
FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
FIELDS = [
    "expected_seq",
    "event_id",
    "bidder",
    "bid",
    "trump",
    "outcome",
    "taken",
    "free_tricks",
    "by",
    "auction",
    "action",
    "reason",
    "tricks_0",
    "tricks_1",
    "tricks_2",
    "preset",
    "first_dealer",
    "target_score",
    "exact_tie",
    "pepper_round_hands",
    "seat_0",
    "seat_1",
    "seat_2",
    "text",
]


def answered(response: Any) -> int:
    assert response.status_code < 500, response.content[:300]
    return int(response.status_code)


@FUZZ
@given(
    fields=st.dictionaries(
        st.sampled_from(
            [
                *HAND,
                "expected_seq",
                "id",
                "by",
                "note",
                "at",
                "target",
                "hand",
                "auction",
                "type",
            ]
        ),
        JSON_VALUES,
        max_size=8,
    ),
    base=st.booleans(),
)
def test_no_api_body_answers_5xx(
    client: Client, moon_game: Game, fields: dict[str, Any], base: bool
) -> None:
    body = {
        **({"expected_seq": moon_game.last_seq, "id": "f", **HAND} if base else {}),
        **fields,
    }
    answered(
        client.post(
            f"/api/games/{moon_game.pk}/events",
            json.dumps(body),
            content_type="application/json",
            headers=bearer(moon_game.edit_token),
        )
    )


@FUZZ
@given(raw=st.binary(max_size=200))
def test_no_raw_bytes_answer_5xx(client: Client, moon_game: Game, raw: bytes) -> None:
    game = f"/games/{moon_game.pk}/"
    for url in (
        f"/api/games/{moon_game.pk}/events",
        f"{game}hands",
        "/games/new",
        "/games/import",
        "/verify",
        f"{game}hands/1/void",
    ):
        for content_type in ("application/json", "application/x-www-form-urlencoded"):
            answered(
                client.post(
                    url,
                    raw,
                    content_type=content_type,
                    headers=bearer(moon_game.edit_token),
                )
            )


@FUZZ
@given(data=st.dictionaries(st.sampled_from(FIELDS), FORM_TEXT, max_size=10))
def test_no_form_answers_5xx(
    client: Client, moon_game: Game, data: dict[str, str]
) -> None:
    game = f"/games/{moon_game.pk}/"
    if answered(client.post(f"{game}hands", data)) == 302:
        answered(client.post(f"{game}hands/1/correct", data))
    answered(client.post(f"{game}hands/1/void", data))
    answered(client.post("/games/new", data))
    answered(client.post("/games/import", data))
    answered(client.post("/verify", data))
    answered(
        client.get(
            "/trick",
            {
                "trump": data.get("trump", ""),
                "cards": data.get("bid", ""),
                "led": data.get("by", ""),
                "hand": data.get("text", ""),
            },
        )
    )
    for key in ("after", "hands"):
        answered(client.get(game, {key: data.get("bid", "")}))
    answered(client.get(f"{game}poll", {"seq": data.get("expected_seq", "")}))
    answered(
        client.get(
            f"{game}what-if",
            {
                "preset": data.get("preset", ""),
                "target_score": data.get("target_score", ""),
            },
        )
    )


@FUZZ
@given(
    change=st.dictionaries(
        st.sampled_from(
            ["format", "version", "variant", "seats", "first_dealer", "events"]
        ),
        JSON_VALUES,
        max_size=3,
    ),
    event=st.dictionaries(
        st.text(max_size=8) | st.sampled_from(list(HAND)), JSON_VALUES, max_size=4
    ),
)
def test_no_import_answers_5xx(
    client: Client, moon_game: Game, change: dict[str, Any], event: dict[str, Any]
) -> None:
    log = {
        "format": "pepper-log",
        "version": 1,
        "variant": "moon-42",
        "seats": ["Ann", "Bob", "Cat", "Dan"],
        "first_dealer": 0,
        "events": [{**HAND, **event}],
        **change,
    }
    answered(client.post("/games/import", {"text": json.dumps(log)}))
    answered(client.post("/verify", {"text": json.dumps(log)}))
