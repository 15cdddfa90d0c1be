"""A paper card's rows read as an organizer types them (no database)."""

from __future__ import annotations

import pytest

from scorekeeper.gamelog import game_variant
from scorekeeper.leagues.card_rows import (
    Entry,
    RowError,
    Typed,
    hand_of,
    keys,
    read_row,
)
from scorekeeper.rules.events import Hand, HandPassedOut, HandRecorded
from scorekeeper.rules.referee import turn_of

CLASSIC = game_variant("classic", 4, {})
MOON = game_variant("moon-42", 4, {})
THREE = game_variant("classic", 3, {})
TABLE = [["Ann"], ["Bob"], ["Cat"], ["Dan", "Eve"]]  # Eve took Dan's seat
HAND_1 = turn_of(CLASSIC, 0, 1, pepper=False)


def _hand(bidder: str, bid: str, trump: str, result: str) -> Hand:
    entry = read_row(Typed(bidder, bid, trump, result), CLASSIC, TABLE)
    return hand_of(entry, CLASSIC, HAND_1)


def test_a_played_hand_gives_the_bidders_tricks_and_the_rest_to_the_others() -> None:
    assert _hand("2", "3", "h", "4") == HandRecorded(1, 3, "hearts", (2, 4))
    assert _hand("a", "3", "S", "6") == HandRecorded(0, 3, "spades", (6, 0))


def test_a_bidder_is_a_seat_number_or_the_start_of_a_name() -> None:
    assert _hand("Cat", "2", "d", "2") == HandRecorded(2, 2, "diamonds", (2, 4))
    assert _hand("e", "2", "d", "2") == HandRecorded(3, 2, "diamonds", (4, 2))
    with pytest.raises(RowError, match="there is no seat 5: the seats are 1 to 4"):
        _hand("5", "2", "d", "2")
    with pytest.raises(RowError, match="“Zed” is nobody at this table"):
        _hand("Zed", "2", "d", "2")


def test_an_initial_two_names_share_asks_for_more() -> None:
    table = [["Ann"], ["Abe"], ["Cat"], ["Dan"]]
    with pytest.raises(RowError, match="“A” could be Ann or Abe"):
        read_row(Typed("A", "2", "d", "2"), CLASSIC, table)
    assert read_row(Typed("ab", "2", "d", "2"), CLASSIC, table).bidder == 1
    assert keys(["Ann", "Abe", "Cat", "Al", "Alan"]) == ["An", "Ab", "C", "Al", "Ala"]


def test_named_bids_by_name_start_or_initials() -> None:
    for typed, call in [
        ("moon", "moon"),
        ("M", "moon"),
        ("Double Moon", "double-moon"),
        ("dm", "double-moon"),
        ("double-moon", "double-moon"),
        ("5", 5),
    ]:
        entry = read_row(Typed("1", typed, "c", "6"), MOON, TABLE)
        assert entry.bid == call, typed
    with pytest.raises(RowError, match="“x” is not a bid of this game: 1, 2"):
        read_row(Typed("1", "x", "c", "6"), CLASSIC, TABLE)
    little = read_row(Typed("1", "little pepper", "n", "6"), CLASSIC, TABLE)
    assert little.bid == "little-pepper" and little.trump == "no-trump"


def test_trump_letters_symbols_and_words() -> None:
    for typed, trump in [("♣", "clubs"), ("Diamonds", "diamonds"), ("NT", "no-trump")]:
        assert read_row(Typed("1", "3", typed, "3"), CLASSIC, TABLE).trump == trump
    with pytest.raises(RowError, match="“x” is not a trump: S, H, D, C or N"):
        read_row(Typed("1", "3", "x", "3"), CLASSIC, TABLE)
    with pytest.raises(RowError, match="say trump"):
        read_row(Typed("1", "3", "", "3"), CLASSIC, TABLE)


def test_a_conceded_hand_and_its_free_tricks() -> None:
    assert _hand("1", "3", "h", "c") == HandRecorded(0, 3, "hearts", None, 0)
    assert _hand("1", "3", "h", "C2") == HandRecorded(0, 3, "hearts", None, 2)
    assert _hand("1", "3", "h", "conceded 1") == HandRecorded(0, 3, "hearts", None, 1)


def test_a_passed_out_hand_has_nothing_else() -> None:
    assert _hand("", "", "", "p") == HandPassedOut()
    assert _hand("", "", "", "Passed out") == HandPassedOut()
    with pytest.raises(RowError, match="a passed-out hand has no bidder"):
        _hand("1", "", "", "P")


def test_results_that_cannot_be_read_say_what_is_expected() -> None:
    for result, message in [
        ("", "say the result"),
        ("lots", "“lots” is not a result"),
        ("9", "a hand has 6 tricks"),
        ("3/3/0", "give 2 counts of tricks"),
        ("٣", "is not a result"),  # an Arabic-Indic digit is not typed as 3
    ]:
        with pytest.raises(RowError, match=message):
            read_row(Typed("1", "3", "h", result), CLASSIC, TABLE)
    with pytest.raises(RowError, match="at most 20 characters"):
        read_row(Typed("1", "3" * 21, "h", "3"), CLASSIC, TABLE)


def test_each_plays_alone_gives_every_players_tricks() -> None:
    table = [["Ann"], ["Bob"], ["Cat"]]
    entry = read_row(Typed("1", "3", "h", "4/2/2"), THREE, table)
    turn = turn_of(THREE, 0, 1, pepper=False)
    assert hand_of(entry, THREE, turn) == HandRecorded(0, 3, "hearts", (4, 2, 2))
    with pytest.raises(RowError, match="give every player's tricks"):
        read_row(Typed("1", "3", "h", "4"), THREE, table)


def test_a_pepper_round_fills_the_forced_bidder_and_bid() -> None:
    turn = turn_of(MOON, 0, 1, pepper=True)  # Bob must bid 4
    entry = read_row(Typed("", "", "h", "5"), MOON, TABLE)
    assert hand_of(entry, MOON, turn) == HandRecorded(1, 4, "hearts", (1, 5))
    outside = turn_of(MOON, 0, 5, pepper=False)
    with pytest.raises(RowError, match="say who took the bid"):
        hand_of(entry, MOON, outside)
    with pytest.raises(RowError, match="say the bid"):
        hand_of(Entry(False, 1, None, "hearts", 3), MOON, outside)


def test_a_blank_row_is_blank() -> None:
    assert Typed(" ", "", "", "").blank and not Typed("", "", "", "p").blank
