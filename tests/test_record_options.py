"""The record form's options (record_options.py), which the server's form
and the phone's both draw: the referee's choices in the table's words."""

from __future__ import annotations

import json

from scorekeeper import phone
from scorekeeper.record_options import form_options
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
