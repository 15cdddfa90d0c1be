"""A player's numbers from hand-computed games (no database)."""

from __future__ import annotations

from fractions import Fraction

from scorekeeper.leagues.standings import GameResult
from scorekeeper.leagues.stats import Played, player_stats
from scorekeeper.seatstats import SeatStats

QUIET = SeatStats(bids={}, sets=0, conceded=0, run="", best=0)


def _game(players: str, totals: tuple[int, int], finished: bool = True) -> GameResult:
    """Ann in seat 0 (side 0) with the players of ``players`` in seats 1-3."""
    winner = 0 if totals[0] >= totals[1] else 1
    return GameResult(
        players=("ann", *players.split()),
        finished=finished,
        sides=(0, 1, 0, 1),
        totals=totals,
        winners=frozenset({winner}),
        bids=(0, 0, 0, 0),
        made=(0, 0, 0, 0),
    )


def test_the_numbers_of_a_player_over_two_nights() -> None:
    bidding = SeatStats(
        bids={"3": [2, 1], "moon": [1, 1]}, sets=2, conceded=1, run="MSM", best=7
    )
    games = [
        Played("2026-01-01", 1, 1, 0, _game("bob cat dan", (32, 20)), mine=bidding),
        Played("2026-01-01", 2, 1, 0, _game("bob cat dan", (32, 28))),
        Played("2026-01-01", 3, 2, 0, _game("eve cat fay", (10, 32))),
        Played("2026-01-08", 1, 1, 0, _game("bob cat dan", (20, 32)), mine=bidding),
        Played("2026-01-08", 2, 1, 0, _game("dan eve bob", (5, 6), finished=False)),
        Played("2026-01-08", 3, 1, 0, _game("eve gus fay", (32, 31))),
    ]
    stats = player_stats("ann", games)
    assert (stats.games, stats.nights, stats.won) == (5, 2, 3)
    assert stats.win_pct == Fraction(3, 5)
    assert stats.margin == 12 + 4 - 22 - 12 + 1
    assert stats.average_margin == Fraction(-17, 5)
    assert stats.bid_lines == [("3", 4, 2), ("moon", 2, 2)]
    assert (stats.sets, stats.conceded) == (4, 2)
    # Cat partnered Ann 4 times (won 2); Eve twice: too few to name.
    assert stats.partner is not None and stats.partner.player == "cat"
    assert (stats.partner.games, stats.partner.won) == (4, 2)
    # Bob and Dan opposed Ann 3 times each (Ann won 2 of them);
    # Fay twice (too few). A tie on the rate and games: the id decides.
    assert stats.opponent is not None and stats.opponent.player == "dan"
    assert [(day, t.played, t.won) for day, t in stats.by_night] == [
        ("2026-01-01", 3, 2),
        ("2026-01-08", 2, 1),
    ]


def test_a_player_without_finished_games_has_no_rates() -> None:
    unfinished = Played("2026-01-01", 1, 1, 0, _game("b c d", (0, 0), finished=False))
    stats = player_stats("ann", [unfinished])
    assert stats.win_pct is None and stats.average_margin is None
    assert stats.partner is None and stats.opponent is None and stats.nights == 0
