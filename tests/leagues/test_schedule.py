"""Seating a night: the circle method, sit-outs, fixed teams (no database)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.leagues.schedule import (
    Round,
    ScheduleError,
    Table,
    circle_rounds,
    draw_teams,
    fairness,
    fixed_round,
    progressive_round,
    three_handed_rules,
    three_handed_tables,
)


def _players(n: int) -> list[str]:
    return [f"p{i:02}" for i in range(n)]


def _night(players: list[str], rounds: int) -> list[Round]:
    played: list[Round] = []
    for _ in range(rounds):
        played.append(progressive_round(players, played))
    return played


def _partners(rounds: list[Round]) -> Counter[frozenset[str]]:
    return Counter(
        frozenset(team) for r in rounds for table in r.tables for team in table.teams
    )


def test_the_circle_method_pairs_every_two_entrants_exactly_once() -> None:
    rounds = circle_rounds(_players(8))
    assert len(rounds) == 7
    pairs = Counter(frozenset(pair) for r in rounds for pair in r)
    assert set(pairs) == {frozenset(p) for p in combinations(_players(8), 2)}
    assert set(pairs.values()) == {1}


def test_an_odd_count_gets_a_bye_each_round_for_a_different_entrant() -> None:
    rounds = circle_rounds(_players(5))
    byes = [next(p for pair in r if None in pair for p in pair if p) for r in rounds]
    assert sorted(byes) == _players(5)


@pytest.mark.parametrize("n", [4, 8, 12, 16])
def test_n_players_partner_everyone_once_in_n_minus_1_rounds(n: int) -> None:
    rounds = _night(_players(n), n - 1)
    partners = _partners(rounds)
    assert len(partners) == n * (n - 1) // 2
    assert set(partners.values()) == {1}
    assert all(r.sitting_out == () for r in rounds)


def test_nine_players_sit_out_once_each_in_nine_rounds_without_repeat_partners() -> (
    None
):
    rounds = _night(_players(9), 9)
    sat = Counter(p for r in rounds for p in r.sitting_out)
    assert sat == Counter(dict.fromkeys(_players(9), 1))
    assert set(_partners(rounds).values()) == {1}
    assert all(len(r.tables) == 2 for r in rounds)


@pytest.mark.parametrize("n", [5, 6, 7, 9, 10, 11, 13, 14])
def test_nobody_sits_out_twice_before_everyone_has_sat_out_once(n: int) -> None:
    players = _players(n)
    played: list[Round] = []
    for _ in range(2 * n):
        played.append(progressive_round(players, played))
        counts = Counter(dict.fromkeys(players, 0))
        counts.update(p for r in played for p in r.sitting_out)
        assert max(counts.values()) - min(counts.values()) <= 1
        seated = [p for t in played[-1].tables for p in t.seats]
        assert sorted(seated + list(played[-1].sitting_out)) == players
        assert len(seated) % 4 == 0 and len(played[-1].sitting_out) == n % 4


def test_a_late_arrival_joins_the_next_round_and_partners_stay_fresh() -> None:
    players = _players(8)
    played = _night(players, 3)
    played.append(progressive_round([*players, "late"], played))
    assert "late" in played[-1].sitting_out or any(
        "late" in t.seats for t in played[-1].tables
    )
    assert max(_partners(played).values()) == 1


def test_a_leaver_is_not_seated_again() -> None:
    players = _players(8)
    played = _night(players, 2)
    after = progressive_round(players[1:], played)
    assert all("p00" not in t.seats for t in after.tables)
    assert "p00" not in after.sitting_out


@given(st.integers(min_value=4, max_value=22), st.integers(min_value=1, max_value=8))
def test_every_round_seats_each_present_player_once(n: int, rounds: int) -> None:
    players = _players(n)
    for r in _night(players, rounds):
        seated = [p for t in r.tables for p in t.seats]
        assert sorted(seated + list(r.sitting_out)) == players
        assert all(len(t.seats) == 4 for t in r.tables)


def test_seats_alternate_between_the_two_teams() -> None:
    table = Table((("a1", "a2"), ("b1", "b2")))
    assert table.seats == ("a1", "b1", "a2", "b2")


def test_a_round_refuses_too_few_players_or_a_player_twice() -> None:
    with pytest.raises(ScheduleError, match="at least 4 players"):
        progressive_round(_players(3), [])
    with pytest.raises(ScheduleError, match="twice"):
        progressive_round(["a", "a", "b", "c"], [])
    with pytest.raises(ScheduleError, match="twice"):
        draw_teams(["a", "a"], 2, random.Random(1))


def test_teams_are_drawn_whole_and_the_count_must_divide() -> None:
    teams = draw_teams(_players(12), 3, random.Random(7))
    assert len(teams) == 4 and all(len(t) == 3 for t in teams)
    assert sorted(p for t in teams for p in t) == _players(12)
    with pytest.raises(ScheduleError, match="teams of 4: check in 2 more"):
        draw_teams(_players(10), 4, random.Random(1))


def test_fixed_teams_meet_every_other_team_once_before_any_meet_twice() -> None:
    teams = draw_teams(_players(16), 2, random.Random(3))
    played: list[Round] = []
    for _ in range(7):
        played.append(fixed_round(teams, played))
    meetings = Counter(frozenset(t.teams) for r in played for t in r.tables)
    assert len(meetings) == 28 and set(meetings.values()) == {1}
    assert fairness(played, _players(16)).partner_repeats == 6 * 8  # fixed: by design


def test_an_odd_number_of_teams_sits_one_team_out_in_turn() -> None:
    teams = draw_teams(_players(12), 4, random.Random(5))  # 3 teams of 4: 8-seat
    played: list[Round] = []
    for _ in range(3):
        played.append(fixed_round(teams, played))
    assert all(len(r.tables) == 1 and len(r.sitting_out) == 4 for r in played)
    assert sorted(p for r in played for p in r.sitting_out) == _players(12)
    assert len(played[0].tables[0].seats) == 8


def test_fixed_rounds_need_two_teams() -> None:
    with pytest.raises(ScheduleError, match="two teams"):
        fixed_round([("a", "b")], [])


def test_fairness_counts_repeats_opponent_spread_and_sit_outs() -> None:
    players = _players(9)
    report = fairness(_night(players, 3), players)
    assert report.partner_repeats == 0
    assert sum(report.sit_outs.values()) == 3
    assert 0 <= report.opponents_least <= report.opponents_most <= 3
    assert report.lines() == [
        "partners repeated: 0",
        f"opponents: every two players met {report.opponents_least}–"
        f"{report.opponents_most} times",
        "sit-outs: each player 0–1",
    ]


@pytest.mark.parametrize(
    ("count", "tables"),
    [(8, 0), (7, 1), (11, 1), (10, 2), (6, 2), (9, 3), (3, 1), (5, None), (2, None)],
)
def test_the_fewest_three_handed_tables_that_seat_everyone(
    count: int, tables: int | None
) -> None:
    assert three_handed_tables(count) == tables


@pytest.mark.parametrize("n", [3, 6, 7, 9, 10, 11, 14, 15])
def test_three_handed_tables_seat_everyone_and_take_turns(n: int) -> None:
    players = _players(n)
    played: list[Round] = []
    for _ in range(2 * n):
        played.append(progressive_round(players, played, three_handed=True))
        last = played[-1]
        assert last.sitting_out == ()
        seated = [p for t in last.tables for p in t.seats]
        assert sorted(seated) == players
        threes = [t for t in last.tables if t.three_handed]
        assert len(threes) == three_handed_tables(n)
        assert all(len(t.seats) == 3 and len(t.teams) == 3 for t in threes)
        assert all(len(t.seats) == 4 for t in last.tables if not t.three_handed)
        alone = Counter(dict.fromkeys(players, 0))
        alone.update(
            p for r in played for t in r.tables if t.three_handed for p in t.seats
        )
        assert max(alone.values()) - min(alone.values()) <= 1


def test_a_three_handed_table_is_each_for_himself() -> None:
    table = Table((("a",), ("b",), ("c",)))
    assert table.seats == ("a", "b", "c") and table.three_handed
    report = fairness([Round((table,))], ["a", "b", "c"])
    assert report.partner_repeats == 0
    assert (report.opponents_least, report.opponents_most) == (1, 1)
    assert report.three_handed == {"a": 1, "b": 1, "c": 1}
    assert report.lines()[-1] == "3-handed: each player 1–1"


def test_seven_players_sit_one_table_of_three_instead_of_three_sitting_out() -> None:
    players = _players(7)
    usual = progressive_round(players, [])
    assert len(usual.sitting_out) == 3 and len(usual.tables) == 1
    seated = progressive_round(players, [], three_handed=True)
    assert [len(t.seats) for t in seated.tables] == [4, 3]
    report = fairness([seated], players)
    assert sum(report.sit_outs.values()) == 0
    assert sum(report.three_handed.values()) == 3
    assert "3-handed: each player 0–1" in report.lines()


def test_three_handed_is_refused_when_fours_and_threes_cannot_make_the_count() -> None:
    with pytest.raises(ScheduleError, match="5 players cannot all sit"):
        progressive_round(_players(5), [], three_handed=True)
    with pytest.raises(ScheduleError, match="at least 4 players"):
        progressive_round(_players(3), [])


def test_a_three_handed_table_plays_classic_at_the_seasons_pace() -> None:
    assert three_handed_rules("moon-42", {"hand_limit": 8, "negotiation": True}) == (
        "classic",
        {"hand_limit": 8},
    )
    assert three_handed_rules("bid-euchre", {}) == ("classic", {})
    assert three_handed_rules("classic", {"target_score": 21}) == (
        "classic",
        {"target_score": 21},
    )
