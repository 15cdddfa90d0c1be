"""Every QR code a table or a player scans opens what the link beside it
opens: each is read as a phone's camera reads it (tests/e2e/qr.py) and
the link it holds is opened on a fresh phone."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import services
from tests.e2e.league import new_screen, sign_in, thursday_night
from tests.e2e.qr import read_qr
from tests.leagues.nights import NAMES
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pepper nights 2026"


def scanned(
    page: Page,
    name: str | re.Pattern[str],
    browser: Browser,
    opened: list[BrowserContext],
) -> Page:
    """The page a fresh phone opens from the QR code called ``name``, once
    its link is checked against the link printed beside it."""
    link = read_qr(page.get_by_role("img", name=name))
    assert link.startswith("http") and link in page.content()
    phone = new_screen(browser, opened)
    phone.goto(link)
    return phone


def test_a_games_two_qr_codes_open_it_to_record_and_to_follow(
    page: Page,
    live_server: LiveServer,
    browser: Browser,
    contexts: list[BrowserContext],
) -> None:
    game = new_game(now=timezone.now())
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    page.get_by_text("Share this game").click()
    editing = scanned(page, "QR code of the edit link", browser, contexts)
    expect(editing.get_by_role("button", name="Save hand")).to_be_visible()
    following = scanned(page, "QR code of the read-only link", browser, contexts)
    expect(following.get_by_text(re.compile("Hand 1"))).not_to_have_count(0)
    expect(following.get_by_role("button", name="Save hand")).to_have_count(0)


def test_the_nights_qr_codes_open_the_door_a_players_night_and_a_table(
    page: Page,
    live_server: LiveServer,
    browser: Browser,
    contexts: list[BrowserContext],
) -> None:
    night = thursday_night(PASSWORD, NAMES)
    for player in night.season.league.players.exclude(name="Ivy"):
        services.check_in(night=night, player=player, now=timezone.now())
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.get_by_role("button", name="Ivy").click()
    ivy = scanned(page, "QR code of Ivy's own night", browser, contexts)
    expect(ivy.get_by_role("heading", name="Ivy's night")).to_be_visible()

    page.get_by_text("Players' own links, check-in by QR code (on)").click()
    door = scanned(page, "QR code of the night's check-in page", browser, contexts)
    expect(door.get_by_label("Find your name")).to_be_visible()

    page.locator("#round-controls").get_by_role("button", name="Start round 1").click()
    page.get_by_text("Table link and QR code").first.click()
    table = scanned(page, "QR code of table 1's link", browser, contexts)
    expect(table.get_by_text(re.compile("bids first"))).to_be_visible()
    page.get_by_role("button", name="Make a TV link").click()
    tv = scanned(page, "QR code of the TV link", browser, contexts)
    expect(tv.get_by_text("Table 2").first).to_be_visible()

    page.get_by_role("link", name="Printable links").click()  # the paper ones
    table = scanned(page, "QR code of table 2's link", browser, contexts)
    expect(table.get_by_text(re.compile("bids first"))).to_be_visible()
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.get_by_text("Players' own links, check-in by QR code (on)").click()
    page.get_by_role("link", name="Print every player's link").click()
    ann = scanned(page, "QR code of Ann's link", browser, contexts)
    expect(ann.get_by_role("heading", name="Ann's night")).to_be_visible()
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.get_by_role("link", name="The rules sheet for the tables").click()
    rules = scanned(page, re.compile("QR code of the full rules"), browser, contexts)
    expect(rules.get_by_role("heading", level=1)).to_contain_text("classic")
