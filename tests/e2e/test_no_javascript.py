"""Without JavaScript the game page still records a hand: a plain form post,
which under the page's same-origin policy carries the page's real origin
(Django's own CSRF check then passes it as shipped)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Request, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import GameEvent
from tests.e2e.conftest import SCREENSHOTS, classic_game, fill_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_without_javascript_saves_a_hand_through_the_plain_form(
    browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer
) -> None:
    game = classic_game()
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    try:
        page = context.new_page()
        opened = page.goto(f"{live_server.url}/join/{game.edit_token}")
        assert opened is not None and opened.ok
        assert opened.headers["referrer-policy"] == "same-origin"
        posts: list[Request] = []
        page.on("request", lambda r: posts.append(r) if r.method == "POST" else None)

        form = page.locator("#record")
        fill_hand(form, bidder="Bob", bid="3", trump="spades", taken="4")
        form.get_by_role("button", name="Save hand").click()

        expect(page.locator(".side-total")).to_have_text(["2", "4"])
        expect(page.locator("#hands li")).to_have_count(1)
        assert [post.all_headers().get("origin") for post in posts] == [live_server.url]
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "no-javascript-saved.png"))
    finally:
        context.close()
    assert GameEvent.objects.filter(game=game).count() == 1
