"""The fold: a game's totals, results and winners, one hand or end at a
time (contract §2, §5, §6). ``replay`` (engine.py) folds a whole log with
it; ``fold_event`` folds one more event into a ``Snapshot``, in time that
does not grow with the game, and ``extend`` adds what it folded to the
scoreboard before it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .errors import Violation
from .events import (
    Event,
    GameEnded,
    Hand,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from .referee import Turn, verify_hand
from .scoreboard import (
    HandResult,
    Row,
    Scoreboard,
    Snapshot,
    next_turn,
    side_names,
)
from .variants import DEFAULT_TIE_PEPPER_ROUND, Variant


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
        raise after_end(state.ended, position)
    fold = Fold(state.variant, state.seats, state.first_dealer)
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


def extend(board: Scoreboard, state: Snapshot) -> Scoreboard:
    """The scoreboard once the event ``state`` was folded from is in: the
    replay of the log up to that event, given ``board``, the replay of the
    log before it (the caller keeps which event a board stands at). A hand
    adds its row, an end only ends; either way the time does not grow with
    the game (the rows are copied as one tuple, not folded again)."""
    hand = state.hand_set
    rows = board.rows
    if hand is not None:
        row = Row(hand.event, hand.hand, hand.deltas, hand.totals, hand.pepper_round)
        rows = (*rows, row)
    return board._replace(
        rows=rows,
        totals=state.totals,
        winners=state.winners,
        tied=state.tied,
        pepper_round_until=state.pepper_round_until,
        decided=state.decided,
        end_reason=state.end_reason,
        ended=state.ended,
    )


class Fold:
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
        # ``Row(...)`` runs the NamedTuple's own ``__new__`` in Python: the
        # tuple made a Row directly costs half as much, on every hand.
        new_row = tuple.__new__
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
                now: tuple[int, ...] = (first, second)  # cheaper than tuple(totals)
            else:
                reached = False
                for side in by_side:
                    total = totals[side] + deltas[side]
                    totals[side] = total
                    if total >= target:
                        reached = True
                now = tuple(totals)
            results.append(new_row(Row, (position, hand, deltas, now, pepper)))
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
        if len(totals) == 2 and (totals[0] >= target) != (totals[1] >= target):
            # Most games end so: one of two sides past the target, the winner.
            self.winners = (0,) if totals[0] >= target else (1,)
            self.tied, self.decided = (), "target"
            return
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
        """A hand after the game was won, refused by the rule that ended it
        (contract §2, §5): the target, the mercy rule or the hand limit."""
        names = side_names(self.variant, self.names)
        won = " and ".join(names[side] for side in self.winners)
        how, rule = _how_it_ended(self.variant, self.decided, number - 1)
        return Violation(
            f"the game is over: {won} won after hand {number - 1}{how}, so there "
            "is no hand after it",
            rule=rule,
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


def _how_it_ended(variant: Variant, decided: str, last: int) -> tuple[str, str]:
    """What ended a game won after hand ``last``, in a few words for the
    refusal of a hand after it, and the rule's citation (contract §5: a
    house's mercy rule or hand limit, named with its value)."""
    if decided == "mercy":
        return (
            f" by the mercy rule (a side at {variant.mercy} or below)",
            f"house rule: mercy at {variant.mercy}",
        )
    if decided == "hand-limit":
        limit = variant.hand_limit
        hands = f"{limit} hand{'' if limit == 1 else 's'}"
        how = (
            f" at the hand limit ({hands})"
            if last == limit  # else a tie there played on (exact_tie)
            else f" past the hand limit ({hands}), once one side was ahead"
        )
        return how, f"house rule: hand limit of {hands}"
    return "", variant.cite("target")


def after_end(end: int, position: int) -> Violation:
    return Violation(
        f"the game was ended at event {end}: only a void or a correction of "
        "an earlier hand can follow it",
        rule="contract §6",
        remedy="leave this event out, or void or correct the hand it meant to change",
        event=position,
    )
