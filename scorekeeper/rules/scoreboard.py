"""What the engine answers (contract §1-§3): a ``Scoreboard`` (the game's
effective hands, each a ``HandResult``, its totals and winners) after a
replay, and a ``Snapshot`` (the state one more event needs, without the
hands) after folding one event. Both are plain values: fold.py and
engine.py build them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple, overload

from .events import Hand, HandPassedOut
from .referee import Turn, turn_of
from .variants import Variant

# What a stored ``Snapshot`` was folded by: raise it whenever a change to the
# engine could fold the same events into a different state, so that every
# snapshot kept from before is replayed instead of trusted.
ENGINE_VERSION = 1


class HandResult(NamedTuple):
    """One effective hand: where it sits, what was recorded, what it scored."""

    number: int
    event: int  # 1-based log position of the event that last set this hand
    dealer: int
    first_bidder: int
    pepper_round: bool
    hand: Hand
    deltas: tuple[int, ...]
    totals: tuple[int, ...]
    target: int  # the hand event's own log position: what a void or correction names

    @property
    def outcome(self) -> str:
        if isinstance(self.hand, HandPassedOut):
            return "passed-out"
        return "conceded" if self.hand.tricks is None else "played"


class Row(NamedTuple):
    """What replay keeps of each effective hand. Number, dealer and first
    bidder follow from the row's place in the list, and are filled in when
    a hand is read (``HandResult``)."""

    event: int  # 1-based log position of the event that last set this hand
    hand: Hand
    deltas: tuple[int, ...]
    totals: tuple[int, ...]
    pepper_round: bool


class Standing:
    """What a ``Scoreboard`` and a ``Snapshot`` both tell of where a game
    stands: whether it is over, and the sides' names."""

    __slots__ = ()
    # What each of them holds, read-only.
    variant: Variant
    seats: tuple[str, ...]
    winners: tuple[int, ...]

    @property
    def finished(self) -> bool:
        return bool(self.winners)

    @property
    def status(self) -> str:
        return "finished" if self.winners else "in-progress"

    @property
    def side_names(self) -> tuple[str, ...]:
        return side_names(self.variant, self.seats)


class Hands(Sequence[HandResult]):
    """A scoreboard's effective hands, read-only. Each ``HandResult`` is
    built as it is read, so a replay that needs only the totals (checking
    an append, standings) never pays for them."""

    __slots__ = ("_rows", "_first_dealer", "_seats", "_targets")

    def __init__(
        self,
        rows: tuple[Row, ...],
        first_dealer: int,
        seats: int,
        targets: tuple[int, ...],
    ) -> None:
        self._rows, self._first_dealer, self._seats = rows, first_dealer, seats
        self._targets = targets

    def __len__(self) -> int:
        return len(self._rows)

    def _result(self, index: int) -> HandResult:
        position, hand, deltas, totals, pepper = self._rows[index]
        dealer = (self._first_dealer + index) % self._seats
        first_bidder = (dealer + 1) % self._seats
        # Hands in force at the last void or correction have their own
        # positions in ``targets``; a hand recorded since is its own event.
        target = self._targets[index] if index < len(self._targets) else position
        return HandResult(
            index + 1,
            position,
            dealer,
            first_bidder,
            pepper,
            hand,
            deltas,
            totals,
            target,
        )

    @overload
    def __getitem__(self, index: int) -> HandResult: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[HandResult, ...]: ...
    def __getitem__(self, index: int | slice) -> HandResult | tuple[HandResult, ...]:
        if isinstance(index, slice):
            return tuple(map(self._result, range(len(self._rows))[index]))
        return self._result(range(len(self._rows))[index])

    def __iter__(self) -> Iterator[HandResult]:
        return map(self._result, range(len(self._rows)))


class _Board(NamedTuple):
    """A ``Scoreboard``'s fields (a NamedTuple takes no other base)."""

    variant: Variant
    seats: tuple[str, ...]
    first_dealer: int
    rows: tuple[Row, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    tied: tuple[int, ...]  # sides level at the top at or above the target
    pepper_round_until: int  # the last hand of the current pepper round, if any
    # The hand events in force at the last void or correction, in order.
    targets: tuple[int, ...] = ()
    # Which rule named the winners: "target" (one side reached it),
    # "higher" or "bidder" (several reached it in one hand: contract §2's
    # both_reach), "co-winners" (an exact tie at the top), "must-bid" (the
    # bidders made it to the target), "mercy", "hand-limit" (contract §5),
    # "ended" (an end event, §6); "" while playing.
    decided: str = ""
    end_reason: str = ""  # the end event's reason, when the game was ended
    ended: int = 0  # the end event's log position, 0 while not ended

    @property
    def hands(self) -> Hands:
        return Hands(self.rows, self.first_dealer, self.variant.seats, self.targets)

    @property
    def next(self) -> Turn | None:
        """What the next hand needs: dealer, first bidder, forced bid."""
        if self.winners:
            return None
        return next_turn(
            self.variant, self.first_dealer, len(self.rows), self.pepper_round_until
        )


class Scoreboard(_Board, Standing):
    __slots__ = ()


def next_turn(
    variant: Variant, first_dealer: int, played: int, pepper_round_until: int
) -> Turn:
    """The turn of the hand after ``played`` effective hands."""
    number = played + 1
    return turn_of(variant, first_dealer, number, number <= pepper_round_until)


@dataclass(frozen=True, slots=True)
class Snapshot(Standing):
    """The engine's state after event ``seq``: all that refereeing and
    scoring one more hand or an end needs, without the hands before it
    (``fold_event``). ``hand_set`` is the hand event ``seq`` set, when the
    snapshot was just folded; it is not part of the state."""

    variant: Variant
    seats: tuple[str, ...]
    first_dealer: int
    seq: int  # the events folded
    played: int  # the effective hands among them
    totals: tuple[int, ...]
    winners: tuple[int, ...] = ()
    tied: tuple[int, ...] = ()
    pepper_round_until: int = 0
    decided: str = ""
    end_reason: str = ""
    ended: int = 0
    hand_set: HandResult | None = field(default=None, compare=False)

    @property
    def next(self) -> Turn | None:
        if self.winners:
            return None
        return next_turn(
            self.variant, self.first_dealer, self.played, self.pepper_round_until
        )


def snapshot_of(board: Scoreboard, seq: int) -> Snapshot:
    """A replayed game's state after its event ``seq`` (the last)."""
    hand_set = next((hand for hand in board.hands if hand.event == seq), None)
    return Snapshot(
        board.variant,
        board.seats,
        board.first_dealer,
        seq,
        len(board.rows),
        board.totals,
        board.winners,
        board.tied,
        board.pepper_round_until,
        board.decided,
        board.end_reason,
        board.ended,
        hand_set,
    )


def side_names(variant: Variant, seats: Sequence[str]) -> tuple[str, ...]:
    """ "Ann & Cat" for a team, the player's name when each plays alone."""
    return _side_names(variant.sides, tuple(seats))


@lru_cache(maxsize=4096)
def _side_names(sides: int, seats: tuple[str, ...]) -> tuple[str, ...]:
    """Kept per table: a page or a save asks for the same names a few
    times (the score's boxes, whose turn it is, the chart), ~2 µs each."""
    names = []
    for side in range(sides):
        members = list(seats[side::sides])
        names.append(
            members[0]
            if len(members) == 1
            else ", ".join(members[:-1]) + " & " + members[-1]
        )
    return tuple(names)
