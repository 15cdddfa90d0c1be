"""Offline play where another phone or the organizer changed the game:
a league substitute (the phone names whom the server's page names), and
hands this phone queued that another phone recorded first (each asked
about in turn, shown on the disputed hand, never as a later hand)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.eventstore import load
from scorekeeper.gamelog import replay_log
from scorekeeper.games import services
from scorekeeper.leagues.models import Seat
from scorekeeper.models import Game
from scorekeeper.rules.events import Call
from tests.e2e.conftest import Looker
from tests.e2e.league import two_hands_played
from tests.e2e.offline import Server, log_of, offline_phone, shown
from tests.e2e.test_offline import SYNCED, record
from tests.e2e.test_offline_sync import passed_out, synced
from tests.e2e.test_substitutes import _round
from tests.leagues.nights import take_over
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def named(page: Page) -> dict[str, object]:
    """What the page shows, with the names in the totals and the form."""
    found = shown(page)
    found["sides"] = page.locator("#board .side-name").all_inner_texts()
    found["bidders"] = page.locator(
        "#record fieldset.choices >> nth=0 >> label"
    ).all_inner_texts()
    return found


def test_a_substituted_game_recorded_offline_names_whom_the_server_names(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    played = _round()
    table = two_hands_played(played)
    turn = replay_log(load(table.game)).next  # the substitute bids first in hand 3
    assert turn is not None
    leaver = Seat.objects.get(table=table, position=turn.first_bidder).player
    sitting = played.sitting_out.get()
    take_over(table, sitting, 3, position=turn.first_bidder)
    page = offline_phone(browser, phones, f"{server.url}/join/{table.game.edit_token}")
    expect(page.locator("#board .turn")).to_contain_text(f"{sitting.name} bids first")
    record(page, bidder=sitting.name, bid="3", trump="hearts", taken="4")
    expect(page.locator(".badge.queued")).to_have_count(1)
    offline = named(page)
    assert offline["rows"][0]["summary"].startswith(f"{sitting.name} bid")  # type: ignore[index]
    assert sitting.name in " ".join(offline["sides"])  # type: ignore[arg-type]
    assert leaver.name not in " ".join(offline["bidders"])  # type: ignore[arg-type]
    Looker(page, "offline-substitute").look("queued")
    page.context.set_offline(False)
    synced(page)
    page.reload()
    assert named(page) == offline


def recorded_elsewhere(game: Game, bidder: int, bid: Call, taken: int) -> None:
    """Ann's phone records the next hand (online, through the server)."""
    game.refresh_from_db()
    tricks = [6 - taken, 6 - taken]
    tricks[bidder % 2] = taken
    services.hand_record(
        game=game,
        expected_seq=game.last_seq,
        bidder=bidder,
        bid=bid,
        trump="spades",
        tricks=tricks,
        by="Ann",
        now=timezone.now(),
    )


def asked(page: Page, text: str) -> None:
    expect(page.locator("#dispute")).to_contain_text(text, timeout=SYNCED)


def test_overlapping_disputes_are_asked_in_order_and_end_as_the_table_chose(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game = new_game(now=timezone.now())
    passed_out(game, 6)
    dan = offline_phone(browser, phones, f"{server.url}/join/{game.edit_token}")
    dan.get_by_label("Entered by").fill("Dan")
    for hand in (
        {"bidder": "Cat", "bid": "4", "trump": "hearts", "taken": "5"},  # 7
        {"bidder": "Dan", "bid": "3", "trump": "clubs", "taken": "4"},  # 8
        {"bidder": "Ann", "bid": "3", "trump": "diamonds", "taken": "2"},  # 9
    ):
        record(dan, **hand)
    recorded_elsewhere(game, 1, 3, 4)  # hand 7: Bob bid 3 ♠, took 4
    recorded_elsewhere(game, 2, 4, 3)  # hand 8: Cat bid 4 ♠, took 3
    dan.context.set_offline(False)
    asked(
        dan,
        "Ann's phone recorded hand 7 as Bob bid 3 ♠, took 4; "
        "this phone has hand 7 as Cat bid 4 ♥, took 5.",
    )
    # While the table chooses, this phone's hands 7 and 8 are shown on
    # hands 7 and 8 (two versions each), never as hands 9 and 10.
    hands = dan.locator("#hands > li")
    expect(hands).to_have_count(9)
    numbers = [
        text.strip() for text in dan.locator("#hands .hand-no").all_inner_texts()
    ]
    assert [n.split()[0].rstrip("P") for n in numbers[:3]] == ["9", "8", "7"]
    expect(hands.nth(2).locator(".rival")).to_have_text(
        "This phone has hand 7 as Cat bid 4 ♥, took 5 (not sent: the table chooses)."
    )
    expect(hands.nth(1).locator(".rival")).to_contain_text("hand 8 as Dan bid 3 ♣")
    Looker(dan, "offline-overlap").look("hand-7-asked")
    dan.get_by_role("button", name="Keep ours").click()
    asked(
        dan,
        "Ann's phone recorded hand 8 as Cat bid 4 ♠, took 3; "
        "this phone has hand 8 as Dan bid 3 ♣, took 4.",
    )
    expect(dan.locator(".rival")).to_have_count(1)
    Looker(dan, "offline-overlap").look("hand-8-asked")
    dan.get_by_role("button", name="Keep theirs (drop ours)").click()
    synced(dan)
    expect(dan.locator("#dispute")).to_be_hidden()
    events = log_of(dan, server, game.pk)
    assert [(e["type"], e.get("target"), e.get("by")) for e in events[6:]] == [
        ("hand", None, "Ann"),
        ("hand", None, "Ann"),
        ("correct", 7, "Dan"),
        ("hand", None, "Dan"),
    ]
    assert len({event["id"] for event in events}) == len(events)
    dan.reload()
    assert [row["summary"] for row in shown(dan)["rows"][:3]] == [
        "Ann bid 3 ♦, took 2",
        "Cat bid 4 ♠, took 3",
        "Cat bid 4 ♥, took 5",
    ]
