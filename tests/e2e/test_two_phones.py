"""Two phones at one table: a hand saved on one shows on the other."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import GameEvent
from tests.e2e.conftest import LIVE, SCREENSHOTS, Looker, classic_game, fill_hand
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_hand_saved_on_one_phone_appears_on_the_other_and_on_the_tv(
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

    expect(dan.locator(".side-total")).to_have_text(["2", "4"], timeout=LIVE)
    expect(tv.locator(".side-total")).to_have_text(["2", "4"], timeout=LIVE)
    expect(dan.locator("#hands li")).to_have_count(1, timeout=LIVE)
    # Dan had touched his form: it is fresh for hand 2 (both phones were
    # entering hand 1), the note by its Save bar.
    note = dan.locator("#record .savebar .reaimed")
    expect(note).to_contain_text("Hand 1 was just recorded by Ann.")
    expect(note).to_contain_text("This is a fresh form for hand 2.")
    Looker(dan, "two-phones-fresh").look("fresh-form")
    # Ann's own phone polls from her own hand on: no note about it.
    ann.wait_for_timeout(2000)
    expect(ann.locator("#record-note")).to_be_hidden()
    dans = dan.get_by_role("group", name="Bidder", exact=True).get_by_label(
        "Dan", exact=True
    )
    expect(dans).not_to_be_checked()
    # A different hand after all: the entry comes back.
    note.get_by_role("button", name="That was a different hand: keep my entry").click()
    expect(dans).to_be_checked()


def test_a_touched_form_in_a_pepper_round_is_fresh_at_the_next_hands_forced_bid(
    browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer
) -> None:
    """Issue 19, defect 4: moon-42's first four hands are a pepper round
    (the seat after the dealer must bid 4). A saves hand 1; B taps a trump
    for hand 2; A saves hand 2. B's form now names hand 3 and is valid for
    it: Dan forced to 4, fresh (issue 32: B was entering hand 2 too), the
    totals current, the note by the Save bar; B's trump comes back on
    request; and B's save goes through."""
    game = new_game("moon-42", now=timezone.now())
    phones = [browser.new_context(**browser_context_args) for _ in range(2)]
    try:
        a, b = (phone.new_page() for phone in phones)
        for screen in (a, b):
            screen.goto(f"{live_server.url}/join/{game.edit_token}")
        a_form, b_form = a.locator("#record"), b.locator("#record")
        fill_hand(a_form, trump="hearts", taken="5")  # Bob, forced to 4
        a_form.get_by_role("button", name="Save hand").click()
        expect(b.locator("#record-title")).to_have_text("Record hand 2", timeout=LIVE)
        b_form.get_by_role("radio", name="spades", exact=True).check()  # touched
        fill_hand(a_form, trump="clubs", taken="2")  # Cat, forced to 4
        a_form.get_by_role("button", name="Save hand").click()
        expect(a.locator("#hands li")).to_have_count(2)

        expect(b.locator("#record-title")).to_have_text("Record hand 3", timeout=LIVE)
        bidders = b_form.get_by_role("group", name="Bidder", exact=True)
        expect(bidders.get_by_role("radio")).to_have_count(1)
        expect(bidders.get_by_label("Dan", exact=True)).to_be_checked()
        bids = b_form.get_by_role("group", name="Bid", exact=True)
        expect(bids.get_by_label("4", exact=True)).to_be_checked()
        spades = b_form.get_by_role("radio", name="spades", exact=True)
        expect(spades).not_to_be_checked()  # fresh: B was entering hand 2 too
        totals = a.locator(".side-total").all_inner_texts()
        expect(b.locator(".side-total")).to_have_text(totals)
        bar = b.locator(".savebar")
        expect(bar.locator(".bar-totals")).to_contain_text(" · ".join(totals[:1]))
        for total in totals:
            expect(bar.locator(".bar-totals")).to_contain_text(total)
        note = bar.locator(".reaimed")
        expect(note).to_contain_text("Hand 2 was just recorded")
        expect(note).to_contain_text("fresh form for hand 3")
        expect(note).to_be_in_viewport()  # no scrolling: beside the Save bar
        Looker(b, "pepper-round-phones").look("re-aimed")
        # A different hand: B's trump comes back; Dan's forced bid stays.
        note.get_by_role(
            "button", name="That was a different hand: keep my entry"
        ).click()
        expect(spades).to_be_checked()
        expect(bidders.get_by_label("Dan", exact=True)).to_be_checked()
        b.screenshot(path=SCREENSHOTS / "pepper-round-phone-b-screen.png")

        b_form.get_by_role(
            "group", name="Tricks the bidding side took (of 6)"
        ).get_by_label("4", exact=True).check()
        b_form.get_by_role("button", name="Save hand").click()
        expect(b.locator("#hands li")).to_have_count(3)
        expect(b.locator("#record-title")).to_have_text("Record hand 4")
        expect(b.locator("#record .error")).to_have_count(0)
    finally:
        for phone in phones:
            phone.close()
    hand_3 = GameEvent.objects.get(game=game, seq=3).payload
    assert (hand_3["bidder"], hand_3["bid"], hand_3["trump"]) == (3, 4, "spades")
