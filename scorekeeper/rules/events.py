"""What can happen to a game, as frozen past-tense facts (contract §1).

The log is a list of these; nothing is ever edited: a mistake is fixed by a
later ``HandVoided`` or ``HandCorrected``. Ids, times and authors belong to
the log entry that carries an event, not to the event.
"""

from __future__ import annotations

from dataclasses import dataclass

Call = int | str  # a bid: a number of tricks or a named bid such as "moon"
AuctionCall = tuple[int, Call]  # (seat, "pass" or a bid)
PASS = "pass"


@dataclass(frozen=True, slots=True)
class HandRecorded:
    """A hand that was bid: played out (``tricks``) or conceded.

    ``tricks`` has one count per side, in side order; a conceded hand has
    ``free_tricks`` instead: the tricks the defenders were granted.
    """

    bidder: int
    bid: Call
    trump: str
    tricks: tuple[int, ...] | None = None
    free_tricks: int | None = None
    auction: tuple[AuctionCall, ...] | None = None

    def __post_init__(self) -> None:
        # True == 1 in Python: a JSON true must never pass for seat or bid 1.
        if type(self.bidder) is bool or type(self.bid) is bool:
            raise TypeError("a bidder or bid cannot be true or false")


@dataclass(frozen=True, slots=True)
class HandPassedOut:
    """Nobody bid: the hand was thrown in and the deal passes."""

    auction: tuple[AuctionCall, ...] | None = None


Hand = HandRecorded | HandPassedOut


@dataclass(frozen=True, slots=True)
class HandVoided:
    """The hand event at log position ``target`` (1-based) never happened."""

    target: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class HandCorrected:
    """The hand event at log position ``target`` is replaced by ``hand``."""

    target: int
    hand: Hand


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game was ended as it stood (a league round called by the clock):
    the highest total wins, all tied at the top win (contract §6)."""

    reason: str = ""


Event = HandRecorded | HandPassedOut | HandVoided | HandCorrected | GameEnded
