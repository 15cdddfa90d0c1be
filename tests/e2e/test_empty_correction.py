"""Issue 33 at the table (360x740) and on a laptop (1280x720): a hand of
an open game opened for a correction and saved as it already reads is
refused in a player's words, and nothing is stored; corrected to what it
should have been, it is saved."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import GameEvent
from tests.e2e.conftest import PHONE, Looker, classic_game
from tests.e2e.league import TV, new_screen
from tests.records import record_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [PHONE, TV], ids=["phone", "laptop"])
def test_saving_a_hand_as_it_reads_is_refused_and_stores_nothing(
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    size: dict[str, int],
) -> None:
    game = classic_game()
    now: datetime = timezone.now()
    record_hands(game, now, (0, 3, "hearts", [6, 0]), (1, 2, "spades", [1, 5]))
    page = new_screen(browser, contexts, size)
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    hand_1 = page.locator("#hands li").last  # newest first
    hand_1.locator("summary").click()
    hand_1.get_by_role("link", name="Correct").click()
    expect(page.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    page.get_by_role("button", name="Save correction").click()  # as it reads
    expect(page.get_by_role("alert")).to_contain_text(
        "Nothing to correct: hand 1 already reads so."
    )
    assert GameEvent.objects.filter(game=game).count() == 2
    Looker(page, f"empty-correction-{size['width']}", size["width"]).look("refused")
    page.get_by_role("group", name="Tricks the bidding side took (of 6)").get_by_label(
        "4", exact=True
    ).check()
    page.get_by_role("button", name="Save correction").click()
    expect(page).not_to_have_url(re.compile(r"/correct"))  # back to the game
    expect(page.get_by_role("alert")).to_have_count(0)
    assert GameEvent.objects.filter(game=game).count() == 3
