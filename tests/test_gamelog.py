"""Reading and writing pepper-log v1: every bad log refused precisely."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from scorekeeper.gamelog import (
    LogError,
    log_document,
    parse_log,
    read_and_replay,
    read_log,
    replay_log,
)
from scorekeeper.rules.events import (
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from scorekeeper.score_document import score_document

BASE: dict[str, Any] = {
    "format": "pepper-log",
    "version": 1,
    "variant": {"preset": "moon-42", "pepper_round_hands": 0},
    "seats": ["Ann", "Bob", "Cat", "Dan"],
    "first_dealer": 0,
    "events": [
        {
            "type": "hand",
            "bidder": 1,
            "bid": 4,
            "trump": "hearts",
            "tricks": [2, 4],
            "id": "e1",
            "at": "2026-11-22T20:15:00+00:00",
            "by": "Ann",
            "note": "close one",
            "auction": [[1, 4], [2, "pass"], [3, "pass"], [0, "pass"]],
        },
        {
            "type": "hand",
            "bidder": 2,
            "bid": 4,
            "trump": "spades",
            "conceded": {"free_tricks": 1},
        },
        {"type": "hand", "passed_out": True},
        {"type": "void", "target": 2, "reason": "wrong game"},
        {
            "type": "correct",
            "target": 1,
            "hand": {"bidder": 1, "bid": 4, "trump": "hearts", "tricks": [1, 5]},
        },
    ],
}


def with_change(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    document = copy.deepcopy(BASE)
    target = document
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return document


def refusal(document: object) -> str:
    with pytest.raises(LogError) as refused:
        replay_log(parse_log(document))
    return str(refused.value)


def test_a_log_reads_into_events() -> None:
    log = parse_log(BASE)
    assert [type(event) for event in log.events] == [
        HandRecorded,
        HandRecorded,
        HandPassedOut,
        HandVoided,
        HandCorrected,
    ]
    assert log.entries[0].id == "e1" and log.entries[0].by == "Ann"
    assert log.variant.pepper_round_hands == 0


def test_writing_a_log_gives_back_the_same_document() -> None:
    assert log_document(parse_log(BASE)) == BASE
    plain = with_change(("variant",), "classic")
    plain["events"] = [
        {"type": "hand", "bidder": 1, "bid": 2, "trump": "no-trump", "tricks": [3, 3]}
    ]
    assert log_document(parse_log(plain)) == plain


def test_metadata_never_changes_a_score() -> None:
    bare = copy.deepcopy(BASE)
    for event in bare["events"]:
        for key in ("id", "at", "by", "note"):
            event.pop(key, None)
    assert replay_log(parse_log(bare)).totals == replay_log(parse_log(BASE)).totals


def test_score_document_of_the_contract_example() -> None:
    _, board = read_and_replay(json.dumps(BASE))
    score = score_document(board)
    assert (score["totals"], score["status"], score["winners"]) == (
        [1, 4],
        "in-progress",
        [],
    )
    assert score["next"] == {
        "hand": 3,
        "dealer": 2,
        "first_bidder": 3,
        "pepper_round": False,
        "forced_bid": None,
    }
    assert score["overrides"] == {"pepper_round_hands": 0}


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("format",), "pepper-score", 'log: "format" must be "pepper-log"'),
        (("version",), 2, "log: this app reads version 1"),
        (("version",), True, "log: this app reads version 1"),
        (("seats",), "Ann,Bob", 'log: "seats" must be a list of player names'),
        (("seats",), ["Ann", " "], "log: every seat needs a name"),
        (("seats",), ["Ann"], "log: every seat needs a name, and there are at least 2"),
        (("seats",), ["Ann", "ann", "Cat", "Dan"], "log: two seats have the same name"),
        (("variant",), 42, 'log: "variant" must be a preset name'),
        (
            ("variant",),
            {"preset": "moon-42", "target_score": 0},
            "log: target_score must be",
        ),
        (
            ("variant",),
            {"preset": "moon-42", "colour": "red"},
            "log: 'colour' is not a house setting",
        ),
        (("first_dealer",), 4, 'log: "first_dealer" must be a seat from 0 to 3'),
        (("first_dealer",), KeyError, 'log: "first_dealer" must be a seat'),
        (("events",), {}, 'log: "events" must be a list'),
        (("events", 0), "hand", "event 1: each event must be a JSON object"),
        (
            ("events", 0, "type"),
            "bid",
            'event 1: "type" must be "hand", "void", "correct" or "end"',
        ),
        (("events", 0, "bidder"), "Bob", 'event 1: "bidder" must be a seat number'),
        (("events", 0, "bidder"), True, 'event 1: "bidder" must be a seat number'),
        (("events", 0, "bid"), 4.0, 'event 1: "bid" must be a number of tricks'),
        (("events", 0, "trump"), None, 'event 1: "trump" must be a suit name'),
        (
            ("events", 0, "tricks"),
            [2, "4"],
            'event 1: "tricks" must be a list of whole numbers',
        ),
        (("events", 0, "tricks"), KeyError, 'event 1: a hand has either "tricks"'),
        (("events", 1, "tricks"), [2, 4], 'event 2: a hand has either "tricks"'),
        (("events", 1, "conceded"), 1, 'event 2: "conceded" must be {"free_tricks"'),
        (
            ("events", 0, "auction"),
            [[1]],
            'event 1: "auction" must be a list of [seat, call]',
        ),
        (("events", 0, "auction"), "1:4", 'event 1: "auction" must be a list'),
        (("events", 0, "id"), 7, 'event 1: "id" must be text'),
        (("events", 0, "at"), "yesterday", 'event 1: "at" must be an ISO 8601 time'),
        (("events", 1, "id"), "e1", "event 2: id 'e1' is already used by event 1"),
        (
            ("events", 2, "passed_out"),
            "yes",
            'event 3: "passed_out" must be true or false',
        ),
        (("events", 2, "bidder"), 1, "event 3: a passed-out hand has no bidder"),
        (
            ("events", 3, "target"),
            "2",
            'event 4: "target" must be the position of a hand',
        ),
        (("events", 3, "reason"), 5, 'event 4: "reason" must be text'),
        (("events", 4, "hand"), None, 'event 5: a correction needs "hand"'),
        (
            ("events", 4, "hand", "type"),
            "void",
            'event 5: a corrected hand must be a "hand"',
        ),
        (("events", 0, "tricks"), [3, 4], "event 1: the tricks must be 2 counts"),
        (("events", 0, "bid"), 3, "event 1: moon-42 has no bid 3"),
        (("events", 4, "target"), 4, "event 5: event 4 is not a hand"),
    ],
)
def test_each_bad_field_is_refused_with_where_and_why(
    path: tuple[Any, ...], value: Any, message: str
) -> None:
    assert refusal(with_change(path, value)).startswith(message)


def test_a_document_that_is_not_an_object_or_not_json_is_refused() -> None:
    assert refusal([]) == "log: a pepper log is a JSON object"
    with pytest.raises(LogError, match="log: this is not valid JSON"):
        read_log("{")
    with pytest.raises(LogError, match="log: this JSON is nested too deeply"):
        read_log("[" * 100_000)


def test_passed_out_false_reads_as_a_bid_hand() -> None:
    document = with_change(("events", 0, "passed_out"), False)
    assert isinstance(parse_log(document).events[0], HandRecorded)


@pytest.mark.parametrize(
    ("setting", "right", "wrong"),
    [
        ("target_score", 30, 30.0),
        ("target_score", 1, True),
        ("negotiation", False, 0),
        ("mercy", -1, -1.0),
        ("minimum_bid", 5, 5.0),
    ],
)
def test_section_1_a_value_of_the_wrong_type_is_refused_after_an_equal_right_one(
    setting: str, right: object, wrong: object
) -> None:
    """A season replays many logs in one process: a house setting of the
    wrong type stays a ``log:`` error even when an equal value of the right
    type (30 and 30.0, 1 and true, false and 0) was read just before."""
    parse_log(with_change(("variant", setting), right))
    assert refusal(with_change(("variant", setting), wrong)).startswith(
        f"log: {setting} must be"
    )
