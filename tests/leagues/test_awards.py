"""Awards from hand-computed games (no database)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.leagues.awards import Award, Feats, Streak, awards, joined, night_feats
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
    two_each = dict.fromkeys(names, 2)
    given_out = {award.title: award for award in awards(feats, names, two_each)}
    assert given_out["Most bids made"].names == ("Ann",)
    assert given_out["Biggest hand"].names == ("Dan",)
    assert (
        given_out["Biggest hand"].why
        == "14 points for their side in one hand they bid."
    )
    assert given_out["Hot streak"].figure == 3
    # Shared by two of four players, or by all four: more than a quarter.
    assert "Stone wall" not in given_out and "Most games won" not in given_out


def test_an_award_needs_two_games_and_a_best_shared_by_a_quarter_at_most() -> None:
    forty = {f"p{n}": Feats(won=1, made=1 + (n == 7)) for n in range(40)}
    names = {pid: pid.upper() for pid in forty}
    after_one_game = awards(forty, names, dict.fromkeys(forty, 1))
    assert after_one_game == []  # not 40 names for "Most games won"
    two_games = dict.fromkeys(forty, 2)
    given_out = {award.title: award for award in awards(forty, names, two_games)}
    assert (
        given_out["Most bids made"].names == ("P7",)
        and "Most games won" not in given_out
    )
    ten = {pid: Feats(won=2 if n < 10 else 1) for n, pid in enumerate(forty)}
    shared = awards(ten, names, two_games)
    assert [award.names for award in shared] == [
        tuple(sorted(f"P{n}" for n in range(10)))
    ]
    assert awards(ten, names, {"p0": 2}) == [
        Award("Most games won", ("P0",), 2, "2 games won.")
    ]
    assert awards(forty | {"p7": Feats(won=1, made=2)}, names, {"p7": 2})[0].why == (
        "2 bids made: bid and brought home."
    )


def test_unfinished_games_count_for_no_award_and_nothing_is_given_for_zero() -> None:
    game = _game(*[_stats({"3": [1, 1]}, "M", 3, 0)] * 4)
    unfinished = GameResult(**{**vars(game), "finished": False})
    assert night_feats([unfinished]) == {}
    assert awards({"a": Feats()}, {"a": "Ann"}, {"a": 2}) == []
    assert joined([{"a": Feats(made=1)}, {"a": Feats(made=2)}])["a"].made == 3
