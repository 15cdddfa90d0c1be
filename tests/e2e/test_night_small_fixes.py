"""Issue 33, the small ones, in Chromium at 360x740 and 1280x720: the
score card's "Hand" header stays one word, the card-entry grid shows a
pepper round's forced bids whole, and the public standings keep each
name on one line. axe checks every page; nothing scrolls sideways."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Round
from tests.e2e.conftest import PHONE, Looker
from tests.e2e.league import TV, sign_in
from tests.leagues.nights import play_out_round, progressive_night
from tests.records import NOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pepper nights 2026"
SIZES = pytest.mark.parametrize("size", [PHONE, TV], ids=["360", "1280"])
# Names as a club's registry has them: first and last, some long.
NAMES = [
    "Nadia Quill",
    "Łukasz Nowak",
    "Émile Roy",
    "Margaret Oyelaran",
    "Bob Birch",
    "Christopher Hale",
    "Đặng Văn",
    "Ivy Pine",
]


def _round(preset: str = "moon-42") -> Round:
    user = User.objects.create_user("maria", password=PASSWORD)
    league = services.league_create(name="Thursday Pepper", organizer=user, now=NOW)
    for name in NAMES:
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league, name="Autumn", preset=preset, overrides={}, now=NOW
    )
    night = progressive_night(season)
    return rounds.round_start(night=night, rng=random.Random(4), now=NOW)


def _lines(cell: Locator) -> int:
    """How many lines the cell's text takes."""
    lines: int = cell.evaluate(
        """el => {
            const range = document.createRange();
            range.selectNodeContents(el);
            const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
            return tops.size;
        }"""
    )
    return lines


def _cut(cell: Locator) -> bool:
    cut: bool = cell.evaluate("el => el.scrollWidth > el.clientWidth + 1")
    return cut


def _sized(page: Page, request: pytest.FixtureRequest, size: dict[str, int]) -> Looker:
    page.set_viewport_size({"width": size["width"], "height": size["height"]})
    return Looker(page, request.node.name, width=size["width"])


@SIZES
def test_the_score_cards_hand_header_stays_one_word(
    page: Page,
    live_server: LiveServer,
    request: pytest.FixtureRequest,
    size: dict[str, int],
) -> None:
    looker = _sized(page, request, size)
    played = _round("classic")
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/rounds/{played.pk}/cards")
    headers = page.locator(".card-grid thead th, .card-seats thead th")
    expect(headers.first).to_have_text("Seat")
    for header in headers.all():  # a word never breaks, no header is cut
        words = header.inner_text()
        assert _lines(header) == 1 or " " in words, words
        assert not _cut(header), words
    hand = page.locator(".card-grid thead th").first
    expect(hand).to_have_text("Hand")
    assert _lines(hand) == 1
    looker.look("cards")


@SIZES
def test_the_card_entry_grid_shows_the_pepper_rounds_forced_bids_whole(
    page: Page,
    live_server: LiveServer,
    request: pytest.FixtureRequest,
    size: dict[str, int],
) -> None:
    looker = _sized(page, request, size)
    played = _round("moon-42")
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/rounds/{played.pk}/cards/enter")
    hints = page.locator(".entry-grid .dealer")
    expect(hints.first).to_be_visible()
    forced = [hint for hint in hints.all() if " bids " in hint.inner_text()]
    assert len(forced) == 8  # 4 pepper-round hands at each of 2 tables
    for hint in hints.all():
        assert not _cut(hint), hint.inner_text()
    looker.look("enter")


@SIZES
def test_the_public_standings_keep_each_name_on_one_line(
    page: Page,
    live_server: LiveServer,
    request: pytest.FixtureRequest,
    size: dict[str, int],
) -> None:
    looker = _sized(page, request, size)
    played = _round("classic")
    play_out_round(played)
    season = played.night.season
    token = services.season_link_new(season=season)
    page.goto(f"{live_server.url}/standings/{token}")
    names = page.locator("table.standings tbody th[scope=row]")
    expect(names).to_have_count(8 + 8)  # the standings and the ratings
    for name in names.all():
        assert _lines(name) == 1, name.inner_text()
    looker.look("public")
