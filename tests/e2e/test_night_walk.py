"""Issue 33's walk: one night of 80 players in Chromium, as its organizer
(the desk at 1280x720), its players (two phones at 360x740 at the door,
then each player's own page) and the room's TV (1280x720) live it.

The club's list pasted into the registry in one go; all 80 check in by
the door's QR link, half on each phone; round 1 round-robin, rounds 2
and 3 progressive (winners move up a table); a newcomer substitutes for
a player who goes home; round 2's clock calls it, the organizer undoes
the call and calls it again; a correction after the close says before
and after; the night's public page. Each round, every player's own page
is checked against the seating in the database (all 80 by HTTP, the
htmx part their page polls; 8 of them as real page loads). The hands
are entered through the services: 20 tables clicked add nothing here."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import timedelta
from html import unescape
from html.parser import HTMLParser
from io import StringIO
from types import SimpleNamespace
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import services
from scorekeeper.leagues.management.commands import call_due_rounds
from scorekeeper.leagues.models import CheckIn, Movement, Night, Round, Substitution
from scorekeeper.models import Game
from scorekeeper.tablewords import signed
from tests.e2e.conftest import SCREENSHOTS, Looker
from tests.e2e.league import (
    DOCS,
    TV,
    new_screen,
    play_out_alternately,
    printed_pages,
    seats_at_tables,
    sign_in,
    smallest_type,
    start_round,
    thursday_night,
    winners_and_losers,
)
from tests.e2e.test_night_screens import EIGHTY, PASSWORD
from tests.leagues.nights import play_hand
from tests.records import HTMX

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NEWCOMER = "Nadia Quill"
ROUND_ROBIN = "Round-robin (every two partner once)"
PROGRESSIVE = "Progressive (winners move up a table)"
SAMPLE = 8  # players whose page is also loaded in the browser, each round


class _Text(HTMLParser):
    """An HTML answer's words as a browser lays them out, near enough:
    blocks apart, inline elements run on."""

    INLINE = frozenset({"strong", "span", "a", "em", "b"})

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag not in self.INLINE:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        self.handle_starttag(tag, None)

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _words(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(unescape("".join(parser.parts)).split())


def _where_each_sits(played: Round) -> dict[str, str]:
    """Each seated player's name -> what their page must say (table, seat,
    partner, opponents), from the round's seats and substitutions as the
    desk has them in the database."""
    subs = {
        (sub.table_id, sub.position): sub.substitute.name
        for sub in Substitution.objects.filter(table__round=played).select_related(
            "substitute"
        )
    }
    expected = {}
    for table in played.tables.prefetch_related("seats__player"):
        names = {
            seat.position: subs.get((table.pk, seat.position), seat.player.name)
            for seat in table.seats.all()
        }
        for position, name in names.items():
            opponents = ", ".join(
                names[seat] for seat in sorted(names) if seat % 2 != position % 2
            )
            expected[name] = (
                f"Table {table.number}, seat {position + 1} "
                f"Partner {names[(position + 2) % 4]} Opponents {opponents}"
            )
    return expected


def _every_page_says_where(
    phone: Page, url: str, tokens: dict[str, str], played: Round
) -> None:
    """All 80 pages' answers (the part the page polls) name the seat the
    database has; a sample is loaded in the browser as the player sees it."""
    expected = _where_each_sits(played)
    assert len(expected) == 80
    client = Client(headers=HTMX)
    for name, words in expected.items():
        answer = client.get(f"/me/{tokens[name]}")
        assert answer.status_code == 200, (name, answer.status_code)
        said = _words(answer.content.decode())
        assert f"Round {played.number}" in said and words in said, (name, said)
    step = len(expected) // SAMPLE
    for name in sorted(expected)[::step][:SAMPLE]:
        phone.goto(f"{url}/me/{tokens[name]}")
        where = phone.locator("#where")
        expect(where).to_contain_text(f"Round {played.number}")
        assert expected[name] in " ".join(where.inner_text().split()), name


def _moved_up(before: Round, after: Round, gone: Iterable[str] = ()) -> None:
    """Winners moved up a table, losers stayed (the head's losers to the
    foot): as the movement's rule says, read from the seats and results."""
    seats, left = seats_at_tables(after), set(gone)
    foot = len(seats) - 1
    for number, (won, lost) in enumerate(winners_and_losers(before)):
        assert won - left <= seats[max(number - 1, 0)], (number, won)
        assert lost - left <= seats[number if number else foot], (number, lost)


def _check_in_at_the_door(phones: list[Page], names: list[str]) -> list[str]:
    """At each phone, on the door's list, a player taps their name (the
    phones at once) and lands on their own page; then the phone goes back
    to the list for the next player. Returns the pages' tokens."""
    for phone, name in zip(phones, names, strict=True):
        phone.get_by_role("button", name=name, exact=True).click(no_wait_after=True)
    tokens = []
    for phone, name in zip(phones, names, strict=True):
        expect(phone.get_by_role("heading", name=f"{name}'s night")).to_be_visible()
        tokens.append(phone.url.rsplit("/", 1)[-1])
        phone.go_back()
    return tokens


def _night() -> Night:
    return thursday_night(PASSWORD)


def test_a_night_of_eighty_from_the_pasted_list_to_its_public_page(
    page: Page,
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    console_errors: list[str],
) -> None:
    url, night = live_server.url, _night()
    desk = new_screen(browser, contexts, TV)
    at_desk = Looker(desk, "night-walk-desk", TV["width"])
    sign_in(desk, url, "maria", PASSWORD)

    # The registry: the club's list pasted in one go.
    desk.goto(f"{url}/leagues/{night.season.league_id}/")
    desk.get_by_text("Paste a list of names").click()
    desk.get_by_label("Names, one a line").fill("\n".join(EIGHTY))
    desk.get_by_role("button", name="Add these players").click()
    expect(desk.get_by_role("status")).to_contain_text("Added 80 players")
    expect(desk.get_by_role("heading", name="Players (80)")).to_be_visible()

    # The door's link (its QR code) on the night's page; two phones at the
    # door, the players taking turns on them.
    desk.goto(f"{url}/nights/{night.pk}/")
    desk.get_by_text("Players' own links, check-in by QR code (on)").click()
    door = desk.locator("#door-qr .link a").get_attribute("href") or ""
    assert "/door/" in door
    phones = [page, new_screen(browser, contexts)]
    at_the_door = Looker(page, "night-walk-phone")
    for phone in phones:
        phone.goto(door)
    tokens: dict[str, str] = {}
    for pair in range(0, len(EIGHTY), 2):
        names = EIGHTY[pair : pair + 2]
        tokens.update(zip(names, _check_in_at_the_door(phones, names), strict=True))
        if pair == 40:
            at_the_door.look("door-half-way")
    desk.reload()
    expect(desk.locator("#door-counts")).to_contain_text("80 here · 0 not here")

    # Round 1, round-robin, started from the desk.
    desk.goto(f"{url}/nights/{night.pk}/desk")
    start_round(desk, 1, ROUND_ROBIN)
    expect(desk.get_by_role("heading", name="Round 1")).to_be_visible()
    first = night.rounds.get(number=1)
    assert first.movement == Movement.CIRCLE
    _every_page_says_where(page, url, tokens, first)
    at_the_door.look("round-1-seat")
    play_out_alternately(first)

    # Round 2, progressive, with a one-minute clock that calls it.
    start_round(desk, 2, PROGRESSIVE, minutes="1")
    expect(desk.get_by_role("heading", name="Round 2")).to_be_visible()
    second = night.rounds.get(number=2)
    assert second.movement == Movement.WINNERS_UP and second.auto_call
    _moved_up(first, second)
    _every_page_says_where(page, url, tokens, second)
    for table in second.tables.select_related("game"):
        play_hand(table.game, bidder_side_takes=0 if table.number % 2 else 6)

    # The TV, by its read-only link, shows the 20 tables and the clock.
    desk.goto(f"{url}/nights/{night.pk}/")
    desk.get_by_role("button", name="Make a TV link").click()
    link = desk.locator("#tv ~ .link a, section:has(#tv) .link a").first
    tv = new_screen(browser, contexts, TV)
    tv.emulate_media(reduced_motion="reduce")  # the standings stand still
    tv.goto(link.get_attribute("href") or "")
    expect(tv.locator(".tv-table")).to_have_count(20)
    expect(tv.locator(".round-clock")).to_contain_text(re.compile(r"\d+:\d\d left"))
    Looker(tv, "night-walk-tv", TV["width"]).look("round-2")
    tv.screenshot(path=str(DOCS / "league-tv.png"))  # the README's

    # A player goes home after hand 1: a newcomer, checked in on the spot,
    # takes the seat from hand 2.
    desk.get_by_role("link", name="Substitute…").nth(4).click()  # table 5
    expect(desk.get_by_role("heading", name="A substitute at table 5")).to_be_visible()
    leaver = desk.get_by_role("group", name="Who leaves").locator("label").first
    leaving = leaver.inner_text().strip()
    leaver.click()
    expect(desk.get_by_label("They are leaving for the night")).to_be_checked()
    desk.get_by_label("Someone new (checked in now)").fill(NEWCOMER)
    desk.get_by_role("button", name="Seat the substitute").click()
    expect(desk.locator(".round-tables").first).to_contain_text(
        f"{leaving} → {NEWCOMER} from hand 2"
    )
    tokens[NEWCOMER] = CheckIn.objects.get(night=night, player__name=NEWCOMER).token
    page.goto(f"{url}/me/{tokens[leaving]}")
    expect(page.locator("#where")).to_contain_text("You are checked out for tonight")
    expect(page.locator("#where")).to_contain_text(
        f"{NEWCOMER} took your seat in round 2, from hand 2"
    )
    del tokens[leaving]
    _every_page_says_where(page, url, tokens, second)

    # Time is up: call_due_rounds (the cron's command where the task
    # backend cannot wait, as in the tests) calls it, its clock read a
    # minute on.
    assert second.ends_at is not None
    later = SimpleNamespace(now=lambda: second.ends_at + timedelta(seconds=1))
    said = StringIO()
    with mock.patch.object(call_due_rounds, "timezone", later):
        call_command("call_due_rounds", stdout=said)
    assert said.getvalue() == "20 games ended as they stood\n"
    desk.goto(f"{url}/nights/{night.pk}/desk")
    expect(desk.get_by_role("heading", name="Round 2 (called)")).to_be_visible()
    at_desk.look("round-2-called-by-the-clock")
    desk.get_by_role("button", name="Undo the call of round 2").click()
    expect(desk.get_by_role("link", name="Call round 2…")).to_be_visible()
    assert Game.objects.filter(table__round=second, finished=False).count() == 20
    for table in second.tables.select_related("game")[::2]:  # odd: 1, 3...
        play_hand(table.game, bidder_side_takes=0)  # hand 2: finished
    desk.reload()
    desk.get_by_role("link", name="Call round 2…").click()
    desk.get_by_role("button", name="Call round 2").click()
    expect(desk.get_by_role("heading", name="Round 2 (called)")).to_be_visible()

    # Round 3, progressive: the newcomer fills the leaver's gap.
    start_round(desk, 3, PROGRESSIVE)
    expect(desk.get_by_role("heading", name="Round 3")).to_be_visible()
    third = night.rounds.get(number=3)
    _moved_up(second, third, gone=[leaving])
    _every_page_says_where(page, url, tokens, third)
    at_desk.look("round-3")
    play_out_alternately(third)
    desk.get_by_role("link", name="Close the night…").click()
    desk.get_by_role("button", name="Close the night").click()
    expect(desk.get_by_role("heading", name="Round 3 · night closed")).to_be_visible()

    # A correction after the close, to a game the call ended: the game's
    # page and the night's log say before and after.
    fixed = Game.objects.get(table__round=second, table__number=2)
    desk.goto(f"{url}/join/{fixed.edit_token}")
    hand_1 = desk.locator("#hands li").last  # newest first
    hand_1.locator("summary").click()
    hand_1.get_by_role("link", name="Correct").click()
    desk.get_by_role("group", name="Tricks the bidding side took (of 6)").get_by_label(
        "0", exact=True
    ).check()
    desk.get_by_label("Reason").fill("The tricks were counted on the wrong side")
    desk.get_by_role("button", name="Save correction").click()
    expect(desk.locator(".winner")).to_contain_text(
        "took 6 → took 0; the winner changed"
    )
    expect(desk.locator(".fixes-after-end")).to_contain_text("took 6 → took 0")
    desk.goto(f"{url}/nights/{night.pk}/")
    log = desk.locator(".change-log")
    expect(log).to_contain_text(
        re.compile(r"round 2 table 2: hand 1 \(.+took 6 → took 0")
    )
    expect(log).to_contain_text("(The tricks were counted on the wrong side)")
    expect(log).to_contain_text("round 2's call undone: 20 games play on")
    at_desk.look("corrected")
    log.screenshot(path=str(SCREENSHOTS / "night-walk-change-log.png"))

    # The night in public, from the season's public link.
    token = services.season_link_new(season=night.season)
    page.goto(f"{url}/standings/{token}")
    page.get_by_role("link", name=re.compile(night.date.strftime("%-d %b %Y"))).click()
    expect(page).to_have_url(f"{url}/standings/{token}/nights/{night.pk}")
    for number in (1, 2, 3):
        cards = page.get_by_role("table", name=f"Round {number}")
        expect(cards.locator("tbody tr")).to_have_count(20)
    fixed.refresh_from_db()
    card = page.get_by_role("table", name="Round 2").locator("tbody tr").nth(1)
    for total in fixed.totals:
        expect(card).to_contain_text(f": {signed(total)}")
    expect(page.locator("table.standings").first).to_contain_text(NEWCOMER)
    at_the_door.look("public-night")
    desk.goto(page.url)
    at_desk.look("public-night")
    desk.emulate_media(media="print")  # on paper: two A4 pages at most
    assert printed_pages(desk, "night-walk-print") <= 2
    assert smallest_type(desk) >= 9
    assert console_errors == []
