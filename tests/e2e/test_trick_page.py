"""A dispute at the table: who won that trick? Tapped on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.conftest import Looker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_tapping_a_trick_names_the_left_bower_as_the_winner(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    page.goto(f"{live_server.url}/trick")
    page.get_by_role("radio", name="hearts", exact=True).check()
    for card in ("9♥", "J♦", "A♥"):
        page.get_by_role("button", name=card, exact=True).click()
        expect(page.locator(".trick li").last).to_have_text(card)
    verdict = page.locator(".verdict").first
    expect(verdict).to_contain_text("J♦ wins (card 2)")
    expect(verdict).to_contain_text("JD is the left bower")
    looker.look("left-bower")
    page.get_by_role("button", name="Undo last card").click()
    expect(page.locator(".trick li")).to_have_count(2)
    page.get_by_label("The card led").fill("JD")
    page.get_by_label("Your hand").fill("AH, 9D, JH")
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_text("You must follow:")).to_be_visible()
    looker.look("follow-suit")
    assert console_errors == []
