"""Issue 34, a series on four phones at 360 px, each player seated on their
own and the hands bid from those phones: game 1 of a best of 3 (classic,
first to 10: two hands) won, the series score on all four phones, one
taps "Start game 2" and the other three reach that game (seated there
again), and the recap opens on the phones, saying what the log says."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.gamelog import read_log, replay_log
from scorekeeper.games import services
from scorekeeper.games.table import table_of
from scorekeeper.models import Game
from scorekeeper.rules.events import HandRecorded
from scorekeeper.rules.referee import auction_turn
from scorekeeper.rules.series import series_rule
from tests.e2e.conftest import LIVE, Looker
from tests.e2e.table import (
    NAMES,
    board_of,
    calls_line,
    save_outcome,
    seat_four_phones,
    tap,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def bid_hand(game: Game, phones: list[Page], calls: list[str], taken: str) -> None:
    """The hand's ``calls``, each tapped on the phone of the seat whose turn
    it is; the winner's phone names hearts and saves how it went."""
    made: list[str] = []
    for label in calls:
        board = board_of(game)
        assert board.next is not None
        auction = table_of(game, game.last_seq).auction
        seat = auction_turn(board.variant, board.next, auction).seat
        assert seat is not None
        expect(phones[seat].locator("#table")).to_contain_text(
            f"Your call, {NAMES[seat]}", timeout=LIVE
        )
        tap(phones[seat], label)
        made.append(f"{NAMES[seat]} {label}")
        expect(calls_line(phones[seat])).to_contain_text(" · ".join(made))
    board = board_of(game)
    assert board.next is not None
    now = auction_turn(board.variant, board.next, table_of(game, game.last_seq).auction)
    assert now.seat is None and now.high is not None
    winner = phones[now.high[0]]
    winner.locator("#table").get_by_role("button", name="hearts").click()
    expect(winner.locator("#table")).to_contain_text("♥ trump")
    save_outcome(game, winner, taken)


def test_four_phones_win_a_series_game_start_the_next_and_open_the_recap(
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    contexts: list[BrowserContext],
) -> None:
    first = services.game_create(
        preset="classic",
        seats=list(NAMES),
        first_dealer=0,
        overrides={"target_score": 10},
        series=series_rule("best-of-3"),
        now=timezone.now(),
    )
    link = f"{live_server.url}/join/{first.edit_token}"
    phones = seat_four_phones(browser, browser_context_args, contexts, link)
    ann, bob, cat, dan = phones
    # Ann bids 4 after three passes and takes 5, then 4 again and takes 6:
    # Ann & Cat pass 10.
    bid_hand(first, phones, ["pass", "pass", "pass", "4"], "5")
    bid_hand(first, phones, ["pass", "pass", "4", "pass"], "6")
    assert board_of(first).finished

    for page in phones:  # the others by their poll, with no reload
        expect(page.locator("#series")).to_contain_text(
            "Ann & Cat 1 – Bob & Dan 0", timeout=LIVE
        )
        expect(page.get_by_role("button", name="Start game 2")).to_be_visible()
    Looker(cat, "series-four-phones").look("game-1-won")
    bob.get_by_role("button", name="Start game 2").click()
    expect(bob.locator("#series")).to_contain_text("Best of 3 · game 2")
    for page in (ann, dan):  # their page still offers it: it opens Bob's game
        page.get_by_role("button", name="Start game 2").click()
    cat.reload()  # a page opened after: it goes to the game made
    cat.get_by_role("link", name="Go to game 2").click()
    second = Game.objects.exclude(pk=first.pk).get()
    for name, page in zip(NAMES, phones, strict=True):
        assert page.url.rstrip("/").endswith(str(second.pk))
        expect(page.locator("#series")).to_contain_text("Best of 3 · game 2")
        expect(page.locator("#series")).to_contain_text("Ann & Cat 1 – Bob & Dan 0")
        expect(page.locator("#table")).to_contain_text(f"{name}: this phone")
    # Ann and Bob dealt game 1: Cat deals game 2, and Dan calls first.
    assert second.first_dealer == 2
    expect(dan.locator("#table")).to_contain_text("Your call, Dan")
    expect(ann.locator("#table")).to_contain_text("Waiting for Dan's call")

    _recap_says_what_the_log_says(first, phones, live_server.url)


def _recap_says_what_the_log_says(game: Game, phones: list[Page], base: str) -> None:
    """Each phone opens the series' recap, and one game 1's: who bid and
    made what, the totals and the hand that decided it, as game 1's log
    has them."""
    text = phones[0].request.get(f"{base}/games/{game.pk}/log.json").text()
    board = replay_log(read_log(text))
    hands = [r for r in board.hands if isinstance(r.hand, HandRecorded)]
    bids = dict.fromkeys(NAMES, 0)
    made = dict(bids)
    for result in hands:
        hand = result.hand
        assert isinstance(hand, HandRecorded) and hand.tricks is not None
        bids[NAMES[hand.bidder]] += 1
        made[NAMES[hand.bidder]] += hand.tricks[hand.bidder % 2] >= int(hand.bid)
    assert bids["Ann"] == made["Ann"] == 2  # the log is the game played
    for page in phones:
        page.get_by_role("link", name="Recap of the series").click()
        expect(page.locator("h1")).to_contain_text("Recap")
        series = page.locator(".recap-series")
        expect(series).to_contain_text("Ann & Cat 1 – Bob & Dan 0")
        for name in NAMES:
            row = series.locator("tbody tr").filter(has_text=name)
            expect(row.locator("td").nth(0)).to_have_text(str(bids[name]))
            expect(row.locator("td").nth(1)).to_have_text(str(made[name]))
    recap = phones[2]
    recap.get_by_role("link", name="Game 1").click()
    expect(recap.locator(".recap-series")).to_contain_text("Game 1 (this recap)")
    expect(recap.locator("article.recap")).to_contain_text(
        f"The hand that decided it: hand {hands[-1].number}."
    )
    for name, total in zip(board.side_names, board.totals, strict=True):
        expect(recap.locator(".totals")).to_contain_text(f"{name} {total}")
    for name in NAMES:
        row = recap.locator(".recap-players tbody tr").filter(has_text=name)
        expect(row.locator("td").nth(0)).to_have_text(str(bids[name]))
        expect(row.locator("td").nth(2)).to_have_text(str(bids[name] - made[name]))
    Looker(recap, "series-four-phones").look("game-1-recap")
