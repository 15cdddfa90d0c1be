"""``python manage.py standings SEASON.json [--json]``: a season's standings
(contract pepper-league-v1 §2). ``-`` reads standard input. A refused
season: exit status 2 and one line on standard error naming where."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from scorekeeper.leagues.season import SeasonError, read_season
from scorekeeper.leagues.standings import standings
from scorekeeper.management.contract import ContractCommand

COLUMNS = ("played", "won", "points", "margin", "bids", "made")


class Command(ContractCommand):
    help = "Print a pepper-league season's standings (pepper-standings v1)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("season", help="a pepper-league v1 file, or - for stdin")
        parser.add_argument("--json", action="store_true", help="pepper-standings v1")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            text = _read(options["season"])
            document = standings(read_season(text))
        except SeasonError as error:
            self.stderr.write(error.message)
            sys.exit(2)
        if options["json"]:
            self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
        else:
            self.stdout.write(_table(document))


def _read(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(name).read_bytes()
    except OSError as error:
        raise SeasonError(f"log: cannot read {name}: {error.strerror}") from None


def _table(document: dict[str, Any]) -> str:
    """A table a person reads: each night, then the season."""
    lines: list[str] = []
    for night in document["nights"]:
        lines += [f"Night of {night['date']}", *_rows(night["rows"], season=False), ""]
    lines += ["Season", *_rows(document["season"]["rows"], season=True)]
    return "\n".join(lines)


def _rows(rows: list[dict[str, Any]], *, season: bool) -> list[str]:
    columns = (("nights",) if season else ()) + COLUMNS
    head = f"{'Rank':>4}  {'Player':<20}" + "".join(f"{c.title():>8}" for c in columns)
    body = [
        f"{'' if row['rank'] is None else row['rank']:>4}  {row['name'][:20]:<20}"
        + "".join(f"{row[c]:>8}" for c in columns)
        for row in rows
    ]
    return [head, *body] if body else [head, "  (no finished game)"]
