"""Issue "House rules": games under a house's own rules, and a game ended
early, recorded through the pages on a phone."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import Game
from tests.e2e.conftest import Looker, fill_hand
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def save(page: Page, **hand: str) -> None:
    form = page.locator("#record")
    title = form.locator("#record-title").inner_text()
    fill_hand(form, **hand)
    form.get_by_role("button", name="Save hand").click()
    expect(page.locator(".hands li").first).not_to_have_text(title)


def test_a_game_under_stick_the_dealer_a_minimum_bid_and_a_hand_limit(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    page.goto(f"{live_server.url}/games/new")
    for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        page.locator(f"input[name=seat_{seat}]").fill(name)
    page.get_by_text("House rules").click()
    expect(page.get_by_label("Points to win")).to_have_value("30")  # the preset's
    page.get_by_label("Stick the dealer").select_option("yes")
    page.get_by_label("Lowest bid").select_option("3")
    page.get_by_label("Hand limit").fill("3")
    looker.look("house-rules")
    page.get_by_role("button", name="Start the game").click()
    game = Game.objects.get()
    assert game.overrides == {
        "stick_the_dealer": True,
        "minimum_bid": 3,
        "hand_limit": 3,
    }

    bids = page.get_by_role("group", name="Bid", exact=True)
    expect(bids.get_by_label("2", exact=True)).to_have_count(0)  # under the minimum
    expect(page.get_by_role("button", name="Passed out")).to_have_count(0)
    save(page, bidder="Bob", bid="3", trump="spades", taken="4")  # 2-4
    save(page, bidder="Cat", bid="4", trump="hearts", taken="5")  # 7-5
    looker.look("mid-game")
    save(page, bidder="Dan", bid="3", trump="clubs", taken="2")  # 11-(-1): hand 3
    banner = page.locator(".winner")
    expect(banner).to_contain_text("Ann & Cat win with 11: the game ends after 3 hands")
    expect(banner.get_by_role("link", name=re.compile("^The rule"))).to_contain_text(
        "house rule"
    )
    looker.look("hand-limit-won")
    assert console_errors == []


def test_a_game_ended_early_by_the_clock(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    game = new_game("moon-42", now=timezone.now())
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    save(page, trump="hearts", taken="5")  # Bob & Dan 4, Ann & Cat 1
    page.get_by_role("link", name="End the game now…").click()
    expect(page.get_by_role("heading", name="End the game now?")).to_be_visible()
    expect(page.get_by_text("today that is Bob & Dan (4)")).to_be_visible()
    page.get_by_label("Why (shown in the history)").fill("the round was called")
    looker.look("end-confirm")
    page.get_by_role("button", name="End the game").click()
    expect(page.locator(".winner")).to_contain_text(
        "Bob & Dan win with 4: the game was ended as it stood (the round was called)"
    )
    expect(page.locator(".ended-note")).to_contain_text("The game was ended by")
    expect(page.locator("#record")).to_have_count(0)
    looker.look("ended")
    assert console_errors == []


def test_the_next_game_starts_from_the_same_rules_as_last_time(
    page: Page, live_server: LiveServer
) -> None:
    page.goto(f"{live_server.url}/games/new")
    page.get_by_label("moon-42").check()
    for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        page.locator(f"input[name=seat_{seat}]").fill(name)
    page.get_by_text("House rules").click()
    expect(page.get_by_label("Points to win")).to_have_value("42")
    page.get_by_label("Points to win").fill("21")
    page.get_by_label("Save these rules as").fill("Short nights")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".turn")).to_be_visible()
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Same rules as last time").click()
    expect(page.get_by_label("moon-42")).to_be_checked()
    expect(page.get_by_label("Points to win")).to_have_value("21")
    page.get_by_label("Start from a saved rule set").select_option("Short nights")
    expect(page.get_by_label("Points to win")).to_have_value("21")
