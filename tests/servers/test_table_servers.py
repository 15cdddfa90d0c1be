"""Issue 34's live auction on two app servers sharing one database (the
cluster of tests/servers/conftest.py): a seat taken and a call made
through server A are on a phone polling server B; two phones calling for
one turn at once, one through each server: one call is taken, the other
phone is told in words; the hand saved carries the whole auction.

Marker ``servers``; skipped unless SERVERS_TESTS=required (.ci/run)."""

from __future__ import annotations

import html
import json
import os
import re
import threading
from typing import Any

import pytest

from bench.cluster import Cluster
from tests.servers.browser import Answer, ask

REQUIRED = os.environ.get("SERVERS_TESTS") == "required"
pytestmark = [
    pytest.mark.servers,
    pytest.mark.skipif(not REQUIRED, reason="SERVERS_TESTS=required runs them"),
]
# An address of this test's own: the rate limits count per address, across
# the servers and the tests that share the cluster.
SOURCE = "127.0.2.1"


def words(answer: Answer) -> str:
    """The answer's text as a player reads it (no tags, no entities)."""
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", answer.body).split()))


def call_form(answer: Answer) -> tuple[int, int]:
    """The seat and the call number the page's call buttons are for."""
    found = re.search(
        r'name="seat" value="(\d+)"><input type="hidden" name="position" '
        r'value="(\d+)">',
        answer.body,
    )
    assert found, words(answer)[:600]
    return int(found.group(1)), int(found.group(2))


def test_the_live_auction_is_one_table_on_both_servers(
    cluster: Cluster, nights: list[dict[str, Any]]
) -> None:
    server_a, server_b = (s.url for s in cluster.servers)
    table = nights[2]["tables"][0]
    game, anyone = f"/games/{table['game']}", table["cookie"]

    def post(url: str, path: str, cookie: str, form: dict[str, Any]) -> Answer:
        return ask(
            url, "POST", path, cookie=cookie, form=form, htmx=True, source=SOURCE
        )

    page = ask(server_a, "GET", f"{game}/", cookie=anyone, source=SOURCE)
    names = re.findall(r"I am ([^<]+)</button>", html.unescape(page.body))
    assert len(names) == 4, words(page)[:600]
    first = next(
        s for s, name in enumerate(names) if f"{name} bids first" in words(page)
    )

    # Phone A takes the first caller's seat through server A ...
    sat = post(
        server_a,
        f"{game}/table/seat",
        anyone,
        {"seat": first, "action": "take", "saw": "free"},
    )
    assert sat.status == 200 and sat.session, words(sat)[:600]
    phone_a = sat.session  # this browser's phone, in its (signed) session
    # ... and a phone polling server B sees it at its next poll.
    seen = ask(
        server_b,
        "GET",
        f"{game}/poll?seq=0&v=0",
        cookie=anyone,
        htmx=True,
        source=SOURCE,
    )
    assert seen.status == 200
    assert f"{names[first]}: on another phone" in words(seen)

    # Phone A's call through A, on B's next poll.
    mine = ask(server_a, "GET", f"{game}/", cookie=phone_a, source=SOURCE)
    assert call_form(mine) == (first, 0)
    called = {"seat": first, "call": "pass", "position": 0, "seq": 0}
    assert post(server_a, f"{game}/table/call", phone_a, called).status == 200
    second, third, fourth = ((first + n) % 4 for n in (1, 2, 3))
    seen = ask(
        server_b,
        "GET",
        f"{game}/poll?seq=0&v=1",
        cookie=anyone,
        htmx=True,
        source=SOURCE,
    )
    assert seen.status == 200 and 'data-version="2"' in seen.body
    assert f"{names[first]} pass · {names[second]} …" in words(seen)

    # The next seat has nobody: any phone calls for it. Phone A through A
    # and another phone through B call at once.
    start = threading.Barrier(2)
    answers: dict[str, Answer] = {}

    def race(url: str, cookie: str, bid: str) -> None:
        form = {"seat": second, "call": bid, "position": 1, "seq": 0}
        start.wait()
        answers[bid] = post(url, f"{game}/table/call", cookie, form)

    racers = [
        threading.Thread(target=race, args=(server_a, phone_a, "1")),
        threading.Thread(target=race, args=(server_b, anyone, "2")),
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    statuses = {bid: answer.status for bid, answer in answers.items()}
    assert sorted(statuses.values()) == [200, 409], statuses
    taken = next(bid for bid, status in statuses.items() if status == 200)
    told = answers["2" if taken == "1" else "1"]
    assert (
        f"{names[second]}'s call was just made by another phone: {taken}. "
        "Yours was not taken." in words(told)
    )

    # The auction ends through either server; trump is named; the hand is
    # saved through B with the auction the table settled.
    for position, (seat, url) in enumerate(
        [(third, server_b), (fourth, server_a)], start=2
    ):
        form = {"seat": seat, "call": "pass", "position": position, "seq": 0}
        assert post(url, f"{game}/table/call", anyone, form).status == 200
    trump = post(server_b, f"{game}/table/call", anyone, {"trump": "hearts", "seq": 0})
    assert trump.status == 200, words(trump)[:600]
    filled = ask(server_a, "GET", f"{game}/", cookie=anyone, source=SOURCE)
    auction = f"pass, {taken}, pass, pass"
    assert f'value="{auction}"' in filled.body
    hand = {
        "expected_seq": 0,
        "event_id": "table-servers-1",
        "action": "save",
        "bidder": second,
        "bid": taken,
        "trump": "hearts",
        "outcome": "played",
        "taken": 3,
        "auction": auction,
    }
    saved = ask(
        server_b,
        "POST",
        f"{game}/hands",
        cookie=anyone,
        form=hand,
        htmx=True,
        source=SOURCE,
    )
    assert saved.status == 200, words(saved)[:600]
    log = json.loads(
        ask(server_a, "GET", f"{game}/log.json", cookie=anyone, source=SOURCE).body
    )
    assert log["events"][-1]["auction"] == [
        [first, "pass"],
        [second, int(taken)],
        [third, "pass"],
        [fourth, "pass"],
    ]
