"""The record form, as the server's page and the phone's offline page
(under Pyodide) both draw and read it: its options, the referee's legal
choices for a hand (``rules.choices``) each with the label a table reads
and whether it is the one entered; and the hand its fields describe, or
what is missing, in the same words on both.

Pure: the standard library, the rules and the table's words only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scorekeeper.rules.choices import Choices, legal_choices
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.events import HandRecorded
from scorekeeper.rules.referee import Turn
from scorekeeper.rules.variants import Variant
from scorekeeper.tablewords import MISSING, bid_label, call_of, trump_label

OUTCOME_LABELS = {"played": "Played", "conceded": "Conceded (thrown in)"}


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    checked: bool
    max_free: str = ""  # a bid's: the most free tricks, "none" if not concedable
    must_play: bool = False  # a trump's: a hand with it is played out

    @property
    def name(self) -> str:
        """The spoken name: "hearts" for ♥, "no trump" for NT."""
        return self.value.replace("-", " ")


@dataclass(frozen=True)
class FormOptions:
    """What the record form offers for one hand, in the table's words."""

    bidders: list[Option]
    bids: list[Option]
    trumps: list[Option]
    outcomes: list[Option]  # played or conceded; empty: always played
    taken: list[Option]  # the bidding side's tricks
    free: list[Option]  # free tricks granted on a concession
    players: list[tuple[str, str, list[Option]]]  # (field, name, tricks)
    per_player: bool  # each plays alone: tricks per player
    forced: bool  # the bidder and the bid are the rules', not entered
    can_pass: bool  # the hand may be passed out
    has_auction: bool  # the auction may be entered
    auction_example: str


def _options(
    values: Mapping[str, object],
    name: str,
    pairs: Iterable[tuple[str, str]],
    forced: bool = False,
) -> list[Option]:
    """One option per (value, label); the entered one checked, or every one
    when the rules leave no other (the pepper round's bidder and bid)."""
    current = str(values.get(name, ""))
    return [Option(value, label, forced or value == current) for value, label in pairs]


def _counts(values: Mapping[str, object], name: str, most: int) -> list[Option]:
    return _options(values, name, [(str(n), str(n)) for n in range(most + 1)])


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
) -> FormOptions:
    """The options the record form shows for hand ``turn``: the referee's
    legal choices, with what ``values`` entered checked."""
    choices = legal_choices(board.variant, turn)
    forced, seats, tricks = choices.forced, board.seats, choices.tricks_per_hand
    return FormOptions(
        bidders=_options(
            values, "bidder", [(str(s), seats[s]) for s in choices.bidders], forced
        ),
        bids=_bids(choices, str(values.get("bid", ""))),
        trumps=_trumps(choices, str(values.get("trump", ""))),
        outcomes=_options(
            values,
            "outcome",
            [(o, OUTCOME_LABELS[o]) for o in choices.outcomes if o in OUTCOME_LABELS],
        )
        if "conceded" in choices.outcomes
        else [],
        taken=_counts(values, "taken", tricks),
        free=_counts(values, "free_tricks", choices.most_free_tricks),
        players=[
            (f"tricks_{seat}", name, _counts(values, f"tricks_{seat}", tricks))
            for seat, name in enumerate(seats)
        ],
        per_player=choices.sides > 2,
        forced=forced,
        can_pass="passed-out" in choices.outcomes,
        has_auction=choices.may_auction,
        auction_example=auction_example(board.variant),
    )


def _bids(choices: Choices, entered: str) -> list[Option]:
    """Each bid, with the most free tricks it lets the defenders be granted."""
    return [
        Option(
            str(rung.call),
            bid_label(rung.call),
            choices.forced or str(rung.call) == entered,
            "none" if rung.max_free_tricks is None else str(rung.max_free_tricks),
        )
        for rung in choices.bids
    ]


def _trumps(choices: Choices, entered: str) -> list[Option]:
    """Each trump, marked where a hand with it must be played out."""
    return [
        Option(
            trump,
            trump_label(trump),
            trump == entered,
            must_play=trump in choices.must_play,
        )
        for trump in choices.trumps
    ]


# What the form says is missing, and the field it is said at (None: the
# form as a whole).
Missing = list[tuple[str | None, str]]


def entered_hand(
    variant: Variant, entered: Mapping[str, object]
) -> tuple[HandRecorded | None, Missing]:
    """The bid hand the record form's fields describe (its numbers already
    read: None where blank), or what is missing. Each player's tricks but
    one given, the last is what is left (a wrong sum is the engine's to
    refuse, as every rule is)."""
    missing: Missing = [
        (None, MISSING[name])
        for name in ("bidder", "bid", "trump")
        if entered.get(name) in (None, "")
    ]
    tricks: tuple[int, ...] | None = None
    free = entered.get("free_tricks")
    if entered.get("outcome") == "conceded":
        if free is None:
            missing.append(("free_tricks", MISSING["free_tricks"]))
    elif variant.sides > 2:
        counts = _each_players(variant, entered)
        if counts is None:
            missing.append((None, MISSING["tricks"]))
        tricks = counts
    elif entered.get("taken") is None:
        missing.append(("taken", MISSING["taken"]))
    if missing:
        return None, missing
    bidder, bid, trump = (
        entered["bidder"],
        call_of(str(entered["bid"])),
        entered["trump"],
    )
    assert isinstance(bidder, int) and isinstance(trump, str)
    if entered.get("outcome") == "conceded":
        assert isinstance(free, int)
        return HandRecorded(bidder, bid, trump, None, free), []
    if tricks is None:
        tricks = _sides(variant, bidder, entered)
    return HandRecorded(bidder, bid, trump, tricks), []


def _each_players(
    variant: Variant, entered: Mapping[str, object]
) -> tuple[int, ...] | None:
    """Each player's tricks, the one left blank filled in with what is left."""
    counts = [entered.get(f"tricks_{seat}") for seat in range(variant.seats)]
    given = [count for count in counts if isinstance(count, int)]
    left = variant.tricks_per_hand - sum(given)
    if len(given) == variant.seats - 1 and left >= 0:
        counts = [count if isinstance(count, int) else left for count in counts]
    if not all(isinstance(count, int) for count in counts):
        return None
    return tuple(count for count in counts if isinstance(count, int))


def _sides(
    variant: Variant, bidder: int, entered: Mapping[str, object]
) -> tuple[int, ...]:
    """The two sides' tricks, from those the bidding side took."""
    taken = entered["taken"]
    assert isinstance(taken, int)
    tricks = [variant.tricks_per_hand - taken] * 2
    tricks[variant.side_of(bidder)] = taken
    return tuple(tricks)
