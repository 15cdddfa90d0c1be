"""Issue 19, defect 1, in Chromium at 360x740: seven of eight hands at a
league table, round 1 called, the night closed; the organizer opens the
game from the night's page and corrects hand 5 with a reason. The game
page says it was ended and who wins after the fix; the night's change log
has the line; the night's standings follow."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Change, Night
from scorekeeper.models import Game
from tests.e2e.conftest import Looker
from tests.e2e.league import TV
from tests.leagues.nights import NAMES, play_hand, progressive_night
from tests.records import NOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a long passphrase"


def _called_night() -> Night:
    """Round 1 of an eight-hand season called after seven hands at table 1
    (nobody reached 30), and the night closed."""
    organizer = User.objects.create_user("org", password=PASSWORD)
    league = services.league_create(name="Thursday", organizer=organizer, now=NOW)
    for name in NAMES:
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league, name="Eights", preset="classic",
        overrides={"hand_limit": 8}, now=NOW,
    )  # fmt: skip
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    game = Game.objects.get(table__round=first, table__number=1)
    for taken in (3, 2, 4, 1, 3, 2, 4):
        play_hand(game, bidder_side_takes=taken)
    rounds.round_call(round=first, by="org", now=NOW)
    rounds.night_close(night=night, by="org", now=NOW)
    return night


def test_the_organizer_corrects_hand_5_of_a_called_game_on_a_phone(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    night = _called_night()
    page.goto(f"{live_server.url}/accounts/login?next=/nights/{night.pk}/")
    page.get_by_label("Username").fill("org")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    standings = page.locator("table.standings").first
    before = standings.inner_text()
    page.get_by_role("link", name="Open the game").first.click()
    expect(page.locator(".winner")).to_contain_text("the game was ended as it stood")
    game_page = page.url

    hand_5 = page.locator("#hands li").nth(2)  # newest first: 7, 6, 5
    hand_5.locator("summary").click()
    hand_5.get_by_role("link", name="Correct").click()
    expect(page.get_by_role("heading", name="Correct hand 5")).to_be_visible()
    page.get_by_role("group", name="Tricks the bidding side took (of 6)").get_by_label(
        "0", exact=True
    ).check()
    page.get_by_label("Reason").fill("Cat read the tricks off the wrong pile")
    looker.look("correct-form")
    page.get_by_role("button", name="Save correction").click()

    banner = page.locator(".winner")
    expect(banner).to_contain_text("the game was ended as it stood (round 1 called)")
    expect(banner).to_contain_text("Fixed after the end by org: hand 5 (")
    expect(banner).to_contain_text("): took 3 → took 0; the winner changed: ")
    expect(page.locator(".fixes-after-end")).to_contain_text(
        re.compile(r"After the end, by org at .+: hand 5 \(.+\): took 3 → took 0")
    )
    expect(page.locator(".fixes-after-end")).to_contain_text(
        "(Cat read the tricks off the wrong pile)"
    )
    looker.look("fixed")
    change = Change.objects.get()
    assert "hand 5 (" in change.what and "): took 3 → took 0" in change.what

    # The same correction again changes nothing: refused in words (issue 33).
    hand_5 = page.locator("#hands li").nth(2)
    hand_5.locator("summary").click()
    hand_5.get_by_role("link", name="Correct").click()
    page.get_by_role("group", name="Tricks the bidding side took (of 6)").get_by_label(
        "0", exact=True
    ).check()
    page.get_by_label("Reason").fill("Cat read the tricks off the wrong pile")
    page.get_by_role("button", name="Save correction").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "Nothing to correct: hand 5 already reads so."
    )
    looker.look("nothing-to-correct")
    assert Change.objects.count() == 1

    page.goto(f"{live_server.url}/nights/{night.pk}/")
    log = page.locator(".change-log")
    expect(log).to_contain_text("): took 3 → took 0")
    expect(log).to_contain_text("(Cat read the tricks off the wrong pile)")
    assert standings.inner_text() != before
    looker.look("night")
    page.set_viewport_size(ViewportSize(width=TV["width"], height=TV["height"]))
    wide = Looker(page, "fixing-a-called-game-1280", TV["width"])
    wide.look("night")
    page.goto(game_page)  # the game's own lines, before and after, wide
    expect(page.locator(".fixes-after-end")).to_contain_text("): took 3 → took 0")
    wide.look("game")
    # The season's log says the same, and its CSV is offered beside it.
    page.goto(f"{live_server.url}/seasons/{night.season_id}/")
    season_log = page.locator("#season-changes ~ .change-log")
    expect(season_log).to_contain_text("): took 3 → took 0")
    expect(page.get_by_role("link", name="Changes after closing (CSV)")).to_be_visible()
    wide.look("season")
    page.set_viewport_size(ViewportSize(width=360, height=740))
    looker.look("season")
    # The refused correction's answer (422) is the only one the console noted.
    assert [error for error in console_errors if "422" not in error] == []
