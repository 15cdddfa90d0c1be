"""Issue 19, "For 80 players and 20 tables", in Chromium: the door's
search and taps (no reload, no jump), last night's players at once, the
desk's poll swapping one row, the TV paging through 20 tables (and
showing them all without JavaScript), and every control of the league's
pages at least 44 px."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night, Player, Season
from scorekeeper.models import Game
from tests.e2e.conftest import LIVE, Looker
from tests.e2e.league import TV, new_screen, sign_in
from tests.leagues.nights import play_hand, play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pepper nights 2026"
ACCENTED = ["Đặng Văn", "Émile Roy", "Ørjan Berg", "Łukasz Nowak", "Zoë Park"]
FIRST = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Joe"]
LAST = ["Ash", "Birch", "Cedar", "Elm", "Fir", "Hazel", "Oak", "Pine"]
EIGHTY = ACCENTED + [f"{a} {b}" for a in FIRST for b in LAST][: 80 - len(ACCENTED)]
TODAY = date(2026, 11, 26)


@pytest.fixture
def season() -> Season:
    user = User.objects.create_user("maria", password=PASSWORD)
    now = timezone.now()
    league = services.league_create(name="Thursday Pepper", organizer=user, now=now)
    for name in EIGHTY:
        services.player_add(league=league, name=name)
    return services.season_create(
        league=league,
        name="Autumn",
        preset="classic",
        overrides={"hand_limit": 2},
        now=now,
    )


def _night(season: Season, day: date = TODAY) -> Night:
    return services.night_create(
        season=season, day=day, format=Night.PROGRESSIVE, now=timezone.now()
    )


def _everyone_here(night: Night) -> None:
    for player in night.season.league.players.all():
        services.check_in(night=night, player=player, now=timezone.now())


def _round(night: Night) -> list[Game]:
    played = rounds.round_start(night=night, rng=random.Random(3), now=timezone.now())
    return [table.game for table in played.tables.select_related("game")]


def test_the_door_finds_a_name_and_a_tap_neither_reloads_nor_jumps(
    season: Season,
    page: Page,
    live_server: LiveServer,
    looker: Looker,
    console_errors: list[str],
) -> None:
    night = _night(season)
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    names = page.locator("#names button")
    expect(names).to_have_count(80)
    assert names.first.inner_text() == "Ann Ash"
    page.evaluate("window.notReloaded = true")
    page.get_by_label("Find a name").fill("dang")  # Đặng, as typed
    expect(names).to_have_count(1)
    page.get_by_role("button", name="Đặng Văn", exact=True).click()
    expect(page.get_by_role("button", name="Đặng Văn", pressed=True)).to_be_visible()
    expect(page.locator("#door-counts")).to_contain_text("1 here")
    page.get_by_label("Find a name").fill("")
    expect(names).to_have_count(80)
    # A name far down the list: tapped where it is, the page stays there.
    zoe = page.get_by_role("button", name="Zoë Park", exact=True)
    zoe.scroll_into_view_if_needed()
    before = page.evaluate("window.scrollY")
    assert before > 1000
    zoe.click()
    expect(page.get_by_role("button", name="Zoë Park", pressed=True)).to_be_visible()
    expect(page.locator("#door-counts")).to_contain_text("2 here")
    assert page.evaluate("window.scrollY") == before
    assert page.evaluate("window.notReloaded") is True
    looker.look("door")
    assert Night.objects.get().checkins.filter(present=True).count() == 2
    assert console_errors == []


def test_everyone_from_last_night_is_checked_in_with_one_tap(
    season: Season, page: Page, live_server: LiveServer, console_errors: list[str]
) -> None:
    last = _night(season, TODAY - timedelta(days=7))
    for player in season.league.players.all()[:76]:
        services.check_in(night=last, player=player, now=timezone.now())
    night = _night(season)
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    expect(
        page.get_by_text("76 of the players of Thu 19 Nov are not here")
    ).to_be_visible()
    page.get_by_role("button", name="Check in everyone from last night").click()
    expect(page.locator("#door-counts")).to_contain_text("76 here")
    expect(page.locator("#names button[aria-pressed=true]")).to_have_count(76)
    assert night.checkins.filter(present=True).count() == 76
    assert console_errors == []


def test_the_desk_poll_swaps_only_the_changed_row(
    season: Season,
    page: Page,
    live_server: LiveServer,
    looker: Looker,
    console_errors: list[str],
) -> None:
    night = _night(season)
    _everyone_here(night)
    games = _round(night)
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/nights/{night.pk}/desk")
    rows = page.locator(".desk-table")
    expect(rows).to_have_count(20)
    page.evaluate("document.querySelectorAll('.desk-table').forEach(r => r.kept = 1)")
    play_hand(games[4])  # table 5, as its phone would
    Game.objects.filter(pk=games[4].pk).update(updated_at=timezone.now())
    changed = page.locator(".desk-table", has_text="1 hand")
    expect(changed).to_have_count(1, timeout=LIVE)
    kept = page.evaluate(
        "[...document.querySelectorAll('.desk-table')].filter(r => r.kept).length"
    )
    assert kept == 19  # the other rows were not touched
    expect(page.locator("#desk-standings")).to_contain_text("live")
    # The standings' columns fit the phone: nothing to scroll sideways in
    # their own box either.
    table = page.locator("#desk-standings table.standings")
    wrapper = page.locator("#desk-standings .table-scroll")
    assert table.evaluate("t => t.scrollWidth") <= wrapper.evaluate(
        "w => w.clientWidth"
    )
    looker.look("desk")
    assert console_errors == []


def test_the_tv_shows_twenty_tables_at_once_and_without_js_too(
    season: Season,
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    browser_context_args: dict[str, Any],
    console_errors: list[str],
) -> None:
    night = _night(season)
    _everyone_here(night)
    games = _round(night)
    play_out(games[0])
    play_hand(games[1])
    tv = new_screen(browser, contexts, TV)
    sign_in(tv, live_server.url, "maria", PASSWORD)
    tv.goto(f"{live_server.url}/nights/{night.pk}/tv")
    expect(tv.locator(".tv-table")).to_have_count(20)
    expect(tv.locator(".tv-table:visible")).to_have_count(20)  # no pages
    last = tv.locator(".tv-table").last.bounding_box()
    assert last and last["y"] + last["height"] <= TV["height"]
    assert tv.evaluate("document.documentElement.scrollHeight") <= TV["height"]
    Looker(tv, "tv-at-once", width=TV["width"]).look("tv")
    expect(tv.get_by_text("Live: games in play count as they stand.")).to_be_visible()

    plain = browser.new_context(
        **browser_context_args, java_script_enabled=False
    )  # a TV without JavaScript
    contexts.append(plain)
    still = plain.new_page()
    sign_in(still, live_server.url, "maria", PASSWORD)
    still.goto(f"{live_server.url}/nights/{night.pk}/tv")
    expect(still.locator(".tv-table:visible")).to_have_count(20)
    assert console_errors == []


def _small_targets(page: Page) -> list[str]:
    """Every control of the page's main part and of its header smaller
    than 44 x 44 px."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll(
              '.top a, main button, main .button, main .chip, main a.tap, main summary,'
              + ' main table.standings th a, main select, main input:not([type=hidden])')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e, e.getBoundingClientRect()])
            .filter(([e, box]) => box.height < 44 || box.width < 44)
            .map(([e, box]) => `${e.tagName} "${e.textContent.trim().slice(0, 30)}"`
                 + ` ${Math.round(box.width)}x${Math.round(box.height)}`)"""
    )
    return found


def test_every_control_of_the_league_night_is_at_least_44_px(
    season: Season, page: Page, live_server: LiveServer
) -> None:
    night = _night(season)
    for player in Player.objects.all()[:9]:
        services.check_in(night=night, player=player, now=timezone.now())
    sign_in(page, live_server.url, "maria", PASSWORD)
    url = live_server.url
    page.goto(f"{url}/nights/{night.pk}/")  # the door, the Desk and TV links
    assert _small_targets(page) == []
    first, second = _round(night)
    play_out(first)
    play_hand(second)
    for path in (
        f"/nights/{night.pk}/",  # the round's controls, the standings' names
        f"/nights/{night.pk}/desk",
        f"/rounds/{night.rounds.get().pk}/call",
        f"/seasons/{season.pk}/",
        f"/leagues/{season.league_id}/",
    ):
        page.goto(url + path)
        page.locator("details").evaluate_all("all => all.forEach(d => d.open = true)")
        assert _small_targets(page) == [], path
