"""The organizer's prize lists and the rules sheet (``leagues.published``)."""

from __future__ import annotations

import json
import random
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues import prize_lists, rounds, services
from scorekeeper.leagues.interchange import season_export, season_import
from scorekeeper.leagues.models import Night, Season
from scorekeeper.leagues.results import season_standings
from scorekeeper.leagues.season import parse_season
from scorekeeper.leagues.standings import standings
from scorekeeper.rules.variants import find_variant
from tests.leagues.nights import play_out, progressive_night
from tests.records import NOW

pytestmark = pytest.mark.django_db


def _played(season: Season) -> Night:
    night = progressive_night(season, date(2026, 1, 1))
    played = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    for table in played.tables.select_related("game"):
        play_out(table.game)
    return night


def test_the_seasons_prizes_show_beside_its_standings_and_in_public(
    client: Client, season: Season, organizer: User
) -> None:
    _played(season)
    client.force_login(organizer)
    assert client.get(f"/seasons/{season.pk}/prizes").status_code == 200
    response = client.post(
        f"/seasons/{season.pk}/prizes",
        {"prizes": "1st: £20\n2nd: £10\n3rd: a bottle", "ties": "higher"},
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.prizes == ["£20", "£10", "a bottle"]
    assert season.league.prize_ties == "higher"
    page = client.get(f"/seasons/{season.pk}/").content.decode()
    assert "The season's prizes" in page and "a bottle" in page
    assert "each tied player gets the higher place" in page
    token = services.season_link_new(season=season)
    client.logout()
    public = client.get(f"/standings/{token}").content.decode()
    assert "The season's prizes" in public and "£20" in public
    assert f"/seasons/{season.pk}/prizes" not in public  # no organizer's form


def test_a_prize_list_that_cannot_be_kept_changes_nothing(
    client: Client, season: Season, organizer: User
) -> None:
    services.season_link_new(season=season)
    client.force_login(organizer)
    client.post(f"/seasons/{season.pk}/prizes", {"prizes": "£5", "ties": "split"})
    response = client.post(
        f"/seasons/{season.pk}/prizes", {"prizes": "£5\n" + "x" * 61, "ties": "higher"}
    )
    assert response.status_code == 422
    assert "Line 2: a prize is at most 60 characters" in response.content.decode()
    season.refresh_from_db()
    assert season.prizes == ["£5"] and season.league.prize_ties == "split"


def test_the_nights_prizes_show_on_its_page(
    client: Client, season: Season, organizer: User
) -> None:
    night = _played(season)
    client.force_login(organizer)
    response = client.post(f"/nights/{night.pk}/prizes", {"prizes": "£8\n£4"})
    assert response.status_code == 302
    page = client.get(f"/nights/{night.pk}/").content.decode()
    assert "Tonight's prizes" in page and "£8" in page and "£4" in page


def test_another_leagues_organizer_finds_no_prize_form(
    client: Client, season: Season
) -> None:
    night = _played(season)
    other = User.objects.create_user("other", password="a long passphrase")
    client.force_login(other)
    assert client.get(f"/seasons/{season.pk}/prizes").status_code == 404
    assert (
        client.post(f"/nights/{night.pk}/prizes", {"prizes": "£1"}).status_code == 404
    )
    assert client.get(f"/nights/{night.pk}/rules").status_code == 404


def test_the_rules_sheet_says_the_preset_and_the_house_rules(
    client: Client,
    season: Season,
    organizer: User,
    django_assert_num_queries: object,
) -> None:
    night = _played(season)
    client.force_login(organizer)
    # The user (the session is a signed cookie); the night, of their league.
    with django_assert_num_queries(2):  # type: ignore[operator]
        response = client.get(f"/nights/{night.pk}/rules")
    html = response.content.decode()
    variant = find_variant(season.preset, season.seats)
    assert variant.description in html
    assert "Hand limit" in html and "house rule" in html  # the season's 4 hands
    assert 'src="data:image/svg+xml' in html  # the QR code
    assert f"/rules/{season.preset}/?seats={season.seats}" in html
    assert "1 Jan 2026" in html


def test_prizes_are_app_data_the_season_file_leaves_out(
    season: Season, organizer: User
) -> None:
    night = _played(season)
    rounds.night_close(night=night, by="org", now=NOW)
    exported = season_export(season=season)
    prize_lists.season_prizes_set(season=season, text="£100\n£50")
    prize_lists.night_prizes_set(night=night, text="£20\na bottle")
    prize_lists.league_prize_ties_set(league=season.league, ties="higher")
    with_prizes = season_export(season=season)
    assert with_prizes == exported  # pepper-league v1 has no field for them
    assert "£" not in json.dumps(with_prizes, ensure_ascii=False)
    other = services.league_create(name="Elsewhere", organizer=organizer, now=NOW)
    copy = season_import(league=other, text=json.dumps(with_prizes), now=NOW)
    assert json.dumps(season_export(season=copy)) == json.dumps(with_prizes)
    assert copy.prizes == [] and copy.nights.get().prizes == []
    # The standings command reads the file as the league's pages count it.
    counted: Any = standings(parse_season(with_prizes))
    names = dict(season.league.players.values_list("pk", "name"))
    shown: Any = season_standings(season)["season"]
    assert [(r["player"], r["points"]) for r in counted["season"]["rows"]] == [
        (names[int(r["player"])], r["points"]) for r in shown["rows"]
    ]
