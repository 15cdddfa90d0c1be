"""A series of games between the same players and seats: who wins it,
when it is over, and who deals first in the next game (seed 000 'The
Deal': the deal goes on around the table)."""

from __future__ import annotations

import pytest

from scorekeeper.rules.series import (
    SeriesError,
    SeriesRule,
    next_first_dealer,
    series_rule,
    series_standing,
)
from tests.factories import passed, play, played, variant

BEST_OF_3 = SeriesRule("best-of", 3)
FIRST_TO_2 = SeriesRule("first-to", 2)


def test_best_of_3_needs_two_wins_and_first_to_n_needs_n() -> None:
    assert BEST_OF_3.wins_needed == 2
    assert SeriesRule("best-of", 5).wins_needed == 3
    assert SeriesRule("first-to", 4).wins_needed == 4


def test_a_rule_is_written_as_a_form_sends_it() -> None:
    assert series_rule("best-of-5") == SeriesRule("best-of", 5)
    assert series_rule("first-to-3").code == "first-to-3"


@pytest.mark.parametrize(
    "code", ["best-of-x", "most-of-3", "best-of-", "3", "best-of-2", "first-to-0"]
)
def test_what_is_not_a_series_rule_is_refused_with_a_reason(code: str) -> None:
    with pytest.raises(SeriesError):
        series_rule(code)


def test_a_series_has_at_most_fifteen_games() -> None:
    with pytest.raises(SeriesError, match="1 to 15"):
        SeriesRule("first-to", 16)


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(SeriesError, match="best-of or first-to"):
        SeriesRule("most-of", 3)  # type: ignore[arg-type]


def test_best_of_3_is_won_two_games_to_one() -> None:
    standing = series_standing(BEST_OF_3, 2, [(0,), (1,), (0,)])
    assert (standing.wins, standing.played, standing.winners) == ((2, 1), 3, (0,))
    assert standing.over


def test_best_of_3_is_over_after_two_wins_in_a_row() -> None:
    standing = series_standing(BEST_OF_3, 2, [(1,), (1,)])
    assert (standing.winners, standing.played) == ((1,), 2)


def test_a_series_goes_on_until_a_side_has_the_wins_needed() -> None:
    standing = series_standing(BEST_OF_3, 2, [(0,), (1,)])
    assert (standing.wins, standing.winners, standing.over) == ((1, 1), (), False)


def test_a_series_with_no_game_finished_is_not_over() -> None:
    standing = series_standing(FIRST_TO_2, 2, [])
    assert (standing.wins, standing.played, standing.over) == ((0, 0), 0, False)


def test_games_after_the_deciding_one_are_not_counted() -> None:
    standing = series_standing(BEST_OF_3, 2, [(0,), (0,), (1,)])
    assert (standing.wins, standing.played) == ((2, 0), 2)


def test_first_to_n_plays_on_as_long_as_it_takes() -> None:
    three_players = [(0,), (1,), (2,), (1,)]
    standing = series_standing(FIRST_TO_2, 3, three_players)
    assert (standing.wins, standing.winners) == ((1, 2, 1), (1,))
    assert not series_standing(FIRST_TO_2, 3, three_players[:3]).over


def test_best_of_3_among_three_players_is_shared_by_the_most_wins_after_three() -> None:
    standing = series_standing(BEST_OF_3, 3, [(0,), (1,), (1,)])
    assert standing.winners == (1,)
    shared = series_standing(BEST_OF_3, 3, [(0,), (1,), (2,)])
    assert (shared.winners, shared.played) == ((0, 1, 2), 3)


def test_a_game_won_by_two_sides_counts_for_each_and_they_share_the_series() -> None:
    standing = series_standing(FIRST_TO_2, 3, [(0, 1), (0, 1)])
    assert (standing.wins, standing.winners) == ((2, 2, 0), (0, 1))


def test_the_next_game_is_first_dealt_by_the_seat_after_the_last_dealer() -> None:
    rules = variant("classic", 4)
    board = play(
        rules, played(1, 3, 2, 4), passed(), played(0, 3, 4, 2), first_dealer=2
    )
    # Hands dealt by 2, 3 and 0 (a passed-out hand moves the deal too).
    assert [hand.dealer for hand in board.hands] == [2, 3, 0]
    assert next_first_dealer(rules, board.first_dealer, len(board.rows)) == 1


def test_the_deal_goes_round_past_the_last_seat() -> None:
    rules = variant("classic", 3)
    assert next_first_dealer(rules, 1, 4) == 2
    assert next_first_dealer(rules, 2, 3) == 2


def test_a_game_of_no_hands_hands_its_first_deal_on() -> None:
    assert next_first_dealer(variant("classic", 4), 3, 0) == 3
