"""The table's recap of a game (and of a series): what each player did,
the biggest swing, the hand that decided it, and a few light awards.

Everything here is read off the engine's replay (a ``Scoreboard``: its
hands, what each scored, who won and by which rule) or off the game rows'
seat numbers (``seatstats``, kept by the read model), never scored again:
whether a bid was made is ``seatstats.made``, a top bid is the variant's
own ladder's top rung, a pepper-round hand is the engine's flag.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from scorekeeper.rules.engine import HandResult, Scoreboard
from scorekeeper.rules.events import HandRecorded
from scorekeeper.rules.variants import Variant
from scorekeeper.seatstats import SeatStats, made, seat_stats

# The engine's ways of winning at the table, where the last hand decided
# it; "ended" (an end event) is the other (``_Board.decided``).
ENDED = "ended"


class AwardKind(StrEnum):
    """A light award, each given by one plain rule (``recap_awards``)."""

    MOON_SHOOTER = "moon-shooter"  # made a top bid (a moon, big pepper...)
    SURE_HAND = "sure-hand"  # the most bids made (at least one)
    BRICK_WALL = "brick-wall"  # set the bidders the most times on defence
    PEPPER_PROOF = "pepper-proof"  # made every pepper-round bid they had


@dataclass(frozen=True, slots=True)
class Award:
    kind: AwardKind
    seats: tuple[int, ...]  # who earned it (a tie: each of them)


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One seat's game (or series): bids, made and set; top bids made;
    pepper-round bids and made; bidders set while defending."""

    seat: int
    bids: int
    made: int
    top_bids: int
    top_made: int
    pepper_bids: int
    pepper_made: int
    sets: int

    @property
    def set(self) -> int:
        return self.bids - self.made


@dataclass(frozen=True, slots=True)
class GameRecap:
    players: tuple[PlayerLine, ...]
    swing: HandResult | None  # the hand whose sides' points lay furthest apart
    deciding: HandResult | None  # the hand that decided the game
    awards: tuple[Award, ...]


def top_calls(variant: Variant) -> frozenset[str]:
    """The ladder's top bids (moon, double moon; big pepper...), as a
    seat's numbers key its bids."""
    return frozenset(
        str(call) for call, kind in variant.rungs if kind in ("top", "double-top")
    )


def game_recap(board: Scoreboard) -> GameRecap:
    """The recap of a replayed game (finished or not)."""
    variant = board.variant
    stats = seat_stats(board)
    pepper = [[0, 0] for _ in range(variant.seats)]
    for result in board.hands:
        hand = result.hand
        if result.pepper_round and isinstance(hand, HandRecorded):
            pepper[hand.bidder][0] += 1
            pepper[hand.bidder][1] += int(made(variant, hand))
    players = player_lines(variant, stats, pepper)
    return GameRecap(
        players, _swing(board), deciding_hand(board), recap_awards(players)
    )


def player_lines(
    variant: Variant,
    stats: Sequence[SeatStats],
    pepper: Sequence[Sequence[int]] | None = None,
) -> tuple[PlayerLine, ...]:
    """Each seat's line from its numbers (``pepper``: its pepper-round
    bids and made, when counted)."""
    tops = top_calls(variant)
    lines = []
    for seat, numbers in enumerate(stats):
        bids = numbers["bids"]
        pepper_bids, pepper_made = pepper[seat] if pepper else (0, 0)
        lines.append(
            PlayerLine(
                seat,
                sum(count for count, _ in bids.values()),
                sum(won for _, won in bids.values()),
                sum(bids[call][0] for call in tops if call in bids),
                sum(bids[call][1] for call in tops if call in bids),
                pepper_bids,
                pepper_made,
                numbers["sets"],
            )
        )
    return tuple(lines)


def added(games: Sequence[Sequence[PlayerLine]]) -> tuple[PlayerLine, ...]:
    """The seats' lines of several games with the same seats, summed."""
    return tuple(
        PlayerLine(
            lines[0].seat,
            *(sum(getattr(line, name) for line in lines) for name in _COUNTED),
        )
        for lines in zip(*games, strict=True)
    )


_COUNTED = (
    "bids",
    "made",
    "top_bids",
    "top_made",
    "pepper_bids",
    "pepper_made",
    "sets",
)


def _swing(board: Scoreboard) -> HandResult | None:
    """The hand with the widest gap between the best and the worst side's
    points (the first of equals); none if no hand scored."""
    best: HandResult | None = None
    for result in board.hands:
        gap = max(result.deltas) - min(result.deltas)
        if gap and (best is None or gap > max(best.deltas) - min(best.deltas)):
            best = result
    return best


def deciding_hand(board: Scoreboard) -> HandResult | None:
    """The hand that decided a finished game: the last one, when a hand
    won it at the table; when the game was ended as it stood, the hand
    after which the winners led for good (hand 1, if they led from the
    start). None while the game goes on, or when no hand was played."""
    hands = board.hands
    if not board.winners or not hands:
        return None
    if board.decided != ENDED:
        return hands[-1]
    deciding = None
    for result in hands:
        if not _leading(board.winners, result.totals):
            deciding = None
        elif deciding is None:
            deciding = result
    return deciding


def _leading(winners: Sequence[int], totals: Sequence[int]) -> bool:
    top = max(totals)
    return all(totals[side] == top for side in winners)


type _Rule = Callable[[PlayerLine], bool]
type _Count = Callable[[PlayerLine], int]


def recap_awards(players: Sequence[PlayerLine]) -> tuple[Award, ...]:
    """The awards the lines earn, each by its rule; an award nobody earned
    is left out."""
    awards = [
        Award(AwardKind.MOON_SHOOTER, _seats(players, lambda p: p.top_made > 0)),
        Award(AwardKind.SURE_HAND, _most(players, lambda p: p.made)),
        Award(AwardKind.BRICK_WALL, _most(players, lambda p: p.sets)),
        Award(
            AwardKind.PEPPER_PROOF,
            _seats(players, lambda p: 0 < p.pepper_bids == p.pepper_made),
        ),
    ]
    return tuple(award for award in awards if award.seats)


def _seats(players: Sequence[PlayerLine], earns: _Rule) -> tuple[int, ...]:
    return tuple(p.seat for p in players if earns(p))


def _most(players: Sequence[PlayerLine], count: _Count) -> tuple[int, ...]:
    top = max((count(p) for p in players), default=0)
    return () if top == 0 else tuple(p.seat for p in players if count(p) == top)
