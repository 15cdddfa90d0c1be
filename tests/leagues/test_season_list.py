"""The league page's list of seasons names the rules each season's games
were played under: a season whose imported games mix presets and seat
counts is listed as mixed, not under the one preset it took for new
rounds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.leagues import services
from scorekeeper.leagues.models import League, Season
from scorekeeper.leagues.season_list import rules_line
from tests.leagues.imported import upload
from tests.records import NOW

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "contract"
MIXED = (EXAMPLES / "mixed-season.league.json").read_text()


def _season(preset: str = "classic", seats: int = 4, **house: object) -> Season:
    return Season(name="S", preset=preset, seats=seats, overrides=house)


def test_a_season_played_under_its_own_rules_is_listed_under_them() -> None:
    season = _season(hand_limit=8)
    own = ("classic", 4, '{"hand_limit": 8}')
    assert rules_line(season, []) == "classic, 4 seats, 8 hands a game"
    assert rules_line(season, [own]) == "classic, 4 seats, 8 hands a game"


def test_games_all_under_other_rules_are_listed_under_theirs() -> None:
    assert rules_line(_season(), [("moon-42", 6, "{}")]) == "moon-42, 6 seats"


def test_games_that_mix_rules_are_listed_as_mixed() -> None:
    played = [("moon-42", 4, "{}"), ("classic", 2, "{}"), ("classic", 3, "{}")]
    line = rules_line(_season("moon-42"), played)
    assert line == "mixed rules: classic, moon-42; 2 to 4 seats"
    house = [("classic", 4, "{}"), ("classic", 4, '{"hand_limit": 8}')]
    line = rules_line(_season(), house)
    assert line == "mixed rules: classic; 4 seats; house rules vary"


def _listed(client: Client, league: League) -> list[str]:
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    found = re.findall(r'<span class="game-meta">(.*?)</span>', page)
    return found


@pytest.mark.django_db
def test_the_contracts_mixed_season_is_listed_with_its_mix(
    client: Client, organizer: User, league: League
) -> None:
    client.force_login(organizer)
    upload(client, league, MIXED)
    services.season_create(
        league=league, name="Ours", preset="classic",
        overrides={"hand_limit": 8}, now=NOW,
    )  # fmt: skip
    games = [game for night in json.loads(MIXED)["nights"] for game in night["games"]]
    presets = sorted({game["log"]["variant"]["preset"] for game in games})
    seats = sorted(len(game["players"]) for game in games)
    assert len(presets) > 1 and seats[0] < seats[-1]
    mixed = f"mixed rules: {', '.join(presets)}; {seats[0]} to {seats[-1]} seats"

    imported, ours = _listed(client, league)  # newest first

    assert ours == "classic, 4 seats, 8 hands a game"
    assert imported.startswith(mixed), imported
    before = _queries(client, league)
    services.season_create(league=league, name="More", preset="classic", now=NOW)
    assert _queries(client, league) == before  # one more season, no more queries


def _queries(client: Client, league: League) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(f"/leagues/{league.pk}/").status_code == 200
    return len(captured.captured_queries)
