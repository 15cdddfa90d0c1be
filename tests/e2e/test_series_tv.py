"""A series' game on the room's TV at 1280x720: the series (which game,
where it stands) beside the score, and the win that decides the series
arriving by the poll in view, with no console error (the poll's word of
a won game once had no place on the TV)."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.games import services
from tests.e2e.conftest import LIVE, Looker
from tests.e2e.league import TV, new_screen
from tests.games.series_play import ANN_CAT_WIN, first_game, won
from tests.records import new_game, record_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_tv_shows_the_series_and_the_win_that_decides_it(
    browser: Browser, contexts: list[BrowserContext], live_server: LiveServer
) -> None:
    first = won(first_game(), ANN_CAT_WIN)
    second = services.series_next(game=first, now=timezone.now())
    tv = new_screen(browser, contexts, TV)
    errors: list[str] = []
    tv.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tv.on("pageerror", lambda error: errors.append(str(error)))
    tv.goto(f"{live_server.url}/join/{second.view_token}")
    tv.goto(f"{live_server.url}/games/{second.pk}/tv")
    series = tv.locator("#series")
    expect(series).to_contain_text("game 2")
    expect(series).to_be_in_viewport()
    expect(series.get_by_role("link")).to_have_count(0)  # nothing to tap on a TV
    first_tv = new_screen(browser, contexts, TV)  # game 1's TV: no "Go to game 2"
    first_tv.goto(f"{live_server.url}/join/{first.view_token}")
    first_tv.goto(f"{live_server.url}/games/{first.pk}/tv")
    expect(first_tv.locator("#series")).to_contain_text("game 1")
    expect(first_tv.locator("#series").get_by_role("link")).to_have_count(0)
    with transaction.atomic():  # both hands in one poll, as the note says
        record_hands(second, timezone.now(), *ANN_CAT_WIN)
    winner = series.locator(".series-winner")
    expect(winner).to_contain_text("Ann & Cat win 2 games to 0", timeout=LIVE)
    expect(winner).to_be_in_viewport(ratio=1)
    expect(tv.locator("#record-note")).to_contain_text(
        "Hands 1 and 2 were just recorded"
    )
    Looker(tv, "series-tv", TV["width"]).look("series-won")
    assert errors == []


def test_a_game_of_its_own_keeps_its_tv_as_it_was(
    browser: Browser, contexts: list[BrowserContext], live_server: LiveServer
) -> None:
    """No series: the last hands follow the board at once, beside the
    chart (the series' layout left a gap under the board)."""
    game = new_game("classic", now=timezone.now())
    record_hands(game, timezone.now(), ANN_CAT_WIN[0])
    tv = new_screen(browser, contexts, TV)
    tv.goto(f"{live_server.url}/join/{game.view_token}")
    tv.goto(f"{live_server.url}/games/{game.pk}/tv")
    board = tv.locator("#board").bounding_box()
    hands = tv.get_by_role("heading", name="Last hands").bounding_box()
    assert board is not None and hands is not None
    assert hands["y"] - (board["y"] + board["height"]) < 80


def test_the_tv_of_a_finished_game_follows_the_table_to_the_next(
    browser: Browser, contexts: list[BrowserContext], live_server: LiveServer
) -> None:
    first = won(first_game(), ANN_CAT_WIN)
    tv = new_screen(browser, contexts, TV)
    tv.goto(f"{live_server.url}/join/{first.view_token}")
    tv.goto(f"{live_server.url}/games/{first.pk}/tv")
    expect(tv.locator("#series")).to_contain_text("game 1")
    second = services.series_next(game=first, now=timezone.now())  # the table
    expect(tv).to_have_url(f"{live_server.url}/games/{second.pk}/tv", timeout=LIVE)
    expect(tv.locator("#series")).to_contain_text("game 2")
    expect(tv.locator("#board")).to_contain_text("Hand 1")
    Looker(tv, "series-tv", TV["width"]).look("followed")
    late = new_screen(browser, contexts, TV)  # a TV opened on game 1 after
    late.goto(f"{live_server.url}/join/{first.view_token}")
    late.goto(f"{live_server.url}/games/{first.pk}/tv")
    expect(late).to_have_url(f"{live_server.url}/games/{second.pk}/tv", timeout=LIVE)
