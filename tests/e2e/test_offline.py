"""A table scores with no connection: the page opens from the phone's
service worker, the phone's own engine (Pyodide running the project's
Python) scores each hand, and the outbox joins the game's log when the
connection is back, each hand once, in order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, BrowserType, Page, expect

from tests.e2e.conftest import DOCS, PHONE, Looker, fill_hand
from tests.e2e.offline import (
    ENGINE_LOADS,
    READY,
    Server,
    log_of,
    new_phone,
    open_ready,
    shown,
)
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SYNCED = 60_000  # ms


def record(page: Page, **hand: Any) -> None:
    """Tap a hand into the record form and save it."""
    form = page.locator("#record")
    before = page.locator("#hands > li").count()
    if hand.pop("passed", False):
        form.get_by_role("button", name="Passed out").click()
    else:
        fill_hand(form, **hand)
        form.get_by_role("button", name="Save hand").click()
    expect(page.locator("#hands > li")).to_have_count(before + 1)


def five_hands(page: Page) -> None:
    """Moon-42: a pepper-round hand (Bob forced to 4), a concession, a set
    on clubs, then two hands after the pepper round."""
    expect(page.locator(".forced")).to_have_text("Pepper round: Bob must bid 4")
    record(page, trump="hearts", taken="5")  # Bob & Dan make 4: 1-4
    record(page, trump="spades", free="1")  # Cat's 4 conceded, a free trick
    record(page, trump="clubs", taken="3")  # Dan set on clubs
    record(page, trump="diamonds", taken="5")  # Ann makes 4
    expect(page.locator(".forced")).to_have_count(0)
    record(page, bidder="Cat", bid="5", trump="spades", taken="6")


def cut(mode: str, context: BrowserContext, server: Server) -> None:
    if mode == "offline":
        context.set_offline(True)
    else:
        server.stop()


def restore(mode: str, context: BrowserContext, server: Server) -> None:
    if mode == "offline":
        context.set_offline(False)
    else:
        server.start()


@pytest.mark.parametrize("mode", ["offline", "server-stopped"])
def test_five_hands_offline_through_a_reload_then_each_once_in_order(
    browser: Browser, server: Server, phones: list[BrowserContext], mode: str
) -> None:
    game = new_game("moon-42", now=timezone.now())
    context = new_phone(browser, phones)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_ready(page, f"{server.url}/join/{game.edit_token}")
    cut(mode, context, server)
    page.reload()  # opens from the service worker
    expect(page.locator("#offline-status")).to_contain_text(READY, timeout=ENGINE_LOADS)
    five_hands(page)
    expect(page.locator(".badge.queued")).to_have_count(5)
    expect(page.locator("#offline-status")).to_contain_text("5 hands wait to be sent")
    offline = shown(page)
    looker = Looker(page, f"offline-{mode}")
    page.locator("#hands > li").first.locator("summary").click()
    looker.look("five-queued")
    if mode == "offline":  # the README's picture: the game down to its hands
        bottom = page.locator(".history-hint").evaluate(
            "hint => hint.getBoundingClientRect().bottom + window.scrollY + 16"
        )
        page.screenshot(
            path=str(DOCS / "offline-queued.png"),
            full_page=True,
            clip={"x": 0, "y": 0, "width": PHONE["width"], "height": bottom},
        )
    leagues = context.new_page()
    leagues.goto(f"{server.url}/leagues/")
    expect(leagues.get_by_role("heading", name="No connection")).to_be_visible()
    Looker(leagues, f"offline-{mode}-leagues").look("works-only-online")
    leagues.close()

    restore(mode, context, server)
    expect(page.locator("#offline-status")).to_contain_text(READY, timeout=SYNCED)
    expect(page.locator(".badge.queued")).to_have_count(0)
    events = log_of(page, server, game.pk)
    assert [event["type"] for event in events] == ["hand"] * 5
    assert len({event["id"] for event in events}) == 5
    assert [event["trump"] for event in events] == [
        "hearts",
        "spades",
        "clubs",
        "diamonds",
        "spades",
    ]
    page.reload()  # the server's own page now
    assert shown(page) == offline
    assert errors == []


def test_a_queue_survives_the_browser_closing_and_syncs_when_reopened(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    server: Server,
    tmp_path: Path,
) -> None:
    game = new_game("moon-42", now=timezone.now())
    args = {
        **browser_type_launch_args,
        "viewport": PHONE,
        "service_workers": "allow",
    }
    first = browser_type.launch_persistent_context(tmp_path, **args)
    page = first.pages[0] if first.pages else first.new_page()
    open_ready(page, f"{server.url}/join/{game.edit_token}")
    server.stop()
    page.reload()
    expect(page.locator("#offline-status")).to_contain_text(READY, timeout=ENGINE_LOADS)
    record(page, trump="hearts", taken="5")
    record(page, trump="spades", free="1")
    expect(page.locator("#offline-status")).to_contain_text("2 hands wait")
    first.close()  # the browser is gone, the queue kept on the phone

    server.start()
    second = browser_type.launch_persistent_context(tmp_path, **args)
    try:
        page = second.pages[0] if second.pages else second.new_page()
        page.goto(f"{server.url}/games/{game.pk}/")
        expect(page.locator("#offline-status")).to_contain_text(READY, timeout=SYNCED)
        expect(page.locator(".badge.queued")).to_have_count(0)
        events = log_of(page, server, game.pk)
        assert [event.get("trump") for event in events] == ["hearts", "spades"]
    finally:
        second.close()
