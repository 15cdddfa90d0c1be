"""Concurrent appends, with real threads and real commits (SQLite in WAL
with IMMEDIATE transactions, and PostgreSQL when DATABASE_URL names it)."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable

import pytest
from django.db import connection

from scorekeeper.eventstore import Busy, Conflict
from scorekeeper.games import services
from scorekeeper.models import Game, GameEvent
from tests.records import NOW, new_game

pytestmark = pytest.mark.django_db(transaction=True)


def in_threads(count: int, work: Callable[[int], str]) -> list[str]:
    """Run ``work(i)`` in ``count`` threads started together; each closes its
    own database connection."""
    barrier = threading.Barrier(count)
    results: list[str] = [""] * count

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_16_appends_at_the_same_seq_give_1_accepted_and_15_conflicts() -> None:
    game_id = new_game().pk

    def work(index: int) -> str:
        try:
            services.hand_pass_out(
                game=Game.objects.get(pk=game_id),
                expected_seq=0,
                event_id=f"t{index}",
                now=NOW,
            )
        except Conflict:
            return "conflict"
        return "accepted"

    assert Counter(in_threads(16, work)) == {"accepted": 1, "conflict": 15}
    assert GameEvent.objects.filter(game_id=game_id).count() == 1


def test_16_writers_x_25_appends_with_retry_lose_and_double_nothing() -> None:
    """Every writer races every other for each place (16 at once is as
    many as a club's phones; 25 rounds of it keep the race going)."""
    game_id = new_game().pk

    def work(index: int) -> str:
        for attempt in range(25):
            while True:
                game = Game.objects.get(pk=game_id)
                try:
                    services.hand_pass_out(
                        game=game,
                        expected_seq=game.last_seq,
                        event_id=f"w{index}-{attempt}",
                        now=NOW,
                    )
                    break
                except (Conflict, Busy):
                    # As a phone's retry queue would: back off a little.
                    time.sleep(random.uniform(0, 0.004))
        return "done"

    assert in_threads(16, work) == ["done"] * 16
    seqs = list(GameEvent.objects.filter(game_id=game_id).values_list("seq", flat=True))
    assert sorted(seqs) == list(range(1, 401))
    ids = GameEvent.objects.filter(game_id=game_id).values_list("event_id", flat=True)
    assert len(set(ids)) == 400
    game = Game.objects.get(pk=game_id)
    assert (game.last_seq, game.hands_played) == (400, 400)


def test_the_same_event_id_sent_10_times_2_at_once_is_stored_once() -> None:
    game_id = new_game().pk

    def work(index: int) -> str:
        appended = services.hand_pass_out(
            game=Game.objects.get(pk=game_id),
            expected_seq=0,
            event_id="retry-me",
            now=NOW,
        )
        return f"{appended.seq}"

    answers = [answer for _ in range(5) for answer in in_threads(2, work)]
    assert answers == ["1"] * 10
    assert GameEvent.objects.filter(game_id=game_id).count() == 1
