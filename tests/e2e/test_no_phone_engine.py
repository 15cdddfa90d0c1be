"""A server set up without Node.js, as a phone sees it at 360 px: the
start page says offline play is off and why, and a game scores online."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import GameEvent
from scorekeeper.web import installable
from scorekeeper.web.offline_files import UNBUILT
from tests.e2e.conftest import Looker, classic_game, fill_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_start_page_says_offline_play_is_off_and_a_game_still_scores(
    page: Page,
    live_server: LiveServer,
    looker: Looker,
    console_errors: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(installable, "offline_missing", lambda: UNBUILT)
    page.goto(live_server.url)
    expect(page.locator("#offline-off")).to_contain_text(
        "Offline play is off on this server"
    )
    looker.look("start-page")
    game = classic_game()
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    fill_hand(page.locator("#record"), bidder="Bob", bid="3", trump="spades", taken="4")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#record-title")).to_have_text("Record hand 2")
    assert GameEvent.objects.filter(game=game).count() == 1
    looker.look("game-online")
    assert console_errors == []
