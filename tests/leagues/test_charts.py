"""Charts' geometry (no database)."""

from __future__ import annotations

from scorekeeper.games.chart import HEIGHT, WIDTH
from scorekeeper.leagues.charts import line_chart


def test_a_line_spans_the_plot_and_its_numbers_are_a_table() -> None:
    chart = line_chart(
        "Points per night",
        "Night",
        ["1 Jan", "8 Jan", "15 Jan"],
        [
            ("Ann", [10, 35, 20]),
            ("Bob", [0, 5, 40]),
        ],
    )
    assert chart is not None
    ann, bob = chart.lines
    xs = [float(p.split(",")[0]) for p in ann.points.split()]
    ys = [float(p.split(",")[1]) for p in ann.points.split()]
    assert xs[0] == chart.plot_left and xs[-1] == chart.plot_right
    assert ys[1] < ys[2] < ys[0]  # higher values sit higher (smaller y)
    assert all(0 <= y <= HEIGHT for y in ys) and all(0 <= x <= WIDTH for x in xs)
    assert [label for _, label in chart.y_ticks] == ["0", "10", "20", "30", "40"]
    assert chart.head == ("Night", "Ann", "Bob")
    assert chart.rows[1] == ("8 Jan", "35", "5")
    assert len(ann.dots) == 3


def test_a_flat_line_or_a_single_point_still_draws() -> None:
    chart = line_chart("Rating", "Game", ["1"], [("Rating", [12.25])])
    assert chart is not None and chart.lines[0].points.count(",") == 1
    assert [label for _, label in chart.y_ticks][0] == "11"
    assert chart.rows == (("1", "12.2"),)


def test_many_points_carry_no_dots_and_nothing_draws_no_chart() -> None:
    chart = line_chart(
        "Rating",
        "Game",
        [str(i) for i in range(100)],
        [
            ("Rating", [i * 0.5 for i in range(100)]),
        ],
    )
    assert chart is not None and chart.lines[0].dots == ()
    assert line_chart("Rating", "Game", [], []) is None


def test_amounts_can_be_drawn_from_zero() -> None:
    points = [("Points", [57.0, 59.0, 59.0])]
    close = line_chart("Points per night", "Night", ["a", "b", "c"], points)
    whole = line_chart("Points", "Night", ["a", "b", "c"], points, from_zero=True)
    assert close is not None and whole is not None
    assert close.y_ticks[0][1] == "57" and whole.y_ticks[0][1] == "0"
