"""The engine: fold a game's events into a scoreboard (contract §1-§3).

The effective game is the hand events in log order, corrected, without the
voided ones. A new hand is checked and scored against the game so far; a
void or a correction replays the effective game from the start, so a change
that makes a later hand illegal is reported as that later hand's error.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, overload

from .errors import VariantError, Violation
from .events import (
    Event,
    GameEnded,
    Hand,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from .referee import Turn, turn_of, verify_hand
from .variants import DEFAULT_TIE_PEPPER_ROUND, Variant

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


# What replay keeps of each hand: (log position, hand, deltas, totals,
# pepper round?). Number, dealer and first bidder follow from the position
# in the list, and are filled in when a hand is read.
Row = tuple[int, Hand, tuple[int, ...], tuple[int, ...], bool]


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


class Scoreboard(NamedTuple):
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

    @property
    def finished(self) -> bool:
        return bool(self.winners)

    @property
    def status(self) -> str:
        return "finished" if self.winners else "in-progress"

    @property
    def side_names(self) -> tuple[str, ...]:
        return side_names(self.variant, self.seats)


def next_turn(
    variant: Variant, first_dealer: int, played: int, pepper_round_until: int
) -> Turn:
    """The turn of the hand after ``played`` effective hands."""
    number = played + 1
    return turn_of(variant, first_dealer, number, number <= pepper_round_until)


@dataclass(frozen=True, slots=True)
class Snapshot:
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

    @property
    def finished(self) -> bool:
        return bool(self.winners)

    @property
    def status(self) -> str:
        return "finished" if self.winners else "in-progress"

    @property
    def side_names(self) -> tuple[str, ...]:
        return side_names(self.variant, self.seats)


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


def fold_event(state: Snapshot, event: Event) -> Snapshot | None:
    """Fold one more event into ``state``: the state after it, or the
    ``Violation`` that refuses it (at its log position), in time that does
    not grow with the game. A void or a correction answers None: only a
    replay from the start can fold it (it may make a later hand illegal).
    ``replay`` folds hands and ends by the same steps, in bulk."""
    position = state.seq + 1
    if isinstance(event, HandVoided | HandCorrected):
        return None
    if state.ended:
        raise _after_end(state.ended, position)
    fold = _Fold(state.variant, state.seats, state.first_dealer)
    fold.resume(state)
    if isinstance(event, GameEnded):
        fold.end(position, event)
        return fold.snapshot(position, position, None)
    fold.play(iter(((position, event),)))
    (_, hand, deltas, totals, pepper) = fold.results[-1]
    turn = next_turn(state.variant, state.first_dealer, state.played, 0)
    hand_set = HandResult(
        state.played + 1,
        position,
        turn.dealer,
        turn.first_bidder,
        pepper,
        hand,
        deltas,
        totals,
        position,
    )
    return fold.snapshot(position, 0, hand_set)


def side_names(variant: Variant, seats: Sequence[str]) -> tuple[str, ...]:
    """ "Ann & Cat" for a team, the player's name when each plays alone."""
    names = []
    for side in range(variant.sides):
        members = list(seats[side :: variant.sides])
        names.append(
            members[0]
            if len(members) == 1
            else ", ".join(members[:-1]) + " & " + members[-1]
        )
    return tuple(names)


class _Fold:
    """The game so far: totals, results and who, if anyone, has won."""

    __slots__ = (
        "variant",
        "names",
        "first_dealer",
        "before",
        "totals",
        "results",
        "winners",
        "tied",
        "pepper_until",
        "decided",
        "end_reason",
    )

    def __init__(
        self, variant: Variant, names: tuple[str, ...], first_dealer: int
    ) -> None:
        self.variant = variant
        self.names = names
        self.first_dealer = first_dealer
        self.before = 0  # effective hands folded before ``results`` (a snapshot's)
        self.totals = [0] * variant.sides
        self.results: list[Row] = []
        self.winners: tuple[int, ...] = ()
        self.tied: tuple[int, ...] = ()
        self.pepper_until = variant.pepper_round_hands
        self.decided = ""
        self.end_reason = ""

    def resume(self, state: Snapshot) -> None:
        """Go on from a snapshot's state instead of the start."""
        self.before = state.played
        self.totals = list(state.totals)
        self.winners, self.tied = state.winners, state.tied
        self.pepper_until = state.pepper_round_until
        self.decided, self.end_reason = state.decided, state.end_reason

    def snapshot(self, seq: int, ended: int, hand_set: HandResult | None) -> Snapshot:
        return Snapshot(
            self.variant,
            self.names,
            self.first_dealer,
            seq,
            self.before + len(self.results),
            tuple(self.totals),
            self.winners,
            self.tied,
            self.pepper_until,
            self.decided,
            self.end_reason,
            ended,
            hand_set,
        )

    def turn(self) -> Turn:
        played = self.before + len(self.results)
        return next_turn(self.variant, self.first_dealer, played, self.pepper_until)

    def play(self, stream: Iterator[tuple[int, Any]]) -> tuple[int, Event] | None:
        """Check and score each (log position, hand) of ``stream`` in turn;
        stop at a void or correction and return it (None at the end).

        A plain played hand outside a pepper round is accepted by a few
        cheap checks; anything else, and anything those checks doubt, goes
        to the referee, which alone words every refusal. (``Any``: the
        ``type() is`` checks below decide each event's kind at run time, and
        cost less than the ``isinstance`` calls mypy would need.)
        """
        totals, results = self.totals, self.results
        seats, sides, target, outcomes, forced, nobody_scores, by_side, trumps = (
            self.variant.engine_constants
        )
        pepper_until, over = self.pepper_until, bool(self.winners)
        number, first_dealer = self.before + len(results), self.first_dealer
        two_sides = sides == 2
        variant = self.variant
        checks_every_hand = (
            variant.must_bid_to_win
            or variant.mercy is not None
            or variant.hand_limit > 0
        )
        for position, hand in stream:
            kind = type(hand)
            if kind is not HandRecorded and kind is not HandPassedOut:
                return position, hand  # a void or a correction
            number += 1
            pepper = number <= pepper_until
            deltas = None
            if over or hand.auction is not None:
                pass  # the referee words every refusal and checks auctions
            elif kind is HandPassedOut:
                deltas = None if pepper else nobody_scores
            elif not pepper or (
                hand.bid == forced and hand.bidder == (first_dealer + number) % seats
            ):
                tricks = hand.tricks
                if tricks is not None:
                    if hand.trump in trumps:
                        deltas = outcomes.get((hand.bid, hand.bidder, tricks))
                else:
                    key = (hand.bid, hand.bidder, hand.free_tricks, hand.trump)
                    deltas = outcomes.get(key)
            if deltas is None:
                deltas = self._referee(position, hand)
            if two_sides:  # every team game and two-player classic
                first, second = totals[0] + deltas[0], totals[1] + deltas[1]
                totals[0], totals[1] = first, second
                reached = first >= target or second >= target
            else:
                reached = False
                for side in by_side:
                    total = totals[side] + deltas[side]
                    totals[side] = total
                    if total >= target:
                        reached = True
            results.append((position, hand, deltas, tuple(totals), pepper))
            if reached or checks_every_hand:
                self._after_hand(number, hand, reached)
                pepper_until, over = self.pepper_until, bool(self.winners)
        return None

    def _after_hand(self, number: int, hand: Hand, reached: bool) -> None:
        """Has the game been won? The target (or must_bid_to_win), then
        mercy, then hand_limit: the first that ends it names the winners
        (contract §5)."""
        variant = self.variant
        bidder = hand.bidder % variant.sides if type(hand) is HandRecorded else None
        if variant.must_bid_to_win:
            self._bidders_made_it(hand, bidder)
        elif reached:
            self._settle(number, bidder)
        totals = self.totals
        mercy = variant.mercy
        if not self.winners and mercy is not None and min(totals) <= mercy:
            self._highest_win("mercy")
        if not self.winners and variant.hand_limit and number >= variant.hand_limit:
            self._at_the_hand_limit(number)

    def _bidders_made_it(self, hand: Hand, bidder: int | None) -> None:
        """must_bid_to_win: the bidders win once they made their bid (or it
        was conceded to them) and stand at or above the target."""
        if bidder is None or self.totals[bidder] < self.variant.target_score:
            return
        assert type(hand) is HandRecorded
        rule = self.variant.bid_rule(hand.bid)
        assert rule is not None
        tricks = hand.tricks
        if tricks is None or tricks[bidder] >= rule.tricks_needed:
            self.winners, self.tied, self.decided = (bidder,), (), "must-bid"

    def _highest_win(self, decided: str) -> None:
        top = max(self.totals)
        self.winners = tuple(s for s, total in enumerate(self.totals) if total == top)
        self.tied, self.decided = (), decided

    def _at_the_hand_limit(self, number: int) -> None:
        """After the hand limit: the highest total alone wins; a tie at the
        top follows exact_tie (contract §5)."""
        top = max(self.totals)
        leaders = tuple(s for s, total in enumerate(self.totals) if total == top)
        if len(leaders) == 1 or self.variant.exact_tie == "co-winners":
            self.winners, self.tied, self.decided = leaders, (), "hand-limit"
            return
        self.tied = leaders
        if self.variant.exact_tie == "pepper-round":
            length = self.variant.pepper_round_hands or DEFAULT_TIE_PEPPER_ROUND
            self.pepper_until = number + length

    def end(self, position: int, event: GameEnded) -> None:
        """An end event: the game ends as it stands (contract §6)."""
        if self.winners:
            names = side_names(self.variant, self.names)
            won = " and ".join(names[side] for side in self.winners)
            raise Violation(
                f"the game is already over: {won} won, so it cannot be ended",
                rule="contract §6",
                remedy="leave the end event out",
                event=position,
            )
        self._highest_win("ended")
        self.end_reason = event.reason

    def _referee(self, position: int, hand: Hand) -> tuple[int, ...]:
        """The referee's verdict on a hand the quick look-up did not settle:
        its score, or a ``Violation`` at ``position``."""
        turn = self.turn()
        try:
            if self.winners:
                raise self._game_over(turn.number)
            rule = verify_hand(self.variant, turn, hand, self.names)
        except Violation as violation:
            raise violation.at_event(position) from None
        if rule is None:
            return (0,) * self.variant.sides
        assert isinstance(hand, HandRecorded)
        return self.variant.score_hand(rule, hand)

    def _settle(self, number: int, bidder_side: int | None) -> None:
        """Who has won, if anyone, once a side is at or above the target
        (contract §2: both reach it, exact ties)."""
        variant, totals = self.variant, self.totals
        target = variant.target_score
        reached = [side for side, total in enumerate(totals) if total >= target]
        # both_reach is about sides that reach the target in this hand: after
        # a tie at the target, the sides already past it are play-on's (§5).
        deltas = self.results[-1][2]
        crossed = [side for side in reached if totals[side] - deltas[side] < target]
        self.tied = ()
        if (
            bidder_side in crossed
            and len(crossed) > 1
            and variant.both_reach == "bidder"
        ):
            self.winners = (crossed[crossed.index(bidder_side)],)
            self.decided = "bidder"
            return
        top = max(totals)
        leaders = tuple(side for side in reached if totals[side] == top)
        if len(leaders) == 1 or variant.exact_tie == "co-winners":
            self.winners = leaders
            if len(leaders) > 1:
                self.decided = "co-winners"
            else:
                self.decided = "higher" if len(reached) > 1 else "target"
            return
        self.tied = leaders
        if variant.exact_tie == "pepper-round":
            length = variant.pepper_round_hands or DEFAULT_TIE_PEPPER_ROUND
            self.pepper_until = number + length

    def _game_over(self, number: int) -> Violation:
        names = side_names(self.variant, self.names)
        won = " and ".join(names[side] for side in self.winners)
        return Violation(
            f"the game is over: {won} won after hand {number - 1}, so there is "
            "no hand after it",
            rule=self.variant.cite("target"),
            remedy="void or correct the winning hand first, or start a new game",
        )

    def scoreboard(self, targets: tuple[int, ...] = (), ended: int = 0) -> Scoreboard:
        # tuple.__new__ skips NamedTuple's argument handling (replay builds
        # one scoreboard per game, and a league replays thousands of games);
        # it must list every field: test_a_scoreboard_has_every_field.
        return tuple.__new__(
            Scoreboard,
            (
                self.variant,
                self.names,
                self.first_dealer,
                tuple(self.results),
                tuple(self.totals),
                self.winners,
                self.tied,
                self.pepper_until,
                targets,
                self.decided,
                self.end_reason,
                ended,
            ),
        )


def replay(
    variant: Variant, seats: Sequence[str], first_dealer: int, events: Sequence[Event]
) -> Scoreboard:
    """Fold ``events`` into the scoreboard, or raise the first ``Violation``
    (its ``event`` is the 1-based position of the offending event).

    After an end event only voids and corrections may follow (an organizer
    fixing a called game, contract §6): each is folded in as anywhere else,
    and the game ends again, as it then stands, where it was ended."""
    names = tuple(seats)
    if len(names) != variant.seats:
        raise VariantError(
            f"{variant.preset} here is set for {variant.seats} players, "
            f"not {len(names)}"
        )
    if not 0 <= first_dealer < variant.seats:
        last = variant.seats - 1
        raise VariantError(f"the first dealer must be a seat from 0 to {last}")
    fold = _Fold(variant, names, first_dealer)
    stream = enumerate(events, start=1)
    # Each hand event not voided, by log position: (the position of the event
    # that set it, the hand in force). Kept only once a void or a correction
    # appears: until then every hand event is in force as it was recorded.
    hands: dict[int, tuple[int, Hand]] = {}
    unfiled = 1  # the first position not yet filed in ``hands``
    ended: tuple[int, GameEnded] | None = None  # the end event, once met
    while (
        change := fold.play(stream) if ended is None else next(stream, None)
    ) is not None:
        position, event = change
        if ended is not None and not isinstance(event, HandVoided | HandCorrected):
            raise _after_end(ended[0], position)
        if isinstance(event, GameEnded):
            fold.end(position, event)
            ended = (position, event)
            continue
        assert isinstance(event, HandVoided | HandCorrected)
        for earlier in range(unfiled, position):
            if ended is None or earlier != ended[0]:
                hands[earlier] = (earlier, events[earlier - 1])  # type: ignore[assignment]
        unfiled = position + 1
        _check_target(events, hands, position, event.target)
        if isinstance(event, HandVoided):
            del hands[event.target]
        else:
            hands[event.target] = (position, event.hand)
        fold = _Fold(variant, names, first_dealer)
        _refold(fold, hands, ended, position)
    return fold.scoreboard(tuple(hands), 0 if ended is None else ended[0])


def _refold(
    fold: _Fold,
    hands: dict[int, tuple[int, Hand]],
    ended: tuple[int, GameEnded] | None,
    position: int,
) -> None:
    """Replay the hands in force after the change at ``position``; a game
    that had been ended ends there again, unless the change makes it won
    before its end (then the change is refused, contract §6)."""
    try:
        fold.play(iter(hands.values()))
    except Violation:
        # Once won, every later hand is refused: the game was won before
        # its end, which is the change's fault, not that later hand's.
        if ended is not None and fold.winners:
            raise _won_before_end(fold, ended[0], position) from None
        raise
    if ended is not None:
        if fold.winners:
            raise _won_before_end(fold, ended[0], position)
        fold.end(*ended)


def _after_end(end: int, position: int) -> Violation:
    return Violation(
        f"the game was ended at event {end}: only a void or a correction of "
        "an earlier hand can follow it",
        rule="contract §6",
        remedy="leave this event out, or void or correct the hand it meant to change",
        event=position,
    )


def _won_before_end(fold: _Fold, end: int, position: int) -> Violation:
    names = side_names(fold.variant, fold.names)
    won = " and ".join(names[side] for side in fold.winners)
    return Violation(
        f"this change makes {won} win after hand {len(fold.results)}, before the "
        f"game was ended at event {end}: a game that was won cannot be ended",
        rule="contract §6",
        remedy="change the hand so that nobody has won before the end, "
        "or start a new game",
        event=position,
    )


def _check_target(
    events: Sequence[Event],
    hands: dict[int, tuple[int, Hand]],
    position: int,
    target: int,
) -> None:
    """A void or correction must name an earlier hand event not voided."""
    if target in hands:
        return
    if not 1 <= target < position:
        message = f"the target must be an earlier event, from 1 to {position - 1}"
    elif type(events[target - 1]) in (HandRecorded, HandPassedOut):
        message = f"hand event {target} was voided: it cannot be changed again"
    else:
        message = f"event {target} is not a hand: only hands can be voided or corrected"
    remedy = "name the log position of a hand still in force"
    raise Violation(message, rule="contract §1", remedy=remedy, event=position)
