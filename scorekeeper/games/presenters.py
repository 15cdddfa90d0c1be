"""What the pages show, built from a game's log and scoreboard.

Plain data for templates: no queries here, no rules decided here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scorekeeper.gamelog import GameLog
from scorekeeper.games.chart import Chart, score_chart
from scorekeeper.games.forms import HandForm
from scorekeeper.models import Game
from scorekeeper.rules.engine import HandResult, Scoreboard
from scorekeeper.rules.events import HandPassedOut
from scorekeeper.rules.explain import status_rule as explain_status_rule
from scorekeeper.tablewords import (  # the words the phone's engine says too
    TRUMP_LABELS,
    Change,
    HandRow,
    Takeover,
    bid_label,
    board_at,
    corrections,
    forced_line,
    hand_row,
    hand_summary,
    score_boxes,
    signed,
    status,
    true_minus,
    trump_label,
    turn_line,
)

__all__ = [  # the words pages and other rooms take from here
    "TRUMP_LABELS",
    "bid_label",
    "forced_line",
    "hand_summary",
    "score_boxes",
    "status",
    "trump_label",
    "true_minus",
    "turn_line",
]


class HistoryRow(HandRow):
    """A hand of the server's history: the corrections that touched it too."""

    changes: list[Change]


LONG_WORD = 10  # characters: wider than half a phone's score box, bold


def long_names(board: Scoreboard) -> bool:
    """A name piece too wide for a side-by-side score box ("Bartholomew,"):
    the boxes then take a row each rather than break before a comma."""
    return any(
        len(word) > LONG_WORD for name in board.side_names for word in name.split()
    )


def history_row(
    board: Scoreboard, result: HandResult, changes: list[Change] | None = None
) -> HistoryRow:
    return HistoryRow(**hand_row(board, result), changes=changes or [])


def history(
    board: Scoreboard,
    log: GameLog,
    named: Callable[[HandResult], Scoreboard] | None = None,
) -> list[HistoryRow]:
    """Each hand, newest first, with the corrections that touched it;
    ``named``: the board as it names a hand's players (who played it, when
    a seat changed hands mid-game), else ``board``'s seats."""
    changes = corrections(log)
    rows = [
        history_row(
            board if named is None else named(result),
            result,
            changes.get(result.target),
        )
        for result in board.hands
    ]
    rows.reverse()
    return rows


def takeovers(game: Game) -> tuple[Takeover, ...]:
    """Who took over which seat from which hand (a league night's
    substitute), as the game's row keeps them: no query."""
    return tuple(Takeover(seat, name, hand) for seat, name, hand in game.takeovers)


def played_history(
    board: Scoreboard, log: GameLog, changes: Sequence[Takeover]
) -> list[HistoryRow]:
    """The history (newest first), each hand named by who played it."""
    if not changes:
        return history(board, log)
    return history(board, log, lambda result: board_at(board, changes, result.number))


def played_row(
    board: Scoreboard, changes: Sequence[Takeover], result: HandResult
) -> HistoryRow:
    """One hand of the history, named by who played it."""
    return history_row(board_at(board, changes, result.number), result)


def form_values(form: HandForm) -> dict[str, object]:
    """What a form shows: what was entered, else its defaults."""
    return {**form.initial, **dict(form.data.items())}


def status_rule(board: Scoreboard) -> str:
    return explain_status_rule(board)


def chart(board: Scoreboard) -> Chart | None:
    """The score chart once a hand is played (rows hold each hand's totals)."""
    if not board.rows:
        return None
    totals = [row.totals for row in board.rows]
    return score_chart(board.side_names, totals, board.variant.target_score)


def saved_line(board: Scoreboard) -> str:
    """ "Hand 7 saved: Ann & Cat 31, Bob & Dan 18." after a save ("Hand 7
    saved as passed out: ..." for a deal nobody bid)."""
    totals = ", ".join(
        f"{name} {signed(total)}"
        for name, total in zip(board.side_names, board.totals, strict=True)
    )
    passed = bool(board.rows) and isinstance(board.rows[-1].hand, HandPassedOut)
    how = "saved as passed out" if passed else "saved"
    return f"Hand {len(board.rows)} {how}: {totals}."


def leaders_line(board: Scoreboard) -> str:
    """Who would win if the game ended now: "Ann & Cat (31)"."""
    top = max(board.totals)
    return " and ".join(
        f"{name} ({signed(total)})"
        for name, total in zip(board.side_names, board.totals, strict=True)
        if total == top
    )
