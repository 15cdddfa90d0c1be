"""Issue 33, check-in at the door: a player scans the night's QR code,
picks their name and lands on their own night's page; the same form
sent twice stores one check-in; a name already checked in is told so
(and gets no link); the organizer can turn it off."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues import services
from scorekeeper.leagues.models import CheckIn, Night, Season
from tests.records import NOW

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(season: Season) -> Night:
    return services.night_create(
        season=season, day=NOW.date(), format=Night.PROGRESSIVE, now=NOW
    )


def _door(client: Client, night: Night, player: int, once: str = "k" * 22) -> str:
    response = client.post(
        f"/door/{night.door_token}", {"player": player, "once": once}
    )
    assert response.status_code in (302, 422), response.status_code
    return (
        response["Location"]
        if response.status_code == 302
        else (response.content.decode())
    )


def test_a_player_picks_their_name_and_lands_on_their_own_night(
    client: Client, night: Night
) -> None:
    page = client.get(f"/door/{night.door_token}").content.decode()
    assert "Find your name" in page and "Ann" in page and "Ivy" in page
    ann = night.season.league.players.get(name="Ann")
    landed = _door(client, night, ann.pk)
    checkin = CheckIn.objects.get(night=night, player=ann)
    assert landed == f"/me/{checkin.token}" and checkin.present


def test_a_double_tap_stores_one_check_in_and_lands_on_the_same_page(
    client: Client, night: Night
) -> None:
    bob = night.season.league.players.get(name="Bob")
    first, second = _door(client, night, bob.pk), _door(client, night, bob.pk)
    assert first == second and first.startswith("/me/")
    assert night.checkins.count() == 1


def test_a_name_already_checked_in_is_told_so_without_the_link(
    client: Client, night: Night
) -> None:
    cat = night.season.league.players.get(name="Cat")
    made = services.check_in(night=night, player=cat, now=NOW)
    answer = _door(client, night, cat.pk, once="z" * 22)
    assert "Cat is already checked in tonight" in answer
    assert made.token not in answer and night.checkins.count() == 1


def test_the_organizer_can_turn_the_door_off(
    client: Client, organizer: User, night: Night
) -> None:
    client.force_login(organizer)
    client.post(f"/nights/{night.pk}/door", {"door": "off"})
    night.refresh_from_db()
    assert not night.self_check_in
    client.logout()
    assert "Check-in is at the desk tonight" in (
        client.get(f"/door/{night.door_token}").content.decode()
    )
    dan = night.season.league.players.get(name="Dan")
    answer = _door(client, night, dan.pk)
    assert "Check-in at the door is off tonight: ask at the desk." in answer
    assert not night.checkins.exists()


def test_an_unknown_door_is_not_found(client: Client, night: Night) -> None:
    assert client.get("/door/" + "x" * 32).status_code == 404


def test_the_door_page_reads_a_few_rows_whatever_the_league(
    client: Client, night: Night, django_assert_num_queries: object
) -> None:
    for number in range(40):
        services.player_add(league=night.season.league, name=f"P{number}")
    with django_assert_num_queries(3):  # type: ignore[operator]
        client.get(f"/door/{night.door_token}")
