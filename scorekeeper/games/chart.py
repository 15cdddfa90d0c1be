"""The score chart: each side's total after every hand, laid out for an
inline SVG drawn on the server (no chart library, no script).

Pure: plain numbers in, coordinates out; the template draws them. The
history list beside it is its text equivalent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.tablewords import signed

WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 10, 22
# Told apart by dash as well as colour, for colour-blind players.
MIN_GAP = 12  # between two labels of the total axis, in chart units
STYLES = [
    ("#0b5d3b", ""),
    ("#b00020", "6 3"),
    ("#1a4f9c", "2 3"),
    ("#8a5a00", "8 3 2 3"),
]


@dataclass(frozen=True)
class Line:
    name: str
    total: int
    points: str  # SVG polyline points: "x,y x,y ..."
    colour: str
    dash: str
    end_x: float
    end_y: float

    @property
    def shown(self) -> str:
        return signed(self.total)


@dataclass(frozen=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True)
class Chart:
    lines: list[Line]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    target_y: float
    target: int
    hands: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right_edge: int = WIDTH - RIGHT
    bottom_edge: int = HEIGHT - BOTTOM


@dataclass(frozen=True)
class Plot:
    """Where values land in a WIDTH x HEIGHT chart: ``steps`` intervals
    along the bottom, values from ``low`` to ``high`` up the side. The
    score chart and the league's charts place their points with it."""

    steps: int
    low: float
    high: float

    def x(self, step: int) -> float:
        return round(LEFT + (WIDTH - LEFT - RIGHT) * step / max(self.steps, 1), 1)

    def y(self, value: float) -> float:
        share = (value - self.low) / ((self.high - self.low) or 1)
        return round(HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * share, 1)


def score_chart(
    names: Sequence[str], totals_after: Sequence[Sequence[int]], target: int
) -> Chart:
    """``totals_after[k]``: every side's total after hand k+1."""
    series = [
        [0, *(totals[side] for totals in totals_after)] for side in range(len(names))
    ]
    low = min(0, *(min(values) for values in series))
    high = max(target, *(max(values) for values in series))
    hands = len(totals_after)
    plot = Plot(hands, low, high)
    x, y = plot.x, plot.y
    lines = []
    for side, values in enumerate(series):
        colour, dash = STYLES[side % len(STYLES)]
        points = " ".join(f"{x(hand)},{y(total)}" for hand, total in enumerate(values))
        lines.append(
            Line(names[side], values[-1], points, colour, dash, x(hands), y(values[-1]))
        )
    y_ticks: list[Tick] = []
    for value in (target, 0, low):  # the lowest gives way if it would touch
        tick = Tick(y(value), signed(value))
        if all(abs(tick.at - kept.at) >= MIN_GAP for kept in y_ticks):
            y_ticks.append(tick)
    y_ticks.sort(key=lambda tick: -tick.at)
    step = max(1, -(-hands // 6))  # at most about 7 hand numbers along the bottom
    x_ticks = [Tick(x(hand), str(hand)) for hand in range(0, hands + 1, step)]
    return Chart(lines, y_ticks, x_ticks, y(target), target, hands)
