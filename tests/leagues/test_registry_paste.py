"""Issue 33: a league's registry filled in one paste, and the time zone
typed (a zone or its city) instead of chosen among 400."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues import services
from scorekeeper.leagues.local_time import (
    COMMON_TIME_ZONES,
    find_time_zone,
    time_zones,
)
from scorekeeper.leagues.models import League, RegistryPaste
from scorekeeper.leagues.names import name_key
from scorekeeper.leagues.pasted import (
    PASTE_LIMIT,
    paste_report,
    pasted_names,
)
from tests.records import NOW

pytestmark = pytest.mark.django_db

# Pure: what a paste reads as names --------------------------------------


def test_a_list_is_one_name_a_line_tidied_blank_lines_skipped() -> None:
    assert pasted_names("  Ann  Lee \n\nBob\r\n   \nCat") == ["Ann Lee", "Bob", "Cat"]


def test_a_csv_with_a_name_column_gives_that_column_of_each_row() -> None:
    text = 'Email,Name,Phone\nann@x.org,"Lee, Ann",555\nbob@x.org,Bob,\n,,\n'
    assert pasted_names(text) == ["Lee, Ann", "Bob"]


def test_the_name_column_is_found_in_any_case_or_as_player() -> None:
    assert pasted_names("Table,Player\n1,Ann\n2,Bob") == ["Ann", "Bob"]
    assert pasted_names(" NAME \nAnn") == ["Ann"]


def test_a_list_without_a_header_keeps_its_commas() -> None:
    assert pasted_names("Lee, Ann\nBob") == ["Lee, Ann", "Bob"]


def test_a_refused_name_is_shown_without_its_invisible_characters_and_cut() -> None:
    report = paste_report(["a\x00b", "\u200bz" * 50], {})
    assert report.refused[0][0] == "a\N{REPLACEMENT CHARACTER}b"
    assert len(report.refused[1][0]) == 80
    assert report.refused[1][0].endswith("\N{HORIZONTAL ELLIPSIS}")


def test_each_name_is_added_already_there_repeated_or_refused() -> None:
    registered = {name_key("Émile"): "Émile"}
    names = ["émile", "Ann", "ANN", "Bob", "x" * 61, "Cat\x07"]
    report = paste_report(names, registered)
    assert report.added == ["Ann", "Bob"]
    assert report.already == ["Émile"]  # as the registry spells it
    assert report.repeated == ["ANN"]
    assert [name for name, _ in report.refused] == [
        "x" * 61,
        "Cat\N{REPLACEMENT CHARACTER}",
    ]
    assert all(why for _, why in report.refused)


# The service --------------------------------------------------------------


def test_a_paste_adds_every_new_name_and_reports_the_others(league: League) -> None:
    before = league.players.count()
    paste = services.players_paste(
        league=league, text="Ann\nZoe\nYan\nzoe\n" + "y" * 61, now=NOW
    )
    assert league.players.count() == before + 2
    assert paste.report["added"] == ["Zoe", "Yan"]
    assert paste.report["already"] == ["Ann"]
    assert paste.report["repeated"] == ["zoe"]
    assert [name for name, _ in paste.report["refused"]] == ["y" * 61]


def test_an_empty_paste_is_refused_in_words(league: League) -> None:
    with pytest.raises(services.LeagueError, match="paste the names"):
        services.players_paste(league=league, text=" \n\n", now=NOW)
    assert not RegistryPaste.objects.exists()


def test_a_paste_too_long_is_refused_whole(league: League) -> None:
    before = league.players.count()
    text = "\n".join(f"Player {n}" for n in range(PASTE_LIMIT + 1))
    with pytest.raises(services.LeagueError, match=f"at most {PASTE_LIMIT} names"):
        services.players_paste(league=league, text=text, now=NOW)
    assert league.players.count() == before


# The pages ----------------------------------------------------------------


@pytest.fixture
def signed_in(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


def _key(page: str) -> str:
    """The one-time key of the paste's form."""
    form = page.split('/players/paste"')[1]
    found = re.search(r'name="once" value="([^"]+)"', form)
    assert found is not None
    return found.group(1)


def test_the_league_page_says_what_became_of_each_pasted_name(
    signed_in: Client, league: League
) -> None:
    page = signed_in.get(f"/leagues/{league.pk}/").content.decode()
    url = f"/leagues/{league.pk}/players/paste"
    data = {"names": "name,email\nZoe,z@x.org\nann,a@x.org\n", "once": _key(page)}
    first = signed_in.post(url, data)
    assert first.status_code == 302
    shown = signed_in.get(first["Location"]).content.decode()
    assert "Added 1 player:</strong> Zoe" in shown
    assert "Already in the registry, not added again (1): Ann" in shown
    # A double tap: the same submission is answered as the first.
    again = signed_in.post(url, data)
    assert again["Location"] == first["Location"]
    assert league.players.filter(name="Zoe").count() == 1
    assert RegistryPaste.objects.count() == 1


def test_a_refused_paste_is_said_on_the_league_page(
    signed_in: Client, league: League
) -> None:
    url = f"/leagues/{league.pk}/players/paste"
    refused = signed_in.post(url, {"names": "\n"})
    assert refused.status_code == 422
    assert "paste the names, one a line" in refused.content.decode()


def test_another_leagues_paste_is_not_shown(
    signed_in: Client, league: League, organizer: User
) -> None:
    other = services.league_create(name="Other", organizer=organizer, now=NOW)
    paste = services.players_paste(league=other, text="Secret Name", now=NOW)
    page = signed_in.get(f"/leagues/{league.pk}/?pasted={paste.pk}")
    assert "Secret Name" not in page.content.decode()


def test_the_league_page_reads_the_same_rows_whatever_the_registry(
    signed_in: Client, league: League, django_assert_num_queries: object
) -> None:
    paste = services.players_paste(league=league, text="Zoe\nAnn", now=NOW)
    with django_assert_num_queries(7):  # type: ignore[operator]
        # user, league, paste, players, seasons (two), organizers
        signed_in.get(f"/leagues/{league.pk}/?pasted={paste.pk}")
    services.players_paste(
        league=league, text="\n".join(f"P {n}" for n in range(80)), now=NOW
    )
    with django_assert_num_queries(7):  # type: ignore[operator]
        signed_in.get(f"/leagues/{league.pk}/?pasted={paste.pk}")


# The time zone ------------------------------------------------------------


def test_a_time_zone_is_found_by_its_name_in_any_case_or_by_its_city() -> None:
    assert find_time_zone("europe/paris") == "Europe/Paris"
    assert find_time_zone("  new   york ") == "America/New_York"
    assert find_time_zone("UTC") == "UTC"
    with pytest.raises(services.LeagueError, match="no time zone is called Atlantis"):
        find_time_zone("Atlantis")
    with pytest.raises(services.LeagueError, match="type the time zone"):
        find_time_zone(" ")


def test_the_suggested_zones_are_zones_this_machine_knows() -> None:
    assert set(COMMON_TIME_ZONES) <= set(time_zones())


def test_the_league_page_suggests_a_few_zones_not_every_one(
    signed_in: Client, league: League
) -> None:
    page = signed_in.get(f"/leagues/{league.pk}/").content.decode()
    zones = page.split('<datalist id="time-zones">')[1].split("</datalist>")[0]
    assert zones.count("<option") == len(COMMON_TIME_ZONES)
    assert '<select name="time_zone"' not in page
    moved = signed_in.post(f"/leagues/{league.pk}/time-zone", {"time_zone": "denver"})
    assert moved.status_code == 302
    assert League.objects.get(pk=league.pk).time_zone == "America/Denver"
