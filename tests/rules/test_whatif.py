"""What-if: a game's hands under other rules, or listed when they cannot be."""

from __future__ import annotations

from hypothesis import given

from scorekeeper.referee.whatif import what_if
from scorekeeper.rules.engine import replay
from scorekeeper.rules.events import Event
from scorekeeper.rules.variants import Variant
from tests.factories import conceded, passed, play, played, variant
from tests.strategies import games


@given(games())
def test_what_if_under_its_own_rules_is_the_game(
    game: tuple[Variant, tuple[str, ...], int, list[Event]],
) -> None:
    board = replay(*game)
    same = what_if(board, board.variant)
    assert same.board == board
    assert same.left_out == []
    assert [c.other for c in same.hands] == list(board.hands)


def test_a_moon_game_under_classic_rules_lists_what_classic_cannot_express() -> None:
    moon = variant("moon-42", pepper_round_hands=0)
    board = play(
        moon, played(1, 4, 1, 5), conceded(2, 4, 1), played(3, "moon", 0, 6), passed()
    )
    other = what_if(board, variant("classic"))
    assert [c.real.number for c in other.left_out] == [2, 3]
    assert "classic has no negotiation" in other.left_out[0].reason
    assert 'classic has no bid "moon"' in other.left_out[1].reason
    assert other.board.totals == (1, 5)  # Bob & Dan (side 1) bid 4, took 5: +5; +1
    assert other.hands[0].other is not None and other.hands[0].other.deltas == (1, 5)


def test_hands_after_the_other_rules_end_the_game_are_listed() -> None:
    board = play(variant("classic"), *[played(0, "big-pepper", 6, 0)] * 3)
    shorter = what_if(board, variant("classic", target_score=20))
    assert shorter.board.winners == (0,)
    assert [c.real.number for c in shorter.left_out] == [3]
    assert "the game is over" in shorter.left_out[0].reason
