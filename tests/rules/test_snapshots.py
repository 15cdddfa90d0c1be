"""A snapshot folded one event further equals a replay from the start.

The event store keeps the engine's state after a game's last event and
referees the next hand against it (``fold_event``); a void or a correction
is folded by a replay. Over random games with house rules, voids,
corrections, ends and hands the rules refuse, each event is offered as a
table would offer it: the state folded from the snapshot must equal the
replay of the whole log after every event, refusals included.
"""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.engine import (
    Scoreboard,
    Snapshot,
    extend,
    fold_event,
    replay,
    snapshot_of,
)
from scorekeeper.rules.errors import VariantError, Violation
from scorekeeper.rules.events import (
    Event,
    GameEnded,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from scorekeeper.rules.variants import Variant, find_variant, with_overrides
from tests.hypothesis_profiles import examples
from tests.strategies import games, hands

Offered = tuple[Variant, tuple[str, ...], int, list[Event]]

HOUSE_RULES = st.fixed_dictionaries(
    {},
    optional={
        "target_score": st.sampled_from([10, 21, 32]),
        "exact_tie": st.sampled_from(["co-winners", "play-on", "pepper-round"]),
        "both_reach": st.sampled_from(["higher", "bidder"]),
        "must_bid_to_win": st.booleans(),
        "mercy": st.sampled_from([-10, -20]),
        "hand_limit": st.integers(1, 8),
        "pepper_round_hands": st.integers(0, 4),
    },
)


@st.composite
def offered(draw: st.DrawFn) -> Offered:
    """A game under house rules, and events a table might send: mostly the
    next hand as the rules allow it, with voids, corrections, ends and
    stray hands (which the rules may refuse) drawn in between."""
    rules, names, first_dealer, _ = draw(games(max_hands=0))
    # A preset that refuses one of the settings is played as it is.
    with contextlib.suppress(VariantError):
        rules = with_overrides(rules, draw(HOUSE_RULES))
    first = replay(rules, names, first_dealer, []).next
    assert first is not None
    log: list[Event] = []
    sent: list[Event] = []
    for _ in range(draw(st.integers(0, 30))):
        turn = replay(rules, names, first_dealer, log).next
        kind = draw(st.integers(0, 11))
        target = draw(st.integers(0, len(log) + 1))
        event: Event
        if kind == 0:
            event = HandVoided(target, "misdeal")
        elif kind == 1:
            event = HandCorrected(target, draw(hands(rules, turn or first)))
        elif kind == 2:
            event = GameEnded("time")
        else:
            event = draw(hands(rules, first if kind == 3 else turn or first))
        sent.append(event)
        try:
            replay(rules, names, first_dealer, [*log, event])
        except Violation:
            continue
        log.append(event)
    return rules, names, first_dealer, sent


def _outcome(
    rules: Variant, names: tuple[str, ...], dealer: int, log: list[Event]
) -> Snapshot | Violation:
    seq = len(log)
    try:
        return snapshot_of(replay(rules, names, dealer, log), seq)
    except Violation as violation:
        return violation


def _folded(
    state: Snapshot, event: Event, replayed: Snapshot | Violation
) -> Snapshot | Violation:
    try:
        folded = fold_event(state, event)
    except Violation as violation:
        return violation
    return replayed if folded is None else folded


@settings(max_examples=examples(300))
@given(offered())
def test_folding_from_snapshots_equals_a_replay_after_every_event(
    game: Offered,
) -> None:
    rules, names, dealer, sent = game
    log: list[Event] = []
    state = snapshot_of(replay(rules, names, dealer, log), 0)
    for event in sent:
        replayed = _outcome(rules, names, dealer, [*log, event])
        folded = _folded(state, event, replayed)
        if isinstance(replayed, Violation):
            assert isinstance(folded, Violation)
            assert (folded.message, folded.rule, folded.event) == (
                replayed.message,
                replayed.rule,
                replayed.event,
            )
            continue  # refused: the store writes nothing
        assert folded == replayed
        assert isinstance(folded, Snapshot)
        assert folded.hand_set == replayed.hand_set
        assert folded.next == replayed.next
        log.append(event)
        state = folded


@settings(max_examples=examples(300))
@given(offered())
def test_a_scoreboard_extended_by_each_folded_event_equals_a_replay(
    game: Offered,
) -> None:
    """What a save shows (the whole scoreboard) needs no replay either: the
    board before the event, extended by what the snapshot folded, is the
    replay's board, hand by hand, after every hand or end."""
    rules, names, dealer, sent = game
    log: list[Event] = []
    board = replay(rules, names, dealer, log)
    for event in sent:
        try:
            replayed = replay(rules, names, dealer, [*log, event])
        except Violation:
            continue
        log.append(event)
        folded = fold_event(snapshot_of(board, len(log) - 1), event)
        board = replayed if folded is None else extend(board, folded)
        assert isinstance(board, Scoreboard)
        assert board == replayed
        assert tuple(board.hands) == tuple(replayed.hands)
        assert board.next == replayed.next


def test_a_void_or_a_correction_is_left_to_a_replay() -> None:
    rules = find_variant("classic", 4)
    names = ("Ann", "Bob", "Cat", "Dan")
    hand = HandRecorded(1, 3, "hearts", (4, 2))
    state = snapshot_of(replay(rules, names, 0, [hand]), 1)
    assert fold_event(state, HandVoided(1)) is None
    assert fold_event(state, HandCorrected(1, HandPassedOut())) is None


def test_after_an_end_only_a_void_or_a_correction_may_follow() -> None:
    rules = find_variant("classic", 4)
    names = ("Ann", "Bob", "Cat", "Dan")
    log: list[Event] = [HandRecorded(1, 3, "hearts", (4, 2)), GameEnded("time")]
    state = snapshot_of(replay(rules, names, 0, log), 2)
    assert state.ended == 2 and state.finished and state.status == "finished"
    assert state.next is None and state.side_names == ("Ann & Cat", "Bob & Dan")
    try:
        fold_event(state, HandPassedOut())
    except Violation as violation:
        assert violation.event == 3
        assert "ended at event 2" in violation.message
    else:
        raise AssertionError("a hand after the end was folded")
