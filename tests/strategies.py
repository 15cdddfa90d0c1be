"""Hypothesis strategies: legal games of every preset, built hand by hand."""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper.rules.cards import TRUMPS
from scorekeeper.rules.engine import replay
from scorekeeper.rules.events import Event, Hand, HandPassedOut, HandRecorded
from scorekeeper.rules.referee import Turn
from scorekeeper.rules.variants import PRESETS, Variant
from tests.factories import NAMES

SEATINGS = [(name, seats) for name, by_seats in PRESETS.items() for seats in by_seats]


@st.composite
def splits(draw: st.DrawFn, total: int, parts: int) -> tuple[int, ...]:
    cuts = sorted(
        draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1))
    )
    edges = [0, *cuts, total]
    return tuple(edges[i + 1] - edges[i] for i in range(parts))


@st.composite
def hands(draw: st.DrawFn, rules: Variant, turn: Turn) -> Hand:
    if not turn.pepper_round and draw(st.integers(0, 9)) == 0:
        return HandPassedOut()
    bidder = (
        turn.first_bidder
        if turn.pepper_round
        else draw(st.integers(0, rules.seats - 1))
    )
    rule = rules.ladder[0] if turn.pepper_round else draw(st.sampled_from(rules.ladder))
    trump = draw(st.sampled_from(TRUMPS))
    negotiable = rule.max_free_tricks is not None and not (
        rules.clubs_must_play and trump == "clubs"
    )
    if negotiable and draw(st.booleans()):
        assert rule.max_free_tricks is not None
        free = draw(st.integers(0, rule.max_free_tricks))
        return HandRecorded(bidder, rule.call, trump, None, free)
    tricks = draw(splits(rules.tricks_per_hand, rules.sides))
    return HandRecorded(bidder, rule.call, trump, tricks)


@st.composite
def games(
    draw: st.DrawFn, max_hands: int = 24
) -> tuple[Variant, tuple[str, ...], int, list[Event]]:
    """A legal game: a preset, seats, first dealer and its hand events."""
    preset, seats = draw(st.sampled_from(SEATINGS))
    rules = PRESETS[preset][seats]
    names = NAMES[:seats]
    first_dealer = draw(st.integers(0, seats - 1))
    events: list[Event] = []
    board = replay(rules, names, first_dealer, events)
    for _ in range(draw(st.integers(0, max_hands))):
        if board.next is None:
            break
        events.append(draw(hands(rules, board.next)))
        board = replay(rules, names, first_dealer, events)
    return rules, names, first_dealer, events
