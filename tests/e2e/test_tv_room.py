"""Issue 33, the TV for the room: a night of 81 players on 20 tables. The
TV, opened by its read-only link (no sign-in), shows every table of the
round on one 1280x720 (and 1920x1080) screen, each with its players and
score in large type; the 80 standings rows run past smoothly, or, with
reduced motion, stand still a page at a time. The organizer makes and
replaces the link on a phone (the old one then answers 404) and hides
the totals for the last round from the desk. The desk uses the whole
width of a laptop and names every player on a phone."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night
from scorekeeper.leagues.tv_link import night_tv_link_new
from tests.e2e.conftest import LIVE, SCREENSHOTS, Looker
from tests.e2e.league import TV, new_screen, sign_in
from tests.e2e.test_night_screens import EIGHTY, PASSWORD
from tests.leagues.nights import play_hand, play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
BIG_TV = {"width": 1920, "height": 1080}
LONG = "Maria Guadalupe Fernández de la Cruz"


@pytest.fixture
def night() -> Night:
    """Round 1 of 81 players: 20 tables (one sits out), a hand at each."""
    user = User.objects.create_user("maria", password=PASSWORD)
    now = timezone.now()
    league = services.league_create(name="Thursday Pepper", organizer=user, now=now)
    for name in [*EIGHTY, LONG]:
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league, name="Autumn", preset="classic", now=now
    )
    night = services.night_create(
        season=season, day=timezone.localdate(), format=Night.PROGRESSIVE, now=now
    )
    for player in league.players.all():
        services.check_in(night=night, player=player, now=now)
    played = rounds.round_start(night=night, rng=random.Random(7), now=now)
    for table in played.tables.select_related("game"):
        play_hand(table.game, bidder_side_takes=3 + table.number % 4)
    return night


def _screen(
    browser: Browser,
    opened: list[BrowserContext],
    size: dict[str, int],
    *,
    still: bool = False,
) -> Page:
    context = browser.new_context(
        viewport=ViewportSize(width=size["width"], height=size["height"]),
        device_scale_factor=1,
        service_workers="block",
        reduced_motion="reduce" if still else "no-preference",
    )
    opened.append(context)
    return context.new_page()


def _every_table_on_the_screen(tv: Page, size: dict[str, int]) -> None:
    cards = tv.locator(".tv-table")
    expect(cards).to_have_count(20)
    for card in cards.all():
        box = card.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
        names = card.locator(".tv-name")
        expect(names).to_have_count(4)
        expect(card.locator(".tv-side-score")).to_have_count(2)
        for name in names.all():  # each on its own line, inside the card
            inner = name.bounding_box()
            assert inner is not None
            assert box["y"] <= inner["y"] and inner["y"] + inner["height"] <= (
                box["y"] + box["height"] + 1
            ), (inner, box)
    # Large type: a name's letters are at least 1/40 of the screen's height.
    size_px = tv.locator(".tv-name").first.evaluate(
        "name => parseFloat(getComputedStyle(name).fontSize)"
    )
    assert size_px >= size["height"] / 40, size_px
    assert not tv.locator(".tv-table[hidden]").count()


def _moving(tv: Page) -> float:
    """How far the standings moved up in a second and a half (px)."""
    before = tv.locator("#tv-standings-rows").bounding_box()
    tv.wait_for_timeout(1500)
    after = tv.locator("#tv-standings-rows").bounding_box()
    assert before and after
    return before["y"] - after["y"]


@pytest.mark.parametrize("size", [TV, BIG_TV], ids=["720p", "1080p"])
def test_the_tv_link_shows_every_table_and_runs_the_standings_past(
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    night: Night,
    size: dict[str, int],
) -> None:
    played = night.rounds.get()
    play_out(played.tables.get(number=1).game)  # a game won, on the screen
    link = f"{live_server.url}/tv/{night_tv_link_new(night=night)}"
    tv = _screen(browser, contexts, size)
    errors: list[str] = []
    tv.on("pageerror", lambda error: errors.append(str(error)))
    tv.goto(link)  # no sign-in
    _every_table_on_the_screen(tv, size)
    # The win is told by more than colour (colour-blind-safe): a tick and
    # bold type, and "(won)" for a screen reader; the other side has none.
    won = tv.locator(".tv-side.won")
    expect(won).to_have_count(1)
    expect(won.locator(".tv-side-score")).to_contain_text("✓")
    expect(won).to_contain_text("(won)")
    assert int(won.evaluate("side => getComputedStyle(side).fontWeight")) >= 700
    expect(tv.locator(".tv-side:not(.won) .tv-side-score", has_text="✓")).to_have_count(
        0
    )
    rows = tv.locator("#tv-standings-rows tr:not([data-copy])")
    expect(rows).to_have_count(80)
    expect(tv.locator("#tv-standings-rows")).to_have_class("scrolling")
    assert _moving(tv) > 5  # smoothly, not a page at a time
    expect(tv.locator("[data-page-note]")).to_have_text("")
    # Each copy of a row is hidden from screen readers: one list is read.
    copies = tv.locator("#tv-standings-rows tr[data-copy]")
    expect(copies).to_have_count(80)
    assert copies.first.get_attribute("aria-hidden") == "true"
    Looker(tv, f"tv-room-{size['width']}", width=size["width"]).look("twenty-tables")
    assert errors == []


def test_with_reduced_motion_the_standings_stand_still_a_page_at_a_time(
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    night: Night,
) -> None:
    tv = _screen(browser, contexts, TV, still=True)
    tv.goto(f"{live_server.url}/tv/{night_tv_link_new(night=night)}")
    _every_table_on_the_screen(tv, TV)
    note = tv.locator("[data-page-note]")
    expect(note).to_have_text(re.compile(r"^page \d+ of \d+$"))
    pages = int((note.text_content() or "").rsplit(" ", 1)[-1])
    shown = tv.locator("#tv-standings-rows tr:visible").count()
    assert pages >= 2 and 0 < shown < 80, (shown, pages)
    assert _moving(tv) == 0
    window = tv.locator(".tv-standings-window").bounding_box()
    assert window is not None
    for row in tv.locator("#tv-standings-rows tr:visible").all():
        box = row.bounding_box()
        assert box and box["y"] + box["height"] <= window["y"] + window["height"] + 1
    assert not tv.locator("#tv-standings-rows tr[data-copy]").count()
    Looker(tv, "tv-room-still", width=TV["width"]).look("page-one")


def test_the_organizer_makes_and_replaces_the_link_on_a_phone(
    page: Page,
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    night: Night,
    looker: Looker,
) -> None:
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.get_by_role("button", name="Make a TV link").click()
    first = page.locator("#tv ~ .link a, section:has(#tv) .link a").first
    old = first.get_attribute("href") or ""
    assert "/tv/" in old
    section = page.locator("section:has(#tv)")
    looker.look("tv-link")
    section.screenshot(path=str(SCREENSHOTS / "tv-link-section-360.png"))
    tv = new_screen(browser, contexts, TV)
    tv.goto(old)
    expect(tv.locator(".tv-table")).to_have_count(20)
    page.get_by_role("button", name="New link (the old one stops working)").click()
    new = page.locator("section:has(#tv) .link a").first.get_attribute("href") or ""
    assert new != old
    # The screen on the old link: "Nothing here" at its next poll.
    expect(tv.get_by_role("heading", name="Nothing here")).to_be_visible(timeout=LIVE)
    assert tv.goto(old).status == 404  # type: ignore[union-attr]
    assert tv.goto(new).status == 200  # type: ignore[union-attr]
    page.goto(new)  # the TV on a phone: one column, nothing cut sideways
    expect(page.locator(".tv-table")).to_have_count(20)
    looker.look("tv-on-a-phone")


def test_the_desk_hides_the_totals_on_the_tv_for_the_last_round(
    page: Page,
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    night: Night,
    looker: Looker,
) -> None:
    tv = new_screen(browser, contexts, TV)
    tv.goto(f"{live_server.url}/tv/{night_tv_link_new(night=night)}")
    expect(tv.locator(".tv-side-score")).to_have_count(40)
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/nights/{night.pk}/desk")
    page.get_by_role("button", name="Hide the totals on the TV (last round)").click()
    expect(page.get_by_role("button", name="Show the totals on the TV")).to_be_visible()
    looker.look("desk-totals-hidden")
    # The TV's next poll: the tables without their scores, no standings.
    expect(tv.get_by_text("Hidden for the last round")).to_be_visible(timeout=LIVE)
    expect(tv.locator(".tv-side-score")).to_have_count(0)
    expect(tv.locator(".tv-name")).to_have_count(80)
    Looker(tv, "tv-room-hidden", width=TV["width"]).look("totals-hidden")
    page.get_by_role("button", name="Show the totals on the TV").click()
    expect(tv.locator(".tv-side-score")).to_have_count(40, timeout=LIVE)


def test_the_desk_uses_a_laptops_width_and_names_everyone_on_a_phone(
    page: Page,
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    night: Night,
    looker: Looker,
) -> None:
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/nights/{night.pk}/desk")
    expect(page.locator(".desk-table")).to_have_count(20)
    for row in page.locator(".desk-names").all():  # both sides, whole
        outer = row.bounding_box()
        assert outer is not None
        for side in row.locator(".side-names").all():
            box = side.bounding_box()
            assert box is not None and box["width"] > 0
            assert box["x"] + box["width"] <= outer["x"] + outer["width"] + 1, (
                side.inner_text()
            )
        assert row.evaluate("names => names.scrollWidth <= names.clientWidth")
    looker.look("desk-phone")

    laptop = new_screen(browser, contexts, TV)
    sign_in(laptop, live_server.url, "maria", PASSWORD)
    laptop.goto(f"{live_server.url}/nights/{night.pk}/desk")
    main = laptop.locator("main").bounding_box()
    tables = laptop.locator("#desk-tables").bounding_box()
    standings = laptop.locator("#desk-standings").bounding_box()
    assert main and tables and standings
    assert main["width"] >= 0.95 * TV["width"], main
    assert standings["x"] >= tables["x"] + tables["width"], (tables, standings)
    assert laptop.locator(".desk-table").first.bounding_box()["y"] < TV["height"]  # type: ignore[index]
    Looker(laptop, "desk-laptop", width=TV["width"]).look("desk-1280")
