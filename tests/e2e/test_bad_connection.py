"""A save made while the phone is offline is kept, retried with the same
event id, and recorded once when the connection comes back."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import services
from scorekeeper.models import GameEvent

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_offline_save_says_so_and_is_recorded_once_when_back_online(
    browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer
) -> None:
    game = services.game_create(
        preset="classic",
        seats=["Ann", "Bob", "Cat", "Dan"],
        first_dealer=0,
        now=timezone.now(),
    )
    context = browser.new_context(**browser_context_args)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/join/{game.edit_token}")
        form = page.locator("#record")
        form.get_by_role("group", name="Bidder", exact=True).get_by_label(
            "Bob", exact=True
        ).check()
        form.get_by_role("group", name="Bid", exact=True).get_by_label(
            "3", exact=True
        ).check()
        form.get_by_role("radio", name="spades", exact=True).check()
        form.get_by_role(
            "group", name="Tricks the bidding side took (of 6)"
        ).get_by_label("4", exact=True).check()
        context.set_offline(True)
        form.get_by_role("button", name="Save hand").click()
        expect(page.locator("#connection")).to_contain_text("not saved yet")
        assert GameEvent.objects.count() == 0
        context.set_offline(False)
        expect(page.locator(".side-total")).to_have_text(["2", "4"], timeout=8000)
        expect(page.locator("#connection")).to_be_hidden()
        assert GameEvent.objects.filter(game=game).count() == 1
    finally:
        context.close()
