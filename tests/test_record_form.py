"""The record form (record_form.py), which the server's form and the
phone's both draw and read: the referee's choices in the table's words,
and the hand its fields describe."""

from __future__ import annotations

import json

from scorekeeper import phone
from scorekeeper.record_form import entered_hand, form_options
from scorekeeper.tablewords import MISSING
from tests.factories import log_document, play, variant


def test_clubs_are_marked_as_a_trump_the_defenders_must_play_seed_001_3_4() -> None:
    board = play(variant("moon-42", pepper_round_hands=0))
    assert board.next is not None
    options = form_options({}, board, board.next)
    marked = [option.value for option in options.trumps if option.must_play]
    assert marked == ["clubs"]
    assert [option.value for option in options.outcomes] == ["played", "conceded"]


def test_a_house_that_negotiates_without_the_clubs_rule_marks_no_trump() -> None:
    board = play(variant("classic", negotiation=True))
    assert board.next is not None
    options = form_options({"trump": "clubs"}, board, board.next)
    assert not any(option.must_play for option in options.trumps)
    assert [option.value for option in options.trumps if option.checked] == ["clubs"]
    assert [option.value for option in options.outcomes] == ["played", "conceded"]


def test_the_phone_offers_the_pepper_rounds_forced_bidder_and_bid_alone() -> None:
    log = log_document("moon-42")
    shown = json.loads(phone.view(json.dumps(log), "[]"))["form"]
    assert shown["forced"] and not shown["can_pass"]
    assert shown["bidders"] == [["1", "Bob"]]  # Ann deals, Bob bids first
    assert shown["bids"] == [["4", "4", "2"]]  # 4 of 6 tricks: 2 free at most


def test_the_other_side_took_the_tricks_the_bidding_side_did_not() -> None:
    rules = variant("classic", 4)
    entered = {"bidder": 1, "bid": "3", "trump": "spades", "taken": 4}
    hand, missing = entered_hand(rules, entered)
    assert missing == []
    assert hand is not None and hand.bid == 3  # the number, not the text
    assert hand.tricks is not None
    assert hand.tricks[rules.side_of(1)] == 4
    assert sum(hand.tricks) == rules.tricks_per_hand


def test_the_one_players_tricks_left_blank_are_what_is_left() -> None:
    rules = variant("classic", 3)
    entered = {"bidder": 0, "bid": "3", "trump": "hearts", "tricks_0": 3}
    assert entered_hand(rules, entered) == (None, [(None, MISSING["tricks"])])
    hand, _ = entered_hand(rules, entered | {"tricks_2": 1})
    assert hand is not None and hand.tricks == (3, rules.tricks_per_hand - 4, 1)


def test_what_is_missing_is_said_at_its_field() -> None:
    rules = variant("moon-42")
    conceded = {"bidder": 1, "bid": "4", "trump": "", "outcome": "conceded"}
    assert entered_hand(rules, conceded) == (
        None,
        [(None, MISSING["trump"]), ("free_tricks", MISSING["free_tricks"])],
    )
    hand, _ = entered_hand(rules, conceded | {"trump": "spades", "free_tricks": 1})
    assert hand is not None and (hand.tricks, hand.free_tricks) == (None, 1)
    assert entered_hand(rules, {"bid": "4"})[1][-1] == ("taken", MISSING["taken"])
