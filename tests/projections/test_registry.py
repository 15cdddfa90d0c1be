"""The one registry of projectors: each is told of every event appended,
in its transaction, after the game's row."""

from __future__ import annotations

from datetime import datetime

import pytest

from scorekeeper.games import services
from scorekeeper.models import Game, GameEvent
from scorekeeper.projections import registry
from scorekeeper.projections.registry import Committed


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> list[Committed]:
    """A projector registered for the test that keeps what it is told."""
    monkeypatch.setattr(registry, "_PROJECTORS", dict(registry._PROJECTORS))
    changes: list[Committed] = []
    registry.register("kept for the test", changes.append)
    return changes


def test_a_projector_is_told_of_each_append_after_the_games_row(
    moon_game: Game, now: datetime, told: list[Committed]
) -> None:
    services.hand_record(
        game=moon_game,
        expected_seq=0,
        bidder=1,
        bid=4,
        trump="hearts",
        tricks=[2, 4],
        now=now,
    )
    services.hand_record(
        game=moon_game,
        expected_seq=1,
        bidder=2,
        bid=4,
        trump="spades",
        tricks=[4, 2],
        now=now,
    )
    services.hand_void(game=moon_game, expected_seq=2, target=2, now=now)
    assert [(change.seq, change.state.totals) for change in told] == [
        (1, (2, 4)),
        (2, (6, 6)),
        (3, (2, 4)),
    ]
    # The second hand folded into the row's snapshot; the void replayed.
    assert told[1].board is None and told[2].board is not None
    assert told[2].game.last_seq == 3  # the game's row was moved first


def test_a_projector_that_fails_takes_the_event_back_with_it(
    moon_game: Game, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "_PROJECTORS", dict(registry._PROJECTORS))

    def broken(change: Committed) -> None:
        raise RuntimeError("a projector's fault")

    registry.register("broken", broken)
    with pytest.raises(RuntimeError):
        services.hand_record(
            game=moon_game,
            expected_seq=0,
            bidder=1,
            bid=4,
            trump="hearts",
            tricks=[2, 4],
            now=now,
        )
    assert GameEvent.objects.count() == 0
    assert Game.objects.get(pk=moon_game.pk).last_seq == 0


def test_registering_again_under_a_name_replaces_the_projector(
    moon_game: Game, now: datetime, told: list[Committed]
) -> None:
    again: list[int] = []
    registry.register("kept for the test", lambda change: again.append(change.seq))
    services.game_end(game=moon_game, expected_seq=0, now=now)
    assert (told, again) == ([], [1])


def test_a_projectors_database_fault_is_a_fault_not_a_conflict(
    moon_game: Game, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A unique-key fault in a projector is not "the game moved on": the
    save fails as a fault (a 500), nothing is stored, and a table is never
    told to enter its hand again against a log that did not move."""
    from django.db import IntegrityError

    from scorekeeper.eventstore import Conflict

    monkeypatch.setattr(registry, "_PROJECTORS", dict(registry._PROJECTORS))

    def broken(change: Committed) -> None:
        raise IntegrityError("a projector's own unique key")

    registry.register("broken for the test", broken)
    with pytest.raises(IntegrityError):
        try:
            services.hand_record(
                game=moon_game,
                expected_seq=0,
                bidder=1,
                bid=4,
                trump="hearts",
                tricks=[2, 4],
                now=now,
            )
        except Conflict:  # what it was answered as before
            pytest.fail("a projector's fault was answered as a conflict")
    assert not GameEvent.objects.filter(game=moon_game).exists()
