"""Ratings arithmetic without a database: openskill's Plackett-Luce model,
a side as a team, co-winners tied."""

from __future__ import annotations

import math

import pytest

from scorekeeper.leagues.ratings import NEW_MU, NEW_SIGMA, Rated, Skill, rate

SIDES = (0, 1, 0, 1)


def test_winners_rise_losers_fall_and_everyone_grows_surer() -> None:
    after = rate({}, Rated(("a", "b", "c", "d"), SIDES, frozenset({0})))
    assert after["a"] == after["c"] and after["b"] == after["d"]
    assert after["a"].mu > NEW_MU > after["b"].mu
    # Two equal new teams: the winners gain what the losers lose.
    assert after["a"].mu - NEW_MU == pytest.approx(NEW_MU - after["b"].mu)
    assert all(skill.sigma < NEW_SIGMA for skill in after.values())
    assert Skill().ordinal == pytest.approx(NEW_MU - 3 * NEW_SIGMA)


def test_co_winners_of_equal_skill_stay_level_but_grow_surer() -> None:
    after = rate({}, Rated(("a", "b", "c", "d"), SIDES, frozenset({0, 1})))
    assert [skill.mu for skill in after.values()] == [pytest.approx(NEW_MU)] * 4
    assert all(skill.sigma < NEW_SIGMA for skill in after.values())


def test_beating_stronger_players_is_worth_more() -> None:
    strong = {"b": Skill(35.0, 3.0), "d": Skill(35.0, 3.0)}
    upset = rate(strong, Rated(("a", "b", "c", "d"), SIDES, frozenset({0})))
    expected = rate({}, Rated(("a", "b", "c", "d"), SIDES, frozenset({0})))
    assert upset["a"].mu - NEW_MU > expected["a"].mu - NEW_MU
    assert upset["b"].mu < 35.0


def test_a_bid_euchre_table_of_eight_rates_two_teams_of_four() -> None:
    players = tuple("abcdefgh")
    after = rate({}, Rated(players, (0, 1) * 4, frozenset({1})))
    assert len({after[p] for p in "aceg"}) == 1 and len({after[p] for p in "bdfh"}) == 1
    assert after["b"].mu > after["a"].mu


def test_one_game_of_new_players_by_hand() -> None:
    """Plackett-Luce by hand for two new teams of two, the first winning:
    each sigma^2 first gains tau^2 (tau = 25/300); a team's sigma^2 is its
    players' sum; c = sqrt(sum over teams of (sigma_team^2 + beta^2)),
    beta = 25/6; equal teams each win with p = 1/2, so the winners' team
    gains omega = sigma_team^2 / c * (1 - 1/2), shared by sigma^2: half each."""
    sigma2 = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(2 * (2 * sigma2 + (25 / 6) ** 2))
    omega = 2 * sigma2 / c * (1 - 0.5)
    after = rate({}, Rated(("a", "b", "c", "d"), SIDES, frozenset({0})))
    assert after["a"].mu == pytest.approx(25 + omega / 2, abs=1e-9)
    assert after["b"].mu == pytest.approx(25 - omega / 2, abs=1e-9)
