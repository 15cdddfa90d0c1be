"""The organizers' guide in the app (*Help*), as a phone shows it and as
it prints on A4: read at 360 px with nothing off the screen's side, axe
finding nothing, and printed to a PDF whose pages are kept beside the
screenshots (test-results/screenshots/organizers-guide.pdf)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.conftest import SCREENSHOTS, Looker
from tests.e2e.league import printed_pages, smallest_type

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_new_organizer_opens_help_from_the_leagues_page(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    page.goto(f"{live_server.url}/accounts/signup")
    page.get_by_label("Username").fill("newcomer")
    page.get_by_label("Password", exact=True).fill("a long passphrase")
    page.get_by_label("Password again").fill("a long passphrase")
    page.get_by_role("button", name="Sign up").click()
    page.get_by_role("link", name="Help: running a club night").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Running a club night: the organizers' guide"
    )
    desk = page.get_by_role("img", name="The organizer's desk at 360 px")
    desk.scroll_into_view_if_needed()
    expect(desk).to_be_visible()
    expect(desk).to_have_js_property("naturalWidth", 360)  # served
    looker.look("guide")
    for anchor in (
        "the-night-on-one-page",
        "5-the-desk-and-the-tv",
    ):  # as a phone shows it
        page.goto(f"{live_server.url}/leagues/help/#{anchor}")
        page.screenshot(path=str(SCREENSHOTS / f"guide-360-{anchor}.png"))
    # The list of sections: each link a 44 px tap target.
    sections = page.locator("main li > a[href^='#']")
    assert sections.count() >= 15
    heights = sections.evaluate_all("links => links.map(a => a.offsetHeight)")
    assert min(heights) >= 44, heights
    assert console_errors == []


@pytest.mark.parametrize(
    ("url", "name"),
    [("/leagues/help/", "organizers-guide"), ("/help/", "players-guide")],
)
def test_the_guide_prints_on_a4(
    page: Page, live_server: LiveServer, url: str, name: str
) -> None:
    """On paper: no site menu, type of 9 pt or more, nothing wider than
    the page (a code line, a table, a picture), the pages kept as pictures
    beside the PDF to look at."""
    page.goto(f"{live_server.url}{url}")
    page.emulate_media(media="print")
    expect(page.locator(".top")).to_be_hidden()  # no site menu on paper
    assert smallest_type(page) >= 9
    wider = page.evaluate(
        """() => [...document.querySelectorAll('main pre, main table, main img')]
            .filter(e => e.scrollWidth > e.clientWidth + 1
                || e.getBoundingClientRect().right
                    > document.querySelector('main').getBoundingClientRect().right + 1)
            .map(e => e.outerHTML.slice(0, 80))"""
    )
    assert wider == []
    pages = printed_pages(page, name)
    assert 8 <= pages <= 30, pages


def test_the_guide_on_a_wide_screen(page: Page, live_server: LiveServer) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_server.url}/leagues/help/#5-the-desk-and-the-tv")
    looker = Looker(page, "guide-wide", width=1280)
    looker.look("desk-section")
    page.screenshot(path=str(SCREENSHOTS / "guide-1280-desk.png"))


def test_a_player_opens_help_from_the_start_page_and_reaches_the_organizers(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    """The players' guide at 360 px: its pictures load, nothing off the
    side, and its link to the organizers' guide opens that guide's page at
    the heading it names."""
    page.goto(live_server.url)
    page.get_by_role("link", name="Help").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Scoring a game: the players' guide"
    )
    shot = page.get_by_role("img", name="The game page on a phone, at 360 px")
    shot.scroll_into_view_if_needed()
    expect(shot).to_have_js_property("naturalWidth", 360)  # served
    looker.look("players-guide")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / "players-guide-360-top.png"))
    page.get_by_role("link", name="corrections").first.click()
    expect(page).to_have_url(
        f"{live_server.url}/leagues/help/#7-closing-the-night-and-corrections"
    )
    expect(
        page.get_by_role("heading", name="7. Closing the night, and corrections")
    ).to_be_in_viewport()
    looker.look("organizers-guide-from-players")
    assert console_errors == []
