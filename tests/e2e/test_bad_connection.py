"""A save made while the phone is offline is kept on the phone (its
outbox), sent with the same event id, and recorded once when the
connection comes back."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import GameEvent
from tests.e2e.conftest import LIVE, classic_game, fill_hand

# The phone's outbox (IndexedDB through idb, installed with npm) is part
# of offline play: a server set up without Node.js has none.
pytestmark = [
    pytest.mark.browser,
    pytest.mark.offline,
    pytest.mark.django_db(transaction=True),
]


def test_an_offline_save_says_so_and_is_recorded_once_when_back_online(
    browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer
) -> None:
    game = classic_game()
    context = browser.new_context(**browser_context_args)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/join/{game.edit_token}")
        form = page.locator("#record")
        fill_hand(form, bidder="Bob", bid="3", trump="spades", taken="4")
        context.set_offline(True)
        form.get_by_role("button", name="Save hand").click()
        # Kept on the phone (this browser runs no service worker, so no
        # engine either: the hand waits as entered), the form on to hand 2.
        status = page.locator("#offline-status")
        expect(status).to_contain_text("1 hand waits to be sent on this phone")
        expect(page.locator("#record-title")).to_have_text("Record hand 2")
        expect(page.locator("#hands > li").first).to_contain_text("not scored yet")
        assert GameEvent.objects.count() == 0
        context.set_offline(False)
        expect(page.locator(".side-total")).to_have_text(["2", "4"], timeout=LIVE)
        expect(page.locator("#connection")).to_be_hidden()
        assert GameEvent.objects.filter(game=game).count() == 1
    finally:
        context.close()
