"""Issue 33, "The director's night", in Chromium: a closed night of 16
players published through the season's public link (at 360x740 and
1280x720, then printed on A4: one or two pages), the prizes beside the
standings (the night's, the season's, in public and on the organizer's
page), and the rules sheet for the tables (one A4 page with its QR code).
axe checks every page; each printed PDF is turned into pictures
(pdftoppm) kept beside the screenshots."""

from __future__ import annotations

import random
import re
from datetime import date

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import prize_lists, rounds, services
from scorekeeper.leagues.models import Night, Season
from scorekeeper.rules.events import Call
from tests.e2e.conftest import DOCS, PHONE, SCREENSHOTS, Looker
from tests.e2e.league import TV, printed_pages, sign_in, smallest_type
from tests.leagues.nights import play_hand, progressive_night
from tests.records import NOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [
    "Ann",
    "Bob",
    "Cat",
    "Dan",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jon",
    "Kim",
    "Lou",
    "Maximiliana Wolfeschlegelstein",
    "Ned",
    "Đặng Văn Lâm",
    "Pia",
]
BIDS: list[Call] = [4, 5, "moon"]
EVERY_HOUSE_RULE = {
    "target_score": 60,
    "exact_tie": "pepper-round",
    "both_reach": "higher",
    "pepper_round_hands": 2,
    "minimum_bid": 2,
    "stick_the_dealer": True,
    "set_penalty": 6,
    "top_bid_points": 14,
    "defenders_shut_out_lose": True,
    "negotiation": True,
    "clubs_must_play": True,
    "no_trump": False,
    "one_call_each": False,
    "must_bid_to_win": True,
    "mercy": -100,
    "hand_limit": 6,
}


def _night() -> tuple[Season, Night]:
    """A closed moon-42 night of three rounds of four tables (6 hands a
    game): the pepper round forced, then numbers and moons made or set."""
    organizer = User.objects.create_user("maria", password="pepper nights 2026")
    league = services.league_create(
        name="Thursday Pepper", organizer=organizer, now=NOW
    )
    for name in PLAYERS:
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league,
        name="Autumn",
        preset="moon-42",
        overrides={"hand_limit": 6},
        now=NOW,
    )
    night = progressive_night(season, date(2026, 11, 19))
    rng = random.Random(33)
    for _ in range(3):
        played = rounds.round_start(night=night, rng=rng, now=NOW)
        for table in played.tables.select_related("game"):
            game = table.game
            while not game.finished:
                play_hand(
                    game,
                    bid=rng.choice(BIDS),
                    bidder_side_takes=rng.choice([3, 4, 5, 6, 6]),
                )
                game.refresh_from_db()
    rounds.night_close(night=night, by="maria", now=NOW)
    prize_lists.night_prizes_set(night=night, text="1st: £20\n2nd: £10\n3rd: a bottle")
    prize_lists.season_prizes_set(season=season, text="1st: £100\n2nd: £50\n3rd: £25")
    return season, night


def _wide(page: Page, looker: Looker) -> None:
    page.set_viewport_size(ViewportSize(width=TV["width"], height=TV["height"]))
    looker.width = TV["width"]


def test_a_nights_results_in_public_on_a_phone_a_screen_and_paper(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    season, night = _night()
    token = services.season_link_new(season=season)
    page.goto(f"{live_server.url}/standings/{token}")
    expect(page.get_by_role("heading", name="The season's prizes")).to_be_visible()
    looker.look("season-public")
    page.get_by_role("link", name=re.compile("Thu 19 Nov 2026")).click()
    expect(page).to_have_url(f"{live_server.url}/standings/{token}/nights/{night.pk}")
    expect(page.get_by_role("heading", name="Score cards")).to_be_visible()
    for number in (1, 2, 3):
        cards = page.get_by_role("table", name=f"Round {number}")
        expect(cards.locator("tbody tr")).to_have_count(4)
    prizes = page.locator(".prizes")
    expect(prizes).to_contain_text("£20")
    expect(prizes).to_contain_text("a bottle")
    awards = page.locator(".awards")
    expect(awards).to_contain_text("Best comeback")
    expect(awards).to_contain_text("Most moons made")
    # Every pepper round's bidders made theirs: shared by more than a
    # quarter of the 16 players, so no award, as the page's rule says.
    expect(awards).not_to_contain_text("Most pepper rounds made")
    looker.look("night-public")
    _wide(page, looker)
    looker.look("night-public-wide")
    page.screenshot(path=str(DOCS / "night-public.png"))
    page.emulate_media(media="print")
    expect(page.locator(".top")).to_be_hidden()
    assert printed_pages(page, "night-public-print") in (1, 2)
    page.emulate_media(media="screen")
    services.season_link_new(season=season)  # a new link: this one stops
    assert page.goto(page.url) is not None
    expect(page.get_by_role("heading", name="Score cards")).to_have_count(0)
    assert console_errors == [] or all("404" in error for error in console_errors)


def _night_of_eighty() -> tuple[Season, Night]:
    """Eighty players, four rounds of twenty tables, results at random;
    the last round called at the close after a hand at each table (each
    card then says so on a line of its own)."""
    organizer = User.objects.create_user("maria", password="pepper nights 2026")
    league = services.league_create(
        name="Thursday Pepper", organizer=organizer, now=NOW
    )
    firsts = [*PLAYERS[:12], "Quinn", "Rosa", "Sam", "Tom", "Uma", "Vic", "Wes", "Xia"]
    for first in firsts:
        for last in ("Smith", "Jones", "Brown", "Taylor"):
            services.player_add(league=league, name=f"{first} {last}")
    season = services.season_create(
        league=league,
        name="Autumn",
        preset="classic",
        overrides={"hand_limit": 6},
        now=NOW,
    )
    night = progressive_night(season, date(2026, 11, 19))
    rng = random.Random(5)
    for number in range(1, 5):
        played = rounds.round_start(night=night, rng=rng, now=NOW)
        for table in played.tables.select_related("game"):
            game = table.game
            while not game.finished and (number < 4 or not game.last_seq):
                play_hand(
                    game,
                    bid=rng.choice([2, 3, 4]),
                    bidder_side_takes=rng.choice([1, 2, 3, 4, 5, 6]),
                )
                game.refresh_from_db()
    rounds.night_close(night=night, by="maria", now=NOW)
    prize_lists.night_prizes_set(night=night, text="£20\n£10\na bottle")
    return season, night


def test_a_night_of_eighty_prints_on_two_pages(
    page: Page, live_server: LiveServer
) -> None:
    """The standings in two columns, the score cards in three, a table's
    sides a line each: a night of 80 (the door's design figure), four
    rounds of 20 tables (the last called), on two A4 pages, no type
    under 9pt."""
    season, night = _night_of_eighty()
    assert night.checkins.count() == 80
    token = services.season_link_new(season=season)
    page.goto(f"{live_server.url}/standings/{token}/nights/{night.pk}")
    expect(page.locator("table.round-cards tbody tr")).to_have_count(80)
    expect(page.get_by_text("called as it stood")).to_have_count(20)
    page.emulate_media(media="print")
    assert printed_pages(page, "night-of-eighty-print") <= 2
    assert smallest_type(page) >= 9


def test_the_prizes_beside_the_organizers_standings_and_their_form(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    season, night = _night()
    sign_in(page, live_server.url, "maria", "pepper nights 2026")
    page.goto(f"{live_server.url}/seasons/{season.pk}/")
    expect(page.get_by_role("heading", name="The season's prizes")).to_be_visible()
    looker.look("season-prizes")
    page.get_by_role("link", name="Change the prizes…").click()
    page.get_by_label("The prizes, by place").fill("1st: £100\n2nd: £50\n3rd: a cup")
    page.get_by_label("Each tied player gets the higher place's prize").check()
    looker.look("season-prize-form")
    page.get_by_role("button", name="Save the prizes").click()
    expect(page.locator(".prizes")).to_contain_text("a cup")
    expect(page.locator(".prizes")).to_contain_text("higher place")
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    expect(page.get_by_role("heading", name="Tonight's prizes")).to_be_visible()
    looker.look("night-prizes")
    standings = page.locator("section", has=page.locator("#night-standings"))
    standings.screenshot(path=str(SCREENSHOTS / "night-prizes-section.png"))
    _wide(page, looker)
    page.goto(f"{live_server.url}/seasons/{season.pk}/")
    looker.look("season-prizes-wide")
    assert console_errors == []


def test_the_rules_sheet_prints_on_one_page(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    _, night = _night()
    sign_in(page, live_server.url, "maria", "pepper nights 2026")
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.get_by_role("link", name="The rules sheet for the tables").click()
    expect(page.get_by_role("img", name=re.compile("QR code"))).to_be_visible()
    expect(page.locator(".rule-lines")).to_contain_text("Hand limit")
    looker.look("rules-sheet")
    link = page.locator(".sheet-qr a").get_attribute("href")
    assert link is not None and link.endswith("/rules/moon-42/?seats=4")
    _wide(page, looker)
    looker.look("rules-sheet-wide")
    page.emulate_media(media="print")
    assert printed_pages(page, "rules-sheet-print") == 1
    # The longest sheet: bid euchre at 8 (ten bids), every house rule changed.
    Season.objects.filter(pk=night.season_id).update(
        preset="bid-euchre", seats=8, overrides=EVERY_HOUSE_RULE
    )
    page.reload()
    expect(page.locator(".rule-lines .badge")).to_have_count(len(EVERY_HOUSE_RULE))
    assert printed_pages(page, "rules-sheet-longest-print") == 1
    page.emulate_media(media="screen")
    page.set_viewport_size(ViewportSize(width=PHONE["width"], height=PHONE["height"]))
    looker.width = PHONE["width"]
    looker.look("rules-sheet-longest")
    page.goto(link)
    expect(page.get_by_role("heading", name="The rules: moon-42")).to_be_visible()
    assert console_errors == []
