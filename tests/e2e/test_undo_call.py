"""Issue 33 in Chromium: the organizer calls round 1 from the desk on a
phone (360x740) and undoes it there; the called table plays on with its
hands, and the night's change log has the line. On a laptop (1280x720)
the night is closed and reopened from the night's page. An undo sent
from a page that is out of date (round 2 started meanwhile) is refused
in the organizer's words."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night, Round
from scorekeeper.models import Game
from tests.e2e.conftest import Looker
from tests.e2e.league import TV, new_screen, sign_in
from tests.leagues.nights import NAMES, play_hand, play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a long passphrase"


@pytest.fixture
def first() -> Round:
    """Round 1 of nine players: table 1 played out, table 2 two hands in."""
    user = User.objects.create_user("org", password=PASSWORD)
    now = timezone.now()
    league = services.league_create(name="Thursday", organizer=user, now=now)
    for name in NAMES:
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league, name="Autumn", preset="classic", now=now
    )
    night = services.night_create(
        season=season, day=timezone.localdate(), format=Night.PROGRESSIVE, now=now
    )
    for player in league.players.all():
        services.check_in(night=night, player=player, now=now)
    played = rounds.round_start(night=night, rng=random.Random(5), now=now)
    done, going = played.tables.select_related("game").order_by("number")
    play_out(done.game)
    for _ in range(2):
        play_hand(going.game)
    return played


def _going(first: Round) -> Game:
    return Game.objects.get(table__round=first, table__number=2)


def test_a_call_undone_from_the_desk_on_a_phone(
    page: Page, live_server: LiveServer, first: Round, looker: Looker
) -> None:
    sign_in(page, live_server.url, "org", PASSWORD)
    page.goto(f"{live_server.url}/nights/{first.night_id}/desk")
    page.get_by_role("link", name="Call round 1…").click()
    page.get_by_role("button", name="Call round 1").click()
    expect(page.locator(".desk-table", has_text="called as it stood")).to_have_count(1)
    hands = _going(first).hands_played
    assert _going(first).finished
    looker.look("called")
    page.get_by_role("button", name="Undo the call of round 1").click()
    expect(page.get_by_role("link", name="Call round 1…")).to_be_visible()
    game = _going(first)
    assert not game.finished and game.hands_played == hands  # every hand kept
    expect(page.locator(".desk-table", has_text="called as it stood")).to_have_count(0)
    looker.look("undone")
    page.goto(f"{live_server.url}/nights/{first.night_id}/")
    expect(page.locator(".change-log")).to_contain_text(
        "org: round 1's call undone: 1 game plays on"
    )
    looker.look("change-log")


def test_a_close_undone_on_a_laptop_and_a_stale_undo_refused(
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    first: Round,
) -> None:
    laptop = new_screen(browser, contexts, TV)
    look = Looker(laptop, "undo-close-1280", TV["width"])
    sign_in(laptop, live_server.url, "org", PASSWORD)
    night_page = f"{live_server.url}/nights/{first.night_id}/"
    laptop.goto(night_page)
    laptop.get_by_role("link", name="Close the night…").click()
    laptop.get_by_role("button", name="Close the night").click()
    expect(laptop.locator(".lead")).to_contain_text("closed")
    assert _going(first).locked
    laptop.get_by_role("button", name="Reopen the night (undo Close)").click()
    expect(laptop.locator(".lead")).to_contain_text("open")
    game = _going(first)
    assert not game.locked and not game.finished
    expect(laptop.locator(".change-log")).to_contain_text(
        "the night's close undone with round 1's call: 1 game plays on"
    )
    look.look("reopened")

    # Called again, and round 2 started from another screen meanwhile.
    rounds.round_call(round=first, by="org", now=timezone.now())
    laptop.goto(night_page)
    undo_button = laptop.get_by_role("button", name="Undo the call of round 1")
    expect(undo_button).to_be_visible()
    play_out(_going(first))  # (an ended game stays ended)
    rounds.round_start(night=first.night, rng=random.Random(6), now=timezone.now())
    undo_button.click()
    expect(laptop.get_by_role("alert").first).to_contain_text(
        "Round 2 has started: a call can be undone only until the next round starts."
    )
    look.look("refused")
