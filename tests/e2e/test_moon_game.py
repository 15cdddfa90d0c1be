"""A moon-42 game played to a win on a phone, as four friends would."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.gamelog import read_and_replay
from tests.e2e.conftest import Looker, fill_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def record(page: Page, **hand: Any) -> None:
    """Fill the record form (as ``fill_hand`` takes it) and save it."""
    form = page.locator("#record")
    number = form.get_by_role("heading").inner_text()
    fill_hand(form, **hand)
    form.get_by_role("button", name="Save hand").click()
    expect(page.locator("#record h2")).not_to_have_text(number)


def totals(page: Page) -> list[str]:
    return page.locator(".side-total").all_inner_texts()


def test_a_moon_42_game_from_the_pepper_round_to_a_win(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    page.goto(f"{live_server.url}/games/new")
    looker.look("new-game")
    page.get_by_label("moon-42").check()
    for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"], start=1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").click()

    expect(page.locator(".forced")).to_have_text("Pepper round: Bob must bid 4")
    expect(page.get_by_role("button", name="Passed out")).to_have_count(0)
    looker.look("pepper-round")
    record(page, trump="hearts", taken="5")  # Bob & Dan make 4: 1-4
    record(page, trump="spades", free="1")  # Cat's 4 conceded with a free trick: 5-5
    page.get_by_role("radio", name="clubs", exact=True).check()
    expect(
        page.get_by_text("With clubs trump the hand must be played.")
    ).to_be_visible()
    expect(page.locator(".outcome-conceded")).to_be_hidden()
    record(page, trump="clubs", taken="3")  # Dan set on clubs: 8-1
    record(page, trump="diamonds", taken="5")  # Ann makes 4: 12-2
    assert totals(page) == ["12", "2"]

    expect(page.locator(".forced")).to_have_count(0)
    page.get_by_role("button", name="Passed out").click()
    expect(page.locator("#record h2")).to_have_text("Record hand 6")
    record(
        page, bidder="Cat", bid="double moon", trump="no-trump", taken="6"
    )  # 26 to -12
    record(page, bidder="Ann", bid="5", trump="spades", taken="4")  # Ann set: 21 to -10
    assert totals(page) == ["21", "−10"]
    looker.look("mid-game")

    page.locator(".hand").first.locator("summary").click()
    page.locator(".hand").first.get_by_role("link", name="Void").click()
    looker.look("void-confirm")
    page.get_by_label("Why?").fill("wrong suit")
    page.get_by_role("button", name="Void hand 7").click()
    assert totals(page) == ["26", "−12"]
    expect(page.get_by_text("voided by")).to_be_visible()

    page.locator(".hand").last.locator("summary").click()
    page.locator(".hand").last.get_by_role("link", name="Correct").click()
    looker.look("correct")
    page.get_by_role("group", name="Tricks the bidding side took (of 6)").get_by_label(
        "6", exact=True
    ).check()
    page.get_by_label("Entered by").fill("Dan")
    page.get_by_role("button", name="Save correction").click()
    assert totals(page) == ["21", "−12"]  # Ann & Cat shut out in hand 1 now: -4, not +1

    record(
        page, bidder="Ann", bid="double moon", trump="hearts", taken="6"
    )  # 35 to -26
    record(page, bidder="Cat", bid="6", trump="clubs", taken="6")  # 41 to -32
    record_last = page.locator("#record")
    fill_hand(record_last, bidder="Ann", bid="4", trump="hearts", taken="4")
    record_last.get_by_role("button", name="Save hand").click()
    expect(page.locator(".winner")).to_contain_text("Ann & Cat win with 45")
    expect(page.locator("#record")).to_have_count(0)
    expect(page.get_by_role("link", name="End the game now…")).to_have_count(0)
    looker.look("won")

    shown = [int(text.replace("−", "-")) for text in totals(page)]
    game_url = page.url
    log = page.request.get(f"{game_url}log.json").json()
    _, board = read_and_replay(json.dumps(log))
    assert list(board.totals) == shown == [45, -30]
    assert board.winners == (0,)
    assert console_errors == []
