"""Issue 19 at 360x740: an organizer imports an outside season whose games
mix rules and whose players share names, opens the season and a player
of a repeated name, is refused the same file twice, and deletes the
season; a game of 60-character names still fits a phone. axe checks
every page."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.games import services as game_services
from scorekeeper.leagues import services
from scorekeeper.leagues.models import Season
from tests.e2e.conftest import SCREENSHOTS, Looker
from tests.records import NOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
MIXED = (
    Path(__file__).resolve().parents[1]
    / "data"
    / "contract"
    / "mixed-season.league.json"
)
LONG_NAMES = [
    "Maria Guadalupe Fernández de la Cruz y Villanueva-Ortega III",
    "Bartholomew Alexander Montgomery-Fitzwilliam of Low Bunting",
    "Cat",
    "Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewis",
]


def _sign_in(page: Page, url: str) -> None:
    User.objects.create_user("maria", password="pepper nights 2026")
    page.goto(f"{url}/accounts/login")
    page.get_by_label("Username").fill("maria")
    page.get_by_label("Password").fill("pepper nights 2026")
    page.get_by_role("button", name="Sign in").click()


def _import(page: Page) -> None:
    page.get_by_label("Season file").first.set_input_files(str(MIXED))
    page.get_by_role("button", name="Import as a new season").first.click()


def test_an_outside_season_imported_shown_refused_again_and_deleted(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    url = live_server.url
    _sign_in(page, url)
    league = services.league_create(
        name="Thursday Pepper", organizer=User.objects.get(), now=NOW
    )
    page.goto(f"{url}/leagues/{league.pk}/")
    page.get_by_text("Import a season (pepper-league file)").first.click()
    looker.look("import")
    _import(page)
    expect(page.get_by_role("heading", name="Example: a mixed season")).to_be_visible()
    expect(page.locator(".lead")).to_contain_text("Its games mix rules")
    expect(page.get_by_role("link", name="Ann 0 (2)").first).to_be_visible()
    looker.look("season")
    page.screenshot(path=str(SCREENSHOTS / "imported-season-top.png"))
    page.get_by_role("link", name="Ann 0 (2)").first.click()
    expect(page.get_by_role("heading", name="Ann 0 (2)")).to_be_visible()
    looker.look("player-of-a-repeated-name")
    page.screenshot(path=str(SCREENSHOTS / "imported-player-top.png"))

    page.goto(f"{url}/leagues/{league.pk}/")
    page.get_by_text("Import a season (pepper-league file)").first.click()
    _import(page)
    expect(page.get_by_role("alert")).to_contain_text("is in the league already")
    expect(page.locator(".game-meta")).to_have_text(
        "mixed rules: bid-euchre, classic, moon-42; 2 to 6 seats; house rules vary"
    )
    looker.look("refused-twice")
    assert Season.objects.count() == 1

    page.goto(f"{url}/seasons/{Season.objects.get().pk}/")
    page.get_by_role("link", name="Delete this season…").click()
    expect(page.get_by_role("heading", name="Delete the season")).to_be_visible()
    looker.look("delete-asks")
    page.get_by_role("button", name="Delete the season").click()
    expect(page.get_by_role("heading", name="Thursday Pepper")).to_be_visible()
    assert not Season.objects.exists()
    # The refusal answers 422 (the page in words), which Chromium logs.
    assert [e for e in console_errors if "status of 422" not in e] == []


def test_a_game_of_60_character_names_fits_a_phone(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    game = game_services.game_create(
        preset="classic", seats=LONG_NAMES, first_dealer=0, now=timezone.now()
    )
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    bidder = page.get_by_role("group", name="Bidder", exact=True)
    expect(bidder.get_by_label(LONG_NAMES[1], exact=True)).to_be_visible()
    looker.look("game")  # no sideways scrolling at 360 px
    page.screenshot(path=str(SCREENSHOTS / "long-names-game-top.png"))
    for option in bidder.locator("label").all():
        box = option.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] <= 360
    assert console_errors == []
