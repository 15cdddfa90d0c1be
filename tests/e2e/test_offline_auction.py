"""Issue 34: with no signal the live auction falls back to today's
one-phone form, and nothing entered is lost. Four phones at 360 px bid
from their seats; the third caller's phone taps its call just as it loses
the signal (the call reaches no server), then the browser goes offline
and the server stops: that phone shows the one-phone record form with the
calls so far and its own tap in the auction line, the hand saved there
waits on the phone, and once the signal is back it is on the server once,
with its whole auction, and on the other phones."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.models import Game
from scorekeeper.rules.events import HandRecorded
from tests.e2e.conftest import LIVE, Looker, fill_hand
from tests.e2e.offline import Server, ready_phone
from tests.e2e.table import NAMES, board_of, calls_line, sit_down, tap
from tests.e2e.test_offline_start import no_signal, signal_back, stored_once
from tests.e2e.test_offline_sync import synced
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seated_phones(
    browser: Browser,
    browser_context_args: dict[str, Any],
    server: Server,
    phones: list[BrowserContext],
    game: Game,
    offline_seat: int,
) -> list[Page]:
    """A phone on each seat; the one at ``offline_seat`` ready to score
    offline (the others never need to)."""
    url = f"{server.url}/join/{game.edit_token}"
    seated = []
    for seat, name in enumerate(NAMES):
        if seat == offline_seat:
            page = ready_phone(browser, phones, url)
        else:
            context = browser.new_context(**browser_context_args)
            phones.append(context)
            page = context.new_page()
            page.goto(url)
        sit_down(page, name)
        expect(page.locator("#table summary")).to_contain_text(f"{name} (this phone)")
        seated.append(page)
    return seated


def test_a_phone_losing_its_signal_mid_auction_records_the_hand_on_its_form(
    browser: Browser,
    browser_context_args: dict[str, Any],
    server: Server,
    phones: list[BrowserContext],
) -> None:
    game = new_game("classic", now=timezone.now())
    turn = board_of(game).next
    assert turn is not None
    first, second, third, dealer = ((turn.first_bidder + n) % 4 for n in range(4))
    seated = seated_phones(
        browser, browser_context_args, server, phones, game, offline_seat=third
    )
    opening = (
        seated[first]
        .locator("#table .call-choices button:not(.pass)")
        .first.inner_text()
    )
    for seat, call in ((first, opening), (second, "pass")):
        expect(seated[seat].locator("#table")).to_contain_text(
            f"Your call, {NAMES[seat]}", timeout=LIVE
        )
        tap(seated[seat], call)
    so_far = f"{NAMES[first]} {opening} · {NAMES[second]} pass · {NAMES[third]} …"
    for page in seated:
        expect(calls_line(page)).to_contain_text(so_far, timeout=LIVE)

    phone = seated[third]
    phone.route("**/table/call", lambda route: route.abort("internetdisconnected"))
    tap(phone, "pass")  # the tap that reached no server
    no_signal(phone.context, server)
    panel, form = phone.locator("#table"), phone.locator("#record")
    expect(panel.get_by_text("No signal")).to_be_visible()
    expect(panel.locator(".call-choices")).to_be_hidden()
    auction = form.get_by_label("The calls in order, from the first bidder")
    expect(auction).to_be_visible()
    expect(auction).to_have_value(f"{opening}, pass, pass")  # the known calls, kept
    Looker(phone, "offline-auction").look("no-signal")

    auction.fill(f"{opening}, pass, pass, pass")  # the dealer passes: typed here
    fill_hand(form, bidder=NAMES[first], bid=opening, trump="hearts", taken="4")
    form.get_by_role("button", name="Save hand").click()
    expect(phone.locator(".badge.queued")).to_have_count(1)
    expect(phone.locator("#offline-status")).to_contain_text("1 hand waits")
    expect(auction).to_have_value("")  # the form moved on to hand 2

    signal_back(phone.context, server)
    synced(phone)
    stored_once(game, 1)
    board = board_of(game)
    hand = board.hands[0].hand
    assert isinstance(hand, HandRecorded) and hand.auction is not None
    assert [(seat, str(call)) for seat, call in hand.auction] == [
        (first, opening),
        (second, "pass"),
        (third, "pass"),
        (dealer, "pass"),
    ]
    for page in seated:  # every phone shows it, and the next hand's auction
        expect(page.locator("#hands > li")).to_have_count(1, timeout=LIVE)
        expect(calls_line(page)).to_contain_text("Hand 2:", timeout=LIVE)
    expect(phone.locator("#table").get_by_text("No signal")).to_be_hidden()
    expect(auction).to_have_value("")  # hand 1's calls are not hand 2's
