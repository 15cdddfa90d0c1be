"""Numbers as the pages print them: a negative takes the true minus sign
(U+2212, "−6"), which reads as a minus across a room, not the hyphen
("-6") that a glance takes for a dash. One implementation, the log core's
pure one (``tablewords.signed``), which the phone's offline engine runs
too; the CSV files and the JSON keep Python's ASCII "-6", which
spreadsheets and programs read as a number."""

from __future__ import annotations

from scorekeeper.tablewords import MINUS, signed

__all__ = ["MINUS", "signed"]
