"""Every other page, looked at on a phone: axe finds nothing, nothing
scrolls sideways, the console stays clean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.conftest import Looker
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
EXAMPLE = (
    Path(__file__).resolve().parents[1]
    / "data"
    / "contract"
    / "contract-example.log.json"
)


def test_home_rules_verify_and_import_pages(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    game = new_game("bid-euchre", 6, timezone.now(), target_score=40)
    page.goto(live_server.url)
    looker.look("home")
    page.goto(f"{live_server.url}/rules/")
    looker.look("rules")
    _tappable(page, "Referee a trick or a follow-suit")
    page.get_by_role("link", name="moon-42").click()
    expect(page.get_by_role("heading", name="The rules: moon-42")).to_be_visible()
    looker.look("rules-moon-42")
    page.goto(f"{live_server.url}/join/{game.view_token}")
    looker.look("read-only-game")
    page.goto(f"{live_server.url}/games/{game.pk}/tv")
    looker.look("tv")
    page.goto(f"{live_server.url}/games/{game.pk}/rules")
    expect(page.get_by_text("house rule").first).to_be_visible()
    looker.look("game-rules")
    _tappable(page, "Back to the game")
    page.goto(f"{live_server.url}/verify")
    log = json.loads(EXAMPLE.read_text())
    log["events"][1]["trump"] = "clubs"
    page.get_by_label("Log").fill(json.dumps(log))
    page.get_by_role("button", name="Verify").click()
    expect(
        page.get_by_role("heading", name="Refused at the log's 2nd event")
    ).to_be_visible()
    looker.look("verify-refused")
    page.get_by_role("textbox", name="Log").fill(EXAMPLE.read_text())
    page.get_by_role("button", name="Verify").click()
    expect(page.get_by_role("heading", name="The log is legal")).to_be_visible()
    looker.look("verify-legal")
    page.goto(f"{live_server.url}/games/import")
    looker.look("import")
    # The refused log is answered 422 (unprocessable) by design, and Chromium
    # reports that status in the console; nothing else may appear there.
    assert console_errors == [
        "Failed to load resource: the server responded with a status of 422 "
        "(Unprocessable Entity)"
    ]


def _tappable(page: Page, name: str) -> None:
    """A link standing alone on its line is a 44 px tap target."""
    box = page.get_by_role("link", name=name, exact=True).bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44, box
