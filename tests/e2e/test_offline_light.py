"""Issue 32, a lighter engine: a phone that stays online pays for offline
play last. The engine is started once the page has loaded (its scripts
idle), and while it loads an online phone is told nothing of it."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, expect

from tests.e2e.offline import READY, Server, new_phone
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
