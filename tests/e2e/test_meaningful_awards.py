"""Issue 33, awards and ratings that mean something, in Chromium at
360x740 and 1280x720: a season of three nights gives each award to at
most a quarter of its players (each with two games or more), lists new
players' ratings as still to come, and a player's page counts the same
games in its header as in its numbers. axe checks every page."""

from __future__ import annotations

import random
import re
from datetime import date

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night, Season
from scorekeeper.leagues.rated_games import ratings_refresh
from tests.e2e.conftest import PHONE, SCREENSHOTS, Looker
from tests.e2e.league import TV, sign_in
from tests.e2e.test_season_numbers import _season
from tests.leagues.nights import play_out_round
from tests.records import NOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _with_a_newcomer(season: Season) -> None:
    """A fourth night where Zed, new, plays one round with seven others."""
    league = season.league
    zed = services.player_add(league=league, name="Zed")
    night = services.night_create(
        season=season, day=date(2026, 11, 26), format=Night.PROGRESSIVE, now=NOW
    )
    for player in [zed, *league.players.exclude(pk=zed.pk)[:7]]:
        services.check_in(night=night, player=player, now=NOW)
    play_out_round(rounds.round_start(night=night, rng=random.Random(4), now=NOW))
    rounds.night_close(night=night, by="maria", now=NOW)


@pytest.mark.parametrize("size", [PHONE, TV], ids=["360", "1280"])
def test_awards_go_to_a_few_and_new_ratings_are_said_to_come(
    page: Page,
    live_server: LiveServer,
    console_errors: list[str],
    request: pytest.FixtureRequest,
    size: dict[str, int],
) -> None:
    page.set_viewport_size({"width": size["width"], "height": size["height"]})
    looker = Looker(page, request.node.name, width=size["width"])
    season = _season()
    _with_a_newcomer(season)
    ratings_refresh(season.league)
    sign_in(page, live_server.url, "maria", "pepper nights 2026")
    page.goto(f"{live_server.url}/seasons/{season.pk}/")
    players = season.league.players.count()
    awards = page.locator(".awards li")
    expect(awards.first).to_be_visible()
    for line in awards.all_inner_texts():
        names = line.split(": ", 1)[1].split(". ")[0].split(", ")
        assert len(names) * 4 <= players, line
    ratings = page.get_by_role("region", name="Ratings table")
    zed = ratings.locator("tbody tr", has_text="Zed")
    expect(zed).to_contain_text("new (1 game)")
    looker.look("season")
    # The awards and ratings up close (the whole page is long at 360 px).
    page.locator("section", has=page.locator("#ratings")).screenshot(
        path=str(SCREENSHOTS / f"{request.node.name}-ratings.png")
    )

    zed.get_by_role("link").click()
    expect(page.get_by_role("heading", name="Zed")).to_be_visible()
    lead = page.locator(".lead").inner_text()
    games = page.locator(".measures div").first.locator("dd").inner_text()
    assert page.locator(".measures dt").first.inner_text() == "Games"
    assert re.match(rf"{games} games? on ", lead), (lead, games)
    expect(page.locator(".lead")).to_contain_text("· new: a rating after 5 games")
    looker.look("player")
    assert console_errors == []
