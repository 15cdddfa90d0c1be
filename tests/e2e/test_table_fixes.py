"""Issue "The table, on a real phone": its three majors, played in Chromium
at 360x740 as a table would."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import GameEvent
from tests.e2e.conftest import LIVE, Looker, classic_game, fill_hand
from tests.records import new_game, record_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_phone_b_records_hand_3_after_a_recorded_1_and_2_without_a_fresh_form(
    browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer
) -> None:
    game = classic_game()
    phones = [browser.new_context(**browser_context_args) for _ in range(2)]
    try:
        ann, bob = (phone.new_page() for phone in phones)
        for page in (ann, bob):
            page.goto(f"{live_server.url}/join/{game.edit_token}")
        for bidder, taken in (("Bob", "4"), ("Cat", "3")):
            form = ann.locator("#record")
            fill_hand(form, bidder=bidder, bid="3", trump="spades", taken=taken)
            form.get_by_role("button", name="Save hand").click()
            expect(ann.locator("#hands li")).to_have_count(1 if bidder == "Bob" else 2)
        # Bob never touched his form: it has followed the game to hand 3.
        expect(bob.locator("#record-title")).to_have_text("Record hand 3", timeout=LIVE)
        form = bob.locator("#record")
        fill_hand(form, bidder="Dan", bid="4", trump="hearts", taken="4")
        form.get_by_role("button", name="Save hand").click()
        expect(bob.locator("#hands li")).to_have_count(3)
        expect(bob.locator("#record-title")).to_have_text("Record hand 4")
        # His own save: the note of what Ann did before it is old news.
        expect(bob.locator("#record-note")).to_be_hidden()
        Looker(bob, "second-phone").look("hand-3-saved")
    finally:
        for phone in phones:
            phone.close()
    assert GameEvent.objects.filter(game=game).count() == 3


def test_a_touched_form_is_fresh_for_the_next_hand_and_keeps_the_entry_on_request(
    browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer
) -> None:
    game = classic_game()
    phones = [browser.new_context(**browser_context_args) for _ in range(2)]
    try:
        ann, bob = (phone.new_page() for phone in phones)
        for page in (ann, bob):
            page.goto(f"{live_server.url}/join/{game.edit_token}")
        fill_hand(
            bob.locator("#record"), bidder="Dan", bid="4", trump="hearts", taken="2"
        )
        form = ann.locator("#record")
        fill_hand(form, bidder="Bob", bid="3", trump="spades", taken="4")
        form.get_by_role("button", name="Save hand").click()
        expect(bob.locator("#record-title")).to_have_text("Record hand 2", timeout=LIVE)
        note = bob.locator("#record .savebar .reaimed")
        expect(note).to_contain_text("This is a fresh form for hand 2")
        dan = bob.get_by_role("group", name="Bidder", exact=True).get_by_label("Dan")
        expect(dan).not_to_be_checked()  # no phantom hand one tap away
        note.get_by_role(
            "button", name="That was a different hand: keep my entry"
        ).click()
        expect(dan).to_be_checked()
        expect(note).to_contain_text("Your entry is back, now for hand 2")
        bob.locator("#record").get_by_role("button", name="Save hand").click()
        expect(bob.locator("#hands li")).to_have_count(2)
    finally:
        for phone in phones:
            phone.close()
    assert GameEvent.objects.filter(game=game).count() == 2


def test_the_both_reach_banner_names_the_winners_total_and_the_reason(
    page: Any, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    game = new_game("bid-euchre", now=timezone.now())
    hands = [(1, 1, "hearts", [4, 4])] * 12 + [(0, 2, "spades", [2, 6])]
    record_hands(game, timezone.now(), *hands)
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    banner = page.locator(".winner")
    expect(banner).to_contain_text("Ann & Cat win with 50")
    expect(banner).to_contain_text("the bidding side wins when both reach 50")
    expect(banner.get_by_role("link", name=re.compile("^The rule"))).to_contain_text(
        "seed 002"
    )
    expect(banner.get_by_role("link", name="The recap")).to_be_visible()
    expect(page.locator(".side.won .side-name")).to_have_text("Ann & Cat")
    looker.look("both-reach-banner")
    assert console_errors == []
