"""Issue 33, the registry: an organizer pastes a club's list of 80
(a spreadsheet's CSV export) into the registry in one go, at 360x740 and
at 1280x720, and is told which names were added, which were there
already and which the name rules refuse; the time zone is typed (its
city) in a short field, not picked among 400. axe checks each page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import services
from scorekeeper.leagues.models import League
from tests.e2e.conftest import PHONE, SCREENSHOTS, Looker
from tests.e2e.league import TV, new_screen, sign_in
from tests.records import NOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pepper nights 2026"


@pytest.mark.parametrize("size", [PHONE, TV], ids=["360", "1280"])
def test_a_club_list_of_eighty_pasted_in_one_go(
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    size: dict[str, int],
) -> None:
    organizer = User.objects.create_user("maria", password=PASSWORD)
    league = services.league_create(
        name="Thursday Pepper", organizer=organizer, now=NOW
    )
    services.player_add(league=league, name="Émile Durand")
    page = new_screen(browser, contexts, size)
    looker = Looker(page, f"registry-paste-{size['width']}", size["width"])
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    rows = [f"Player {number:02d},p{number}@club.example" for number in range(1, 79)]
    rows += ["émile durand,e@club.example", "Bell\u0007 Ringer,b@club.example"]
    page.get_by_text("Paste a list of names").click()
    page.get_by_label("Names, one a line").fill("Name,Email\n" + "\n".join(rows))
    # A double tap: two submissions, answered as one.
    page.get_by_role("button", name="Add these players").dblclick()

    report = page.get_by_role("status")
    expect(report).to_contain_text("Added 78 players: Player 01, Player 02")
    expect(report).to_contain_text(
        "Already in the registry, not added again (1): Émile Durand"
    )
    expect(report).to_contain_text(
        '"Bell\N{REPLACEMENT CHARACTER} Ringer": the name holds a control character'
    )
    expect(page.get_by_role("heading", name="Players (79)")).to_be_visible()
    looker.look("pasted")
    assert League.objects.get().players.count() == 79

    zone = page.get_by_label("Where the league plays")
    zone.fill("chicago")
    page.get_by_role("button", name="Set the time zone").click()
    expect(page.get_by_label("Where the league plays")).to_have_value("America/Chicago")
    page.get_by_label("Where the league plays").fill("Atlantis")
    page.get_by_role("button", name="Set the time zone").click()
    expect(page.get_by_role("alert")).to_contain_text("no time zone is called Atlantis")
    looker.look("time-zone-refused")


def test_a_list_pasted_without_javascript(
    browser: Browser, contexts: list[BrowserContext], live_server: LiveServer
) -> None:
    organizer = User.objects.create_user("maria", password=PASSWORD)
    league = services.league_create(
        name="Thursday Pepper", organizer=organizer, now=NOW
    )
    context = browser.new_context(
        viewport={"width": PHONE["width"], "height": PHONE["height"]},
        java_script_enabled=False,
        service_workers="block",
    )
    contexts.append(context)
    page = context.new_page()
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    page.get_by_text("Paste a list of names").click()
    page.get_by_label("Names, one a line").fill("Ann\nBob\nann")
    page.get_by_role("button", name="Add these players").click()
    expect(page.get_by_role("status")).to_contain_text("Added 2 players: Ann, Bob")
    expect(page.get_by_role("status")).to_contain_text("Listed twice, added once (1)")
    page.get_by_label("Where the league plays").fill("Europe/Oslo")
    page.get_by_role("button", name="Set the time zone").click()
    expect(page.get_by_label("Where the league plays")).to_have_value("Europe/Oslo")
    # axe runs in the page's JavaScript: the pages with it ran it above.
    page.screenshot(path=str(SCREENSHOTS / "registry-paste-no-js.png"), full_page=True)
