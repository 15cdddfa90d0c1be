"""Issue "League nights": a whole progressive night in Chromium at 360x740.
The organizer signs up, sets up the season and checks in 8 players; two
tables score round 1 on their own phones; a late arrival makes 9 for round
2, which is called; round 3 is cut short by closing the night; then a
correction after closing, with its reason in the change log, and the
standings."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import services
from scorekeeper.leagues.models import Change, League
from scorekeeper.models import Game
from tests.e2e.conftest import PHONE, SCREENSHOTS, Looker, fill_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DOCS = (
    Path(__file__).resolve().parents[2] / "docs"
    if os.environ.get("UPDATE_DOCS")
    else SCREENSHOTS
)
EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """The tables' phones, closed after the test: a page left open would go
    on polling the live server while later tests run."""
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


def _table_phone(browser: Browser, link: str, opened: list[BrowserContext]) -> Page:
    context = browser.new_context(
        viewport={"width": PHONE["width"], "height": PHONE["height"]}
    )
    opened.append(context)
    phone = context.new_page()
    phone.goto(link)
    return phone


def _record(phone: Page, taken: str) -> None:
    """The seat that bids first takes the bid at 3."""
    turn = phone.get_by_text(re.compile(r"bids first")).inner_text()
    bidder = re.search(r"(\w+) bids first", turn)
    assert bidder is not None
    form = phone.locator("#record")
    fill_hand(form, bidder=bidder.group(1), bid="3", trump="hearts", taken=taken)
    phone.get_by_role("button", name="Save hand").click()
    expect(phone.locator(".saved")).to_be_visible()


def _play_out(phone: Page) -> None:
    """hand_limit 2: the bidders make 6, then are set: the first side wins."""
    _record(phone, "6")
    _record(phone, "0")
    expect(phone.locator(".winner")).to_be_visible()


def _table_links(page: Page, round_number: int) -> list[str]:
    section = page.locator("h3", has_text=f"Round {round_number}").locator(
        "xpath=following-sibling::ul[1]"
    )
    return [a.get_attribute("href") or "" for a in section.locator(".link a").all()]


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
    page.screenshot(path=str(DOCS / "league-check-in.png"), full_page=True)

    # Round 1: two tables score on their own phones.
    page.get_by_role("button", name="Start round 1").click()
    links = _table_links(page, 1)
    assert len(links) == 2
    page.locator("details", has_text="Table link and QR code").first.click()
    looker.look("round-1")
    page.screenshot(path=str(DOCS / "league-round.png"), full_page=True)
    phones = [_table_phone(browser, opened=contexts, link=link) for link in links]
    for phone in phones:
        _play_out(phone)
    phones[0].screenshot(path=str(SCREENSHOTS / "league-table-phone.png"))

    # Round 2: Ivy arrives late; 9 players, one sits out; the round is called.
    page.reload()
    page.get_by_label("Newcomer").fill("Ivy")
    page.get_by_role("button", name="Add and check in").click()
    expect(page.locator(".chip.on")).to_have_count(9)
    page.get_by_role("button", name="Start round 2").click()
    expect(page.get_by_text("Sitting out:")).to_be_visible()
    links = _table_links(page, 2)
    first = _table_phone(browser, opened=contexts, link=links[0])
    _play_out(first)
    second = _table_phone(browser, opened=contexts, link=links[1])
    page.goto(f"{url}/nights/{league.seasons.get().nights.get().pk}/desk")
    expect(page.locator(".desk-table")).to_have_count(2)
    expect(page.locator(".desk-table").nth(1)).to_contain_text("0 hands")
    _record(second, "6")  # the desk follows by its poll
    expect(page.locator(".desk-table").nth(1)).to_contain_text("1 hand", timeout=8000)
    looker.look("desk")
    page.screenshot(path=str(DOCS / "league-desk.png"), full_page=True)
    page.get_by_role("link", name="The night").click()
    page.get_by_role("link", name="Call round 2…").click()
    expect(page.get_by_text("1 game still being played will end now")).to_be_visible()
    page.get_by_role("button", name="Call round 2").click()
    expect(page.get_by_role("heading", name="Round 2 (called)")).to_be_visible()

    # Round 3, cut short: closing the night ends its games.
    page.get_by_role("button", name="Start round 3").click()
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()
    _record(_table_phone(browser, opened=contexts, link=_table_links(page, 3)[0]), "6")
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
    expect(page.locator(".change-log")).to_contain_text(
        "hand 1 voided (Bob misread the bid sheet)"
    )
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
