"""Issue 34 on four phones at 360 px: each player takes a seat on their
own phone, and the hands are bid from those phones (a pepper round, stick
the dealer, a call out of turn, two phones racing for one call, a phone
dropping out mid-auction), then saved with their auctions; the log passes
``manage.py replay`` and the referee's auction check."""

from __future__ import annotations

import base64
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.gamelog import read_log, replay_log
from scorekeeper.games.table import table_of
from scorekeeper.models import Game
from scorekeeper.rules.events import HandPassedOut, HandRecorded
from scorekeeper.rules.referee import auction_turn, turn_of, verify_auction
from scorekeeper.tablewords import bid_label
from tests.e2e.conftest import DOCS, LIVE, SCREENSHOTS, Looker
from tests.e2e.table import (
    NAMES,
    board_of,
    calls_line,
    expect_seats,
    save_outcome,
    seat_four_phones,
    sit_down,
    tap,
)
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def test_four_phones_bid_each_hand_from_their_own_seats(
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    contexts: list[BrowserContext],
) -> None:
    game = new_game(
        "classic", now=timezone.now(), pepper_round_hands=1, stick_the_dealer=True
    )
    link = f"{live_server.url}/join/{game.edit_token}"
    phones = seat_four_phones(browser, browser_context_args, contexts, link)
    for page in phones:  # every phone sees every seat taken
        page.reload()
    expect_seats(phones, dict(zip(NAMES, phones, strict=True)))
    while board_of(game).next and board_of(game).next.pepper_round:  # type: ignore[union-attr]
        _pepper_round_hand(game, phones)
    _stuck_dealer_hand(game, phones)
    _racing_and_dropping_hand(game, phones, contexts)
    _logs_pass_replay_and_the_referee(game)


def _pepper_round_hand(game: Game, phones: list[Page]) -> None:
    turn = board_of(game).next
    assert turn is not None and turn.pepper_round
    bidder, bid = NAMES[turn.first_bidder], bid_label(turn.forced_bid)
    for page in phones:
        expect(calls_line(page)).to_contain_text(
            f"a pepper round: {bidder} bids {bid}", timeout=LIVE
        )
    others = [p for s, p in enumerate(phones) if s != turn.first_bidder]
    expect(others[0].locator("#table")).to_contain_text(
        f"waiting for {bidder} to name trump"
    )
    expect(others[0].locator("#table .call-choices")).to_have_count(0)
    phones[turn.first_bidder].locator("#table").get_by_role(
        "button", name="hearts"
    ).click()
    for page in phones:
        expect(page.locator("#table")).to_contain_text(
            f"{bidder} bid {bid}, ♥ trump", timeout=LIVE
        )
    save_outcome(game, phones[0], "6")


def _stuck_dealer_hand(game: Game, phones: list[Page]) -> None:
    """Three passes; the dealer, stuck, is offered no pass and bids. A
    phone calling out of turn is refused in words."""
    turn = board_of(game).next
    assert turn is not None and not turn.pepper_round
    seats = [(turn.first_bidder + n) % 4 for n in range(4)]
    late = phones[seats[2]]
    csrf = next(c["value"] for c in late.context.cookies() if c["name"] == "csrftoken")
    forged = late.request.post(
        f"{late.url.split('?')[0]}table/call",
        form={
            "seat": str(seats[2]),
            "call": "pass",
            "position": "0",
            "seq": str(game.last_seq),
        },
        headers={"X-CSRFToken": csrf, "Referer": late.url, "HX-Request": "true"},
    )
    assert forged.status == 409
    assert f"It is {NAMES[seats[0]]}'s turn to call, not {NAMES[seats[2]]}'s." in (
        forged.text().replace("&#x27;", "'")
    )
    line: list[str] = []
    for seat in seats[:3]:
        expect(phones[seat].locator("#table")).to_contain_text(
            f"Your call, {NAMES[seat]}", timeout=LIVE
        )
        tap(phones[seat], "pass")
        line.append(f"{NAMES[seat]} pass")
    dealer = phones[turn.dealer]
    expect(dealer.locator("#table")).to_contain_text(
        f"Your call, {NAMES[turn.dealer]}", timeout=LIVE
    )
    expect(dealer.locator("#table .call-choices button.pass")).to_have_count(0)
    for page in phones:
        expect(calls_line(page)).to_contain_text(
            " · ".join([*line, f"{NAMES[turn.dealer]} …"]), timeout=LIVE
        )
    Looker(phones[0], "table-auction").look("three-passes")
    four_phones(phones)
    tap(dealer, "1")
    dealer.locator("#table").get_by_role("button", name="spades").click()
    for page in phones:
        expect(page.locator("#table")).to_contain_text(
            f"{NAMES[turn.dealer]} bid 1, ♠ trump", timeout=LIVE
        )
    save_outcome(game, phones[1], "4")


def four_phones(phones: list[Page]) -> None:
    """The README's picture: the four phones side by side, as they stand."""
    shots = [base64.b64encode(page.screenshot()).decode() for page in phones]
    row = phones[0].context.new_page()
    row.set_viewport_size({"width": 4 * 360 + 3 * 16, "height": 740})
    images = "".join(
        f'<img src="data:image/png;base64,{shot}" alt="" width="360" height="740">'
        for shot in shots
    )
    row.set_content(
        f'<body style="margin:0;display:flex;gap:16px;background:#444">{images}</body>'
    )
    DOCS.mkdir(parents=True, exist_ok=True)
    row.screenshot(path=str(DOCS / "table-auction.png"))
    row.close()


def _racing_and_dropping_hand(
    game: Game, phones: list[Page], contexts: list[BrowserContext]
) -> None:
    """The first caller's phone leaves its seat and drops out; two phones
    call for that seat at once: the first is taken, the other is told."""
    turn = board_of(game).next
    assert turn is not None
    first = turn.first_bidder
    gone = phones[first]
    expect(gone.locator("#table")).to_contain_text(
        f"Your call, {NAMES[first]}", timeout=LIVE
    )
    gone.locator("#table summary").click()
    gone.get_by_role("button", name="Leave the seat").click()
    expect(gone.locator("#table")).to_contain_text(f"I am {NAMES[first]}")
    contexts[first].close()
    racers = [phones[(first + 1) % 4], phones[(first + 2) % 4]]
    for page in racers:
        expect(page.locator("#table")).to_contain_text(
            f"{NAMES[first]} has no phone: call for {NAMES[first]}", timeout=LIVE
        )
        # The poll stops, so that it does not swap away the words a racer
        # is told before they are read.
        page.evaluate("document.getElementById('poller').remove()")
    for page, label in zip(racers, ["2", "pass"], strict=True):
        page.evaluate(
            """label => [...document.querySelectorAll('#table .call-choices button')]
                .find(b => b.textContent === label).click()""",
            label,
        )
    # The first call is taken; the other phone is told, in words.
    for page in racers:
        expect(page.locator("#table .calls-line")).not_to_contain_text(
            f"{NAMES[first]} …", timeout=LIVE
        )
    texts = [page.locator("#table").inner_text() for page in racers]
    assert sum("just made by another phone" in t for t in texts) == 1, texts
    _finish_auction(game, phones, first)


def _finish_auction(game: Game, phones: list[Page], gone: int) -> None:
    """Each next caller passes (a stuck dealer bids), from its own phone
    or, for the seat whose phone dropped out, from any phone."""
    stand_in = phones[(gone + 3) % 4]
    for _ in range(8):
        board = board_of(game)
        assert board.next is not None
        now = auction_turn(
            board.variant, board.next, table_of(game, game.last_seq).auction
        )
        if now.seat is None:
            break
        page = stand_in if now.seat == gone else phones[now.seat]
        page.reload()
        before = calls_line(page).inner_text()
        tap(page, "pass" if "pass" in now.calls else bid_label(now.calls[0]))
        expect(calls_line(page)).not_to_have_text(before, timeout=LIVE)
    board = board_of(game)
    assert board.next is not None
    now = auction_turn(board.variant, board.next, table_of(game, game.last_seq).auction)
    assert now.seat is None and now.high is not None
    winner = stand_in if now.high[0] == gone else phones[now.high[0]]
    winner.reload()
    winner.locator("#table").get_by_role("button", name="diamonds").click()
    expect(winner.locator("#table")).to_contain_text("♦ trump", timeout=LIVE)
    stand_in.reload()
    save_outcome(game, stand_in, "3")


def _logs_pass_replay_and_the_referee(game: Game) -> None:
    """The game's log, as downloaded, replays through the real command,
    and every auction in it is one the referee accepts."""
    reader = Client()
    reader.get(f"/join/{game.edit_token}")
    text = reader.get(f"/games/{game.pk}/log.json").content.decode()
    path = ROOT / "test-results" / f"auction-{game.pk}.log.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    done = subprocess.run(
        [sys.executable, "manage.py", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    log = read_log(text)
    board = replay_log(log)
    auctions = [
        (result, result.hand.auction)
        for result in board.hands
        if isinstance(result.hand, HandRecorded | HandPassedOut) and result.hand.auction
    ]
    assert len(auctions) == 2
    for result, auction in auctions:
        turn = turn_of(board.variant, board.first_dealer, result.number, False)
        assert verify_auction(board.variant, turn, auction) is not None


def test_a_phone_without_javascript_takes_a_seat_and_calls(
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    contexts: list[BrowserContext],
) -> None:
    game = new_game("classic", now=timezone.now())
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    contexts.append(context)
    page = context.new_page()
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    sit_down(page, "Bob")
    expect(page.locator("#table")).to_contain_text("Bob: this phone")
    tap(page, "pass")
    expect(calls_line(page)).to_contain_text("Bob pass · Cat …")
    tap(page, "pass")  # Cat's seat has no phone: this one calls for it
    expect(calls_line(page)).to_contain_text("Bob pass · Cat pass · Dan …")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "table-no-javascript.png"), full_page=True)
