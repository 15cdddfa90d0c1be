"""The score chart's layout: pure numbers, no database."""

from __future__ import annotations

from scorekeeper.games.chart import HEIGHT, WIDTH, score_chart


def points(line: str) -> list[tuple[float, float]]:
    return [tuple(map(float, pair.split(","))) for pair in line.split()]  # type: ignore[misc]


def test_each_side_has_a_point_per_hand_from_zero() -> None:
    chart = score_chart(["Ann & Cat", "Bob & Dan"], [(1, 4), (5, 5), (12, 2)], 42)
    ann, bob = (points(line.points) for line in chart.lines)
    assert len(ann) == len(bob) == 4  # the start, then after each hand
    assert ann[0][1] == bob[0][1]  # both start at 0
    assert [x for x, _ in ann] == sorted(x for x, _ in ann)  # left to right
    assert ann[-1][1] < bob[-1][1]  # 12 is drawn above 2
    assert (chart.lines[0].total, chart.lines[1].total) == (12, 2)


def test_the_chart_stays_in_its_box_with_negative_totals_and_a_passed_target() -> None:
    chart = score_chart(["Ann", "Bob", "Cat"], [(-8, 1, 0), (-16, 40, 2)], 30)
    for line in chart.lines:
        for x, y in points(line.points):
            assert 0 <= x <= WIDTH and 0 <= y <= HEIGHT
    labels = [tick.label for tick in chart.y_ticks]
    assert labels == ["−16", "0", "30"]
    assert chart.lines[1].end_y < chart.target_y  # 40 is above the target line


def test_a_long_game_labels_at_most_seven_hand_numbers() -> None:
    chart = score_chart(["A", "B"], [(n, n) for n in range(1, 61)], 100)
    assert 2 <= len(chart.x_ticks) <= 7 and chart.x_ticks[0].label == "0"


def test_a_low_total_next_to_zero_does_not_print_over_it() -> None:
    chart = score_chart(["A", "B"], [(2, 4), (11, -1)], 30)
    assert [tick.label for tick in chart.y_ticks] == ["0", "30"]
