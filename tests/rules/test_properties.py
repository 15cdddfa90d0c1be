"""Properties of replay over generated legal games of every preset."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.engine import replay
from scorekeeper.rules.errors import Violation
from scorekeeper.rules.events import (
    Event,
    Hand,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from scorekeeper.rules.variants import Variant
from tests.hypothesis_profiles import examples
from tests.strategies import games, hands

Game = tuple[Variant, tuple[str, ...], int, list[Event]]


@given(games())
def test_replay_is_deterministic(game: Game) -> None:
    assert replay(*game) == replay(*game)


@given(games())
def test_totals_are_the_sum_of_the_deltas(game: Game) -> None:
    board = replay(*game)
    running = [0] * game[0].sides
    for result in board.hands:
        running = [
            total + delta for total, delta in zip(running, result.deltas, strict=True)
        ]
        assert list(result.totals) == running
    assert list(board.totals) == running


@given(games())
def test_a_prefix_of_the_log_gives_the_running_totals_shown_at_that_hand(
    game: Game,
) -> None:
    rules, names, first_dealer, events = game
    board = replay(*game)
    for count, result in enumerate(board.hands, start=1):
        prefix = replay(rules, names, first_dealer, events[:count])
        assert prefix.totals == result.totals
        assert prefix.hands[-1] == result


@given(games())
def test_only_the_last_hand_can_finish_a_game(game: Game) -> None:
    board = replay(*game)
    assert board.finished == (board.next is None)
    for count in range(1, len(board.hands)):
        assert not replay(game[0], game[1], game[2], game[3][:count]).finished


@settings(max_examples=examples(150))
@given(games(max_hands=12), st.data())
def test_voids_and_corrections_score_as_the_effective_game(
    game: Game, data: st.DataObject
) -> None:
    """Model check: a log with voids and corrections scores exactly like the
    plain list of its effective hands, or is refused."""
    rules, names, first_dealer, events = game
    if not events:
        return
    effective: dict[int, Hand] = {
        n: hand
        for n, hand in enumerate(events, start=1)
        if isinstance(hand, HandRecorded | HandPassedOut)
    }
    log = list(events)
    for _ in range(data.draw(st.integers(1, 3))):
        if not effective:
            break
        target = data.draw(st.sampled_from(sorted(effective)))
        if data.draw(st.booleans()):
            log.append(HandVoided(target))
            del effective[target]
        else:
            turn = replay(rules, names, first_dealer, []).next
            assert turn is not None
            hand = data.draw(hands(rules, turn))
            log.append(HandCorrected(target, hand))
            effective[target] = hand
    try:
        board = replay(rules, names, first_dealer, log)
    except Violation as violation:
        assert violation.event is not None and 1 <= violation.event <= len(log)
        return
    plain = replay(rules, names, first_dealer, list(effective.values()))
    assert board.totals == plain.totals
    assert [r.deltas for r in board.hands] == [r.deltas for r in plain.hands]
    assert board.winners == plain.winners and board.next == plain.next
