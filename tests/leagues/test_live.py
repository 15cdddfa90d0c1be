"""The desk's order of tables and the night's standings as they stand
(no database; the time is an argument)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from scorekeeper.leagues.live import (
    QUIET,
    Attention,
    as_it_stands,
    attention,
    live_tallies,
)
from scorekeeper.leagues.standings import GameResult

NOW = datetime(2026, 11, 19, 21, 0, tzinfo=UTC)


def _game(totals: tuple[int, ...], *, finished: bool = False) -> GameResult:
    return GameResult(
        players=("ann", "bob", "cat", "dan"),
        finished=finished,
        sides=(0, 1, 0, 1),
        totals=totals,
        winners=frozenset({0}) if finished else frozenset(),
        bids=(1, 1, 0, 0),
        made=(1, 0, 0, 0),
    )


def test_a_table_with_no_hand_for_the_quiet_time_needs_a_look_first() -> None:
    def at(ago: timedelta, **kwargs: bool) -> Attention:
        return attention(last_change=NOW - ago, now=NOW, finished=False, **kwargs)

    assert at(QUIET) == Attention.QUIET
    assert at(QUIET - timedelta(seconds=1)) == Attention.PLAYING
    assert at(QUIET, in_play=False) == Attention.DONE  # its round was called
    done = attention(finished=True, last_change=NOW - 2 * QUIET, now=NOW)
    assert done == Attention.DONE
    assert sorted([Attention.DONE, Attention.PLAYING, Attention.QUIET]) == [
        Attention.QUIET,
        Attention.PLAYING,
        Attention.DONE,
    ]


def test_a_game_in_play_counts_as_if_it_were_ended_now() -> None:
    counted = as_it_stands(_game((12, 30)), recorded=True)
    assert counted is not None and counted.finished
    assert counted.winners == frozenset({1})
    level = as_it_stands(_game((10, 10)), recorded=True)
    assert level is not None and level.winners == frozenset({0, 1})


def test_a_game_that_recorded_nothing_counts_for_nobody() -> None:
    assert as_it_stands(_game((0, 0)), recorded=False) is None


def test_a_finished_game_counts_as_it_is() -> None:
    finished = _game((32, 40), finished=True)  # won by side 0 by the rules
    assert as_it_stands(finished, recorded=True) is finished


def test_live_tallies_add_games_in_play_to_the_finished() -> None:
    tallies = live_tallies(
        [
            (_game((32, 20), finished=True), True),
            (_game((5, 9)), True),
            (_game((0, 0)), False),
        ]
    )
    ann, bob = tallies["ann"], tallies["bob"]
    assert (ann.played, ann.won, ann.points, ann.margin) == (2, 1, 37, 8)
    assert (bob.played, bob.won, bob.points, bob.margin) == (2, 1, 29, -8)
