"""A list of names pasted into a league's registry (no database): what
was pasted, read as names, and what becomes of each one.

The list is one name a line, or a CSV whose first line names a column
"name" (or "player"; any case): then that column's cell of each row is
the name, whatever the other columns hold (a spreadsheet's export).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from scorekeeper.leagues.names import name_key, name_problem, tidy

NAME_COLUMNS = ("name", "player")
# A club's registry, pasted whole, with room to spare; more is a mistake
# (a whole file pasted in the wrong box).
PASTE_LIMIT = 1000


def pasted_names(text: str) -> list[str]:
    """The names in ``text``, tidy, in their order; blank lines and a CSV's
    blank cells skipped."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    column = _name_column(lines[0])
    if column is None:
        return [tidy(line) for line in lines]
    rows = csv.reader(io.StringIO("\n".join(lines[1:])))
    cells = [tidy(row[column]) for row in rows if column < len(row)]
    return [cell for cell in cells if cell]


def _name_column(first_line: str) -> int | None:
    """Which cell of a CSV's header names the players (None: no header)."""
    header = [cell.strip().casefold() for cell in next(csv.reader([first_line]))]
    for wanted in NAME_COLUMNS:
        if wanted in header:
            return header.index(wanted)
    return None


@dataclass
class PasteReport:
    """What became of each pasted name: added, already a player (as the
    registry spells them), refused with the reason (words following "the
    name"), or listed twice in the paste (added once)."""

    added: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    repeated: list[str] = field(default_factory=list)


def shown(refused: str) -> str:
    """A refused name as the report prints it: a control or other invisible
    character as "�" (and storable: PostgreSQL's JSON
    takes no NUL), a long one cut short."""
    visible = "".join(
        "\N{REPLACEMENT CHARACTER}" if unicodedata.category(ch).startswith("C") else ch
        for ch in refused
    )
    return visible if len(visible) <= 80 else visible[:79] + "\N{HORIZONTAL ELLIPSIS}"


def paste_report(names: Sequence[str], registered: Mapping[str, str]) -> PasteReport:
    """What to do with ``names`` in a registry whose players' names are
    ``registered`` by key (``names.name_key``)."""
    report = PasteReport()
    listed: set[str] = set()
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            report.refused.append((shown(name), problem))
            continue
        key = name_key(name)
        if key in registered:
            report.already.append(registered[key])
        elif key in listed:
            report.repeated.append(name)
        else:
            report.added.append(name)
        listed.add(key)
    return report
