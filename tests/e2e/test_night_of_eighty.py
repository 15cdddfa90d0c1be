"""Issue 19: a club night of 80 players on 20 tables in Chromium. The
organizer checks in all 80 through the door's search box (accents typed
or not), starts round 1 (20 tables), two tables score on their own
phones while the desk (360x740) and the TV (1280x720) follow, the round
is called from the desk, round 2 is played at one table (a late arrival substituting from hand 2)
and called,
round 3 starts and the night is closed from the desk; then a called game
is corrected, with its reason in the night's change log."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues.collation import fold
from scorekeeper.leagues.models import Night
from scorekeeper.models import Game
from tests.e2e.conftest import LIVE, Looker
from tests.e2e.league import (
    DOCS,
    TV,
    new_screen,
    play_out,
    record,
    sign_in,
    table_links,
    table_phone,
    thursday_night,
)
from tests.e2e.test_night_screens import EIGHTY, PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def night() -> Night:
    return thursday_night(PASSWORD, EIGHTY)


def _check_in_through_the_search(page: Page, name: str) -> None:
    """Type the name as someone would (no accents), tap the one found."""
    page.get_by_label("Find a name").fill(fold(name))
    found = page.locator("#names button")
    expect(found).to_have_count(1)
    expect(found).to_have_text(name)
    found.click()
    expect(page.get_by_role("button", name=name, pressed=True)).to_be_visible()


def _desk_rows(page: Page) -> list[str]:
    rows = page.locator(".desk-table .desk-no").all()
    return [(row.text_content() or "").strip() for row in rows]


def test_a_night_of_eighty_players_on_twenty_tables(
    page: Page,
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    looker: Looker,
    night: Night,
    console_errors: list[str],
) -> None:
    url = live_server.url
    sign_in(page, url, "maria", PASSWORD)
    page.goto(f"{url}/nights/{night.pk}/")
    page.evaluate("window.notReloaded = true")

    # The door: 80 names, each found through the search box and tapped.
    for count, name in enumerate(EIGHTY, start=1):
        _check_in_through_the_search(page, name)
        if count == 40:  # the door half-way through, for the README
            page.get_by_label("Find a name").fill("")
            expect(page.locator("#names button")).to_have_count(80)
            looker.look("check-in")
            # From the check-in's heading: the counts and the last player's
            # own QR code, then the names (the tap left the page lower).
            page.locator("#door").evaluate("door => door.scrollIntoView()")
            page.screenshot(path=str(DOCS / "league-check-in.png"))
    expect(page.locator("#door-counts")).to_contain_text("80 here · 0 not here")
    assert page.evaluate("window.notReloaded") is True  # 80 taps, no reload
    expect(page.get_by_text("80 here: 20 tables of 4.")).to_be_visible()

    # Round 1: 20 tables, nobody sitting out; two tables score on phones.
    page.get_by_role("button", name="Start round 1", exact=True).click()
    links = table_links(page, 1)
    assert len(links) == 20 and not page.get_by_text("Sitting out").count()
    first = table_phone(browser, links[0], contexts)
    play_out(first)
    second = table_phone(browser, links[1], contexts)
    record(second, "6")

    # The desk on the organizer's phone: the finished table at the end.
    page.get_by_role("link", name="Desk", exact=True).click()
    expect(page.locator(".desk-table")).to_have_count(20)
    rows = _desk_rows(page)
    assert rows[-1] == "Table 1" and rows[:2] == ["Table 2", "Table 3"]
    expect(page.locator("#desk-standings")).to_contain_text("live")
    looker.look("desk")
    page.screenshot(path=str(DOCS / "league-desk.png"))

    # The TV for the room, with the night's standings as they stand.
    tv = new_screen(browser, contexts, TV)
    sign_in(tv, url, "maria", PASSWORD)
    tv.goto(f"{url}/nights/{night.pk}/tv")
    expect(tv.locator(".tv-table:visible")).to_have_count(20)  # all at once
    expect(tv.get_by_text("Live: games in play count as they stand.")).to_be_visible()
    expect(tv.locator("#tv-standings-rows tr")).to_have_count(8)
    Looker(tv, "night-of-eighty-tv", width=TV["width"]).look("tv")
    record(second, "0")  # the TV follows by its poll
    expect(tv.locator(".tv-table").nth(1)).to_contain_text("final", timeout=LIVE)

    # Round 1 is called from the desk; round 2 starts there.
    record(table_phone(browser, links[2], contexts), "6")
    expect(page.get_by_role("button", name="Start round 2")).to_be_disabled()
    page.get_by_role("link", name="Call round 1…").click()
    expect(page.get_by_text("1 game still being played will end now")).to_be_visible()
    expect(page.get_by_text("17 tables recorded no hand")).to_be_visible()
    page.get_by_role("button", name="Call round 1").click()
    expect(page.get_by_role("heading", name="Round 1 (called)")).to_be_visible()
    expect(page.locator(".desk-table").nth(2)).to_contain_text("called as it stood")
    expect(page.locator(".desk-table").nth(3)).to_contain_text("not played")
    page.get_by_role("button", name="Start round 2", exact=True).click()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(page.locator(".desk-table")).to_have_count(20)

    # Round 2: one table plays out on its phone, with a substitute from
    # hand 2 (a late arrival takes the seat of a player who leaves).
    page.get_by_role("link", name="The night", exact=True).click()
    sixth = table_phone(browser, table_links(page, 2)[5], contexts)
    record(sixth, "6")
    page.get_by_text("Check in a late arrival, or someone leaving").click()
    page.get_by_label("Newcomer").fill("Nadia Quill")
    page.get_by_role("button", name="Add and check in").click()
    expect(page.locator("#door-counts")).to_contain_text("81 here")
    page.get_by_role("link", name="Substitute…").nth(5).click()  # table 6
    leaving = page.get_by_role("group", name="Who leaves").locator("label").first
    started = leaving.inner_text()
    leaving.click()
    page.get_by_label("A player here tonight").select_option(label="Nadia Quill")
    page.get_by_role("button", name="Seat the substitute").click()
    expect(page.locator(".substitutions")).to_contain_text("Nadia Quill")
    sixth.reload()
    record(sixth, "0")
    expect(sixth.locator(".winner")).to_be_visible()
    page.get_by_role("link", name="Desk", exact=True).click()
    expect(page.locator(".desk-table", has_text="finished").first).to_contain_text(
        f"{started} → Nadia Quill from hand 2"
    )
    page.get_by_role("link", name="Call round 2…").click()
    page.get_by_role("button", name="Call round 2").click()
    page.get_by_role("button", name="Start round 3", exact=True).click()
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()

    # Closing from the desk: every table's link only reads from now on.
    page.get_by_role("link", name="Close the night…").click()
    expect(page.get_by_text("20 tables recorded no hand")).to_be_visible()
    page.get_by_role("button", name="Close the night").click()
    expect(
        page.get_by_role("heading", name="Round 3 (called) · night closed")
    ).to_be_visible()
    assert Game.objects.filter(table__round__night=night, locked=False).count() == 0
    first.reload()
    expect(first.locator("#record")).to_have_count(0)

    # A called game is corrected after closing (the engine allows a fix
    # after its end): round 1's table 3 stays called, its winners redone.
    called = Game.objects.get(
        table__round__night=night, table__round__number=1, table__number=3
    )
    page.goto(f"{url}/join/{called.edit_token}")
    page.locator(".hand summary").last.click()
    page.get_by_role("link", name="Void").last.click()
    page.get_by_label("Reason").fill("Wrong table's score sheet")
    page.get_by_role("button", name="Void hand 1").click()
    called.refresh_from_db()
    assert called.finished and called.totals == [0, 0]  # ended, level now

    page.goto(f"{url}/nights/{night.pk}/")
    expect(page.locator(".lead")).to_contain_text("closed")
    log = page.locator(".change-log")
    expect(log).to_contain_text("round 1 table 3: hand 1 voided")
    expect(log).to_contain_text("(Wrong table's score sheet)")
    standings = page.locator("table.standings").first.locator("tbody tr")
    expect(standings).to_have_count(16)  # round 1: 3 tables, round 2: 1
    looker.look("closed")
    assert console_errors == []
