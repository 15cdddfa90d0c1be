"""Issue 34 on four phones at 360 px: a game is never blocked by a missing
phone. A phone that taps a seat another phone took meanwhile is told so,
and a phone that simply vanishes (its browser gone, still holding its
seat, when it is its turn to call) is got past with "Move to this phone"
on another phone, which then calls and names trump for that seat; the
saved hand's event carries the whole auction."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import GameEvent
from scorekeeper.rules.events import HandRecorded
from scorekeeper.rules.referee import turn_of, verify_auction
from tests.e2e.conftest import LIVE, Looker
from tests.e2e.table import (
    NAMES,
    board_of,
    calls_line,
    expect_seats,
    open_phone,
    open_seats,
    save_outcome,
    sit_down,
    tap,
)
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seat_row(page: Page, name: str) -> Any:
    return page.locator("#table .seat-list li").filter(has_text=f"{name}:")


def test_a_phone_that_vanishes_on_its_turn_hands_its_seat_to_another(
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    contexts: list[BrowserContext],
) -> None:
    game = new_game("classic", now=timezone.now())  # Ann deals, Bob calls first
    link = f"{live_server.url}/join/{game.edit_token}"
    ann, bob, cat, dan = (
        open_phone(browser, browser_context_args, contexts, link) for _ in NAMES
    )
    phones = [ann, bob, cat, dan]
    sit_down(ann, "Ann")
    sit_down(bob, "Bob")
    # Cat's page still offers "I am Dan" when Dan's phone takes that seat.
    open_seats(cat)
    cat.evaluate("document.getElementById('poller').remove()")
    sit_down(dan, "Dan")
    expect(dan.locator("#table")).to_contain_text("Dan: this phone")
    cat.get_by_role("button", name="I am Dan", exact=True).click()
    expect(cat.locator("#table .refusal")).to_have_text(
        "Dan's seat was just taken by another phone. "
        "Tap it again to move it to this phone."
    )
    expect(seat_row(cat, "Dan")).to_contain_text("Dan: on another phone")
    sit_down(cat, "Cat")
    cat.reload()  # its poll back
    expect_seats(phones, dict(zip(NAMES, phones, strict=True)))

    tap(bob, "pass")
    expect(cat.locator("#table")).to_contain_text("Your call, Cat", timeout=LIVE)
    tap(cat, "pass")
    expect(dan.locator("#table")).to_contain_text("Your call, Dan", timeout=LIVE)
    dan.context.close()  # no goodbye: the phone is gone, holding Dan's seat
    for page in (ann, bob, cat):
        expect(page.locator("#table .waiting")).to_have_text(
            "Waiting for Dan's call, on Dan's phone. That phone gone? Open the"
            " seats below and tap Move to this phone beside Dan.",
            timeout=LIVE,
        )
    Looker(ann, "table-vanished-phone").look("waiting-for-a-gone-phone")

    # Cat's phone takes Dan's seat: a phone holds one seat, so Cat's own
    # is left with nobody (any phone calls for it).
    open_seats(cat)
    seat_row(cat, "Dan").get_by_role("button", name="Move to this phone").click()
    expect(cat.locator("#table")).to_contain_text("Dan: this phone")
    expect(cat.locator("#table")).to_contain_text("Your call, Dan")
    Looker(cat, "table-vanished-phone").look("dan-moved-to-cats-phone")
    expect_seats([ann, bob, cat], {"Ann": ann, "Bob": bob, "Cat": None, "Dan": cat})
    tap(cat, "2")
    expect(ann.locator("#table")).to_contain_text("Your call, Ann", timeout=LIVE)
    tap(ann, "pass")
    for page in (ann, bob):
        expect(page.locator("#table")).to_contain_text(
            "Dan won with 2: waiting for Dan to name trump", timeout=LIVE
        )
    cat.locator("#table").get_by_role("button", name="spades").click()
    for page in (ann, bob, cat):
        expect(page.locator("#table")).to_contain_text(
            "Dan bid 2, ♠ trump", timeout=LIVE
        )
    save_outcome(game, bob, "4")

    saved = GameEvent.objects.get(game=game, seq=game.last_seq).payload
    assert saved["auction"] == [[1, "pass"], [2, "pass"], [3, 2], [0, "pass"]]
    board = board_of(game)
    played = board.hands[0]
    assert isinstance(played.hand, HandRecorded) and played.hand.auction
    turn = turn_of(board.variant, board.first_dealer, played.number, False)
    won = verify_auction(board.variant, turn, played.hand.auction)
    assert won == (3, played.hand.bid) and played.hand.bidder == 3  # Dan, 2
    # Hand 2: Cat calls first, and her seat has nobody: any phone calls for her.
    for page in (ann, cat):
        expect(page.locator("#table")).to_contain_text(
            "Cat has no phone: call for Cat", timeout=LIVE
        )
    expect(calls_line(bob)).to_contain_text("Hand 2: Cat …")
