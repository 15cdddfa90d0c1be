"""Issue 33, "The director's night", in Chromium at 360x740 and 1280x720:
a player scans the door's QR code, taps their name and lands on their own
night, which follows the night by itself (the round seated, "I'm at my
table", a substitute in their seat); the organizer's tap at check-in
shows the player's own QR code, the check-in sheet prints every player's,
and the desk lists who has not sat down until they tap. axe checks every
page; nothing scrolls sideways."""

from __future__ import annotations

import random
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import CheckIn, Night, Round, Seat
from scorekeeper.leagues.results import season_standings
from tests.e2e.conftest import DOCS, LIVE, PHONE, Looker
from tests.e2e.league import TV, new_screen, sign_in
from tests.leagues.nights import NAMES, play_hand, take_over

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pepper nights 2026"
SIZES = pytest.mark.parametrize("size", [PHONE, TV], ids=["360", "1280"])


def _night() -> Night:
    user = User.objects.create_user("maria", password=PASSWORD)
    now = timezone.now()
    league = services.league_create(name="Thursday Pepper", organizer=user, now=now)
    for name in NAMES:
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league, name="Autumn", preset="classic", overrides={}, now=now
    )
    return services.night_create(
        season=season, day=date(2026, 11, 26), format=Night.PROGRESSIVE, now=now
    )


def _everyone_but(night: Night, name: str) -> None:
    for player in night.season.league.players.exclude(name=name):
        services.check_in(night=night, player=player, now=timezone.now())


def _start(night: Night) -> Round:
    return rounds.round_start(night=night, rng=random.Random(5), now=timezone.now())


@SIZES
def test_a_player_checks_in_at_the_door_and_their_page_follows_the_night(
    page: Page,
    live_server: LiveServer,
    console_errors: list[str],
    request: pytest.FixtureRequest,
    size: dict[str, int],
) -> None:
    page.set_viewport_size({"width": size["width"], "height": size["height"]})
    looker = Looker(page, request.node.name, width=size["width"])
    night = _night()
    _everyone_but(night, "Eve")
    page.goto(f"{live_server.url}/door/{night.door_token}")
    page.get_by_label("Find your name").fill("ev")
    page.get_by_role("button", name="Find").click()
    expect(page.locator(".names button")).to_have_count(1)
    looker.look("door")
    page.get_by_role("button", name="Eve").click()
    expect(page.get_by_role("heading", name="Eve's night")).to_be_visible()
    expect(page.locator("#where")).to_contain_text("No round has started yet")
    looker.look("checked-in")
    page.evaluate("window.notReloaded = true")

    played = _start(night)
    eve = night.season.league.players.get(name="Eve")
    seat = Seat.objects.filter(table__round=played, player=eve).first()
    assert seat is not None, "Eve sits out with seed 5: pick another"
    where = page.locator("#where")
    expect(where).to_contain_text(
        f"Table {seat.table.number}, seat {seat.position + 1}", timeout=LIVE
    )
    expect(where).to_contain_text("Partner")
    looker.look("seated")
    page.get_by_role("button", name="I'm at my table").click()
    expect(where).to_contain_text("You are at your table")
    assert CheckIn.objects.get(night=night, player=eve).seated_round == 1

    play_hand(seat.table.game)
    take_over(
        seat.table,
        played.sitting_out.get(),
        from_hand=2,
        credit="started",
        position=seat.position,
    )
    expect(where).to_contain_text("took your seat from hand 2", timeout=LIVE)
    games = page.locator(".mine-games li")
    expect(games).to_have_count(1)
    expect(games).to_contain_text(f"Round 1, table {seat.table.number}, with ")
    expect(games).to_contain_text("in play")
    expect(games).to_contain_text("you left it from hand 2")
    looker.look("replaced")
    rounds.round_call(round=played, by="maria", now=timezone.now())
    expect(games).not_to_contain_text("in play", timeout=LIVE)
    standing = page.locator(".mine-standing")
    rows = season_standings(night.season)["nights"][0]["rows"]  # type: ignore[index]
    rank = next(row["rank"] for row in rows if row["name"] == "Eve")
    place = {1: "1st", 3: "3rd"}[rank]  # one game: a side shares its place
    expect(standing).to_contain_text(f"Joint {place} of 4 tonight")
    looker.look("so-far")
    if size == PHONE:
        page.screenshot(path=str(DOCS / "my-night.png"))
    assert page.evaluate("window.notReloaded") is True
    assert console_errors == []

    again = page.context.new_page()  # the same name, another form: told so
    again.goto(f"{live_server.url}/door/{night.door_token}?q=eve")
    again.get_by_role("button", name="Eve").click()
    expect(again.get_by_role("alert")).to_contain_text("Eve is already checked in")
    again.close()


@SIZES
def test_the_desk_sees_who_has_not_sat_down_and_the_door_shows_each_link(
    page: Page,
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    console_errors: list[str],
    request: pytest.FixtureRequest,
    size: dict[str, int],
) -> None:
    page.set_viewport_size({"width": size["width"], "height": size["height"]})
    looker = Looker(page, request.node.name, width=size["width"])
    night = _night()
    _everyone_but(night, "Ivy")
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.get_by_role("button", name="Ivy").click()
    just_in = page.locator("#just-in")
    expect(just_in).to_contain_text("Ivy is checked in")
    expect(
        just_in.get_by_role("img", name="QR code of Ivy's own night")
    ).to_be_visible()
    looker.look("tap-shows-qr")
    page.get_by_text("Players' own links, check-in by QR code (on)").click()
    looker.look("door-qr")
    page.get_by_role("link", name="Print every player's link").click()
    expect(page.get_by_role("img", name="QR code of Ann's link")).to_be_visible()
    expect(
        page.get_by_role("img", name="QR code of the night's check-in page")
    ).to_be_visible()
    looker.look("links-sheet")

    played = _start(night)
    page.goto(f"{live_server.url}/nights/{night.pk}/desk")
    waiting = page.locator(".desk-waiting")
    expect(waiting).to_contain_text("Not at their table yet (8)")
    looker.look("desk-waiting")
    seat = Seat.objects.filter(table__round=played).select_related("player").first()
    assert seat is not None
    mine = CheckIn.objects.get(night=night, player=seat.player)
    phone = new_screen(browser, contexts)
    phone.goto(f"{live_server.url}/me/{mine.token}")
    phone.get_by_role("button", name="I'm at my table").click()
    expect(phone.locator("#where")).to_contain_text("You are at your table")
    expect(waiting).to_contain_text("Not at their table yet (7)", timeout=LIVE)
    expect(waiting).not_to_contain_text(seat.player.name)
    assert console_errors == []


@SIZES
def test_the_organizer_turns_the_door_off_and_a_phone_at_the_door_is_told(
    page: Page,
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    console_errors: list[str],
    request: pytest.FixtureRequest,
    size: dict[str, int],
) -> None:
    """A night where the desk checks everyone in: the door's QR code stops
    checking anyone in, the phone that scanned it is told to ask at the
    desk, and turning it on again lets the next player in."""
    page.set_viewport_size({"width": size["width"], "height": size["height"]})
    looker = Looker(page, request.node.name, width=size["width"])
    night = _night()
    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    phone = new_screen(browser, contexts)
    phone.goto(f"{live_server.url}/door/{night.door_token}?q=eve")  # scanned
    page.get_by_text("Players' own links, check-in by QR code (on)").click()
    page.get_by_role("button", name="Turn check-in by QR code off").click()
    switch = page.get_by_text("Players' own links, check-in by QR code (off)")
    expect(switch).to_be_visible()
    switch.click()
    expect(
        page.get_by_role("img", name="QR code of the night's check-in page")
    ).to_have_count(0)
    looker.look("door-off")

    phone.get_by_role("button", name="Eve").click()  # the page opened before
    expect(phone.get_by_role("alert")).to_contain_text(
        "Check-in at the door is off tonight: ask at the desk."
    )
    assert not night.checkins.exists()
    phone.goto(f"{live_server.url}/door/{night.door_token}")
    expect(phone.locator("main")).to_contain_text("Check-in is at the desk tonight")

    page.get_by_role("button", name="Let players check themselves in").click()
    expect(
        page.get_by_text("Players' own links, check-in by QR code (on)")
    ).to_be_visible()
    phone.goto(f"{live_server.url}/door/{night.door_token}?q=eve")
    phone.get_by_role("button", name="Eve").click()
    expect(phone.get_by_role("heading", name="Eve's night")).to_be_visible()
    assert night.checkins.filter(player__name="Eve", present=True).exists()
    assert console_errors == []
