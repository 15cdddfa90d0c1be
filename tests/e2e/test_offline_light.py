"""Issue 32, a lighter engine: a phone that stays online pays for offline
play last. The engine is started once the page has loaded (its scripts
idle), and while it loads an online phone is told nothing of it. And the
banner writes a time as every page does."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.template import Context, Template
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, expect

from tests.e2e.offline import READY, Server, new_phone
from tests.e2e.test_offline_start import NO_WORKERS
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The engine's worker, watched: the page's state when it is made, and its
# first message (start) held back, as on a slow phone still loading it.
WATCHED = """(() => {
  window.engineMadeWhen = null;
  const Real = window.Worker;
  window.Worker = function (url, options) {
    if (window.engineMadeWhen === null) window.engineMadeWhen = document.readyState;
    const worker = new Real(url, options);
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message, transfer) => setTimeout(() => post(message, transfer), 20000);
    return worker;
  };
})();"""


def test_the_engine_starts_after_the_page_has_loaded(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game = new_game("moon-42", now=timezone.now())
    context = new_phone(browser, phones)
    context.add_init_script(WATCHED)
    page = context.new_page()
    page.goto(f"{server.url}/join/{game.edit_token}")
    # Opened again, the service worker in control: nothing else to wait for.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.reload()
    page.wait_for_function("() => window.engineMadeWhen !== null", timeout=60_000)
    assert page.evaluate("window.engineMadeWhen") == "complete"


def test_an_online_phone_is_not_told_offline_scoring_is_loading(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game = new_game("moon-42", now=timezone.now())
    context = new_phone(browser, phones)
    context.add_init_script(WATCHED)
    page = context.new_page()
    page.goto(f"{server.url}/join/{game.edit_token}")
    page.wait_for_function("() => window.engineMadeWhen !== null", timeout=60_000)
    status = page.locator("#offline-status")
    expect(status).to_be_hidden()
    expect(page.get_by_text(re.compile("loading", re.IGNORECASE))).to_have_count(0)
    expect(status).not_to_contain_text(READY)
    # The same phone with no connection is told how its hands are kept.
    context.set_offline(True)
    expect(status).to_contain_text("No connection: hands you save wait on this phone")


def test_the_banner_writes_the_last_sync_as_every_page_writes_a_time(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """One clock format (tests/web/test_clock.py): the game's pages write a
    time of day with ``clock:"time"``, in UTC, named so. A phone in India
    syncing at 07:05 UTC says so, not 12:35 and not 7:5."""
    game = new_game("moon-42", now=timezone.now())
    at = datetime(2026, 3, 1, 7, 5, tzinfo=UTC)
    context = new_phone(browser, phones, timezone_id="Asia/Kolkata")
    context.add_init_script(NO_WORKERS)
    context.clock.set_fixed_time(at)
    page = context.new_page()
    page.goto(f"{server.url}/join/{game.edit_token}")
    written = Template("{% load clock %}{{ when|clock:'time' }}").render(
        Context({"when": at})
    )
    assert written == "07:05 UTC"
    expect(page.locator("#offline-status")).to_contain_text(f"Last sync {written}.")
