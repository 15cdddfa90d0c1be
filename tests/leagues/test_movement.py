"""The progressive movement: winners move up a table and split, losers
stay and split (no database)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.leagues.movement import TableResult, winners_move_up
from scorekeeper.leagues.schedule import Round, ScheduleError, Table, progressive_round


def _players(n: int) -> list[str]:
    return [f"p{i:02}" for i in range(n)]


def _table(*seats: str) -> Table:
    """Seats clockwise: 1 and 3 partner, 2 and 4."""
    return Table(((seats[0], seats[2]), (seats[1], seats[3])))


def _teams(played: Round) -> set[frozenset[str]]:
    return {frozenset(team) for table in played.tables for team in table.teams}


def _results(played: Round, winners: Sequence[int | None]) -> list[TableResult]:
    return [TableResult(t, w) for t, w in zip(played.tables, winners, strict=True)]


def test_the_winners_move_up_a_table_and_the_losers_stay() -> None:
    # table 1: (a c) beat (b d); table 2: (e g) beat (f h); table 3: (j l) beat (i k)
    results = [
        TableResult(_table("a", "b", "c", "d"), 0),
        TableResult(_table("e", "f", "g", "h"), 0),
        TableResult(_table("i", "j", "k", "l"), 1),
    ]
    seated = winners_move_up(results, list("abcdefghijkl"))
    head, middle, foot = (set(t.seats) for t in seated.tables)
    assert head == set("aceg")  # the head's winners stay, table 2's come up
    assert middle == set("fhjl")  # table 2's losers stay, table 3's winners come up
    assert foot == set("ikbd")  # the foot's losers stay, the head's losers go down
    assert seated.sitting_out == ()


def test_each_pair_that_meets_splits_across_the_table() -> None:
    results = [
        TableResult(_table("a", "b", "c", "d"), 0),
        TableResult(_table("e", "f", "g", "h"), 1),
    ]
    seated = winners_move_up(results, list("abcdefgh"))
    head = seated.tables[0]
    assert set(head.seats) == set("acfh")
    assert {frozenset(team) for team in head.teams} == {
        frozenset("af"),
        frozenset("ch"),
    }


def test_a_tie_moves_up_the_side_of_the_first_seat() -> None:
    results = [
        TableResult(_table("a", "b", "c", "d"), 1),
        TableResult(_table("e", "f", "g", "h"), None),
    ]
    seated = winners_move_up(results, list("abcdefgh"))
    assert set(seated.tables[0].seats) == set("bdeg")


def test_one_table_alone_stays_and_swaps_partners() -> None:
    seated = winners_move_up([TableResult(_table("a", "b", "c", "d"), 0)], list("abcd"))
    assert set(seated.tables[0].seats) == set("abcd")
    assert _teams(seated).isdisjoint({frozenset("ac"), frozenset("bd")})


def test_a_leaver_s_gap_is_filled_by_the_one_who_sat_out() -> None:
    results = [
        TableResult(_table("a", "b", "c", "d"), 0),
        TableResult(_table("e", "f", "g", "h"), 0),
    ]
    # h left; z sat out the round (or arrived late)
    seated = winners_move_up(results, [*"abcdefg", "z"], {"z": 1})
    assert set(seated.tables[1].seats) == {"f", "z", "b", "d"}
    assert seated.sitting_out == ()


def test_who_sits_out_has_sat_out_least_the_foot_first() -> None:
    results = [
        TableResult(_table("a", "b", "c", "d"), 0),
        TableResult(_table("e", "f", "g", "h"), 0),
    ]
    # z sat out last round and plays now; one of the foot's players sits out
    seated = winners_move_up(results, [*"abcdefgh", "z"], {"z": 1})
    assert "z" in {p for table in seated.tables for p in table.seats}
    assert len(seated.sitting_out) == 1
    assert seated.sitting_out[0] in set("bdfh")  # who arrived at the foot


def test_the_first_round_with_no_results_seats_the_players_in_order() -> None:
    seated = winners_move_up([], _players(9))
    assert len(seated.tables) == 2
    assert seated.sitting_out == ("p08",)  # the last to arrive, sat out least


def test_a_three_handed_table_s_players_fill_the_gaps() -> None:
    results = [
        TableResult(_table("a", "b", "c", "d"), 0),
        TableResult(Table((("x",), ("y",), ("z",))), None),
    ]
    seated = winners_move_up(results, [*"abcd", *"xyz", "w"])
    assert sorted(p for t in seated.tables for p in t.seats) == sorted("abcdwxyz")


def test_too_few_players_or_a_double_check_in_are_refused() -> None:
    with pytest.raises(ScheduleError, match="at least 4"):
        winners_move_up([], ["a", "b", "c"])
    with pytest.raises(ScheduleError, match="twice"):
        winners_move_up([], ["a", "b", "c", "a"])


@st.composite
def _a_night_moving_on(draw: st.DrawFn) -> tuple[Round, list[TableResult], list[str]]:
    """A round seated by the circle, each table's winner (or a tie), and
    who is here for the next: some left, some arrived late."""
    players = _players(draw(st.integers(4, 40)))
    played = progressive_round(players, [])
    winners = draw(
        st.lists(
            st.sampled_from([0, 1, None]),
            min_size=len(played.tables),
            max_size=len(played.tables),
        )
    )
    stayed = draw(
        st.lists(st.sampled_from(players), unique=True, max_size=len(players))
    )
    here = [p for p in players if p not in stayed[: draw(st.integers(0, 6))]]
    late = [f"late{i}" for i in range(draw(st.integers(0, 6)))]
    return played, _results(played, winners), here + late


@given(_a_night_moving_on())
def test_every_player_here_is_seated_once_or_sits_out(
    night: tuple[Round, list[TableResult], list[str]],
) -> None:
    _, results, here = night
    if len(here) < 4:
        return
    seated = winners_move_up(results, here)
    places = Counter(p for t in seated.tables for p in t.seats)
    places.update(seated.sitting_out)
    assert places == Counter(here)


@given(_a_night_moving_on())
def test_no_table_is_short_and_fewer_than_4_sit_out(
    night: tuple[Round, list[TableResult], list[str]],
) -> None:
    _, results, here = night
    if len(here) < 4:
        return
    seated = winners_move_up(results, here)
    assert len(seated.tables) == len(here) // 4
    assert all(len(table.seats) == 4 for table in seated.tables)
    assert len(seated.sitting_out) == len(here) % 4


@given(_a_night_moving_on())
def test_last_round_s_partners_are_split(
    night: tuple[Round, list[TableResult], list[str]],
) -> None:
    played, results, here = night
    if len(here) < 4:
        return
    assert _teams(winners_move_up(results, here)).isdisjoint(_teams(played))


@given(_a_night_moving_on(), st.data())
def test_nobody_sits_out_while_someone_playing_sat_out_less(
    night: tuple[Round, list[TableResult], list[str]], data: st.DataObject
) -> None:
    _, results, here = night
    if len(here) < 4:
        return
    turns = {p: data.draw(st.integers(0, 3)) for p in here}
    seated = winners_move_up(results, here, turns)
    playing = [p for t in seated.tables for p in t.seats]
    if seated.sitting_out:
        assert max(turns[p] for p in seated.sitting_out) <= min(
            turns[p] for p in playing
        )


@given(st.integers(2, 10), st.data())
def test_with_everyone_staying_each_winner_moves_up_one_table(
    tables: int, data: st.DataObject
) -> None:
    players = _players(4 * tables)
    played = progressive_round(players, [])
    winners = [data.draw(st.sampled_from([0, 1])) for _ in played.tables]
    seated = winners_move_up(_results(played, winners), players)
    for number, (table, won) in enumerate(zip(played.tables, winners, strict=True)):
        up = seated.tables[max(number - 1, 0)].seats
        assert set(table.teams[won]) <= set(up)
        stays = seated.tables[number if number else len(played.tables) - 1].seats
        assert set(table.teams[1 - won]) <= set(stays)
