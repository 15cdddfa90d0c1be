"""Line charts drawn on the server as SVG (no chart script): the geometry
here (points placed by the score chart's ``Plot``), the markup in
``templates/leagues/_chart.html``. Each chart keeps its numbers as a table
too, for screen readers and for anyone who wants them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.games.chart import HEIGHT, LEFT, RIGHT, WIDTH, Plot
from scorekeeper.tablewords import signed

MAX_DOTS = 40  # beyond this many points a line carries no dots


@dataclass(frozen=True)
class Line:
    label: str
    points: str  # "x,y x,y ..." for a polyline
    dots: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Chart:
    title: str
    lines: tuple[Line, ...]
    y_ticks: tuple[tuple[float, str], ...]  # (y, label)
    x_ticks: tuple[tuple[float, str], ...]  # (x, label)
    head: tuple[str, ...]  # the table: the x column, then one per line
    rows: tuple[tuple[str, ...], ...]
    width: int = WIDTH
    height: int = HEIGHT
    plot_left: int = LEFT
    plot_right: int = WIDTH - RIGHT


def line_chart(
    title: str,
    x_name: str,
    xs: Sequence[str],
    series: Sequence[tuple[str, Sequence[float]]],
    *,
    from_zero: bool = False,
) -> Chart | None:
    """Lines of values over ``xs`` (one value per x each); None when there
    is nothing to draw. ``from_zero``: the scale starts at 0 (amounts,
    such as points, whose size matters, not only their changes)."""
    values = [v for _, ys in series for v in ys]
    if not xs or not values:
        return None
    bottom = min(0, *values) if from_zero else min(values)
    low, high, step = _scale(bottom, max(values))
    plot = Plot(len(xs) - 1, low, high)
    x_at, y_at = plot.x, plot.y
    lines = []
    for label, ys in series:
        coords = [(x_at(i), y_at(v)) for i, v in enumerate(ys)]
        dots = tuple(coords) if len(coords) <= MAX_DOTS else ()
        lines.append(Line(label, " ".join(f"{x},{y}" for x, y in coords), dots))
    count = round((high - low) / step)
    y_ticks = tuple(
        (y_at(low + k * step), _number(low + k * step)) for k in range(count + 1)
    )
    shown = sorted({0, len(xs) // 2, len(xs) - 1})
    x_ticks = tuple((x_at(i), xs[i]) for i in shown)
    rows = tuple((x, *(_number(ys[i]) for _, ys in series)) for i, x in enumerate(xs))
    return Chart(
        title,
        tuple(lines),
        y_ticks,
        x_ticks,
        (x_name, *(label for label, _ in series)),
        rows,
    )


def _scale(low: float, high: float) -> tuple[float, float, float]:
    """Round bounds and a tick step: 3 to 5 ticks of 1, 2 or 5 x 10^n."""
    if high == low:
        low, high = low - 1, high + 1
    raw = (high - low) / 4
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def _number(value: float) -> str:
    return signed(value, places=1).removesuffix(".0")
