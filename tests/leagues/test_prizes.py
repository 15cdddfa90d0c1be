"""Prize lists and who takes them (``leagues.prizes``): no database."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.leagues.prizes import (
    HIGHER,
    MOST_PRIZES,
    SPLIT,
    PrizeError,
    amount_of,
    ordinal,
    prize_lines,
    prizes_given,
)

PRIZES = ["£20", "£10", "a bottle"]


def test_a_line_may_start_with_its_place_and_blank_lines_are_skipped() -> None:
    typed = "1st: £20\n\n2nd - £10\n3. a bottle\n  4) 15 €  \n"
    assert prize_lines(typed) == ["£20", "£10", "a bottle", "15 €"]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("x" * 61, "line 1: a prize is at most 60 characters"),
        ("£5\nbad\x07", "line 2: a prize holds a control character"),
        ("\n".join(["£1"] * (MOST_PRIZES + 1)), f"at most {MOST_PRIZES} prizes"),
    ],
)
def test_a_list_that_cannot_be_kept_is_refused_in_words(typed: str, said: str) -> None:
    with pytest.raises(PrizeError) as refused:
        prize_lines(typed)
    assert refused.value.message.startswith(said)


@pytest.mark.parametrize(
    ("place", "word"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th")]
    + [(13, "13th"), (21, "21st"), (22, "22nd"), (111, "111th")],
)
def test_places_are_said_as_ordinals(place: int, word: str) -> None:
    assert ordinal(place) == word


def test_amounts_are_told_from_other_prizes() -> None:
    assert amount_of("£20") is not None and amount_of("20 EUR") is not None
    assert amount_of("$15.50") is not None and amount_of("£1,000") is not None
    assert amount_of("a bottle") is None and amount_of("2 bottles of wine") is None


def test_each_place_goes_to_its_rank() -> None:
    lines = prizes_given(PRIZES, [(1, "Ann"), (2, "Bob"), (3, "Cat"), (4, "Dan")])
    assert [(line.places, line.prize, line.names) for line in lines] == [
        ("1st", "£20", ("Ann",)),
        ("2nd", "£10", ("Bob",)),
        ("3rd", "a bottle", ("Cat",)),
    ]


def test_tied_players_split_the_amounts_of_the_places_they_cover() -> None:
    lines = prizes_given(PRIZES, [(1, "Ann"), (1, "Bob"), (3, "Cat")], SPLIT)
    assert lines[0].places == "1st=" and lines[0].names == ("Ann", "Bob")
    assert lines[0].each == "£15 each"  # (£20 + £10) / 2
    assert (lines[1].places, lines[1].names) == ("3rd", ("Cat",))


def test_a_split_is_rounded_down_to_the_penny() -> None:
    lines = prizes_given(["£10", "£5", "£2.50"], [(1, "A"), (1, "B"), (1, "C")])
    assert lines[0].each == "£5.83 each"  # £17.50 / 3 = 5.833...


def test_thousands_are_split_and_written_with_their_commas() -> None:
    lines = prizes_given(["£1,000", "£500"], [(1, "Ann"), (1, "Bob")])
    assert lines[0].each == "£750 each"
    lines = prizes_given(["£2,500", "£1,000"], [(1, "Ann"), (1, "Bob")])
    assert lines[0].each == "£1,750 each"


def test_a_prize_that_is_no_amount_is_shared() -> None:
    lines = prizes_given(PRIZES, [(1, "Ann"), (2, "Bob"), (2, "Cat")], SPLIT)
    assert lines[1].prize == "£10 + a bottle" and lines[1].each == "shared"


def test_with_the_higher_place_each_tied_player_gets_its_prize() -> None:
    lines = prizes_given(PRIZES, [(1, "Ann"), (1, "Bob"), (3, "Cat")], HIGHER)
    assert (lines[0].places, lines[0].each) == ("1st=", "£20 each")
    assert (lines[1].places, lines[1].names) == ("2nd", ())
    assert lines[1].each.startswith("not given")
    assert (lines[2].places, lines[2].names) == ("3rd", ("Cat",))


def test_players_without_a_rank_take_nothing_and_unreached_places_wait() -> None:
    lines = prizes_given(PRIZES, [(1, "Ann"), (None, "Bob")])
    assert [line.names for line in lines] == [("Ann",), (), ()]


def _paid(each: str, count: int) -> Decimal:
    amount = amount_of(each.removesuffix(" each"))
    assert amount is not None
    return amount.value * count


@given(
    st.lists(st.integers(1, 500), min_size=1, max_size=6),
    st.lists(st.integers(1, 3), min_size=1, max_size=8),
)
def test_a_split_pays_out_what_the_prizes_add_up_to_never_more(
    pounds: list[int], ties: list[int]
) -> None:
    prizes = [f"£{p}" for p in pounds]
    ranked, place = [], 1
    for size in ties:  # groups of tied players, best first
        ranked += [(place, f"P{place}-{n}") for n in range(size)]
        place += size
    lines = prizes_given(prizes, ranked, SPLIT)
    paid = sum(
        (
            _paid(line.each, len(line.names)) if line.each else _paid(line.prize, 1)
            for line in lines
            if line.names
        ),
        Decimal(0),
    )
    assert paid <= sum(pounds)
    if len(ranked) >= len(prizes):  # every place reached: all paid but pennies
        assert sum(pounds) - paid < Decimal("0.01") * len(ranked)
    covered = sum(len(line.names) or 1 for line in lines)
    assert covered >= len(prizes)  # every prize has its line
