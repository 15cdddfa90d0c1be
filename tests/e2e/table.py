"""Four phones at one table in the browser: each player's own phone at
360 px, seated, the auction tapped and the hand saved on them (shared by
the four-phone tests of issue 34)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from scorekeeper.models import Game
from scorekeeper.projections.boards import game_log, scoreboard
from scorekeeper.rules.engine import Scoreboard
from tests.e2e.conftest import LIVE

NAMES = ("Ann", "Bob", "Cat", "Dan")


def board_of(game: Game) -> Scoreboard:
    game.refresh_from_db()
    return scoreboard(game.pk, game_log(game))


def calls_line(page: Page) -> Locator:
    return page.locator("#table .calls-line")


def tap(page: Page, label: str) -> None:
    page.locator("#table .call-choices").get_by_role(
        "button", name=label, exact=True
    ).click()


def open_seats(page: Page) -> None:
    """The seats' list: open by itself on a phone not seated while others
    are; a seated phone (or the first to sit) opens it."""
    if page.locator("#table details.seats").get_attribute("open") is None:
        page.locator("#table summary").click()


def sit_down(page: Page, name: str) -> None:
    """Take ``name``'s seat."""
    open_seats(page)
    page.get_by_role("button", name=f"I am {name}", exact=True).click()


def open_phone(
    browser: Browser,
    browser_context_args: dict[str, Any],
    contexts: list[BrowserContext],
    link: str,
) -> Page:
    """A player's own phone (a browser context of its own) at ``link``."""
    context = browser.new_context(**browser_context_args)
    contexts.append(context)
    page = context.new_page()
    page.goto(link)
    return page


def seat_four_phones(
    browser: Browser,
    browser_context_args: dict[str, Any],
    contexts: list[BrowserContext],
    link: str,
) -> list[Page]:
    """Ann, Bob, Cat and Dan each open ``link`` on their own phone, in turn,
    and take their seat there (each page opened after the last seat was
    taken: a poll never swaps the seats' list under a tap)."""
    phones = []
    for name in NAMES:
        page = open_phone(browser, browser_context_args, contexts, link)
        sit_down(page, name)
        expect(page.locator("#table")).to_contain_text(f"{name}: this phone")
        phones.append(page)
    return phones


def seats_line(page: Page, taken: dict[str, Page | None]) -> str:
    """The seats' line as ``page`` shows it when each name in ``taken`` is
    held by that phone (None: by nobody)."""
    return " · ".join(
        f"{name} ("
        + ("nobody" if held is None else "this phone" if held is page else "a phone")
        + ")"
        for name, held in taken.items()
    )


def expect_seats(phones: list[Page], taken: dict[str, Page | None]) -> None:
    """Every phone, at its next poll, shows each seat held as ``taken`` says."""
    for page in phones:
        expect(page.locator("#table summary")).to_contain_text(
            seats_line(page, taken), timeout=LIVE
        )


def save_outcome(game: Game, page: Page, taken: str) -> None:
    """Any phone enters how the hand went, as today: the bidder, bid and
    trump are already chosen from the auction. Done once the page says
    this hand was saved (a save bar or, once it won the game, the page)."""
    seq, number = game.last_seq, len(board_of(game).rows) + 1
    form = page.locator("#record")
    form.get_by_role("group", name="Tricks the bidding side took (of 6)").get_by_label(
        taken, exact=True
    ).check()
    form.get_by_role("button", name="Save hand").click()
    saved = page.locator("p.saved").filter(
        has_text=re.compile(rf"\bHand {number} saved")  # not "Hand 11 saved"
    )
    expect(saved).to_be_visible(timeout=LIVE)
    game.refresh_from_db()
    assert game.last_seq == seq + 1
