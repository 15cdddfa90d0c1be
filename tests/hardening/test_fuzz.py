"""Issue "Hardening" (and issue 24): whatever a client sends to the API, a
form (the table's and every league form) or an import (a game's log or a
season), the answer is never a 5xx (SQLite and, in CI, PostgreSQL).
The test client re-raises a view's exception, so a crash fails loudly."""

from __future__ import annotations

import json
from copy import deepcopy
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.interchange import season_export
from scorekeeper.leagues.models import Invite, Night, Player
from scorekeeper.models import Game
from tests.games.test_api import HAND, bearer
from tests.hardening.crawler import route_of
from tests.hardening.league_world import World, league_actions, make_world
from tests.hypothesis_profiles import examples
from tests.records import HTMX, NOW

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
    max_examples=examples(40),
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
@example(
    data={"event_id": "\x00"}
)  # PostgreSQL: a NUL in the repeat lookup, once a 503
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


# The league: every organizer's form and the season import --------------------

LEAGUE_FIELDS = [
    "name",
    "preset",
    "seats",
    "hand_limit",
    "order",
    "best_nights",
    "min_nights",
    "date",
    "format",
    "keep",
    "merge",
    "player",
    "action",
    "number",
    "once",
    "text",
    "username",
    "password",
    "password1",
    "password2",
    "next",
    "substitute",
    "seat",
    "from_hand",
    "credit",
    "first",
    "prizes",
    "ties",
    "count",
    "h1-bidder",
    "h1-bid",
    "h1-trump",
    "h1-result",
    "time_zone",
    "names",
    "seating",
    "q",
]


@pytest.fixture
def league_world(db: None) -> World:
    """The organizer's league with a night being played, a fixed-teams
    night, and the URL of every league action (actions.ACTIONS)."""
    world = make_world()
    world.playing_night()
    world.night(fixed=True)
    spare = services.season_create(
        league=world.league, name="Spare", preset="classic", now=NOW
    )
    world.spare = spare.pk
    return world


def _league_forms(world: World) -> list[str]:
    """A URL of each league action (each POST URL of leagues/urls.py but
    sign-out, which would end the session), its ids those of ``world``."""
    night = Night.objects.filter(format=Night.PROGRESSIVE).first()
    fixed = Night.objects.filter(format=Night.FIXED).first()
    assert night is not None and fixed is not None
    invite = Invite.objects.create(
        league=world.league, created_by=world.organizer, created_at=NOW
    )
    league, season, player = world.league.pk, world.season.pk, Player.objects.first()
    assert player is not None
    played = night.rounds.first()
    assert played is not None
    table = played.tables.first()
    checkin = night.checkins.first()
    assert table is not None and checkin is not None
    return [
        "/accounts/signup",
        "/accounts/login",
        "/leagues/",
        f"/leagues/{league}/",
        f"/leagues/{league}/players",
        f"/leagues/{league}/players/paste",
        f"/leagues/{league}/merge",
        f"/leagues/{league}/invite",
        f"/leagues/{league}/import",
        f"/leagues/{league}/time-zone",
        f"/invite/{invite.token}",
        f"/players/{player.pk}/rename",
        f"/seasons/{season}/",
        f"/seasons/{season}/public",
        f"/seasons/{season}/prizes",
        f"/nights/{night.pk}/prizes",
        f"/nights/{night.pk}/check-in",
        f"/nights/{night.pk}/newcomer",
        f"/nights/{night.pk}/check-in/last-night",
        f"/nights/{fixed.pk}/teams",
        f"/nights/{night.pk}/rounds",
        f"/tables/{table.pk}/substitute",
        f"/tables/{table.pk}/card/enter",
        f"/rounds/{played.pk}/call",
        f"/rounds/{played.pk}/call/undo",
        f"/nights/{night.pk}/tv-link",
        f"/nights/{night.pk}/close",
        f"/nights/{night.pk}/close/undo",
        f"/seasons/{world.spare}/delete",
        f"/nights/{night.pk}/door",
        f"/door/{night.door_token}",
        f"/me/{checkin.token}/seated",
    ]


def test_the_league_fuzz_posts_to_every_league_action(league_world: World) -> None:
    posted = {route_of(url) for url in _league_forms(league_world)}
    assert posted | {"logout"} == league_actions()


@FUZZ
@given(
    data=st.dictionaries(st.sampled_from(LEAGUE_FIELDS), FORM_TEXT, max_size=8),
    team=st.dictionaries(st.integers(0, 12).map(lambda n: f"p{n}"), FORM_TEXT),
)
def test_no_league_form_answers_5xx(
    league_world: World, data: dict[str, str], team: dict[str, str]
) -> None:
    client = league_world.client
    for url in _league_forms(league_world):
        answered(client.post(url, {**data, **team}))
        answered(client.post(url, {**data, **team}, headers=HTMX))
    answered(client.get(f"/nights/{Night.objects.last().pk}/teams", team))  # type: ignore[union-attr]


@pytest.fixture
def season_document(league_world: World) -> dict[str, Any]:
    """The season's export, its night closed: a document that imports."""
    night = Night.objects.filter(format=Night.PROGRESSIVE).get()
    rounds.night_close(night=night, by="org", now=NOW)
    return season_export(season=league_world.season)


# Values that have broken season imports: numbers past a column, NUL, a
# lone surrogate, names as long as the limit in characters, not in bytes.
SEASON_VALUES = JSON_VALUES | st.sampled_from(
    [40_000, 10**20, 2**63, -1, 0, "A\x00b", "\ud800", "x" * 31, "é" * 30, "Ann"]
)
SEASON_KEYS = ["format", "version", "name", "rules", "players", "standings", "nights"]
NIGHT_KEYS = ["date", "format", "games"]
GAME_KEYS = ["table", "round", "players", "log"]


@FUZZ
@given(
    top=st.dictionaries(st.sampled_from(SEASON_KEYS), SEASON_VALUES, max_size=2),
    night=st.dictionaries(st.sampled_from(NIGHT_KEYS), SEASON_VALUES, max_size=2),
    game=st.dictionaries(
        st.sampled_from(GAME_KEYS) | st.text(max_size=6), SEASON_VALUES, max_size=2
    ),
    person=st.dictionaries(st.sampled_from(["id", "name"]), SEASON_VALUES, max_size=2),
)
def test_no_season_import_answers_5xx(
    league_world: World,
    season_document: dict[str, Any],
    top: dict[str, Any],
    night: dict[str, Any],
    game: dict[str, Any],
    person: dict[str, Any],
) -> None:
    document = deepcopy(season_document)
    document.update(top)
    nights = document.get("nights")
    if isinstance(nights, list) and nights and isinstance(nights[0], dict):
        nights[0].update(night)
        games = nights[0].get("games")
        if isinstance(games, list) and games and isinstance(games[0], dict):
            games[0].update(game)
    players = document.get("players")
    if isinstance(players, list) and players and isinstance(players[0], dict):
        players[0].update(person)
    url = f"/leagues/{league_world.league.pk}/import"
    text = json.dumps(document)  # a lone surrogate travels as an escape
    answered(league_world.client.post(url, {"text": text}))
    upload = SimpleUploadedFile("season.json", text.encode())
    answered(league_world.client.post(url, {"upload": upload}))
