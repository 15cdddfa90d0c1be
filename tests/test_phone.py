"""The phone's engine (scorekeeper/phone.py) under CPython: it says what the
server's pages say, places queued changes, reads the record form as the
server's form does, and words a dispute. The browser tests run the same
module under Pyodide."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from django.http import QueryDict

from scorekeeper import phone, tablewords
from scorekeeper.gamelog import read_and_replay
from scorekeeper.games import presenters
from scorekeeper.games.forms import HandForm
from scorekeeper.rules.events import HandRecorded
from scorekeeper.rules.variants import find_variant
from scorekeeper.tablewords import HandRow
from tests.factories import log_document

EXAMPLES = Path(__file__).resolve().parent / "data" / "contract"
LOGS = sorted(EXAMPLES.glob("*.log.json"))
EMPTY = json.dumps(log_document())


def hand(
    bidder: int, bid: object, trump: str, tricks: list[int], id: str
) -> dict[str, Any]:
    return {
        "event": {
            "type": "hand",
            "bidder": bidder,
            "bid": bid,
            "trump": trump,
            "tricks": tricks,
            "id": id,
        },
        "expected_seq": None,
        "target_of": None,
    }


def told(rows: Sequence[Mapping[str, object]]) -> list[dict[str, object]]:
    """What a history row tells of its hand (not its corrections, worded
    for each screen, nor the phone's queue)."""
    return [
        {key: row[key] for key in sorted(HandRow.__required_keys__)} for row in rows
    ]


@pytest.mark.parametrize("path", LOGS, ids=lambda path: path.name)
def test_the_phone_says_what_the_game_page_says(path: Path) -> None:
    text = path.read_text()
    log, board = read_and_replay(text)
    shown = json.loads(phone.view(text, "[]"))
    rows = presenters.history(board, log)
    assert told(shown["rows"]) == told(rows)
    assert shown["sides"] == presenters.score_boxes(board)
    assert shown["turn_line"] == presenters.turn_line(board)
    assert shown["forced_line"] == presenters.forced_line(board, board.next)
    assert shown["status_line"] == presenters.status(board)
    assert json.loads(phone.score(text))["totals"] == list(board.totals)


def test_queued_changes_are_marked_and_a_void_names_the_queued_hand() -> None:
    queued = [
        hand(1, 3, "spades", [2, 4], "a"),
        hand(2, 4, "hearts", [5, 1], "b"),
        {
            "event": {"type": "void", "target": 99, "reason": "wrong", "id": "c"},
            "expected_seq": None,
            "target_of": "b",
        },
    ]
    shown = json.loads(phone.view(EMPTY, json.dumps(queued)))
    assert shown["refusal"] is None
    assert [row["summary"] for row in shown["rows"]] == ["Bob bid 3 ♠, took 4"]
    assert [row["queued"] for row in shown["rows"]] == [True]
    assert shown["voided"][0]["summary"] == "Cat bid 4 ♥, took 5"
    assert shown["stored"] == 0 and shown["seq"] == 3
    placed = phone.placed(0, queued, {"b": 7})
    assert placed[2]["target"] == 7


def test_an_illegal_queued_hand_is_refused_in_the_pages_words() -> None:
    queued = [hand(1, 3, "spades", [2, 4], "a"), hand(1, 3, "spades", [3, 4], "b")]
    shown = json.loads(phone.view(EMPTY, json.dumps(queued)))
    assert shown["refusal"]["index"] == 1
    assert shown["refusal"]["text"].startswith("The tricks")
    assert "event" not in shown["refusal"]["text"]
    assert [row["number"] for row in shown["rows"]] == [1]


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"bidder": "1", "bid": "3", "trump": "spades"},
        {"bidder": "1", "bid": "3", "trump": "spades", "taken": "4"},
        {"bidder": "1", "bid": "3", "trump": "spades", "outcome": "conceded"},
        {"action": "pass"},
    ],
)
def test_the_form_is_read_as_the_server_reads_it(fields: dict[str, str]) -> None:
    variant = find_variant("classic", 4)
    data = QueryDict(mutable=True)
    data.update({"expected_seq": "0", "event_id": "x", **fields})
    form = HandForm(data, variant=variant, passing=fields.get("action") == "pass")
    answer = json.loads(phone.hand_of(json.dumps(fields), EMPTY, "[]"))
    if form.is_valid():
        made = form.hand()
        expected: dict[str, object] = {"passed_out": True}
        if isinstance(made, HandRecorded):
            expected = {
                "bidder": made.bidder,
                "bid": made.bid,
                "trump": made.trump,
                "tricks": list(made.tricks or ()),
            }
        assert answer == {"hand": expected}
    else:
        said = [error for errors in form.errors.values() for error in errors]
        assert answer["missing"] == said


def test_three_handed_tricks_fill_the_last_count_and_an_auction_is_seated() -> None:
    log = json.loads(EMPTY) | {"seats": ["Ann", "Bob", "Cat"]}
    fields = {
        "bidder": "1",
        "bid": "3",
        "trump": "clubs",
        "tricks_0": "2",
        "tricks_1": "3",
        "auction": "3, pass, pass",
    }
    answer = json.loads(phone.hand_of(json.dumps(fields), json.dumps(log), "[]"))
    left = find_variant("classic", 3).tricks_per_hand - 5
    assert answer["hand"]["tricks"] == [2, 3, left]
    assert [seat for seat, _ in answer["hand"]["auction"]] == [1, 2, 0]


def test_a_dispute_names_both_versions_and_keeping_ours_corrects_theirs() -> None:
    log = json.loads(EMPTY)
    log["events"] = [
        {
            "type": "hand",
            "bidder": 1,
            "bid": 3,
            "trump": "spades",
            "tricks": [2, 4],
            "id": "t",
            "by": "Ann",
        }
    ]
    ours = [hand(2, 4, "hearts", [5, 1], "o") | {"expected_seq": 0}]
    found = json.loads(phone.dispute(json.dumps(log), json.dumps(ours)))
    assert found["text"] == (
        "Ann's phone recorded hand 1 as Bob bid 3 ♠, took 4; "
        "this phone has hand 1 as Cat bid 4 ♥, took 5."
    )
    assert found["target"] == 1 and found["can_keep_ours"]
    kept = json.loads(phone.keep_ours(json.dumps(log), json.dumps(ours), 1))
    assert kept["event"]["type"] == "correct" and kept["event"]["target"] == 1
    assert kept["event"]["hand"]["bidder"] == 2
    assert "over Ann's phone's (Bob bid 3 ♠, took 4)" in kept["event"]["note"]
    longer = log | {"events": [*log["events"], kept["event"]]}
    shown = json.loads(phone.view(json.dumps(longer), "[]"))
    assert shown["rows"][0]["summary"] == "Cat bid 4 ♥, took 5"
    assert shown["rows"][0]["changes"][0]["note"] == kept["event"]["note"]
    choices = json.loads(phone.correct_choices(json.dumps(longer), "[]", 1))
    assert choices["number"] == 1 and not choices["forced"]


def test_one_signed_number_for_the_pages_the_filter_and_the_phone() -> None:
    """The phone's totals and the server's pages are written by one function
    (the core's pure one; the pages' filter is it)."""
    from scorekeeper import tablewords
    from scorekeeper.web.templatetags.numbers import register

    assert register.filters["signed"] is tablewords.signed
    assert not hasattr(tablewords, "points")
    assert tablewords.delta_words((4, -6, 0)) == ["+4", "−6", "+0"]
    assert tablewords.totals_words((12, -6)) == "12 to −6"


CHANGES = (tablewords.Takeover(1, "Eve", 3), tablewords.Takeover(3, "Fay", 2))


@pytest.mark.parametrize("path", LOGS, ids=lambda path: path.name)
def test_after_a_substitute_the_phone_names_whom_the_page_names(path: Path) -> None:
    """Who plays now in the totals, turn and form; each hand by who played
    it (as the game page names them through presenters.played_history)."""
    text = path.read_text()
    log, played = read_and_replay(text)
    takers = json.dumps([list(change) for change in CHANGES])
    shown = json.loads(phone.view(text, "[]", takers))
    board = tablewords.board_now(played, CHANGES)
    rows = presenters.played_history(played, log, CHANGES)
    assert board.seats != played.seats  # the names differ from the log's
    assert told(shown["rows"]) == told(rows)
    assert shown["sides"] == presenters.score_boxes(board)
    assert shown["turn_line"] == presenters.turn_line(board)
    assert shown["forced_line"] == presenters.forced_line(board, board.next)
    assert shown["status_line"] == presenters.status(board)
    if board.next is not None:
        names = {name for _, name in shown["form"]["bidders"]}
        assert names <= set(board.seats) and names - set(played.seats) <= {"Eve", "Fay"}


def stored(*hands: tuple[int, str]) -> dict[str, Any]:
    """A log of hands (bidder, by), each "Bob bid 3 ♠, took 4"-like."""
    log: dict[str, Any] = json.loads(EMPTY)
    log["events"] = [
        {"type": "hand", "bidder": bidder, "bid": 3, "trump": "spades"}
        | {"tricks": [4, 2] if bidder % 2 == 0 else [2, 4], "id": f"t{n}", "by": by}
        for n, (bidder, by) in enumerate(hands, start=1)
    ]
    return log


def ours(bidder: int, id: str, expected: int | None) -> dict[str, Any]:
    return hand(bidder, 4, "hearts", [5, 1] if bidder % 2 == 0 else [1, 5], id) | {
        "expected_seq": expected
    }


def test_while_the_table_chooses_our_hand_is_shown_on_the_disputed_hand() -> None:
    """Another phone recorded hand 2 first: this phone's hand 2 is shown as
    hand 2's other version, never as a hand 3."""
    log = json.dumps(stored((1, "Ann"), (2, "Ann")))
    shown = json.loads(phone.view(log, json.dumps([ours(3, "o2", 1)])))
    assert [row["number"] for row in shown["rows"]] == [2, 1]
    assert shown["rows"][0]["rival"] == "Dan bid 4 ♥, took 5"
    assert not shown["rows"][0]["queued"] and shown["rows"][1]["rival"] is None
    assert shown["form"]["number"] == 3 and shown["queued_ids"] == []


def test_overlapping_disputes_are_asked_one_by_one_in_order() -> None:
    """This phone queued hands 1, 2, 3 offline; another phone recorded 1
    and 2. The table is asked about 1, then 2; hand 3 then simply follows;
    what this phone sent or settled is never asked about again."""
    log = stored((1, "Ann"), (2, "Ann"))
    queue = [ours(3, "o1", 0), ours(0, "o2", 1), ours(1, "o3", 2)]
    shown = json.loads(phone.view(json.dumps(log), json.dumps(queue)))
    assert [(r["number"], r["rival"], r["queued"]) for r in shown["rows"]] == [
        (3, None, True),
        (2, "Ann bid 4 ♥, took 5", False),
        (1, "Dan bid 4 ♥, took 5", False),
    ]
    asked = json.loads(phone.dispute(json.dumps(log), json.dumps(queue)))
    assert asked["target"] == 1 and "this phone has hand 1 as Dan" in asked["text"]
    # Keep ours: a correction of hand 1, sent; hand 2 is asked next.
    kept = json.loads(phone.keep_ours(json.dumps(log), json.dumps(queue), 1))
    log["events"].append(kept["event"] | {"by": "Dan"})
    decided = json.dumps([1, 3])
    asked = json.loads(
        phone.dispute(json.dumps(log), json.dumps(queue[1:]), "[]", decided)
    )
    assert asked["target"] == 2 and "this phone has hand 2 as Ann" in asked["text"]
    # Keep theirs: hand 3 follows the log as it is now, asked nothing.
    decided = json.dumps([1, 3, 2])
    asked = json.loads(
        phone.dispute(json.dumps(log), json.dumps(queue[2:]), "[]", decided)
    )
    assert asked == {"target": None}
    final = json.loads(
        phone.view(json.dumps(log), json.dumps(queue[2:]), "[]", decided)
    )
    assert [r["summary"] for r in final["rows"]] == [
        "Bob bid 4 ♥, took 5",
        "Cat bid 3 ♠, took 4",
        "Dan bid 4 ♥, took 5",
    ]
