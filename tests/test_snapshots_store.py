"""The game row's snapshot: written with each event, trusted only when it
matches, and an append refereed against it without replaying the log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from scorekeeper import eventstore, snapshots
from scorekeeper.eventstore import Appended, Refused, load
from scorekeeper.gamelog import replay_log
from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.rules.engine import ENGINE_VERSION, Snapshot, snapshot_of
from scorekeeper.rules.variants import find_variant
from tests.records import new_game


def _next_hand(game: Game, now: datetime, seq: int, tricks: int) -> Appended:
    """The hand the rules expect next: the first bidder at the lowest bid."""
    turn = replay_log(load(game)).next
    assert turn is not None
    variant = find_variant(game.preset, len(game.seats))
    bid = turn.forced_bid or variant.lowest_bid
    side = turn.first_bidder % 2
    split = [variant.tricks_per_hand - tricks] * 2
    split[side] = tricks
    return services.hand_record(
        game=game,
        expected_seq=seq,
        bidder=turn.first_bidder,
        bid=bid,
        trump="hearts",
        tricks=split,
        now=now,
    )


def _kept(game: Game) -> Snapshot | None:
    row = Game.objects.filter(pk=game.pk).values(*eventstore._CURRENT).get()
    variant = find_variant(game.preset, len(game.seats))
    return snapshots.trusted(game, variant, row["last_seq"], row)


def _replayed(game: Game) -> tuple[Snapshot, dict[str, object]]:
    log = load(game)
    board = replay_log(log)
    return snapshot_of(board, len(log.entries)), eventstore.summary(
        board, len(log.entries)
    )


def _row_summary(game: Game) -> dict[str, object]:
    fields = ("last_seq", "hands_played", "totals", "finished", "winners")
    more = ("seat_bids", "seat_made", "seat_stats")
    row: dict[str, object] = (
        Game.objects.filter(pk=game.pk).values(*fields, *more).get()
    )
    return row


def test_each_append_keeps_the_state_and_numbers_a_replay_gives(
    db: None, now: datetime
) -> None:
    game = new_game("classic")
    for seq in range(9):
        if seq == 5:
            services.hand_pass_out(game=game, expected_seq=seq, now=now)
        elif seq == 7:
            services.hand_void(game=game, expected_seq=seq, target=2, now=now)
        else:
            _next_hand(game, now, seq, tricks=[4, 2, 6, 3][seq % 4])
        state, summary = _replayed(game)
        assert _kept(game) == state
        assert _row_summary(game) == summary


def test_a_hand_is_refereed_against_the_snapshot_with_no_replay(
    db: None, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game("classic")
    for seq in range(5):
        _next_hand(game, now, seq, tricks=4)
    replays: list[object] = []

    def counted(log: Any) -> Any:
        replays.append(log)
        return replay_log(log)

    monkeypatch.setattr(eventstore, "replay_log", counted)
    appended = _next_hand(game, now, 5, tricks=2)
    assert replays == []  # refereed and scored from the snapshot alone
    assert appended.state.hand_set is not None
    assert appended.state.hand_set.number == 6
    services.hand_void(game=game, expected_seq=6, target=6, now=now)
    assert len(replays) == 1  # a void replays from the start


CORRUPTIONS = {
    "a total changed": lambda row: {"snapshot": {**row["snapshot"], "totals": [99, 0]}},
    "a total changed, checksum made again": lambda row: {
        "snapshot": {**row["snapshot"], "totals": [99, 0]},
        "snapshot_sum": "0" * 64,
    },
    "an older engine": lambda row: {"snapshot_version": ENGINE_VERSION - 1},
    "an earlier seq": lambda row: {"snapshot_seq": row["snapshot_seq"] - 1},
    "no checksum": lambda row: {"snapshot_sum": ""},
    "the seats' numbers missing": lambda row: {"seat_stats": []},
    "the seats' numbers damaged": lambda row: {"seat_stats": [{"bids": 1}] * 4},
}


@pytest.mark.parametrize("corrupt", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_a_snapshot_that_does_not_match_is_never_trusted(
    db: None, now: datetime, corrupt: Any
) -> None:
    game = new_game("classic")
    for seq in range(4):
        _next_hand(game, now, seq, tricks=4)
    row = Game.objects.filter(pk=game.pk).values(*snapshots.FIELDS).get()
    Game.objects.filter(pk=game.pk).update(**corrupt(row))
    game = Game.objects.get(pk=game.pk)  # as the next request reads it
    appended = _next_hand(game, now, 4, tricks=5)
    state, summary = _replayed(game)
    assert appended.state == state
    assert _row_summary(game) == summary
    assert _kept(game) == state  # written again, trusted again


def test_a_damaged_state_under_a_matching_checksum_is_replayed(
    db: None, now: datetime
) -> None:
    game = new_game("classic")
    for seq in range(3):
        _next_hand(game, now, seq, tricks=4)
    damaged = {"seq": 3, "totals": "not numbers"}
    Game.objects.filter(pk=game.pk).update(
        snapshot=damaged,
        snapshot_sum=snapshots.checksum(game, ENGINE_VERSION, damaged),
    )
    assert _kept(game) is None
    game = Game.objects.get(pk=game.pk)
    appended = _next_hand(game, now, 3, tricks=5)
    assert appended.state == _replayed(game)[0]


def test_a_hand_the_snapshot_refuses_is_refused_as_a_replay_refuses_it(
    db: None, now: datetime
) -> None:
    game = new_game("classic", target_score=8)
    seq = 0
    while not Game.objects.get(pk=game.pk).finished:
        _next_hand(game, now, seq, tricks=6)
        seq += 1
    with pytest.raises(Refused) as refused:
        services.hand_pass_out(game=game, expected_seq=seq, now=now)
    Game.objects.filter(pk=game.pk).update(snapshot_version=0)
    game = Game.objects.get(pk=game.pk)
    with pytest.raises(Refused) as replayed:
        services.hand_pass_out(game=game, expected_seq=seq, now=now)
    assert refused.value.message == replayed.value.message
    assert "the game is over" in refused.value.message


def test_a_rebuild_writes_the_snapshot_too(db: None, now: datetime) -> None:
    game = new_game("classic")
    for seq in range(3):
        _next_hand(game, now, seq, tricks=4)
    Game.objects.filter(pk=game.pk).update(snapshot={}, snapshot_sum="")
    assert eventstore.rebuild_rows(Game.objects.filter(pk=game.pk)) == 1
    assert _kept(game) == _replayed(game)[0]
