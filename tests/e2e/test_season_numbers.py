"""Issue "The season in numbers" in Chromium at 360x740: an organizer
opens a season of three closed nights (standings, race, awards, ratings), a
player's page (numbers, charts, partners), shares a public standings link
that a phone opens without signing in, and then revokes it; and enters the
teams of a fixed-teams night by hand. axe checks every page."""

from __future__ import annotations

import os
import random
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night, Season
from scorekeeper.models import Game
from tests.e2e.conftest import PHONE, SCREENSHOTS, Looker
from tests.leagues.nights import NAMES, play_hand, progressive_night
from tests.records import NOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DOCS = (
    Path(__file__).resolve().parents[2] / "docs"
    if os.environ.get("UPDATE_DOCS")
    else SCREENSHOTS
)


def _season() -> Season:
    """Three closed nights of three rounds; hands made or set at random (a
    fixed seed), so the games have winners, sets and streaks."""
    organizer = User.objects.create_user("maria", password="pepper nights 2026")
    league = services.league_create(
        name="Thursday Pepper", organizer=organizer, now=NOW
    )
    for name in NAMES:
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league,
        name="Autumn",
        preset="classic",
        overrides={"hand_limit": 6},
        now=NOW,
    )
    rng = random.Random(12)
    for day in (date(2026, 11, 5), date(2026, 11, 12), date(2026, 11, 19)):
        night = progressive_night(season, day)
        for _ in range(3):
            played = rounds.round_start(night=night, rng=rng, now=NOW)
            for table in played.tables.select_related("game"):
                game = table.game
                while not game.finished:
                    play_hand(
                        game,
                        bid=rng.choice([2, 3, 4]),
                        bidder_side_takes=rng.choice([1, 3, 4, 5, 6]),
                    )
                    game = Game.objects.get(pk=game.pk)
        rounds.night_close(night=night, by="maria", now=NOW)
    return season


def _sign_in(page: Page, url: str) -> None:
    page.goto(f"{url}/accounts/login")
    page.get_by_label("Username").fill("maria")
    page.get_by_label("Password").fill("pepper nights 2026")
    page.get_by_role("button", name="Sign in").click()


def test_the_season_a_player_and_the_public_standings_on_a_phone(
    page: Page,
    browser: Browser,
    live_server: LiveServer,
    looker: Looker,
    console_errors: list[str],
) -> None:
    season = _season()
    url = live_server.url
    _sign_in(page, url)
    page.goto(f"{url}/seasons/{season.pk}/")
    expect(page.locator("table.standings").first.locator("tbody tr")).to_have_count(9)
    expect(page.get_by_role("img", name="The standings race")).to_be_visible()
    expect(page.locator(".awards li").first).to_contain_text("Most bids made")
    ratings = page.get_by_role("region", name="Ratings table")
    expect(ratings.locator("tbody tr")).to_have_count(9)
    looker.look("season")
    page.screenshot(path=str(DOCS / "season-numbers.png"), full_page=True)
    page.emulate_media(media="print")  # the standings on paper: no controls
    expect(page.get_by_role("button", name="New night")).to_be_hidden()
    expect(page.locator(".top")).to_be_hidden()
    expect(page.locator("table.standings").first).to_be_visible()
    page.screenshot(path=str(SCREENSHOTS / "season-print.png"), full_page=True)
    page.emulate_media(media="screen")

    # A player's page: numbers, partners, charts and a chart's numbers.
    ratings.locator("tbody tr").first.get_by_role("link").click()
    expect(page.get_by_role("heading", name="In numbers")).to_be_visible()
    expect(page.get_by_text("Best partner")).to_be_visible()
    chart = page.get_by_role("img", name="rating after each night")
    expect(chart).to_be_visible()
    page.get_by_text("The numbers").first.click()
    expect(page.get_by_role("region", name="rating after each night")).to_be_visible()
    looker.look("player")
    page.screenshot(path=str(DOCS / "player-numbers.png"), full_page=True)

    # The public link: made on the season page, opened on another phone.
    page.go_back()
    page.get_by_role("button", name="Make a public link").click()
    link = page.locator("#public ~ .link a, section[aria-labelledby=public] .link a")
    public_url = link.first.get_attribute("href") or ""
    assert "/standings/" in public_url
    looker.look("season-shared")
    guest = browser.new_context(
        viewport={"width": PHONE["width"], "height": PHONE["height"]},
        service_workers="block",
    )
    try:
        phone = guest.new_page()
        phone.goto(public_url)
        expect(phone.get_by_role("heading", name="Autumn")).to_be_visible()
        expect(
            phone.locator("table.standings").first.locator("tbody tr")
        ).to_have_count(9)
        assert phone.locator("a[href^='/players/']").count() == 0
        Looker(phone, "public").look("standings")
        phone.screenshot(path=str(DOCS / "public-standings.png"), full_page=True)
        page.get_by_role("button", name="Stop sharing").click()
        expect(page.get_by_role("button", name="Make a public link")).to_be_visible()
        assert phone.goto(public_url).status == 404  # type: ignore[union-attr]
    finally:
        guest.close()
    assert console_errors == []


def test_an_organizer_enters_the_teams_of_a_fixed_night(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    season = _season()
    night = services.night_create(
        season=season, day=date(2026, 11, 26), format=Night.FIXED, now=NOW
    )
    players = list(season.league.players.order_by("name"))[:8]
    for player in players:
        services.check_in(night=night, player=player, now=NOW)
    _sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.get_by_role("link", name="Enter the teams…").click()
    for n, player in enumerate(players):
        page.get_by_label(player.name, exact=True).select_option(f"Team {n % 4 + 1}")
    looker.look("teams")
    page.get_by_role("button", name="Save the teams").click()
    expect(page.get_by_text("The teams are set")).to_be_visible()
    expect(page.locator(".teams li")).to_have_count(4)
    expect(page.locator(".teams li").first).to_contain_text(
        f"{players[0].name} & {players[4].name}"
    )
    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    looker.look("fixed-round")
    assert console_errors == []
