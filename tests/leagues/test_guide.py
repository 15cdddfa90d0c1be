"""The organizers' guide in the app: *Help* on the league pages opens
docs/organizers.md rendered, with its pictures, within the site's
Content-Security-Policy; no other file of the checkout is served."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues import services
from scorekeeper.leagues.models import League, Night, Season
from tests.docs.reading import has_every_section
from tests.records import NOW

pytestmark = pytest.mark.django_db
GUIDE = "/leagues/help/"


@pytest.fixture
def signed_in(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


def test_the_guide_is_the_organizers_markdown_with_its_headings(
    client: Client,
) -> None:
    response = client.get(GUIDE)
    assert response.status_code == 200
    page = response.content.decode()
    has_every_section(page, "organizers.md")
    assert "Running a club night" in page


def test_the_page_keeps_to_the_sites_content_security_policy(client: Client) -> None:
    response = client.get(GUIDE)
    page = response.content.decode()
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert " style=" not in page and "<style" not in page
    assert "<script>" not in page  # every script is a file of the site


def test_its_pictures_are_served_beside_it_with_their_size(client: Client) -> None:
    page = client.get(GUIDE).content.decode()
    [desk] = re.findall(r'<img [^>]*src="league-desk.png"[^>]*>', page)
    assert 'width="360"' in desk and 'height="740"' in desk  # no jump as it loads
    assert 'class="shot-phone"' in desk
    picture = client.get(f"{GUIDE}league-desk.png")
    assert picture.status_code == 200
    assert picture["Content-Type"] == "image/png"
    assert b"".join(picture.streaming_content)[:8] == b"\x89PNG\r\n\x1a\n"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "asked",
    ["nope.png", "LEAGUE-desk.png", "..%2Fmanage.png", "README.md", "moved.md"],
)
def test_nothing_but_a_guides_picture_is_served(client: Client, asked: str) -> None:
    assert client.get(f"{GUIDE}{asked}").status_code == 404


def test_a_link_to_the_players_guide_opens_its_page_another_file_its_words_only(
    client: Client,
) -> None:
    page = client.get(GUIDE).content.decode()
    assert "players.md" not in page and "operators.md" not in page
    assert '<a href="/help/">players\' guide</a>' in page
    assert '<a href="/help/#a-double-tap-a-resend-two-phones-at-once">' in page
    assert "<span>The task worker</span>" in page  # the operators' guide


def test_help_is_on_the_league_pages(
    signed_in: Client, league: League, season: Season
) -> None:
    night = services.night_create(
        season=season,
        day=date(2026, 11, 19),
        format=Night.PROGRESSIVE,
        label="",
        now=NOW,
    )
    for url in (
        "/leagues/",
        f"/leagues/{league.pk}/",
        f"/seasons/{season.pk}/",
        f"/nights/{night.pk}/",
        f"/nights/{night.pk}/desk",
    ):
        page = signed_in.get(url).content.decode()
        assert f'href="{GUIDE}' in page, url
