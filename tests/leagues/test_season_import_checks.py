"""Every field of a season file checked as the league's forms check
theirs, before any database sees it (a refusal names where, and changes
nothing), sizes capped in words, and players looked up in bulk."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.leagues.interchange import season_import
from scorekeeper.leagues.models import League, Player, Season
from scorekeeper.leagues.season_checks import MAX_GAMES, MAX_PLAYERS
from scorekeeper.leagues.services import LeagueError
from scorekeeper.models import Game
from tests.hardening.test_fuzz import FUZZ, JSON_VALUES
from tests.leagues.test_standings import season
from tests.records import NOW

pytestmark = pytest.mark.django_db


def _with(path: str, value: Any) -> dict[str, Any]:
    """The small valid season of the standings tests, one field changed."""
    return _changed(season(), path, value)


def _changed(document: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    document = copy.deepcopy(document)
    *parents, last = path.split(".")
    node: Any = document
    for part in parents:
        node = node[int(part)] if part.isdigit() else node.setdefault(part, {})
    node[int(last) if last.isdigit() else last] = value
    return document


LONG = "Ann Marie " * 3  # 30 characters, then what tells them apart
REFUSED = [
    ("players.0.name", "A" * 61, "log: player 1 ('ann'): the name is longer than 60"),
    ("players.0.name", "\ud800nn", "log: player 1 ('ann'): the name holds a broken"),
    ("players.0.name", "A\x00nn", "log: player 1 ('ann'): the name holds a control"),
    ("players.0.name", "A\x07nn", "log: player 1 ('ann'): the name holds a control"),
    ("nights.0.games.0.round", 99999999999999999999, 'night 1 game 1: "round" must'),
    ("nights.0.games.0.round", 40000, 'night 1 game 1: "round" must be a whole'),
    ("nights.1.games.1.table", 40000, 'night 2 game 2: "table" must be a whole'),
    ("standings.best_nights", 40000, 'log: "standings.best_nights" must be at most'),
    ("standings.min_nights", 10**20, 'log: "standings.min_nights" must be at most'),
    ("name", "Autumn\x00", "log: the season's name holds a control"),
    ("name", "A" * 61, "log: the season's name is longer than 60"),
    ("nights.0.format", ["fixed"], 'night 1: "format" must be "progressive" or'),
    ("rules", {"preset": "classic", "seats": "4"}, 'log: "rules.seats": league'),
    ("rules", {"preset": "nope"}, 'log: "rules": '),
    ("rules", {"house_rules": {"mercy": 5}}, 'log: "rules": mercy must be'),
    ("rules", [], 'log: "rules" must be an object'),
]


@pytest.mark.parametrize(("path", "value", "words"), REFUSED)
def test_a_field_the_league_cannot_store_is_refused_naming_where(
    client: Client, organizer: User, league: League, path: str, value: Any, words: str
) -> None:
    client.force_login(organizer)
    text = json.dumps(_with(path, value))
    response = client.post(f"/leagues/{league.pk}/import", {"text": text})
    page = response.content.decode()
    assert response.status_code == 422 and f"Not imported: {words}" in _unescaped(page)
    assert not Season.objects.exists() and not Game.objects.exists()
    assert league.players.count() == 9  # the fixture's, no more


def _unescaped(page: str) -> str:
    return page.replace("&#x27;", "'").replace("&quot;", '"')


def test_names_equal_in_their_first_30_characters_are_two_players(
    client: Client, organizer: User, league: League
) -> None:
    client.force_login(organizer)
    document = _with("players.0.name", LONG + "Smith")
    document["players"][1]["name"] = LONG + "Smythe"
    response = client.post(
        f"/leagues/{league.pk}/import", {"text": json.dumps(document)}
    )
    assert response.status_code == 302
    assert (
        league.players.filter(name__in=[LONG + "Smith", LONG + "Smythe"]).count() == 2
    )


def test_a_file_with_too_many_players_or_games_is_refused_in_words(
    league: League,
) -> None:
    crowd = [{"id": str(n), "name": f"P{n}"} for n in range(MAX_PLAYERS + 1)]
    with pytest.raises(LeagueError, match="at most 5,000 players, not 5,001"):
        season_import(league=league, text=json.dumps(_with("players", crowd)), now=NOW)
    # Counted before any game is read: these need not be games.
    games: list[dict[str, Any]] = [{}] * (MAX_GAMES + 1)
    nights = [{"date": "2026-01-01", "games": games}]
    with pytest.raises(LeagueError, match="at most 20,000 games, not 20,001"):
        season_import(league=league, text=json.dumps(_with("nights", nights)), now=NOW)
    assert not Season.objects.exists()


def _queries_to_import(league: League, players: int) -> int:
    document = copy.deepcopy(season())
    document["players"] += [
        {"id": f"x{n}", "name": f"Extra {n}"} for n in range(players)
    ]
    with CaptureQueriesContext(connection) as queries:
        season_import(league=league, text=json.dumps(document), now=NOW)
    Season.objects.all().delete()  # the games stay: the next import is new
    return len(queries)


def test_players_are_looked_up_and_added_in_bulk(
    league: League, organizer: User
) -> None:
    """The queries of an import do not grow with its players (they did:
    one lookup and one insert a player)."""
    few = _queries_to_import(league, 10)
    other = League.objects.create(name="Other", created_at=NOW)
    many = _queries_to_import(other, 3000)
    assert many == few
    assert Player.objects.filter(league=other).count() == 3005


PATHS = [
    "name",
    "players",
    "players.0",
    "players.0.id",
    "players.0.name",
    "standings",
    "standings.order",
    "standings.best_nights",
    "standings.min_nights",
    "rules",
    "nights.0",
    "nights.0.date",
    "nights.0.format",
    "nights.0.games",
    "nights.0.games.0",
    "nights.0.games.0.table",
    "nights.0.games.0.round",
    "nights.0.games.0.players",
    "nights.0.games.0.log",
    "nights.0.games.0.log.seats",
]


@FUZZ
@given(
    changes=st.lists(
        st.tuples(st.sampled_from(PATHS), JSON_VALUES | st.integers(-(2**70), 2**70)),
        min_size=1,
        max_size=3,
    )
)
def test_no_season_file_answers_5xx(
    client: Client, organizer: User, league: League, changes: list[tuple[str, Any]]
) -> None:
    client.force_login(organizer)
    document = season()
    for path, value in changes:
        try:
            document = _changed(document, path, value)
        except (KeyError, IndexError, TypeError, AttributeError):
            continue  # an earlier change took that field away
    response = client.post(
        f"/leagues/{league.pk}/import", {"text": json.dumps(document)}
    )
    assert response.status_code in (302, 422)
