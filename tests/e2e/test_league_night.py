"""Issue "League nights": a whole progressive night in Chromium at 360x740.
The organizer signs up, sets up the season and checks in 8 players; two
tables score round 1 on their own phones; a late arrival makes 9 for round
2, which is called; round 3 is cut short by closing the night; then a
correction after closing, with its reason in the change log, and the
standings."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import services
from scorekeeper.leagues.models import Change, League
from scorekeeper.models import Game
from tests.e2e.conftest import LIVE, SCREENSHOTS, Looker
from tests.e2e.league import (
    DOCS,
    play_out,
    record,
    table_links,
    table_phone,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def test_a_whole_progressive_night_for_nine_players(
    page: Page,
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    looker: Looker,
    console_errors: list[str],
) -> None:
    url = live_server.url
    page.goto(f"{url}/accounts/signup")
    page.get_by_label("Username").fill("maria")
    page.get_by_label("Password", exact=True).fill("pepper nights 2026")
    page.get_by_label("Password again").fill("pepper nights 2026")
    page.get_by_role("button", name="Sign up").click()
    page.get_by_label("New league's name").fill("Thursday Pepper")
    page.get_by_role("button", name="Start a league").click()
    league = League.objects.get()
    for name in EIGHT:  # the registry from earlier seasons
        services.player_add(league=league, name=name)
    page.reload()
    page.get_by_text("New season", exact=True).click()
    page.get_by_label("Name", exact=True).fill("Autumn")
    page.get_by_label("Hands per game").fill("2")
    page.get_by_role("button", name="Create the season").click()
    expect(page.get_by_role("heading", name="Autumn")).to_be_visible()
    page.get_by_label("Date").fill("2026-11-19")
    page.get_by_role("button", name="New night").click()

    # Check-in: tap the names as people arrive.
    for name in EIGHT:
        page.get_by_role("button", name=name, exact=True).click()
    expect(page.locator(".chip.on")).to_have_count(8)
    looker.look("check-in")

    # Round 1: two tables score on their own phones.
    page.get_by_role("button", name="Start round 1").click()
    links = table_links(page, 1)
    assert len(links) == 2
    page.locator("details", has_text="Table link and QR code").first.click()
    looker.look("round-1")
    page.screenshot(path=str(DOCS / "league-round.png"), full_page=True)
    phones = [table_phone(browser, opened=contexts, link=link) for link in links]
    for phone in phones:
        play_out(phone)
    phones[0].screenshot(path=str(SCREENSHOTS / "league-table-phone.png"))

    # Round 2: Ivy arrives late; 9 players, one sits out; the round is called.
    page.reload()
    page.get_by_text("Check in a late arrival, or someone leaving").click()
    page.get_by_label("Newcomer").fill("Ivy")
    page.get_by_role("button", name="Add and check in").click()
    expect(page.locator(".chip.on")).to_have_count(9)
    page.get_by_role("button", name="Start round 2").click()
    expect(page.get_by_text("Sitting out:")).to_be_visible()
    links = table_links(page, 2)
    first = table_phone(browser, opened=contexts, link=links[0])
    play_out(first)
    second = table_phone(browser, opened=contexts, link=links[1])
    page.goto(f"{url}/nights/{league.seasons.get().nights.get().pk}/desk")
    expect(page.locator(".desk-table")).to_have_count(2)
    # The table still playing comes first, the finished one after it.
    expect(page.locator(".desk-table").nth(0)).to_contain_text("0 hands")
    expect(page.locator(".desk-table").nth(1)).to_contain_text("finished")
    expect(page.get_by_role("button", name="Start round 3")).to_be_disabled()
    record(second, "6")  # the desk follows by its poll
    expect(page.locator(".desk-table").nth(0)).to_contain_text("1 hand", timeout=LIVE)
    looker.look("desk")
    # The round's controls are on the desk itself.
    page.get_by_role("link", name="Call round 2…").click()
    expect(page.get_by_text("1 game still being played will end now")).to_be_visible()
    page.get_by_role("button", name="Call round 2").click()
    expect(page.get_by_role("heading", name="Round 2 (called)")).to_be_visible()
    # Every table's round is over: by number; table 2 was called.
    expect(page.locator(".desk-table").nth(1)).to_contain_text("called as it stood")

    # Round 3, cut short: closing the night ends its games.
    page.get_by_role("button", name="Start round 3").click()
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()
    page.get_by_role("link", name="The night", exact=True).click()
    record(table_phone(browser, opened=contexts, link=table_links(page, 3)[0]), "6")
    page.get_by_role("link", name="Close the night…").click()
    expect(page.get_by_text("1 game still being played will end now")).to_be_visible()
    expect(
        page.get_by_text("1 table recorded no hand: it counts for nobody")
    ).to_be_visible()
    page.get_by_role("button", name="Close the night").click()
    expect(page.locator(".lead")).to_contain_text("closed")
    assert Game.objects.filter(finished=False).count() == 1  # the unplayed table
    assert Game.objects.filter(locked=False).count() == 0

    # A table's phone now only reads; the organizer corrects, with a reason.
    phones[0].reload()
    expect(phones[0].locator("#record")).to_have_count(0)
    game_link = page.get_by_role("link", name="Open the game").last  # round 1
    game_link.click()
    page.locator(".hand summary").last.click()
    page.get_by_role("link", name="Void").last.click()
    page.get_by_label("Reason").fill("Bob misread the bid sheet")
    page.get_by_role("button", name="Void hand 1").click()
    change = Change.objects.get()
    assert change.reason == "Bob misread the bid sheet"
    page.goto(f"{url}/nights/{change.night_id}/")
    expect(page.locator(".change-log")).to_contain_text("hand 1 voided")
    expect(page.locator(".change-log")).to_contain_text("(Bob misread the bid sheet)")
    looker.look("closed")

    # The standings: the night's, then the season's, then a player's page.
    expect(page.locator("table.standings").first.locator("tbody tr")).to_have_count(9)
    page.get_by_role("link", name="Autumn").click()
    rows = page.locator("table.standings").first.locator("tbody tr")
    expect(rows).to_have_count(9)
    looker.look("season")
    page.screenshot(path=str(DOCS / "league-standings.png"), full_page=True)
    rows.first.get_by_role("link").click()
    expect(page.get_by_text("games on 1 night")).to_be_visible()
    looker.look("player")
    assert console_errors == []
