"""Issue 19: refusals read in a player's words on a phone (360x740): the
hand named, what would make it legal, the rule's source on its own plain
line; never "event N" or "contract §6" in the sentence."""

from __future__ import annotations

import json
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.games import services
from tests.e2e.conftest import Looker
from tests.records import new_game, record_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ENGINE_WORDS = re.compile(r"event \d|contract §|seed \d|\blog:")


def _says(page: Page, words: str) -> None:
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text(words)
    assert not ENGINE_WORDS.search(alert.inner_text())


def test_refusals_on_the_void_correct_and_import_pages(
    page: Page, live_server: LiveServer, looker: Looker
) -> None:
    now = timezone.now()
    game = new_game("moon-42", now=now)
    record_hands(game, now, (1, 4, "hearts", [1, 5]), (2, 4, "spades", [4, 2]))
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    page.goto(f"{live_server.url}/games/{game.pk}/hands/1/void")
    page.get_by_role("button", name="Void hand 1").click()
    _says(page, "Void from the last hand back, or correct hand 1 instead.")
    expect(page.locator(".rule-source")).to_have_text("Rule: seed 001 §5")
    looker.look("void-refused")

    ended = new_game(now=now)  # classic, to 30: Ann & Cat 25, Bob & Dan -1
    record_hands(
        ended, now,
        (0, 3, "hearts", [6, 0]), (2, 3, "hearts", [6, 0]), (0, 3, "hearts", [6, 0]),
        (1, 2, "spades", [1, 5]), (3, 2, "clubs", [6, 0]),
    )  # fmt: skip
    services.game_end(game=ended, expected_seq=5, reason="time", now=now)
    page.goto(f"{live_server.url}/join/{ended.edit_token}")
    page.goto(f"{live_server.url}/games/{ended.pk}/hands/4/correct")
    page.get_by_role("group", name="Tricks the bidding side took (of 6)").get_by_label(
        "0", exact=True
    ).check()
    page.get_by_role("button", name="Save correction").click()
    _says(page, "before the game was ended: a game that was won cannot be ended")
    expect(page.locator(".rule-source")).to_have_text("Rule: contract §6")
    looker.look("correct-refused")

    log = services.game_export(game=ended)
    events = log["events"]
    assert isinstance(events, list)
    events.append({"type": "hand", "passed_out": True})
    page.goto(f"{live_server.url}/games/import")
    page.get_by_role("textbox", name="Log").fill(json.dumps(log))
    page.get_by_role("button", name="Import").click()
    _says(page, "The log was not imported: its 7th event is refused.")
    looker.look("import-refused")
