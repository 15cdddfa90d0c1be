"""What the pages show, built from a game's log and scoreboard.

Plain data for templates: no queries here, no rules decided here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from scorekeeper.gamelog import GameLog, LogEntry
from scorekeeper.games.chart import Chart, score_chart
from scorekeeper.games.forms import HandForm
from scorekeeper.refusals import sentence as sentence  # kept here too: pages import it
from scorekeeper.rules.engine import HandResult, Scoreboard
from scorekeeper.rules.events import (
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from scorekeeper.rules.explain import status_rule as explain_status_rule
from scorekeeper.rules.referee import Turn
from scorekeeper.rules.variants import Variant
from scorekeeper.tablewords import (  # the words the phone's engine says too
    TRUMP_LABELS,
    HandRow,
    bid_label,
    clock,
    forced_line,
    hand_row,
    hand_summary,
    score_boxes,
    status,
    true_minus,
    trump_label,
    turn_line,
)
from scorekeeper.web.numbers import signed

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


@dataclass(frozen=True)
class Change:
    """A void or a correction, as the history shows it."""

    kind: str  # "voided" or "corrected"
    event: int
    by: str
    at: str
    reason: str


class HistoryRow(HandRow):
    """A hand of the server's history: the corrections that touched it too."""

    changes: list[Change]


@dataclass(frozen=True)
class VoidedHand:
    event: int
    summary: str
    change: Change


LONG_WORD = 10  # characters: wider than half a phone's score box, bold


def long_names(board: Scoreboard) -> bool:
    """A name piece too wide for a side-by-side score box ("Bartholomew,"):
    the boxes then take a row each rather than break before a comma."""
    return any(
        len(word) > LONG_WORD for name in board.side_names for word in name.split()
    )


def _change(kind: str, position: int, entry: LogEntry, reason: str = "") -> Change:
    return Change(
        kind,
        position,
        entry.by or "someone",
        clock(entry.at or ""),
        reason,
    )


def corrections(log: GameLog) -> dict[int, list[Change]]:
    """The corrections of each hand event (by its log position), in order."""
    changes: dict[int, list[Change]] = {}
    for position, entry in enumerate(log.entries, start=1):
        if isinstance(entry.event, HandCorrected):
            change = _change("corrected", position, entry, entry.note or "")
            changes.setdefault(entry.event.target, []).append(change)
    return changes


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


def voided(board: Scoreboard, log: GameLog) -> list[VoidedHand]:
    """The hands voided, with who voided them, when and why."""
    found = []
    for position, entry in enumerate(log.entries, start=1):
        event = entry.event
        if isinstance(event, HandVoided):
            original = log.entries[event.target - 1].event
            assert isinstance(original, HandRecorded | HandPassedOut)
            change = _change("voided", position, entry, event.reason)
            summary = hand_summary(board.variant, board.seats, original)
            found.append(VoidedHand(event.target, summary, change))
    return found


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    checked: bool
    max_free: str = ""

    @property
    def name(self) -> str:
        """The spoken name: "hearts" for ♥, "no trump" for NT."""
        return self.value.replace("-", " ")


def _options(
    values: Mapping[str, object],
    name: str,
    pairs: list[tuple[str, str]],
    forced: bool = False,
) -> list[Option]:
    """One choice per (value, label); the entered one checked, or every one
    when the rules leave no other (the pepper round's bidder and bid)."""
    current = str(values.get(name, ""))
    return [Option(value, label, forced or value == current) for value, label in pairs]


def form_values(form: HandForm) -> dict[str, object]:
    """What a form shows: what was entered, else its defaults."""
    return {**form.initial, **dict(form.data.items())}


def auction_example(variant: Variant) -> str:
    """A legal auction under these rules, for the form's placeholder: the
    first bidder passes, the next two bid the two lowest legal bids (one,
    if the minimum is the top bid, which ends an open auction at once),
    the rest pass."""
    bids = [bid_label(rung.call) for rung in variant.legal_ladder[:2]]
    if len(bids) == 1 and not variant.one_call_each:
        return f"pass, {bids[0]}"
    if variant.seats == 2:
        return f"{bids[0]}, pass" if len(bids) == 1 else f"{bids[0]}, {bids[1]}, pass"
    bidding = 1 + len(bids)
    passes = variant.seats - bidding if variant.one_call_each else variant.seats - 2
    return ", ".join(["pass", *bids, *["pass"] * passes])


def form_options(
    values: Mapping[str, object], board: Scoreboard, turn: Turn
) -> dict[str, object]:
    """The choices the record form offers: only what the rules allow now."""
    variant, seats = board.variant, board.seats
    forced = turn.pepper_round
    bidders = [turn.first_bidder] if forced else list(range(variant.seats))
    ladder = [  # the house's minimum bid and up; the forced bid alone
        rung
        for rung in variant.legal_ladder
        if not forced or rung.call == turn.forced_bid
    ]
    entered = str(values.get("bid", ""))
    bids = [
        Option(
            str(rung.call),
            bid_label(rung.call),
            forced or str(rung.call) == entered,
            "none" if rung.max_free_tricks is None else str(rung.max_free_tricks),
        )
        for rung in ladder
    ]
    most_free = max((rung.max_free_tricks or 0 for rung in ladder), default=0)
    return {
        "bidders": _options(
            values, "bidder", [(str(seat), seats[seat]) for seat in bidders], forced
        ),
        "bids": bids,
        "trumps": _options(
            values,
            "trump",
            [
                (t, trump_label(t))
                for t in (*TRUMP_LABELS, "no-trump")
                if t in variant.trumps
            ],
        ),
        "outcomes": _options(
            values,
            "outcome",
            [("played", "Played"), ("conceded", "Conceded (thrown in)")],
        )
        if variant.negotiation
        else [],
        "taken": _options(
            values,
            "taken",
            [(str(n), str(n)) for n in range(variant.tricks_per_hand + 1)],
        ),
        "free": _options(
            values, "free_tricks", [(str(n), str(n)) for n in range(most_free + 1)]
        ),
        "per_player": variant.sides > 2,
        "auction_example": auction_example(variant),
        "players": [
            (
                f"tricks_{seat}",
                name,
                _options(
                    values,
                    f"tricks_{seat}",
                    [(str(n), str(n)) for n in range(variant.tricks_per_hand + 1)],
                ),
            )
            for seat, name in enumerate(seats)
        ],
        "forced": forced,  # the bidder and the bid are the rules', not entered
        "can_pass": not forced and not variant.stick_the_dealer,
        "has_auction": not forced,
    }


def status_rule(board: Scoreboard) -> str:
    return explain_status_rule(board)


def chart(board: Scoreboard) -> Chart | None:
    """The score chart once a hand is played (rows hold each hand's totals)."""
    if not board.rows:
        return None
    totals = [row[3] for row in board.rows]
    return score_chart(board.side_names, totals, board.variant.target_score)


def saved_line(board: Scoreboard) -> str:
    """ "Hand 7 saved: Ann & Cat 31, Bob & Dan 18." after a save."""
    totals = ", ".join(
        f"{name} {signed(total)}"
        for name, total in zip(board.side_names, board.totals, strict=True)
    )
    return f"Hand {len(board.rows)} saved: {totals}."


def leaders_line(board: Scoreboard) -> str:
    """Who would win if the game ended now: "Ann & Cat (31)"."""
    top = max(board.totals)
    return " and ".join(
        f"{name} ({signed(total)})"
        for name, total in zip(board.side_names, board.totals, strict=True)
        if total == top
    )
