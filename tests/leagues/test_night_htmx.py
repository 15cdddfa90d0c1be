"""Issue 24 item 12: an htmx request (``HX-Request: true``) to any of a
night's pages, or a refused night action, answers a page or a partial that
exists, never a 500."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues.models import Night, Season
from tests.leagues.nights import play_hand, progressive_night
from tests.records import HTMX

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(client: Client, organizer: User, season: Season) -> Night:
    client.force_login(organizer)
    found = progressive_night(season)
    client.post(f"/nights/{found.pk}/rounds")
    return found


def _night_gets(night: Night) -> list[str]:
    played = night.rounds.get()
    return [
        f"/nights/{night.pk}/",
        f"/nights/{night.pk}/?q=an",
        f"/nights/{night.pk}/sheet",
        f"/nights/{night.pk}/desk",
        f"/nights/{night.pk}/desk?v=stale",
        f"/nights/{night.pk}/tv",
        f"/nights/{night.pk}/tv?v=stale",
        f"/nights/{night.pk}/teams",
        f"/nights/{night.pk}/close",
        f"/nights/{night.pk}/standings.csv",
        f"/rounds/{played.pk}/call",
    ]


def test_every_night_page_answers_an_htmx_request(client: Client, night: Night) -> None:
    for url in _night_gets(night):
        response = client.get(url, headers=HTMX)
        assert response.status_code in (200, 204), url


def test_refused_night_actions_answer_an_htmx_request_in_words(
    client: Client, night: Night
) -> None:
    from scorekeeper.models import Game

    play_hand(Game.objects.first())  # type: ignore[arg-type]
    refused = [
        (f"/nights/{night.pk}/rounds", {}, "still being played"),
        (f"/nights/{night.pk}/check-in", {"player": "0"}, "choose a player"),
        (f"/nights/{night.pk}/check-in", {"player": "x" * 40}, "choose a player"),
        (f"/nights/{night.pk}/newcomer", {"name": "ann"}, "already a player"),
        (f"/nights/{night.pk}/teams", {"x": "1"}, "partners rotate"),
    ]
    for url, data, words in refused:
        response = client.post(url, data, headers=HTMX)
        assert response.status_code == 422, url
        assert words in response.content.decode(), url


def test_an_htmx_request_for_any_part_of_the_night_gets_one_that_exists(
    client: Client, night: Night
) -> None:
    for target in ("names", "door", "live", "rounds", "x" * 300):
        response = client.get(
            f"/nights/{night.pk}/", headers=HTMX | {"HX-Target": target}
        )
        assert response.status_code == 200, target


def test_every_league_page_answers_an_htmx_request(
    client: Client, night: Night
) -> None:
    season = night.season
    player = season.league.players.first()
    assert player is not None
    urls = [
        "/leagues/",
        f"/leagues/{season.league_id}/",
        f"/seasons/{season.pk}/",
        f"/seasons/{season.pk}/season.json",
        f"/seasons/{season.pk}/standings.csv",
        f"/seasons/{season.pk}/hands.csv",
        f"/players/{player.pk}/",
    ]
    for url in urls:
        assert client.get(url, headers=HTMX).status_code == 200, url
