"""The words a table reads: a hand in one line, whose turn it is, a score
with its true minus sign. The server's pages and the phone's offline
engine (under Pyodide) say the same thing because both use this module.

Pure: the standard library and the rules only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Literal, NamedTuple, TypedDict

from scorekeeper.gamelog import GameLog, LogEntry
from scorekeeper.rules.engine import HandResult, Scoreboard
from scorekeeper.rules.events import (
    Call,
    Hand,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from scorekeeper.rules.explain import explain_hand, explain_status
from scorekeeper.rules.referee import Turn
from scorekeeper.rules.variants import Variant

# What the record form says is missing (the server's form and the phone's).
MISSING = {
    "bidder": "Choose who took the bid.",
    "bid": "Choose the bid.",
    "trump": "Choose trump (or no trump).",
    "free_tricks": "Say how many free tricks were granted.",
    "tricks": "Enter every player's tricks (all but one).",
    "taken": "Say how many tricks the bidding side took.",
}


def whole_number(text: str) -> int | None:
    """A whole number written in ASCII digits, else None. (``str.isdigit``
    is true of "²" and "٣" too, which ``int`` then refuses or misreads.)"""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def call_of(value: str) -> Call:
    """A bid from a form: "4" is the number 4, "moon" stays a name."""
    number = whole_number(value)
    return value if number is None else number


def auction_calls(text: str) -> list[Call]:
    """The auction as typed: "pass, 3, 4, pass" (empty: not recorded)."""
    words = [word.strip().lower() for word in text.split(",")]
    return [call_of("-".join(word.split())) for word in words if word]


TRUMP_LABELS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}


def trump_label(trump: str) -> str:
    return TRUMP_LABELS.get(trump, "NT")


def bid_label(call: object) -> str:
    return str(call).replace("-", " ")


_MINUS = re.compile(r"(?<![\w+−-])-(?=\d)")


def true_minus(text: str) -> str:
    """A page shows one minus sign, the true one (−18), also in the engine's
    explanations, which keep ASCII "-18" for the pepper-score document."""
    return _MINUS.sub(MINUS, text)


MINUS = "\u2212"


def signed(value: float | Fraction, *, places: int = 0, plus: bool = False) -> str:
    """``value`` with ``places`` decimals, a true minus sign (U+2212, "−6")
    if it is below zero, and "+" before the others when ``plus`` (a change,
    a margin). A value that rounds to zero shows no minus ("−0.0" would say
    a loss). The one place that writes a signed number for a page, on the
    server and on the phone; the CSV files and the JSON keep ASCII "-6"."""
    text = f"{value:{'+' if plus else ''}z.{places}f}"
    return text.replace("-", MINUS)


def clock(at: str) -> str:
    """A stored time (ISO 8601, as the log keeps it) as every page writes a
    time: "Fri 27 Nov 2026, 20:00 UTC" (game times are UTC; the template
    filter ``clock`` and the phone's banner write the same shape)."""
    if not at:
        return ""
    when = datetime.fromisoformat(at)
    if when.tzinfo is not None:
        when = when.astimezone(UTC)
    return f"{when:%a} {when.day} {when:%b %Y, %H:%M} UTC"


def delta_words(deltas: tuple[int, ...]) -> list[str]:
    """A hand's points for each side: "+4", "−6"."""
    return [signed(delta, plus=True) for delta in deltas]


def totals_words(totals: Sequence[int]) -> str:
    """The totals after a hand, as a score is said aloud and as the desk
    writes it: "12 to −6" (a dash before a minus, "12 – −6", reads as one
    long dash at a glance)."""
    return " to ".join(signed(total) for total in totals)


class ScoreBox(TypedDict):
    """A side's box in the score, as the pages and the phone draw it. A
    dict, not an object: a template reads a dict's key in one step, and an
    object's attribute only after a failed key look-up (an exception; a
    few µs each, a dozen of them in every save's answer)."""

    name: str
    total: int
    shown: str  # the total, with a true minus
    progress: int  # 0..target, for a <progress> bar
    target: int  # what the <progress> bar runs up to
    leading: bool  # the winner once there is one, else the top total
    won: bool
    classes: str  # the box's whole class attribute
    label: str  # the bar's label: "Ann & Cat: −6 of 50"


def score_boxes(board: Scoreboard) -> list[ScoreBox]:
    """Each side's box in the score, in side order."""
    target = board.variant.target_score
    top = max(board.totals)
    winners = board.winners
    boxes = []
    for side, (name, total) in enumerate(
        zip(board.side_names, board.totals, strict=True)
    ):
        leading = side in winners if winners else total == top
        won = side in winners
        shown = signed(total)
        boxes.append(
            ScoreBox(
                name=name,
                total=total,
                shown=shown,
                progress=max(0, min(total, target)),
                target=target,
                leading=leading,
                won=won,
                classes="side" + " leading" * leading + " won" * won,
                label=f"{name}: {shown} of {target}",
            )
        )
    return boxes


class HandRow(TypedDict):
    """One hand of the history, as the pages and the phone tell it (a dict,
    as ``ScoreBox``, for the templates' one-step look-ups)."""

    number: int
    target: int  # the hand's event: what "Correct" and "Void" aim at
    pepper: bool  # a pepper-round hand
    dealer: str
    summary: str  # "Bob bid 3 ♠, took 4"
    totals: str  # the totals after it: "12 to −6"
    deltas: list[str]  # each side's points: "+4", "−6"
    points: str  # the same, in one line
    auction: str
    explanation: str  # why it scored what it did


def hand_row(board: Scoreboard, result: HandResult) -> HandRow:
    """The hand ``result`` of ``board``, named by ``board``'s seats."""
    deltas = delta_words(result.deltas)
    return HandRow(
        number=result.number,
        target=result.target,
        pepper=result.pepper_round,
        dealer=board.seats[result.dealer],
        summary=hand_summary(board.variant, board.seats, result.hand),
        totals=totals_words(result.totals),
        deltas=deltas,
        points=", ".join(deltas),
        auction=auction_text(board.seats, result.hand),
        explanation=true_minus(explain_hand(board, result)),
    )


def status(board: Scoreboard) -> str:
    return true_minus(explain_status(board))


def turn_line(board: Scoreboard) -> str:
    """ "Hand 7 · Cat deals · Dan bids first"."""
    turn = board.next
    if turn is None:
        return ""
    seats = board.seats
    return (
        f"Hand {turn.number} · {seats[turn.dealer]} deals · "
        f"{seats[turn.first_bidder]} bids first"
    )


def forced_line(board: Scoreboard, turn: Turn | None) -> str:
    if turn is None or not turn.pepper_round:
        return ""
    return f"Pepper round: {board.seats[turn.first_bidder]} must bid {bid_label(turn.forced_bid)}"


def hand_summary(variant: Variant, seats: tuple[str, ...], hand: Hand) -> str:
    if isinstance(hand, HandPassedOut):
        return "Passed out"
    bidder = (
        seats[hand.bidder] if 0 <= hand.bidder < len(seats) else f"seat {hand.bidder}"
    )
    text = f"{bidder} bid {bid_label(hand.bid)} {trump_label(hand.trump)}"
    if hand.tricks is None:
        free = hand.free_tricks or 0
        return f"{text}, conceded" + (f" with {free} free" if free else "")
    if variant.sides == 2:
        return f"{text}, took {hand.tricks[variant.side_of(hand.bidder)]}"
    return f"{text}, tricks {'-'.join(str(count) for count in hand.tricks)}"


def auction_text(seats: tuple[str, ...], hand: Hand) -> str:
    """ "Bob pass, Cat 3, Dan 4, Ann pass, Cat pass"."""
    if hand.auction is None:
        return ""
    return ", ".join(f"{seats[seat]} {bid_label(call)}" for seat, call in hand.auction)


@dataclass(frozen=True)
class Change:
    """A void or a correction, as the history shows it."""

    kind: Literal["voided", "corrected"]
    event: int  # the void's or correction's own log position
    by: str
    at: str  # "2026-11-27 03:06"
    reason: str


def _change(
    kind: Literal["voided", "corrected"], position: int, entry: LogEntry, reason: str
) -> Change:
    at = clock(entry.at or "")
    return Change(kind, position, entry.by or "someone", at, reason)


def corrections(log: GameLog) -> dict[int, list[Change]]:
    """The corrections of each hand event (by its log position), in order:
    read once for the whole history, not once a row."""
    changes: dict[int, list[Change]] = {}
    for position, entry in enumerate(log.entries, start=1):
        if isinstance(entry.event, HandCorrected):
            change = _change("corrected", position, entry, entry.note or "")
            changes.setdefault(entry.event.target, []).append(change)
    return changes


@dataclass(frozen=True)
class VoidedHand:
    event: int  # the hand's own log position
    summary: str
    change: Change


def voided(board: Scoreboard, log: GameLog) -> list[VoidedHand]:
    """The hands voided, with who voided them, when and why (not an end
    withdrawn: a void of the end event, when a call is undone)."""
    found = []
    for position, entry in enumerate(log.entries, start=1):
        event = entry.event
        if isinstance(event, HandVoided):
            original = log.entries[event.target - 1].event
            if not isinstance(original, HandRecorded | HandPassedOut):
                continue
            change = _change("voided", position, entry, event.reason)
            summary = hand_summary(board.variant, board.seats, original)
            found.append(VoidedHand(event.target, summary, change))
    return found


class Takeover(NamedTuple):
    """``name`` plays seat ``seat`` (0-based) from hand ``from_hand`` on (a
    league night's substitute: "Bob → Ann from hand 3")."""

    seat: int
    name: str
    from_hand: int


def names_at(
    seats: Sequence[str], changes: Sequence[Takeover], hand: int
) -> tuple[str, ...]:
    """Who plays each seat in hand ``hand``."""
    names = list(seats)
    for change in sorted(changes, key=lambda change: change.from_hand):
        if change.from_hand <= hand and 0 <= change.seat < len(names):
            names[change.seat] = change.name
    return tuple(names)


def board_at(board: Scoreboard, changes: Sequence[Takeover], hand: int) -> Scoreboard:
    """The board named by who played hand ``hand`` (the score is the seats')."""
    if not changes:
        return board
    return board._replace(seats=names_at(board.seats, changes, hand))


def board_now(board: Scoreboard, changes: Sequence[Takeover]) -> Scoreboard:
    """The board named by who plays the next hand."""
    return board_at(board, changes, len(board.rows) + 1)
