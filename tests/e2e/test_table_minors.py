"""Issue "The table, on a real phone": the minors that live in the page's
script, tapped in Chromium at 360x740, and the README's screenshots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import GameEvent
from tests.e2e.conftest import SCREENSHOTS, Looker, fill_hand
from tests.records import HandSpec, new_game, record_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# The guides' screenshots are rewritten only when asked (UPDATE_DOCS=1), so
# that a test run leaves the tree as it found it.
DOCS = (
    Path(__file__).resolve().parents[2] / "docs"
    if os.environ.get("UPDATE_DOCS")
    else SCREENSHOTS
)


def test_save_stays_in_reach_and_each_save_is_confirmed_with_an_undo(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    game = new_game("moon-42", now=timezone.now())
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    save = page.get_by_role("button", name="Save hand")
    expect(save).to_be_in_viewport()  # the sticky bar, before any scrolling
    form = page.locator("#record")
    fill_hand(form, trump="hearts", taken="5")  # the pepper round fills the rest
    form.get_by_label("Entered by").fill("Ann")
    save.click()
    saved = page.locator(".saved")
    expect(saved).to_have_text("Hand 1 saved: Ann & Cat 1, Bob & Dan 4. Undo")
    expect(saved).to_be_in_viewport()
    expect(form.get_by_label("Entered by")).to_have_value("Ann")  # remembered
    looker.look("saved")
    saved.get_by_role("button", name="Undo").click()
    expect(page.locator(".hands li")).to_have_count(0)
    expect(page.locator("#record-title")).to_have_text("Record hand 1")
    assert GameEvent.objects.filter(type="void").count() == 1
    assert console_errors == []


def test_a_new_bid_clears_a_free_trick_choice_it_hides(
    page: Page, live_server: LiveServer, console_errors: list[str]
) -> None:
    game = new_game("moon-42", now=timezone.now(), pepper_round_hands=0)
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    form = page.locator("#record")
    fill_hand(form, bidder="Bob", bid="4", trump="hearts", free="2")
    form.get_by_role("group", name="Bid", exact=True).get_by_label(
        "6", exact=True
    ).check()
    free = form.get_by_role("group", name="Free tricks granted to the defenders")
    expect(free.get_by_label("2", exact=True)).not_to_be_checked()
    free.get_by_label("0", exact=True).check()  # a 6 may only be thrown in
    form.get_by_role("button", name="Save hand").click()
    expect(page.locator(".hands li")).to_have_count(1)
    assert console_errors == []


def test_three_players_tap_two_counts_and_the_third_is_filled(
    page: Page, live_server: LiveServer, looker: Looker
) -> None:
    game = new_game("classic", players=3, now=timezone.now())
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    form = page.locator("#record")
    form.get_by_role("group", name="Bidder", exact=True).get_by_label("Bob").check()
    form.get_by_role("group", name="Bid", exact=True).get_by_label(
        "3", exact=True
    ).check()
    form.get_by_role("radio", name="spades", exact=True).check()
    form.get_by_role("group", name="Ann took").get_by_label("2", exact=True).check()
    form.get_by_role("group", name="Bob took").get_by_label("5", exact=True).check()
    expect(
        form.get_by_role("group", name="Cat took").get_by_label("1", exact=True)
    ).to_be_checked()
    looker.look("three-players")
    form.get_by_role("button", name="Save hand").click()
    expect(page.locator(".hands li")).to_have_count(1)


def test_who_deals_first_follows_the_names_typed(
    page: Page, live_server: LiveServer, looker: Looker
) -> None:
    page.goto(f"{live_server.url}/games/new")
    for seat, name in enumerate(["Ann", "Bob", "Cat"]):
        page.locator(f"input[name=seat_{seat}]").fill(name)
    dealer = page.get_by_label("Who deals first?")
    options = dealer.locator("option:not([hidden])")
    expect(options).to_have_text(["Ann", "Bob", "Cat"])
    dealer.select_option(label="Cat")
    page.get_by_text("House rules").click()
    looker.look("new-game")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".turn")).to_contain_text("Cat deals")


def test_readme_screenshots_of_the_game_its_chart_and_the_tv(
    page: Page, live_server: LiveServer, looker: Looker
) -> None:
    game = new_game("moon-42", now=timezone.now())
    hands: list[HandSpec] = [
        (1, 4, "hearts", [2, 4]),
        (2, 4, "spades", [4, 2]),
        (3, 4, "clubs", [1, 5]),
        (0, 4, "diamonds", [5, 1]),
        (2, 5, "no-trump", [5, 1]),
        (1, "moon", "hearts", [0, 6]),
        (3, 4, "spades", [3, 3]),
        (0, 6, "clubs", [6, 0]),
    ]
    record_hands(game, timezone.now(), *hands)
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    looker.look("game")
    DOCS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS / "game-page.png"))  # what a phone shows
    page.locator("#chart").screenshot(path=str(DOCS / "score-chart.png"))
    # The league's line charts share the .chart styles: their frame and
    # full-width pictures must not reach the score chart's key swatches.
    swatch = page.locator("#chart .legend svg").first.bounding_box()
    assert swatch is not None and swatch["width"] == 26
    border = page.locator("#chart .chart > svg").evaluate(
        "svg => getComputedStyle(svg).borderTopStyle"
    )
    assert border == "none"
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_server.url}/games/{game.pk}/tv")
    page.screenshot(path=str(DOCS / "tv-view.png"))


# For every comma in the side names: is it the first character on its line?
COMMAS_STARTING_A_LINE = """() => {
  const found = [];
  for (const box of document.querySelectorAll('.side-name')) {
    const text = box.firstChild;
    for (let i = 1; i < text.length; i++) {
      if (text.data[i] !== ',') continue;
      const range = document.createRange();
      range.setStart(text, i - 1); range.setEnd(text, i);
      const before = range.getBoundingClientRect().top;
      range.setStart(text, i); range.setEnd(text, i + 1);
      if (range.getBoundingClientRect().top > before + 2) found.push(box.textContent);
    }
  }
  return found;
}"""


def test_long_names_never_wrap_to_a_line_that_starts_with_a_comma(
    page: Page, live_server: LiveServer, looker: Looker
) -> None:
    from scorekeeper.games import services

    names = [
        "Bartholomew",
        "Christabel",
        "Maximiliane",
        "Fitzgerald",
        "Evangeline",
        "Wilhelmina",
    ]
    game = services.game_create(
        preset="bid-euchre", seats=names, first_dealer=0, now=timezone.now()
    )
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    assert page.evaluate(COMMAS_STARTING_A_LINE) == []
    looker.look("long-names")
