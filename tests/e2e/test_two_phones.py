"""Two phones at one table: a hand saved on one shows on the other."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.conftest import Looker, classic_game, fill_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_hand_saved_on_one_phone_appears_on_the_other_within_3_seconds(
    browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer
) -> None:
    game = classic_game()
    url = f"{live_server.url}/games/{game.pk}/"
    phones = [browser.new_context(**browser_context_args) for _ in range(3)]
    try:
        ann, dan, tv = (phone.new_page() for phone in phones)
        ann.goto(f"{live_server.url}/join/{game.edit_token}")
        dan.goto(f"{live_server.url}/join/{game.edit_token}")
        tv.goto(f"{live_server.url}/join/{game.view_token}")
        check_two_phones(url, ann, dan, tv)
        check_read_only(url, ann, tv)
    finally:  # stop their polling before the test database goes away
        for phone in phones:
            phone.close()


def check_read_only(url: str, ann: Page, tv: Page) -> None:
    """The read-only screen has no form, its forged POSTs get 403, and it
    loses the game as soon as the links are replaced."""
    expect(tv.locator("#record")).to_have_count(0)
    csrf = next(c["value"] for c in tv.context.cookies() if c["name"] == "csrftoken")
    forged = tv.request.post(
        f"{url}hands",
        form={"expected_seq": "1", "event_id": "x", "action": "pass"},
        headers={"X-CSRFToken": csrf, "Referer": url},
    )
    assert forged.status == 403
    assert "cannot change it" in forged.text()
    ann.locator("details.share summary").click()
    ann.get_by_role("link", name="Replace both links…").click()
    ann.get_by_role("button", name="Replace both links").click()
    # The open read-only screen is told at its next poll, without a reload.
    expect(tv.get_by_role("alert")).to_contain_text(
        "This game's links were replaced: ask the table for the new one", timeout=3000
    )
    Looker(tv, "replaced-link").look("told")
    assert tv.goto(url).status == 410  # type: ignore[union-attr]
    expect(tv.get_by_role("heading", name="This link was replaced")).to_be_visible()


def check_two_phones(url: str, ann: Page, dan: Page, tv: Page) -> None:
    dan.get_by_role("group", name="Bidder", exact=True).get_by_label(
        "Dan", exact=True
    ).check()

    form = ann.locator("#record")
    fill_hand(form, bidder="Bob", bid="3", trump="spades", taken="4")
    form.get_by_label("Entered by").fill("Ann")
    form.get_by_role("button", name="Save hand").click()
    expect(ann.locator(".side-total")).to_have_text(["2", "4"])

    expect(dan.locator(".side-total")).to_have_text(["2", "4"], timeout=3000)
    expect(tv.locator(".side-total")).to_have_text(["2", "4"], timeout=3000)
    expect(dan.locator("#hands li")).to_have_count(1, timeout=3000)
    expect(dan.locator("#record-note")).to_contain_text(
        "Hand 1 was just recorded by Ann."
    )
    # Ann's own phone polls from her own hand on: no note about it.
    ann.wait_for_timeout(2000)
    expect(ann.locator("#record-note")).to_be_hidden()
    # What Dan had started to enter is still there.
    expect(
        dan.get_by_role("group", name="Bidder", exact=True).get_by_label(
            "Dan", exact=True
        )
    ).to_be_checked()
