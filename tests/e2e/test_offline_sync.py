"""Offline changes meeting the server: two phones that recorded one hand
differently, voids and corrections made offline, a flaky link, and the
phone's engine (Pyodide) against the server's ``replay --json``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from scorekeeper.games import services
from scorekeeper.models import Game
from tests.e2e.conftest import Looker, fill_hand
from tests.e2e.offline import (
    READY,
    Server,
    log_of,
    offline_phone,
    ready_phone,
    shown,
)
from tests.e2e.test_offline import SYNCED, record
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The contract's examples (../shared/contracts/examples, copied here).
EXAMPLES = Path(settings.BASE_DIR) / "tests" / "data" / "contract"


def passed_out(game: Game, hands: int) -> None:
    for _ in range(hands):
        game.refresh_from_db()
        services.hand_pass_out(
            game=game, expected_seq=game.last_seq, now=timezone.now()
        )


def synced(page: Page) -> None:
    expect(page.locator("#offline-status")).to_contain_text(READY, timeout=SYNCED)
    expect(page.locator(".badge.queued")).to_have_count(0)


@pytest.mark.parametrize("keep", ["theirs", "ours"])
def test_two_phones_record_hand_7_differently_and_the_table_keeps_one(
    browser: Browser, server: Server, phones: list[BrowserContext], keep: str
) -> None:
    game = new_game(now=timezone.now())
    passed_out(game, 6)
    url = f"{server.url}/join/{game.edit_token}"
    ann, dan = (offline_phone(browser, phones, url) for _ in range(2))
    for page, by, hand in (
        (ann, "Ann", {"bidder": "Bob", "bid": "3", "trump": "spades", "taken": "4"}),
        (dan, "Dan", {"bidder": "Cat", "bid": "4", "trump": "hearts", "taken": "5"}),
    ):
        page.get_by_label("Entered by").fill(by)
        record(page, **hand)
    ann.context.set_offline(False)
    synced(ann)
    dan.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # at the Save bar
    assert dan.locator("#offline").evaluate(
        "node => node.getBoundingClientRect().bottom < 0"
    )
    dan.context.set_offline(False)
    dispute = dan.locator("#dispute")
    expect(dispute).to_contain_text(
        "Ann's phone recorded hand 7 as Bob bid 3 ♠, took 4; "
        "this phone has hand 7 as Cat bid 4 ♥, took 5.",
        timeout=SYNCED,
    )
    expect(dispute).to_be_in_viewport()  # the question is in view when asked
    Looker(dan, f"offline-dispute-{keep}").look("asked")
    name = "Keep theirs (drop ours)" if keep == "theirs" else "Keep ours"
    dan.get_by_role("button", name=name).click()
    synced(dan)
    events = log_of(dan, server, game.pk)
    assert [event["type"] for event in events[6:]] == (
        ["hand"] if keep == "theirs" else ["hand", "correct"]
    )
    if keep == "ours":
        assert events[7]["target"] == 7
        assert events[7]["hand"]["bidder"] == 2
        assert "kept this phone's version of hand 7" in events[7]["note"]
    dan.reload()
    row = shown(dan)["rows"][0]
    assert row["summary"] == (
        "Bob bid 3 ♠, took 4" if keep == "theirs" else "Cat bid 4 ♥, took 5"
    )
    assert dan.locator("#hands > li").count() == 7  # one hand 7


def test_voids_corrections_and_refusals_offline_say_what_the_server_says(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game = new_game(now=timezone.now())
    page = ready_phone(browser, phones, f"{server.url}/join/{game.edit_token}")
    record(page, bidder="Bob", bid="3", trump="spades", taken="4")  # sent at once
    expect(page.locator("#offline")).to_have_attribute("data-seq", "1")  # kept
    page.context.set_offline(True)
    record(page, bidder="Cat", bid="4", trump="hearts", taken="5")
    record(page, bidder="Dan", bid="3", trump="clubs", taken="2")
    # An illegal auction: refused on the phone, nothing queued.
    form = page.locator("#record")
    fill_hand(form, bidder="Ann", bid="3", trump="spades", taken="3")
    form.locator("details.auction summary").click()
    form.get_by_role("textbox", name="The calls in order").fill("pass, 2, 1")
    form.get_by_role("button", name="Save hand").click()
    refusal = form.get_by_role("alert")
    expect(refusal).to_be_visible()
    offline_words = refusal.locator("p").all_inner_texts()
    assert "bid must be higher" in offline_words[0]
    expect(page.locator(".badge.queued")).to_have_count(2)

    hands = page.locator("#hands > li")
    hands.last.locator("summary").click()  # hand 1, on the server already
    hands.last.get_by_role("link", name="Correct").click()
    editor = page.get_by_role("form", name="Correct hand 1")
    fill_hand(editor, bidder="Bob", bid="3", trump="spades", taken="5")
    Looker(page, "offline-correct").look("editor")
    editor.get_by_role("button", name="Save correction").click()
    expect(hands.last.locator(".badge", has_text="corrected")).to_be_visible()
    hands.first.locator("summary").click()  # hand 3, queued
    hands.first.get_by_role("link", name="Void").click()
    void = page.get_by_role("form", name="Void hand 3")
    void.get_by_label("Why?").fill("wrong table")
    Looker(page, "offline-void").look("editor")
    void.get_by_role("button", name="Void hand 3").click()
    expect(hands).to_have_count(2)
    expect(page.locator("#offline-voided")).to_contain_text("voided on this phone")
    expect(page.locator("#offline-status")).to_contain_text("4 changes wait")
    offline = shown(page)

    page.context.set_offline(False)
    synced(page)
    events = log_of(page, server, game.pk)
    assert [(e["type"], e.get("target")) for e in events] == [
        ("hand", None),
        ("hand", None),
        ("hand", None),
        ("correct", 1),
        ("void", 3),
    ]
    page.reload()
    assert shown(page) == offline
    fill_hand(form, bidder="Ann", bid="3", trump="spades", taken="3")
    form.locator("details.auction summary").click()
    form.get_by_role("textbox", name="The calls in order").fill("pass, 2, 1")
    form.get_by_role("button", name="Save hand").click()  # to the server
    expect(form.get_by_role("alert").locator("p")).to_have_text(offline_words)


def test_the_phone_engine_scores_every_example_as_replay_json(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game = new_game(now=timezone.now())
    page = ready_phone(browser, phones, f"{server.url}/join/{game.edit_token}")
    examples = sorted(EXAMPLES.glob("*.log.json"))
    assert len(examples) >= 5
    for example in examples:
        replayed = subprocess.run(
            [sys.executable, "manage.py", "replay", "--json", str(example)],
            capture_output=True,
            text=True,
            check=True,
            cwd=settings.BASE_DIR,
        ).stdout
        phone = page.evaluate(
            "text => PepperEngine.call('score', text)", example.read_text()
        )
        assert json.loads(phone) == json.loads(replayed), example.name


def test_fifty_queued_hands_sync_through_a_link_failing_half_the_time(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game = new_game(now=timezone.now())
    page = offline_phone(browser, phones, f"{server.url}/join/{game.edit_token}")
    for _ in range(50):
        record(page, passed=True)
    expect(page.locator("#offline-status")).to_contain_text("50 hands wait")
    chance = random.Random(21)
    failed = {"before": 0, "after": 0}

    def flaky(route: Route) -> None:
        """Half the sends fail: half of those before the server saw them,
        half after it stored them (the phone never hears the answer)."""
        roll = chance.random()
        if roll < 0.25:
            failed["before"] += 1
            route.abort()
        elif roll < 0.5:
            failed["after"] += 1
            route.fetch()
            route.abort()
        else:
            route.continue_()

    page.route("**/api/games/**", flaky)
    page.context.set_offline(False)
    expect(page.locator("#offline-status")).to_contain_text(READY, timeout=180_000)
    events = log_of(page, server, game.pk)
    assert len(events) == 50
    assert len({event["id"] for event in events}) == 50
    assert all(event.get("passed_out") for event in events)
    assert failed["before"] > 5 and failed["after"] > 5
