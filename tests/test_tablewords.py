"""The score's boxes: one builder for the pages and the phone (pure)."""

from __future__ import annotations

from scorekeeper.tablewords import score_boxes
from tests.factories import play, played, variant


def test_each_side_gets_its_box_with_a_true_minus_and_a_clamped_bar() -> None:
    rules = variant("classic", 4, target_score=30)
    board = play(rules, played(0, 4, 2, 4))  # Ann & Cat bid 4, took 2: set
    low, high = board.totals
    assert low < 0 < high
    boxes = score_boxes(board)
    assert [box["name"] for box in boxes] == list(board.side_names)
    assert [box["total"] for box in boxes] == [low, high]
    assert boxes[0]["shown"] == f"−{-low}"
    assert boxes[0]["progress"] == 0  # a bar never runs below empty
    assert boxes[1]["progress"] == high
    assert boxes[0]["label"] == f"{board.side_names[0]}: −{-low} of 30"
    assert [box["target"] for box in boxes] == [30, 30]
    assert [box["classes"] for box in boxes] == ["side", "side leading"]
    assert not any(box["won"] for box in boxes)


def test_a_tie_at_the_top_leads_twice_and_the_winner_alone_is_won() -> None:
    rules = variant("classic", 4, target_score=5)
    assert [box["leading"] for box in score_boxes(play(rules))] == [True, True]
    won = play(rules, played(0, 5, 6, 0))
    assert won.winners == (0,)
    boxes = score_boxes(won)
    assert [box["classes"] for box in boxes] == ["side leading won", "side"]
    assert boxes[0]["progress"] == 5  # a bar never runs past full
