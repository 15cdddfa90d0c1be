"""The night's page for a room of 80 (Django's test client): the door
(names by letter, a search that works without JavaScript, a tap that
swaps only that name), last night's players at once, the round's
controls and why they wait, called games shown as called, a 3-handed
table offered, two rooms on one date, and times in the league's zone."""

from __future__ import annotations

import random
import re
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import League, Night, Player, Season
from scorekeeper.models import Game
from tests.leagues.nights import play_hand, play_out, progressive_night
from tests.records import HTMX, NOW

pytestmark = pytest.mark.django_db
THURSDAY = date(2026, 11, 19)


@pytest.fixture
def signed_in(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


def _new_night(season: Season, day: date = THURSDAY, label: str = "") -> Night:
    return services.night_create(
        season=season, day=day, format=Night.PROGRESSIVE, label=label, now=NOW
    )


def _names_on(page: str) -> list[str]:
    """The names of the door's buttons, in the page's order."""
    buttons = re.findall(r'aria-pressed="(?:true|false)">(.*?)</button>', page)
    return [re.sub(r"<[^>]+>|✓ | \(left\)", "", b).strip() for b in buttons]


def test_the_door_lists_names_by_letter_accents_with_their_letters(
    signed_in: Client, season: Season, django_assert_max_num_queries: object
) -> None:
    for name in ["Đặng", "Émile", "Ørjan", "bea"]:
        services.player_add(league=season.league, name=name)
    night = _new_night(season)
    page = signed_in.get(f"/nights/{night.pk}/").content.decode()
    names = _names_on(page)
    assert names == [
        "Ann",
        "bea",
        "Bob",
        "Cat",
        "Dan",
        "Đặng",
        "Émile",
        "Eve",
        "Fay",
        "Gus",
        "Hal",
        "Ivy",
        "Ørjan",
    ]
    assert re.search(r'aria-label="D">\s*<h3 aria-hidden="true">D</h3>', page)


def test_the_search_filters_the_names_without_javascript_and_as_typed(
    signed_in: Client, season: Season
) -> None:
    services.player_add(league=season.league, name="Đặng Văn")
    night = _new_night(season)
    page = signed_in.get(f"/nights/{night.pk}/?q=dang").content.decode()
    assert _names_on(page) == ["Đặng Văn"]
    assert 'value="dang"' in page and "<html" in page  # the whole page, filtered
    typed = signed_in.get(
        f"/nights/{night.pk}/?q=A", headers=HTMX | {"HX-Target": "names"}
    ).content.decode()
    assert _names_on(typed) == ["Ann"]  # names starting so, not all with an "a"
    typed = signed_in.get(
        f"/nights/{night.pk}/?q=va", headers=HTMX | {"HX-Target": "names"}
    ).content.decode()
    assert _names_on(typed) == ["Đặng Văn"]
    assert typed.strip().startswith('<div id="names"') and "<html" not in typed
    none = signed_in.get(f"/nights/{night.pk}/?q=zz").content.decode()
    assert "No name matches “zz”" in none


def test_a_tap_answers_only_that_names_button_and_the_counts(
    signed_in: Client, season: Season, django_assert_max_num_queries: object
) -> None:
    night = _new_night(season)
    ann = Player.objects.get(name="Ann")
    with django_assert_max_num_queries(14):  # type: ignore[operator]
        response = signed_in.post(
            f"/nights/{night.pk}/check-in", {"player": ann.pk}, headers=HTMX
        )
    answer = response.content.decode().strip()
    assert response.status_code == 200
    assert answer.startswith(f'<form id="p-{ann.pk}"')
    assert _names_on(answer) == ["Ann"] and 'aria-pressed="true"' in answer
    assert '<p id="door-counts"' in answer and "1 here" in answer
    assert 'id="round-controls"' in answer and "needs at least 4 players" in answer
    assert "<html" not in answer and "Bob" not in answer
    response = signed_in.post(
        f"/nights/{night.pk}/check-in",
        {"player": ann.pk, "action": "out"},
        headers=HTMX,
    )
    assert "(left)" in response.content.decode()
    assert not night.checkins.get().present


def test_a_tap_without_javascript_comes_back_to_the_same_name(
    signed_in: Client, season: Season
) -> None:
    night = _new_night(season)
    bob = Player.objects.get(name="Bob")
    response = signed_in.post(
        f"/nights/{night.pk}/check-in", {"player": bob.pk, "q": "b"}
    )
    # back at the same name, with Bob's own night's link shown
    assert response["Location"] == f"/nights/{night.pk}/?q=b&in={bob.pk}#p-{bob.pk}"
    assert night.checkins.get().player == bob


def test_everyone_from_last_night_in_one_post(
    signed_in: Client, season: Season
) -> None:
    last = progressive_night(season, THURSDAY - timedelta(days=7))
    services.check_out(night=last, player=Player.objects.get(name="Ivy"))
    services.player_add(league=season.league, name="Zed")
    night = _new_night(season)
    page = signed_in.get(f"/nights/{night.pk}/").content.decode()
    assert "Check in everyone from last night" in page
    assert "9 of the players of Thu 12 Nov are not here yet" in page
    response = signed_in.post(
        f"/nights/{night.pk}/check-in/last-night",
        headers=HTMX | {"HX-Target": "door"},
    )
    door = response.content.decode().strip()
    assert door.startswith('<section id="door"') and "9 here" in door
    assert "Check in everyone from last night" not in door  # nobody left to add
    assert night.checkins.filter(present=True).count() == 9
    first = _new_night(season, THURSDAY - timedelta(days=14))
    refused = signed_in.post(f"/nights/{first.pk}/check-in/last-night")
    assert refused.status_code == 422
    assert "the season&#x27;s first night" in refused.content.decode()
    assert "<html" in refused.content.decode()  # the whole page, without htmx


def test_the_next_round_waits_for_the_last_and_says_why(
    signed_in: Client, season: Season
) -> None:
    night = progressive_night(season)
    signed_in.post(f"/nights/{night.pk}/rounds")
    first, second = Game.objects.all()
    play_out(first)
    play_hand(second)
    page = signed_in.get(f"/nights/{night.pk}/").content.decode()
    assert "Round 1 is still being played (1 of 2 tables unfinished)" in page
    assert re.search(r'value="usual" disabled aria-describedby="why-not-\d+"', page)
    assert "Call round 1…" in page
    refused = signed_in.post(f"/nights/{night.pk}/rounds")
    assert refused.status_code == 422 and night.rounds.count() == 1
    signed_in.post(f"/rounds/{night.rounds.get().pk}/call")
    page = signed_in.get(f"/nights/{night.pk}/").content.decode()
    assert "disabled aria-describedby" not in page
    assert "Round 1 (called)" in page
    assert page.count("<strong>called</strong> as it stood") == 1  # not the other
    assert page.count(", finished: ") == 1


def test_a_three_handed_table_is_offered_and_said_on_the_page(
    signed_in: Client, season: Season
) -> None:
    night = progressive_night(season)
    for name in ["Hal", "Ivy"]:
        services.check_out(night=night, player=Player.objects.get(name=name))
    page = signed_in.get(f"/nights/{night.pk}/").content.decode()
    assert "7 here: 1 table of 4, 3 sit out." in page
    assert "Or seat everyone: 1 table of 4 and 1 table of 3" in page
    signed_in.post(f"/nights/{night.pk}/rounds", {"seating": "three-handed"})
    played = night.rounds.get()
    assert played.sitting_out.count() == 0
    assert sorted(len(t.game.seats) for t in played.tables.all()) == [3, 4]
    page = signed_in.get(f"/nights/{night.pk}/").content.decode()
    assert re.search(r"Table \d plays 3-handed classic: each for himself", page)


def test_two_rooms_on_one_date_are_told_apart(
    signed_in: Client, season: Season
) -> None:
    url = f"/seasons/{season.pk}/"
    signed_in.post(url, {"date": "2026-11-19", "format": "progressive"})
    twice = signed_in.post(url, {"date": "2026-11-19", "format": "progressive"})
    assert twice.status_code == 422
    assert "give this one another room or name" in twice.content.decode()
    signed_in.post(
        url, {"date": "2026-11-19", "format": "progressive", "label": "Back room"}
    )
    page = signed_in.get(url).content.decode()
    assert "Thu 19 Nov 2026 · Back room" in page
    back = season.nights.get(label="Back room")
    assert "Back room" in signed_in.get(f"/nights/{back.pk}/").content.decode()


def test_times_show_in_the_leagues_time_zone(
    signed_in: Client, season: Season, league: League
) -> None:
    night = progressive_night(season)
    rounds.round_start(night=night, rng=random.Random(1), now=NOW)  # 20:00 UTC
    response = signed_in.post(
        f"/leagues/{league.pk}/time-zone", {"time_zone": "Asia/Kolkata"}
    )
    assert response.status_code == 302
    page = signed_in.get(f"/nights/{night.pk}/").content.decode()
    assert ">01:30</time>" in page  # 20:00 UTC is 01:30 in Kolkata
    desk = signed_in.get(f"/nights/{night.pk}/desk").content.decode()
    assert ">01:30</time>" in desk
    league_page = signed_in.get(f"/leagues/{league.pk}/").content.decode()
    assert 'name="time_zone" list="time-zones"' in league_page
    assert 'value="Asia/Kolkata"' in league_page
    refused = signed_in.post(f"/leagues/{league.pk}/time-zone", {"time_zone": "x"})
    assert refused.status_code == 422
    assert "no time zone is called x" in refused.content.decode()
