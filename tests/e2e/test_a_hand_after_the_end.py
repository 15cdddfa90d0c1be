"""Two phones at a table (360 px): one saves the hand that wins the game
while the other still shows the record form, its poll not answered yet. The
second phone's save is refused in place of the form: what changed, the
refusal in a player's words and the rule that ended the game; nothing is
saved (tests/games/test_a_hand_after_the_end.py has every ending, through the
test client)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.conftest import Looker, fill_hand
from tests.records import new_game, record_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_stale_phone_saving_after_the_win_is_shown_the_refusal_and_its_rule(
    browser: Browser,
    browser_context_args: dict[str, Any],
    contexts: list[BrowserContext],
    live_server: LiveServer,
) -> None:
    game = new_game("classic")  # to 30: Ann & Cat make big pepper, 24 after two
    record_hands(game, timezone.now(), *[(0, "big-pepper", "hearts", [6, 0])] * 2)
    first, second = (_phone(browser, browser_context_args, contexts) for _ in "ab")
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)  # its poll goes out, and no answer comes yet

    second.route("**/poll?*", hold)  # before it opens: no poll hears of hand 3
    errors: list[str] = []
    for phone in (first, second):
        _watch_console(phone, errors)
        phone.goto(f"{live_server.url}/join/{game.edit_token}")

    stale = second.locator("#record")
    fill_hand(stale, bidder="Dan", bid="4", trump="spades", taken="5")
    won = first.locator("#record")
    fill_hand(won, bidder="Ann", bid="big pepper", trump="hearts", taken="6")
    won.get_by_role("button", name="Save hand").click()
    expect(first.locator(".winner")).to_contain_text("Ann & Cat win with 36")
    stale.get_by_role("button", name="Save hand").click()

    alert = second.get_by_role("alert")
    expect(alert.locator("p").first).to_have_text(
        "The game is over: Ann & Cat won after hand 3, so there is no hand after "
        "it. To make it legal: void or correct the winning hand first, or start "
        "a new game."
    )
    expect(alert.locator(".rule-source")).to_have_text("Rule: seed 000 'Game'")
    for shown in (alert, alert.locator(".rule-source")):
        expect(shown).to_be_in_viewport()
    expect(second.locator("#live-note")).to_have_text(
        "Hand 3 was just recorded by the other phone."
    )
    expect(second.locator("#record")).to_have_count(0)
    expect(second.locator(".winner")).to_contain_text("Ann & Cat win with 36")
    Looker(second, "a-hand-after-the-end").look("refused")
    game.refresh_from_db()
    assert game.last_seq == 3  # nothing saved
    # Chromium logs an answer's 409 as an error; anything else is one.
    assert [e for e in errors if "status of 409 (Conflict)" not in e] == []


def _phone(
    browser: Browser, args: dict[str, Any], contexts: list[BrowserContext]
) -> Page:
    context = browser.new_context(**args)
    contexts.append(context)
    return context.new_page()


def _watch_console(page: Page, errors: list[str]) -> None:
    """Every console error and uncaught page error goes into ``errors``."""
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if message.type == "error" else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
