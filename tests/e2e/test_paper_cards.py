"""Issue 19, "Paper", in Chromium: a table's printable score card (on a
phone's screen, and printed on A4 and on Letter, one card a page), then
the round's cards typed in by the organizer: a card of 8 hands at 360x740
with a refused row that stores nothing until it is fixed, and another
table's card at desktop width. axe checks every page."""

from __future__ import annotations

import random
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Locator, Page, PdfMargins, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Round
from scorekeeper.models import Game
from tests.e2e.conftest import SCREENSHOTS, Looker
from tests.leagues.nights import NAMES, progressive_night
from tests.records import NOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CARD = [  # bidder, bid, trump, result: eight hands as the table wrote them
    ("2", "3", "h", "4"),
    ("3", "2", "s", "2"),
    ("", "", "", "p"),
    ("1", "4", "d", "c"),
    ("4", "3", "c", "3"),
    ("2", "2", "n", "1"),
    ("3", "3", "h", "5"),
    ("1", "2", "s", "3"),
]


def _round(hand_limit: int = 8) -> Round:
    organizer = User.objects.create_user("maria", password="pepper nights 2026")
    league = services.league_create(
        name="Thursday Pepper", organizer=organizer, now=NOW
    )
    for name in NAMES[:8]:
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league,
        name="Autumn",
        preset="classic",
        overrides={"hand_limit": hand_limit, "negotiation": True},
        now=NOW,
    )
    night = progressive_night(season)
    return rounds.round_start(night=night, rng=random.Random(4), now=NOW)


def _sign_in(page: Page, url: str) -> None:
    page.goto(f"{url}/accounts/login")
    page.get_by_label("Username").fill("maria")
    page.get_by_label("Password").fill("pepper nights 2026")
    page.get_by_role("button", name="Sign in").click()


MARGINS: PdfMargins = {"top": "10mm", "right": "10mm", "bottom": "10mm", "left": "10mm"}


def _printed(page: Page, paper: str, name: str) -> int:
    """How many sheets of ``paper`` the page prints on, with a browser's
    usual 10 mm margins."""
    pdf = page.pdf(format=paper, margin=MARGINS)
    (SCREENSHOTS / f"paper-{name}-{paper}.pdf").write_bytes(pdf)
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def _type_card(grid: Locator, rows: list[tuple[str, str, str, str]]) -> None:
    """Typed as from the card: a cell, Tab, the next cell."""
    for n, cells in enumerate(rows, start=1):
        for cell, value in zip(
            ("bidder", "bid", "trump", "result"), cells, strict=True
        ):
            grid.get_by_label(f"Hand {n}: {cell}", exact=True).fill(value)


def test_a_score_card_prints_one_to_a_page(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    played = _round(hand_limit=20)  # the longest card: 24 hands
    _sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/nights/{played.night_id}/")
    page.get_by_role("link", name="Score card").first.click()
    card = page.locator(".score-card")
    expect(card).to_have_count(1)
    expect(card.locator(".card-grid tbody tr")).to_have_count(24)
    looker.look("card-screen")
    page.emulate_media(media="print")
    expect(page.locator(".top")).to_be_hidden()
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    page.screenshot(path=str(SCREENSHOTS / "paper-card-print.png"), full_page=True)
    for paper in ("A4", "Letter"):
        assert _printed(page, paper, "card") == 1, paper
    page.goto(f"{live_server.url}/rounds/{played.pk}/cards")
    expect(page.locator(".score-card")).to_have_count(2)
    for paper in ("A4", "Letter"):
        assert _printed(page, paper, "round") == 2, paper  # a card a page
    assert console_errors == []


def test_a_card_of_eight_hands_entered_on_a_phone_then_at_a_desk(
    page: Page,
    browser: Browser,
    live_server: LiveServer,
    looker: Looker,
    console_errors: list[str],
) -> None:
    played = _round()
    first, second = played.tables.select_related("game").order_by("number")
    _sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/nights/{played.night_id}/")
    page.get_by_role("link", name="enter the cards").click()
    grid = page.locator(f"#card-{first.pk}")
    looker.look("enter-empty")

    # Hand 5 mistyped (a bid of 9): the row says why, nothing is stored.
    _type_card(grid, [*CARD[:4], ("4", "9", "c", "3"), *CARD[5:]])
    grid.get_by_role("button", name="Save table 1's card").click()
    problem = grid.locator(".row-problem")
    expect(problem).to_have_count(1)
    expect(problem).to_contain_text("Hand 5: Classic has no bid 9")
    expect(grid.get_by_role("alert")).to_contain_text("Nothing of this card was saved")
    assert Game.objects.get(pk=first.game_id).last_seq == 0
    looker.look("enter-refused")

    grid.get_by_label("Hand 5: bid", exact=True).fill("3")
    grid.get_by_role("button", name="Save table 1's card").click()
    expect(grid.get_by_role("status")).to_have_text("Saved 8 hands of table 1.")
    expect(grid).to_contain_text("Finished: nothing more to enter.")
    game = Game.objects.get(pk=first.game_id)
    assert game.finished and game.hands_played == 8
    looker.look("enter-saved")
    # The refused card is answered 422 by design, which Chromium reports in
    # the console; nothing else may appear there.
    assert console_errors == [
        "Failed to load resource: the server responded with a status of 422 "
        "(Unprocessable Entity)"
    ]

    # The other table's card at a desk: the same grid, wider.
    desk = browser.new_context(
        viewport={"width": 1280, "height": 800}, service_workers="block"
    )
    try:
        wide = desk.new_page()
        _sign_in(wide, live_server.url)
        wide.goto(f"{live_server.url}/rounds/{played.pk}/cards/enter")
        other = wide.locator(f"#card-{second.pk}")
        _type_card(other, CARD)
        wide.screenshot(
            path=str(SCREENSHOTS / "paper-enter-desk-typed.png"), full_page=True
        )
        other.get_by_role("button", name="Save table 2's card").click()
        expect(other.get_by_role("status")).to_have_text("Saved 8 hands of table 2.")
        results = Axe().run(wide)
        assert results.violations_count == 0, results.generate_report()
        wide.screenshot(path=str(SCREENSHOTS / "paper-enter-desk.png"), full_page=True)
    finally:
        desk.close()
    assert Game.objects.get(pk=second.game_id).hands_played == 8
