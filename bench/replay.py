"""Replay throughput beside the floor of pure Python on this machine.

A seeded corpus of full games (every preset, played to a win) is replayed
by the engine; the floor is the same scoring arithmetic as one bare loop
over tuples, with no validation, no results kept and no text. Both are
timed in the same run; the figures are medians of several runs.

    make bench        (or: .venv/bin/python bench/replay.py)
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.rules.cards import TRUMPS  # noqa: E402
from scorekeeper.rules.engine import replay  # noqa: E402
from scorekeeper.rules.events import Event, HandPassedOut, HandRecorded  # noqa: E402
from scorekeeper.rules.explain import explain_hand  # noqa: E402
from scorekeeper.rules.variants import PRESETS, Variant  # noqa: E402

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
RUNS = int(os.environ.get("BENCH_RUNS", "7"))
Game = tuple[Variant, tuple[str, ...], int, list[Event]]


def random_game(rules: Variant, rng: random.Random) -> Game:
    """A legal game played until someone wins (or 200 hands)."""
    names = NAMES[: rules.seats]
    first_dealer = rng.randrange(rules.seats)
    events: list[Event] = []
    board = replay(rules, names, first_dealer, events)
    while board.next is not None and len(events) < 200:
        turn = board.next
        if not turn.pepper_round and rng.random() < 0.08:
            events.append(HandPassedOut())
        else:
            bidder = (
                turn.first_bidder if turn.pepper_round else rng.randrange(rules.seats)
            )
            rule = (
                rules.ladder[0] if turn.pepper_round else rng.choice(rules.ladder[:4])
            )
            trump = rng.choice(TRUMPS)
            if (
                rule.max_free_tricks is not None
                and trump != "clubs"
                and rng.random() < 0.3
            ):
                events.append(
                    HandRecorded(
                        bidder,
                        rule.call,
                        trump,
                        None,
                        rng.randint(0, rule.max_free_tricks),
                    )
                )
            else:
                tricks = [0] * rules.sides
                for _ in range(rules.tricks_per_hand):
                    side = (
                        bidder % rules.sides
                        if rng.random() < 0.6
                        else rng.randrange(rules.sides)
                    )
                    tricks[side] += 1
                events.append(HandRecorded(bidder, rule.call, trump, tuple(tricks)))
        board = replay(rules, names, first_dealer, events)
    return rules, names, first_dealer, events


def corpus(games_per_seating: int = 40) -> list[Game]:
    rng = random.Random(2026)
    return [
        random_game(rules, rng)
        for by_seats in PRESETS.values()
        for rules in by_seats.values()
        for _ in range(games_per_seating)
    ]


# Per hand: bidder's side (-1: passed out), tricks needed, points made (-1:
# a point a trick), set points, defenders' points (-1: a point a trick),
# shut-out penalty?, tricks, free tricks, tricks per hand.
FlatHand = tuple[int, int, int, int, int, bool, tuple[int, ...] | None, int, int]
FlatGame = tuple[int, list[FlatHand]]


def as_tuples(games: list[Game]) -> list[FlatGame]:
    """The corpus for the floor: per hand, the numbers the arithmetic needs."""
    flat = []
    for rules, _, _, events in games:
        hands: list[FlatHand] = []
        for event in events:
            if isinstance(event, HandRecorded):
                rule = rules.bid_rule(event.bid)
                assert rule is not None
                made = -1 if rule.made_points is None else rule.made_points
                defend = -1 if rule.defender_points is None else rule.defender_points
                hands.append(
                    (
                        event.bidder % rules.sides,
                        rule.tricks_needed,
                        made,
                        rule.set_points,
                        defend,
                        rules.defenders_shut_out_lose,
                        event.tricks,
                        event.free_tricks or 0,
                        rules.tricks_per_hand,
                    )
                )
            else:
                hands.append((-1, 0, 0, 0, 0, False, None, 0, 0))
        flat.append((rules.sides, hands))
    return flat


def bare_loop(flat: list[FlatGame]) -> int:
    """The floor: score every hand with plain arithmetic, nothing else."""
    total_hands = 0
    for sides, hands in flat:
        totals = [0] * sides
        for (
            bidder,
            needed,
            made,
            set_points,
            defend,
            shut_out,
            tricks,
            free,
            per_hand,
        ) in hands:
            total_hands += 1
            if bidder < 0:
                continue
            if tricks is None:
                for side in range(sides):
                    totals[side] += (
                        (made if made >= 0 else per_hand - free)
                        if side == bidder
                        else free
                    )
                continue
            for side in range(sides):
                won = tricks[side]
                if side == bidder:
                    totals[side] += (
                        (made if made >= 0 else won) if won >= needed else -set_points
                    )
                elif won == 0:
                    totals[side] -= set_points if shut_out else 0
                else:
                    totals[side] += won if defend < 0 else defend
    return total_hands


def engine_replay(games: list[Game]) -> int:
    return sum(len(replay(*game).rows) for game in games)


def engine_replay_read(games: list[Game]) -> int:
    """Replay, then build every hand's named result (as a page would)."""
    return sum(sum(1 for _ in replay(*game).hands) for game in games)


def engine_replay_explained(games: list[Game]) -> int:
    count = 0
    for game in games:
        board = replay(*game)
        count += sum(1 for result in board.hands if explain_hand(board, result))
    return count


def rate(work: Callable[[], int], passes: int) -> float:
    """Hands per second over ``passes`` passes of the corpus (one timing)."""
    start = time.perf_counter()
    hands = sum(work() for _ in range(passes))
    return hands / (time.perf_counter() - start)


def passes_for(work: Callable[[], int], seconds: float = 0.1) -> int:
    """How many passes make one timing last about ``seconds``."""
    start = time.perf_counter()
    work()
    return max(1, round(seconds / (time.perf_counter() - start)))


def main() -> None:
    games = corpus()
    flat = as_tuples(games)
    hands = sum(len(events) for *_, events in games)
    assert engine_replay(games) == engine_replay_read(games) == bare_loop(flat) == hands
    works: dict[str, Callable[[], int]] = {
        "bare loop floor (arithmetic only)": lambda: bare_loop(flat),
        "engine replay (validated, scored)": lambda: engine_replay(games),
        "engine replay + reading every hand": lambda: engine_replay_read(games),
        "engine replay + every explanation": lambda: engine_replay_explained(games),
    }
    passes = {label: passes_for(work) for label, work in works.items()}
    # Interleaved, each timing about 0.1 s, so that the machine's noise
    # falls on all alike; a ratio is the median of the per-run ratios.
    rates: dict[str, list[float]] = {label: [] for label in works}
    for _ in range(RUNS):
        for label, work in works.items():
            rates[label].append(rate(work, passes[label]))
    floor_label = next(iter(works))
    floors = rates[floor_label]
    print(
        f"replay: {len(games)} full games, {hands} hands, every preset; median of {RUNS} interleaved runs"
    )
    for label, measured in rates.items():
        line = f"  {label:<36} {statistics.median(measured):>12,.0f} hands/s"
        if label != floor_label:
            ratio = statistics.median(
                m / f for m, f in zip(measured, floors, strict=True)
            )
            line += f"   {ratio:.2f} of the floor"
        print(line)
    print("  target: the engine replay at least 0.33 of the floor")


if __name__ == "__main__":
    main()
