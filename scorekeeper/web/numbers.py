"""Numbers as the pages print them: a negative takes the true minus sign
(U+2212, "−6"), which reads as a minus across a room, not the hyphen
("-6") that a glance takes for a dash. The one place that writes a signed
number for a page; the CSV files and the JSON keep Python's ASCII "-6",
which spreadsheets and programs read as a number."""

from __future__ import annotations

from fractions import Fraction

MINUS = "\u2212"


def signed(value: float | Fraction, *, places: int = 0, plus: bool = False) -> str:
    """``value`` with ``places`` decimals, a true minus sign if it is below
    zero, and "+" before the others when ``plus`` (a change, a margin).
    A value that rounds to zero shows no minus ("−0.0" would say a loss)."""
    text = f"{value:{'+' if plus else ''}z.{places}f}"
    return text.replace("-", MINUS)
