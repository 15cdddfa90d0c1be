"""A league night in the browser: the organizer signed in, the tables'
phones, and hands recorded on them (shared by the league night tests)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from scorekeeper.leagues import services
from scorekeeper.leagues.models import Night, Round, Table
from tests.e2e.conftest import PHONE, SCREENSHOTS, fill_hand
from tests.leagues.nights import play_hand

# Screenshots the guides in docs/ show: rewritten there with UPDATE_DOCS=1.
DOCS = (
    Path(__file__).resolve().parents[2] / "docs"
    if os.environ.get("UPDATE_DOCS")
    else SCREENSHOTS
)
TV = {"width": 1280, "height": 720}


def new_screen(
    browser: Browser, opened: list[BrowserContext], size: dict[str, int] = PHONE
) -> Page:
    viewport = ViewportSize(width=size["width"], height=size["height"])
    context = browser.new_context(
        viewport=viewport, device_scale_factor=1, service_workers="block"
    )
    opened.append(context)
    return context.new_page()


def table_phone(browser: Browser, link: str, opened: list[BrowserContext]) -> Page:
    phone = new_screen(browser, opened)
    phone.goto(link)
    return phone


def sign_in(page: Page, url: str, username: str, password: str) -> None:
    page.goto(f"{url}/accounts/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()


def record(phone: Page, taken: str) -> None:
    """The seat that bids first takes the bid at 3."""
    turn = phone.get_by_text(re.compile(r"bids first")).inner_text()
    bidder = re.search(r"· ([^·]+) bids first", turn)  # names may have spaces
    assert bidder is not None
    form = phone.locator("#record")
    fill_hand(form, bidder=bidder.group(1), bid="3", trump="hearts", taken=taken)
    phone.get_by_role("button", name="Save hand").click()
    expect(phone.locator(".saved")).to_be_visible()


def play_out(phone: Page) -> None:
    """hand_limit 2: the bidders make 6, then are set: the first side wins."""
    record(phone, "6")
    record(phone, "0")
    expect(phone.locator(".winner")).to_be_visible()


def table_links(page: Page, round_number: int) -> list[str]:
    section = page.locator("h3", has_text=f"Round {round_number}").locator(
        "xpath=following-sibling::ul[1]"
    )
    # Waits for the page (a click may still be navigating to it): all()
    # reads what is there at once.
    expect(section.locator(".link a").first).to_be_attached()
    return [a.get_attribute("href") or "" for a in section.locator(".link a").all()]


def two_hands_played(played: Round) -> Table:
    """Table 1 of the round, two hands played."""
    table = played.tables.select_related("game").order_by("number").first()
    assert table is not None
    for _ in range(2):
        play_hand(table.game)
    return table


def start_round(page: Page, number: int, movement: str, minutes: str = "") -> None:
    """Start the round from the night's page or the desk: its seating, and
    a length (then called by itself when time is up) if ``minutes``."""
    controls = page.locator("#round-controls")
    controls.get_by_label(movement).check()
    controls.get_by_label("Length in minutes").fill(minutes)
    if minutes:
        controls.get_by_label("Call it by itself when time is up").check()
    controls.get_by_role("button", name=f"Start round {number}").click()


def play_out_alternately(played: Round) -> None:
    """Odd tables won by the side that bids first, even ones by the other."""
    for table in played.tables.select_related("game"):
        while not table.game.finished:
            play_hand(table.game, bidder_side_takes=0 if table.number % 2 else 6)
            table.game.refresh_from_db()


def seats_at_tables(played: Round) -> list[set[str]]:
    """Who was seated at each table, head first."""
    return [
        {seat.player.name for seat in table.seats.all()}
        for table in played.tables.prefetch_related("seats__player")
    ]


def winners_and_losers(played: Round) -> list[tuple[set[str], set[str]]]:
    """Each table's winners and losers, head first (a tie: the first
    seat's side moves up, as the movement reads it)."""
    found = []
    for table in played.tables.select_related("game").prefetch_related("seats__player"):
        names = [seat.player.name for seat in table.seats.all()]
        winners = table.game.winners
        won = winners[0] if len(winners) == 1 else 0
        found.append((set(names[won::2]), set(names[1 - won :: 2])))
    return found


def printed_pages(page: Page, name: str) -> int:
    """Prints the page on A4 (the CSS's own margins), keeps the PDF and its
    pages as pictures; the number of pages."""
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.pdf"
    path.write_bytes(pdf)
    if shutil.which("pdftoppm"):
        subprocess.run(
            ["pdftoppm", "-png", "-r", "60", str(path), str(SCREENSHOTS / name)],
            check=True,
        )
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def smallest_type(page: Page) -> float:
    """The smallest type (pt) of the text the page shows (as printed, in
    print media)."""
    pixels: float = page.evaluate(
        """() => Math.min(...[...document.querySelectorAll('main *')]
            .filter(e => [...e.childNodes].some(
                n => n.nodeType === Node.TEXT_NODE && n.textContent.trim()))
            .filter(e => {
                const box = e.getBoundingClientRect();
                return box.width > 1 && box.height > 1;
            })
            .map(e => parseFloat(getComputedStyle(e).fontSize)))"""
    )
    return pixels * 72 / 96


def thursday_night(password: str, players: Iterable[str] = ()) -> Night:
    """maria's club (``players`` in its registry) tonight: a progressive
    night of classic, two hands a game."""
    organizer = User.objects.create_user("maria", password=password)
    now = timezone.now()
    league = services.league_create(
        name="Thursday Pepper", organizer=organizer, now=now
    )
    for name in players:
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league,
        name="Autumn",
        preset="classic",
        overrides={"hand_limit": 2},
        now=now,
    )
    return services.night_create(
        season=season, day=timezone.localdate(), format=Night.PROGRESSIVE, now=now
    )
