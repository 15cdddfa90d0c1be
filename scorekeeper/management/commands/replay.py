"""``python manage.py replay LOG [--json]``: score a pepper log (contract §3)."""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from typing import Any

from scorekeeper.gamelog import LogError, dumps, read_and_replay
from scorekeeper.management.contract import ContractCommand
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.explain import explain_hand, explain_status
from scorekeeper.score_document import score_document


class Command(ContractCommand):
    help = "Replay a pepper-log v1 file ('-' for standard input) and print the score."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("log", help="the log file, or - for standard input")
        parser.add_argument("--json", action="store_true", help="print pepper-score v1")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            text = _read(options["log"])
            _, board = read_and_replay(text)
        except LogError as error:
            self.stderr.write(str(error))
            sys.exit(2)
        if options["json"]:
            self.stdout.write(dumps(score_document(board)))
        else:
            self.stdout.write(score_table(board))


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise LogError(f"cannot read {path}: {error.strerror}") from None


def score_table(board: Scoreboard) -> str:
    """A plain-text score sheet: one line per hand, then the standing."""
    names = board.side_names
    width = 2 + max(6, *(len(name) for name in names))
    header = "Hand  Dealer      " + "".join(f"{name:>{width}}" for name in names)
    lines = [header, "-" * len(header)]
    for result in board.hands:
        dealer = board.seats[result.dealer]
        totals = "".join(f"{total:>{width}}" for total in result.totals)
        lines.append(f"{result.number:>4}  {dealer:<10.10}  {totals}")
        lines.append(f"      {explain_hand(board, result)}")
    lines.append("-" * len(header))
    lines.append(explain_status(board))
    return "\n".join(lines)
