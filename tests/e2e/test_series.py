"""Issue 34, a series on two phones at 360 px: best of 3 started from the
new-game form, game 1 won, "Start game 2" tapped twice on one phone and
once on the other (one game 2, dealt on around the table), the series
won and named with its rule, the recap on screen and on paper; the logs
those games made pass ``manage.py replay``. Without JavaScript the next
game starts and the recap opens all the same."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.games.models import Series
from scorekeeper.models import Game
from tests.e2e.conftest import LIVE, SCREENSHOTS, Looker, fill_hand
from tests.games.series_play import ANN_CAT_WIN, first_game, won

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Ann", "Bob", "Cat", "Dan")


def start_series(page: Page, base: str, look: Looker) -> None:
    """Best of 3, classic, first to 10, from the new-game form."""
    page.goto(f"{base}/games/new")
    page.get_by_label("classic", exact=False).first.check()
    for seat, name in enumerate(NAMES):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    page.get_by_label("One game or a series").select_option("best-of-3")
    page.locator("details.house-rules summary").click()
    page.locator("#house-target_score").fill("10")
    look.look("new-game")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#series")).to_contain_text("Best of 3 · game 1")


def win_for_ann_and_cat(page: Page) -> None:
    """Ann bids 4 and takes 5, then 6: Ann & Cat pass 10."""
    for taken in ("5", "6"):
        form = page.locator("#record")
        fill_hand(form, bidder="Ann", bid="4", trump="hearts", taken=taken)
        form.get_by_role("button", name="Save hand").click()
        expect(page.locator("#board")).to_contain_text(
            "Ann & Cat win" if taken == "6" else "Hand 2"
        )


def test_a_series_is_won_and_the_next_game_starts_with_one_tap(
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    contexts: list[BrowserContext],
) -> None:
    phones: list[Page] = []
    for _ in range(2):
        context = browser.new_context(**browser_context_args)
        contexts.append(context)
        phones.append(context.new_page())
    ann, bob = phones
    look = Looker(ann, "series")
    start_series(ann, live_server.url, look)
    look.look("game-1")
    game = Game.objects.get()
    bob.goto(f"{live_server.url}/join/{game.edit_token}")
    expect(bob.locator("#series")).to_contain_text("Ann & Cat 0 – Bob & Dan 0")

    win_for_ann_and_cat(ann)
    start = ann.get_by_role("button", name="Start game 2")
    expect(start).to_be_visible()
    expect(ann.locator("#series")).to_contain_text("Cat deals first")
    look.look("game-1-won")
    # The other phone learns it from its poll, with no reload.
    expect(bob.get_by_role("button", name="Start game 2")).to_be_visible(timeout=LIVE)

    start.dblclick()  # a double tap
    expect(ann.locator("#series")).to_contain_text("Best of 3 · game 2")
    bob.get_by_role("button", name="Start game 2").click()  # a moment later
    expect(bob.locator("#series")).to_contain_text("Best of 3 · game 2")
    assert ann.url == bob.url
    series = Series.objects.get()
    assert Game.objects.count() == series.game_count == 2
    second = Game.objects.get(pk=ann.url.rstrip("/").split("/")[-1])
    assert second.first_dealer == 2  # Ann and Bob dealt game 1: Cat now
    expect(ann.locator("#board .turn")).to_contain_text("Cat deals")
    expect(ann.locator("#series")).to_contain_text("Ann & Cat 1 – Bob & Dan 0")
    look.look("game-2")

    win_for_ann_and_cat(ann)
    expect(ann.locator(".series-winner")).to_have_text(
        "Best of 3: Ann & Cat win 2 games to 0"
    )
    expect(ann.get_by_role("button", name="Start game 3")).to_have_count(0)
    look.look("series-won")
    ann.goto(f"{live_server.url}/")
    games = ann.locator(".game-series")
    expect(games).to_have_count(2)
    expect(games.first).to_contain_text("Best of 3: Ann & Cat win 2 games to 0")
    look.look("home")
    ann.go_back()

    ann.get_by_role("link", name="Recap of the series").click()
    expect(ann.locator("h1")).to_contain_text("Recap")
    expect(ann.locator(".recap-series")).to_contain_text(
        "Best of 3: Ann & Cat win 2 games to 0"
    )
    expect(ann.locator(".awards").first).to_contain_text("Sure hand: Ann")
    look.look("recap")
    ann.emulate_media(media="print")
    ann.screenshot(path=str(SCREENSHOTS / "series-recap-print.png"), full_page=True)
    expect(ann.locator("header.top")).to_be_hidden()
    expect(ann.locator(".recap-links")).to_be_hidden()
    ann.emulate_media(media="screen")
    ann.set_viewport_size({"width": 1280, "height": 720})
    Looker(ann, "series-wide", width=1280).look("recap")

    for each in Game.objects.all():
        _log_passes_replay(bob, live_server.url, each)


def _log_passes_replay(page: Page, base: str, game: Game) -> None:
    """The game's log, downloaded as a phone downloads it, replays through
    the real command and ends as the game's page says."""
    text = page.request.get(f"{base}/games/{game.pk}/log.json").text()
    path = ROOT / "test-results" / f"series-{game.pk}.log.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    done = subprocess.run(
        [sys.executable, "manage.py", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Ann & Cat win with" in done.stdout


def test_without_javascript_the_next_game_starts_and_the_recap_opens(
    browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer
) -> None:
    game = won(first_game(), ANN_CAT_WIN)
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/join/{game.edit_token}")
        page.get_by_role("button", name="Start game 2").click()
        expect(page.locator("#series")).to_contain_text("Best of 3 · game 2")
        page.get_by_role("link", name="Recap of the series").click()
        expect(page.locator(".recap-series")).to_contain_text("Game 1")
        # No axe here: it runs as a script, and this phone runs none.
        page.screenshot(
            path=str(SCREENSHOTS / "series-no-js-recap.png"), full_page=True
        )
    finally:
        context.close()
    assert Game.objects.count() == 2
