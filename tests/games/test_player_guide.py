"""The players' guide in the app: *Help* on the start page and each game
page opens docs/players.md rendered, with its pictures served beside it,
and its links to the organizers' guide open that guide's page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.docs.reading import has_every_section
from tests.records import new_game

pytestmark = pytest.mark.django_db
GUIDE = "/help/"


def test_help_is_the_players_markdown_with_its_headings(client: Client) -> None:
    response = client.get(GUIDE)
    assert response.status_code == 200
    page = response.content.decode()
    has_every_section(page, "players.md")
    assert "<title>Help: scoring a game · Pepper</title>" in page
    assert " style=" not in page and "<script>" not in page  # the site's CSP


def test_its_pictures_are_served_beside_it(client: Client) -> None:
    page = client.get(GUIDE).content.decode()
    names = set(re.findall(r'<img [^>]*src="([a-z0-9-]+\.png)"', page))
    assert "game-page.png" in names
    for name in names:
        picture = client.get(f"{GUIDE}{name}")
        assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    assert client.get(f"{GUIDE}README.png").status_code == 404


def test_its_links_to_the_organizers_guide_open_that_page(client: Client) -> None:
    page = client.get(GUIDE).content.decode()
    assert '<a href="/leagues/help/#7-closing-the-night-and-corrections">' in page
    assert "organizers.md" not in page and "contributors.md" not in page


def test_help_is_on_the_start_page_and_the_game_page(client: Client) -> None:
    game = new_game()
    client.get(f"/join/{game.edit_token}")
    for url in ("/", f"/games/{game.pk}/"):
        page = client.get(url).content.decode()
        assert f'href="{GUIDE}">Help</a>' in page, url
