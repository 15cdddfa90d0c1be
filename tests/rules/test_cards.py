"""Card ranking, bowers, trick winners and follow-suit (seed 001 §4.1,
seed 000 'Cards Rank', seed 002 'Trick Play', contract §4)."""

from __future__ import annotations

import pytest

from scorekeeper.rules.cards import (
    Card,
    describe,
    effective_suit,
    legal_follows,
    parse_card,
    parse_trump,
    trick_winner,
)
from scorekeeper.rules.errors import CardError


def cards(text: str) -> list[Card]:
    return [parse_card(word) for word in text.split()]


def test_card_reads_rank_then_suit_in_any_case() -> None:
    assert parse_card("10h") == Card("10", "H")
    assert str(parse_card(" jd ")) == "JD"
    assert parse_card("AS").symbol == "A♠"


@pytest.mark.parametrize("text", ["", "1H", "JX", "10", "KK", "JDD"])
def test_a_card_that_cannot_be_read_is_refused_with_how_to_write_one(text: str) -> None:
    with pytest.raises(CardError, match="is not a card: write the rank"):
        parse_card(text)


def test_trump_reads_names_letters_and_no_trump() -> None:
    assert parse_trump("Hearts") == "H"
    assert parse_trump("s") == "S"
    assert parse_trump("no-trump") is None
    with pytest.raises(CardError, match="'purple' is not a trump"):
        parse_trump("purple")


def test_right_bower_is_the_highest_trump_seed_001_4_1() -> None:
    verdict = trick_winner(cards("AH JD JH"), "H")
    assert (verdict.winner, str(verdict.card)) == (2, "JH")
    assert "right bower" in verdict.reason


def test_left_bower_is_second_highest_and_beats_the_trump_ace_seed_001_4_1() -> None:
    verdict = trick_winner(cards("AH JD KH"), "H")
    assert verdict.winner == 1
    assert "left bower" in verdict.reason


def test_left_bower_belongs_to_trump_not_its_printed_suit_seed_001_4_1() -> None:
    assert effective_suit(Card("J", "D"), "H") == "H"
    assert effective_suit(Card("J", "C"), "S") == "S"
    assert effective_suit(Card("J", "C"), "H") == "C"
    # Diamonds led, hearts trump: the jack of diamonds is a trump, so it ruffs.
    assert trick_winner(cards("AD JD"), "H").winner == 1


def test_lowest_trump_beats_the_ace_of_another_suit_seed_002() -> None:
    verdict = trick_winner(cards("AS 9H KS"), "H")
    assert verdict.winner == 1
    assert "a trump beats every card of another suit" in verdict.reason


def test_off_suit_cards_cannot_win_seed_001_4_1() -> None:
    verdict = trick_winner(cards("9S AD KD"), "H")
    assert verdict.winner == 0
    assert "nobody played a trump" in verdict.reason


def test_with_no_trump_there_are_no_bowers_seed_000() -> None:
    verdict = trick_winner(cards("QH JH JD AD"), None)
    assert verdict.winner == 0
    assert "with no trump only the suit led can win" in verdict.reason
    assert trick_winner(cards("10H JH"), None).winner == 1  # J ranks above 10


def test_of_two_identical_cards_the_first_played_wins_seed_002() -> None:
    verdict = trick_winner(cards("KS AS AS"), None)
    assert verdict.winner == 1
    assert "first played wins" in verdict.reason
    assert trick_winner(cards("JH JH"), "H").winner == 0


def test_a_trick_needs_a_card() -> None:
    with pytest.raises(CardError, match="at least one card"):
        trick_winner([], "H")


def test_describe_names_plain_cards_and_trumps() -> None:
    assert describe(Card("9", "H"), "H") == "9H is a trump"
    assert describe(Card("J", "C"), "H") == "JC is a club"
    assert describe(Card("J", "C"), None) == "JC is a club"


def test_must_follow_the_suit_led_when_able_seed_001_4() -> None:
    verdict = legal_follows(Card("9", "D"), cards("AH KD QD 9C"), "S")
    assert verdict.must_follow
    assert [str(card) for card in verdict.legal] == ["KD", "QD"]


def test_left_bower_led_calls_for_trumps_seed_001_4_1() -> None:
    verdict = legal_follows(Card("J", "D"), cards("AH 9D JH"), "H")
    assert [str(card) for card in verdict.legal] == ["AH", "JH"]
    assert "left bower" in verdict.reason


def test_left_bower_held_does_not_follow_its_printed_suit_seed_001_4_1() -> None:
    verdict = legal_follows(Card("A", "D"), cards("JD 9C"), "H")
    assert not verdict.must_follow
    assert [str(card) for card in verdict.legal] == ["JD", "9C"]
    assert "any card may be played" in verdict.reason


def test_the_only_trump_in_a_trump_lead_wins_as_a_trump() -> None:
    verdict = trick_winner(cards("9H AS KD"), "H")
    assert verdict.winner == 0
    assert verdict.reason == "9H is a trump with hearts trump."


def test_a_deck_refuses_a_rank_it_lacks_a_card_too_often_and_too_many_cards() -> None:
    from scorekeeper.rules.cards import check_deck
    from scorekeeper.rules.errors import CardError

    euchre = {"ranks": ("J", "Q", "K", "A"), "copies": 2, "most": 4, "what": "a trick"}
    check_deck([parse_card(c) for c in ("JD", "JD", "AH")], **euchre)  # type: ignore[arg-type]
    for cards, words in (
        (["9H"], "9H is not in this game's deck: it has only J Q K A"),
        (["JD", "JD", "JD"], "JD is played 3 times, but the deck holds it twice"),
        (["AH", "AD", "AC", "AS", "KH"], "a trick holds at most 4 cards here"),
    ):
        with pytest.raises(CardError, match=words):
            check_deck([parse_card(c) for c in cards], **euchre)  # type: ignore[arg-type]
    with pytest.raises(CardError, match="the deck holds it once"):
        check_deck(
            [parse_card("JD")] * 2, ranks=("J",), copies=1, most=4, what="a trick"
        )


def test_a_left_bower_that_decides_the_answer_is_named() -> None:
    held = legal_follows(parse_card("AD"), [parse_card("JD"), parse_card("9C")], "H")
    assert not held.must_follow
    assert (
        "JD is the left bower: a trump, not a diamond, so it does not follow diamonds"
        in held.reason
    )
    trumps = legal_follows(
        parse_card("AH"), [parse_card("JD"), parse_card("JD"), parse_card("9C")], "H"
    )
    assert trumps.reason.count("JD is the left bower, so it follows trumps") == 1
    led = trick_winner([parse_card("JD"), parse_card("JH")], "H")
    assert led.reason.startswith(
        "JD is the left bower, so it led trumps; JH is the right bower"
    )


def test_a_left_bower_that_decides_nothing_is_not_mentioned() -> None:
    verdict = legal_follows(parse_card("AC"), [parse_card("JD"), parse_card("9C")], "H")
    assert verdict.legal == (parse_card("9C"),) and "left bower" not in verdict.reason
