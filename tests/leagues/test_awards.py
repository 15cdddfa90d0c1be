"""Awards from hand-computed games (no database)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.leagues.awards import Feats, Streak, awards, joined, night_feats
from scorekeeper.leagues.standings import GameResult
from scorekeeper.seatstats import SeatStats


def _stats(bids: dict[str, list[int]], run: str, best: int, sets: int) -> SeatStats:
    return SeatStats(bids=bids, sets=sets, conceded=0, run=run, best=best)


def _game(*seats: SeatStats, winners: frozenset[int] = frozenset({0})) -> GameResult:
    return GameResult(
        players=("a", "b", "c", "d"),
        finished=True,
        sides=(0, 1, 0, 1),
        totals=(32, 20),
        winners=winners,
        bids=(0, 0, 0, 0),
        made=(0, 0, 0, 0),
        stats=seats,
    )


@given(st.lists(st.text("MS", max_size=8), max_size=5))
def test_a_streak_joined_piece_by_piece_is_the_streak_of_the_whole(
    runs: list[str],
) -> None:
    joined_up = Streak()
    for run in runs:
        joined_up = joined_up.then(Streak.of(run))
    assert joined_up == Streak.of("".join(runs))


def test_a_night_of_two_games_hands_out_the_awards() -> None:
    names = {"a": "Ann", "b": "Bob", "c": "Cat", "d": "Dan"}
    quiet = _stats({}, "", 0, 0)
    first = _game(
        _stats({"3": [2, 2]}, "MM", 6, 1),  # Ann: two made, ends on a run of 2
        _stats({"4": [1, 0]}, "S", 0, 2),  # Bob: set once, sets two as defender
        quiet,
        _stats({"moon": [1, 1]}, "M", 14, 2),  # Dan: one moon for 14
    )
    second = _game(
        _stats({"3": [1, 1], "4": [1, 0]}, "MS", 3, 0),  # Ann: run 2 + 1 = 3
        quiet,
        _stats({"3": [1, 1]}, "M", 3, 1),
        quiet,
        winners=frozenset({1}),
    )
    feats = night_feats([first, second])
    assert feats["a"] == Feats(
        made=3,
        best=6,
        sets=1,
        won=1,
        streak=Streak(start=3, best=3, end=0, clean=False),
    )
    given_out = {award.title: award for award in awards(feats, names)}
    assert given_out["Most bids made"].names == ("Ann",)
    assert given_out["Biggest hand"].names == ("Dan",)
    assert (
        given_out["Biggest hand"].why
        == "14 points for their side in one hand they bid."
    )
    assert given_out["Stone wall"].names == ("Bob", "Dan")  # a tie: both
    assert given_out["Hot streak"].figure == 3
    assert given_out["Most games won"].names == ("Ann", "Bob", "Cat", "Dan")
    assert given_out["Most games won"].why == "1 game won."  # one, not "1 games"


def test_unfinished_games_count_for_no_award_and_nothing_is_given_for_zero() -> None:
    game = _game(*[_stats({"3": [1, 1]}, "M", 3, 0)] * 4)
    unfinished = GameResult(**{**vars(game), "finished": False})
    assert night_feats([unfinished]) == {}
    assert awards({"a": Feats()}, {"a": "Ann"}) == []
    assert joined([{"a": Feats(made=1)}, {"a": Feats(made=2)}])["a"].made == 3
