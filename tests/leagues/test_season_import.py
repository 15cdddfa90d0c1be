"""Seasons from outside imported through the league's page: every game
under its own log's rules (2 to 8 seats, mixed presets, house rules),
players who share a name kept apart, and the pages, CSVs and ratings
equal to the ``standings`` command's numbers."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.gamelog import parse_log, replay_log
from scorekeeper.leagues.models import League, Player, Rating
from scorekeeper.leagues.names import name_key, tidy
from scorekeeper.leagues.ratings import Rated, Skill, rate
from tests.leagues.imported import assert_same_standings, seated, upload
from tests.leagues.seasons import SEATINGS, random_season

pytestmark = pytest.mark.django_db
EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "contract"
MIXED = (EXAMPLES / "mixed-season.league.json").read_text()


@pytest.fixture
def signed_in(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


def test_the_contracts_mixed_season_imports_with_the_commands_standings(
    signed_in: Client, league: League
) -> None:
    season = upload(signed_in, league, MIXED)
    assert_same_standings(signed_in, MIXED, season)
    page = signed_in.get(f"/seasons/{season.pk}/").content.decode()
    assert "mix rules" in page


def test_players_who_share_a_name_stay_two_players(
    signed_in: Client, league: League
) -> None:
    season = upload(signed_in, league, MIXED)
    ids = seated(json.loads(MIXED), season)
    assert ids["p0"] != ids["p1"]  # both "Ann 0" in the file
    first, second = Player.objects.filter(pk__in=[ids["p0"], ids["p1"]])
    assert first.name != second.name
    assert {first.name, second.name} >= {"Ann 0"}


def _sides(log: dict[str, object], names: list[str]) -> list[str]:
    variant = parse_log(log).variant
    return [
        " & ".join(n for seat, n in enumerate(names) if variant.side_of(seat) == side)
        for side in range(variant.sides)
    ]


def test_hands_csv_names_each_side_by_its_players(
    signed_in: Client, league: League
) -> None:
    season = upload(signed_in, league, MIXED)
    document = json.loads(MIXED)
    ids = seated(document, season)
    names = {str(p.pk): p.name for p in league.players.all()}
    response = signed_in.get(f"/seasons/{season.pk}/hands.csv")
    text = b"".join(response.streaming_content).decode("utf-8-sig")  # type: ignore[attr-defined]
    rows = list(csv.DictReader(io.StringIO(text)))
    games = [
        (night["date"], game)
        for night in document["nights"]
        for game in sorted(night["games"], key=lambda g: (g["round"], g["table"]))
    ]
    for day, game in games:
        board = replay_log(parse_log(game["log"]))
        mine = [
            row
            for row in rows
            if (row["night"], row["round"], row["table"])
            == (day, str(game["round"]), str(game["table"]))
        ]
        assert len(mine) == len(board.hands)
        players = [names[ids[pid]] for pid in game["players"]]
        sides = _sides(game["log"], players)
        for row in mine:
            assert [row[f"side_{n + 1}"] for n in range(len(sides))] == sides
            assert row["dealer"] in players
        if mine:
            last = mine[-1]
            totals = [int(last[f"total_{n + 1}"]) for n in range(len(sides))]
            assert totals == list(board.totals)


def test_ratings_follow_each_games_own_sides(signed_in: Client, league: League) -> None:
    season = upload(signed_in, league, MIXED)
    signed_in.get(f"/seasons/{season.pk}/")  # rates the games
    document = json.loads(MIXED)
    ids = seated(document, season)
    skills: dict[str, Skill] = {}
    for night in document["nights"]:
        for game in sorted(night["games"], key=lambda g: (g["round"], g["table"])):
            board = replay_log(parse_log(game["log"]))
            if not board.finished:
                continue
            variant = board.variant
            players = tuple(ids[pid] for pid in game["players"])
            sides = tuple(variant.side_of(seat) for seat in range(len(players)))
            skills.update(rate(skills, Rated(players, sides, frozenset(board.winners))))
    assert Rating.objects.filter(league=league).count() == sum(
        1
        for night in document["nights"]
        for game in night["games"]
        if replay_log(parse_log(game["log"])).finished
    )
    for player in Player.objects.filter(pk__in=[int(pk) for pk in skills]):
        skill = skills[str(player.pk)]
        assert (player.mu, player.sigma) == pytest.approx((skill.mu, skill.sigma))


SEEDS = range(8)


def test_the_generated_seasons_hold_what_an_outside_club_writes() -> None:
    """Every preset and seat count, repeated names, fixes (after a game's
    end too), games ended early, house rules: what the page test below
    imports."""
    seatings, kinds, house, repeated, fixed = set(), set(), False, False, False
    for seed in SEEDS:
        document = random_season(seed)
        names = [name_key(tidy(p["name"])) for p in document["players"]]
        repeated |= len(set(names)) < len(names)
        for night in document["nights"]:
            for game in night["games"]:
                log = game["log"]
                seatings.add((log["variant"]["preset"], len(log["seats"])))
                house |= len(log["variant"]) > 1
                types = [event["type"] for event in log["events"]]
                kinds |= set(types)
                fixed |= "end" in types and types[-1] in ("void", "correct")
    assert seatings == set(SEATINGS)
    assert kinds == {"hand", "void", "correct", "end"}
    assert house and repeated and fixed  # fixed: a game fixed after its end


@pytest.mark.parametrize("seed", SEEDS)
def test_a_generated_season_imports_with_the_commands_standings(
    signed_in: Client, league: League, seed: int
) -> None:
    text = json.dumps(random_season(seed), ensure_ascii=False)
    season = upload(signed_in, league, text)
    assert_same_standings(signed_in, text, season)


def test_an_imported_seasons_pages_cost_what_an_ordinary_seasons_do(
    signed_in: Client, league: League
) -> None:
    """Pinned as the ordinary season's pages are (test_league_pages,
    test_season_numbers): games under their own rules add no query."""
    season = upload(signed_in, league, MIXED)
    ids = seated(json.loads(MIXED), season)
    signed_in.get(f"/seasons/{season.pk}/")  # rates the games
    with CaptureQueriesContext(connection) as queries:
        assert signed_in.get(f"/seasons/{season.pk}/").status_code == 200
    assert len(queries) <= 9  # with the season's changes after closing
    signed_in.get(f"/players/{ids['p1']}/")
    with CaptureQueriesContext(connection) as queries:
        assert signed_in.get(f"/players/{ids['p1']}/").status_code == 200
    assert len(queries) <= 14


def test_an_imported_seasons_export_keeps_its_players_apart(
    signed_in: Client, league: League, organizer: User
) -> None:
    season = upload(signed_in, league, MIXED)
    exported = signed_in.get(f"/seasons/{season.pk}/season.json").content
    document = json.loads(exported)
    ids = [player["id"] for player in document["players"]]
    assert len(ids) == len(set(ids)) == len(json.loads(MIXED)["players"])
    elsewhere = League.objects.create(name="Elsewhere", created_at=season.created_at)
    elsewhere.organizers.add(organizer)
    copy = upload(signed_in, elsewhere, exported.decode())
    assert signed_in.get(f"/seasons/{copy.pk}/season.json").content == exported
    assert_same_standings(signed_in, exported.decode(), copy)
