"""Issue 33, "The director's night", in Chromium at 360 px and 1280x720:
16 players, round 1 round-robin, round 2 progressive (winners move up)
seated from round 1's results; the movement cards to print; the round
clock counting down on the desk and the TV (the end time without
JavaScript); and the round called by the task at its end."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import round_clock, services
from scorekeeper.leagues.models import Movement, Night, Round, Season
from tests.e2e.conftest import LIVE, Looker
from tests.e2e.league import (
    TV,
    new_screen,
    play_out_alternately,
    seats_at_tables,
    sign_in,
    start_round,
    winners_and_losers,
)
from tests.leagues.nights import play_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pepper nights 2026"
SIXTEEN = [
    "Ann",
    "Bob",
    "Cat",
    "Dan",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Joe",
    "Kim",
    "Lou",
    "Max",
    "Ned",
    "Oda",
    "Pia",
]


@pytest.fixture
def night() -> Night:
    user = User.objects.create_user("maria", password=PASSWORD)
    now = timezone.now()
    league = services.league_create(name="Thursday Pepper", organizer=user, now=now)
    season: Season = services.season_create(
        league=league,
        name="Autumn",
        preset="classic",
        overrides={"hand_limit": 2},
        now=now,
    )
    found = services.night_create(
        season=season, day=now.date(), format=Night.PROGRESSIVE, now=now
    )
    for name in SIXTEEN:
        player = services.player_add(league=league, name=name)
        services.check_in(night=found, player=player, now=now)
    return found


def _small_targets(page: Page) -> list[str]:
    """The page's controls smaller than 44 x 44 px (as test_night_screens)."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll(
              'main button, main .button, main a.tap, main summary,'
              + ' main input:not([type=hidden])')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e, e.getBoundingClientRect()])
            .filter(([e, box]) => box.height < 44 || box.width < 44)
            .map(([e, box]) => `${e.tagName} ${e.name} ${box.width}x${box.height}`)"""
    )
    return found


def test_a_round_robin_round_then_a_progressive_one_from_its_results(
    night: Night,
    page: Page,
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    looker: Looker,
    console_errors: list[str],
) -> None:
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    looker.look("before-round-1")
    assert _small_targets(page) == []
    start_round(page, 1, "Round-robin (every two partner once)")
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    first = night.rounds.get()
    assert first.movement == Movement.CIRCLE and first.ends_at is None
    play_out_alternately(first)
    page.reload()
    looker.look("round-1-played")
    wide = new_screen(browser, contexts, {"width": 1280, "height": 720})
    sign_in(wide, live_server.url, "maria", PASSWORD)
    wide.goto(f"{live_server.url}/nights/{night.pk}/#rounds")
    wide_looker = Looker(wide, "night-movement-1280", 1280)
    wide_looker.look("round-1-played")
    start_round(page, 2, "Progressive (winners move up a table)", minutes="30")
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    second = night.rounds.get(number=2)
    assert second.movement == Movement.WINNERS_UP and second.auto_call
    seats, last = seats_at_tables(second), len(seats_at_tables(first)) - 1
    for number, (won, lost) in enumerate(winners_and_losers(first)):
        assert won <= seats[max(number - 1, 0)]
        assert lost <= seats[number if number else last]
    looker.look("round-2-started")
    wide.reload()
    wide_looker.look("round-2")
    assert console_errors == []


def test_the_movement_cards_print_each_player_s_table_and_seat(
    night: Night,
    page: Page,
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    looker: Looker,
    console_errors: list[str],
) -> None:
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.get_by_role("link", name="Movement cards").click()
    cards = page.locator(".move-card")
    expect(cards).to_have_count(16)
    ann = cards.filter(has=page.get_by_role("heading", name="Ann", exact=True))
    expect(ann.locator("tbody tr")).to_have_count(12)  # of a whole circle's 15
    looker.look("round-robin-cards")
    assert _small_targets(page) == []
    page.get_by_label("Progressive (winners move up a table)").check()
    page.get_by_role("button", name="Show these cards").click()
    expect(ann.locator("tbody tr")).to_have_count(1)
    expect(page.get_by_text("Only round 1 can be known in advance")).to_be_visible()
    looker.look("progressive-cards")
    wide = new_screen(browser, contexts, {"width": 1280, "height": 720})
    sign_in(wide, live_server.url, "maria", PASSWORD)
    wide.goto(f"{live_server.url}/nights/{night.pk}/movement")
    Looker(wide, "movement-cards-1280", 1280).look("cards")
    wide.emulate_media(media="print")
    sheet = wide.pdf(format="A4")
    assert sheet.startswith(b"%PDF")
    # printed: three cards across, none split between two pages
    columns = wide.evaluate(
        "getComputedStyle(document.querySelector('.move-cards'))"
        ".gridTemplateColumns.split(' ').length"
    )
    assert columns == 3
    wide.set_viewport_size({"width": 718, "height": 1016})  # A4 less its margins
    Looker(wide, "movement-cards-print", 718).look("a4")
    assert console_errors == []


def test_the_desk_and_the_tv_count_down_and_the_task_calls_the_round(
    night: Night,
    page: Page,
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    looker: Looker,
    console_errors: list[str],
) -> None:
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/nights/{night.pk}/desk")
    start_round(page, 1, "Round-robin (every two partner once)", minutes="30")
    clock = page.locator(".round-clock")
    expect(clock).to_contain_text(re.compile(r"Round 1 ends \d\d:\d\d"))
    expect(clock).to_contain_text(re.compile(r"(29|30):\d\d left"))
    played = night.rounds.get()
    for table in played.tables.select_related("game"):
        play_hand(table.game)
    looker.look("desk-clock")
    tv = new_screen(browser, contexts, TV)
    sign_in(tv, live_server.url, "maria", PASSWORD)
    tv.goto(f"{live_server.url}/nights/{night.pk}/tv")
    expect(tv.locator(".round-clock")).to_contain_text(re.compile(r"\d+:\d\d left"))
    Looker(tv, "tv-clock", TV["width"]).look("tv")
    plain = browser.new_context(
        java_script_enabled=False, viewport={"width": 360, "height": 740}
    )
    contexts.append(plain)
    still = plain.new_page()
    sign_in(still, live_server.url, "maria", PASSWORD)
    still.goto(f"{live_server.url}/nights/{night.pk}/desk")
    expect(still.locator(".round-clock")).to_have_text(
        re.compile(r"^Round 1 ends \d\d:\d\d( UTC)? · called by itself then\s*$")
    )
    # Time is up: the worker's task calls the round (run here as the worker would).
    Round.objects.filter(pk=played.pk).update(
        ends_at=timezone.now() - timedelta(seconds=1)
    )
    assert round_clock.round_call_when_due.call(played.pk) > 0
    expect(page.get_by_role("heading", name="Round 1 (called)")).to_be_visible(
        timeout=LIVE
    )
    expect(page.locator(".round-clock")).to_have_count(0)
    expect(
        tv.get_by_role("heading", name=re.compile("Round 1 · called"))
    ).to_be_visible(timeout=LIVE)
    looker.look("desk-called")
    assert console_errors == []
