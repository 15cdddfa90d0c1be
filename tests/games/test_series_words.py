"""A series in the table's words: the rule, the score, and the winner
named with the rule ("Best of 3: Ann & Cat win 2 games to 1")."""

from __future__ import annotations

from scorekeeper.games.series_words import (
    game_title,
    rule_label,
    rule_meaning,
    score_line,
    winner_line,
)
from scorekeeper.rules.series import SeriesRule, series_standing

TEAMS = ("Ann & Cat", "Bob & Dan")
THREE = ("Ann", "Bob", "Cat")
BEST_OF_3 = SeriesRule("best-of", 3)


def test_the_rule_is_said_as_the_table_says_it() -> None:
    assert rule_label(BEST_OF_3) == "Best of 3"
    assert rule_label(SeriesRule("first-to", 1)) == "First to 1 game"
    assert game_title(SeriesRule("first-to", 3), 2) == "First to 3 games · game 2"


def test_the_meaning_says_how_many_wins_take_the_series() -> None:
    assert "the first to win 2 games takes the series" in rule_meaning(BEST_OF_3)
    assert rule_meaning(SeriesRule("first-to", 2)).startswith(
        "The first to win 2 games"
    )


def test_a_team_wins_and_a_player_wins() -> None:
    teams = series_standing(BEST_OF_3, 2, [(0,), (1,), (0,)])
    assert winner_line(TEAMS, teams) == "Best of 3: Ann & Cat win 2 games to 1"
    alone = series_standing(SeriesRule("first-to", 2), 3, [(1,), (0,), (1,)])
    assert winner_line(THREE, alone) == "First to 2 games: Bob wins 2 games to 1 and 0"


def test_a_shared_series_says_so() -> None:
    shared = series_standing(BEST_OF_3, 3, [(0,), (1,), (2,)])
    assert (
        winner_line(THREE, shared)
        == "Best of 3: Ann, Bob and Cat share it, 1 game each"
    )
    two = series_standing(SeriesRule("first-to", 1), 3, [(0, 2)])
    assert winner_line(THREE, two) == (
        "First to 1 game: Ann and Cat share it, 1 game each (0 for the rest)"
    )


def test_a_series_going_on_has_a_score_and_no_winner() -> None:
    going = series_standing(BEST_OF_3, 2, [(1,)])
    assert winner_line(TEAMS, going) == ""
    assert score_line(TEAMS, going.wins) == "Ann & Cat 0 – Bob & Dan 1"
