"""The game row's snapshot: written with each event, trusted only when it
matches, and an append refereed against it without replaying the log."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

import pytest
from django.db import transaction

from scorekeeper import recording, snapshots
from scorekeeper.eventstore import load
from scorekeeper.gamelog import replay_log
from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.projections import boards, game_rows
from scorekeeper.recording import Appended, Refused
from scorekeeper.rules.engine import ENGINE_VERSION, Snapshot, snapshot_of
from scorekeeper.rules.variants import find_variant, with_overrides
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
    row = Game.objects.filter(pk=game.pk).values(*game_rows.CURRENT).get()
    variant = find_variant(game.preset, len(game.seats))
    return snapshots.trusted(game, variant, row["last_seq"], row)


def _replayed(game: Game) -> tuple[Snapshot, dict[str, object]]:
    log = load(game)
    board = replay_log(log)
    return snapshot_of(board, len(log.entries)), game_rows.summary(
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

    monkeypatch.setattr(recording, "replay_log", counted)
    appended = _next_hand(game, now, 5, tricks=2)
    assert replays == []  # refereed and scored from the snapshot alone
    assert appended.state.hand_set is not None
    assert appended.state.hand_set.number == 6
    services.hand_void(game=game, expected_seq=6, target=6, now=now)
    assert len(replays) == 1  # a void replays from the start


def _plain_sum(row: dict[str, Any], state: dict[str, Any]) -> str:
    """What anyone who reads the code and the row can work out: the
    SHA-256 of the same material, without the server's key."""
    material = [
        str(row["pk"]),
        row["preset"],
        row["overrides"],
        len(row["seats"]),
        row["first_dealer"],
        ENGINE_VERSION,
        state,
    ]
    text = json.dumps(material, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


CORRUPTIONS = {
    "a total changed": lambda row: {"snapshot": {**row["snapshot"], "totals": [99, 0]}},
    "a total changed, checksum made again": lambda row: {
        "snapshot": {**row["snapshot"], "totals": [99, 0]},
        "snapshot_sum": "0" * 64,
    },
    "a total changed, its plain SHA-256 made again": lambda row: {
        "snapshot": {**row["snapshot"], "totals": [99, 0]},
        "snapshot_sum": _plain_sum(row, {**row["snapshot"], "totals": [99, 0]}),
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
    fields = ("pk", "preset", "overrides", "seats", "first_dealer", *snapshots.FIELDS)
    row = Game.objects.filter(pk=game.pk).values(*fields).get()
    Game.objects.filter(pk=game.pk).update(**corrupt(row))
    game = Game.objects.get(pk=game.pk)  # as the next request reads it
    appended = _next_hand(game, now, 4, tricks=5)
    state, summary = _replayed(game)
    assert appended.state == state
    assert _row_summary(game) == summary
    assert _kept(game) == state  # written again, trusted again


def test_a_snapshot_written_under_another_secret_key_is_not_trusted(
    db: None, now: datetime, settings: Any
) -> None:
    game = new_game("classic")
    for seq in range(3):
        _next_hand(game, now, seq, tricks=4)
    assert _kept(game) == _replayed(game)[0]
    settings.SECRET_KEY = "another server's key, not this one's" * 2
    assert _kept(game) is None


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
    assert game_rows.rebuild_rows(Game.objects.filter(pk=game.pk)) == 1
    assert _kept(game) == _replayed(game)[0]


@pytest.mark.django_db(transaction=True)  # real commits: boards are kept on commit
def test_each_saves_board_is_the_kept_one_extended_and_equals_a_replay(
    now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game("classic", target_score=30)
    replays: list[int] = []

    def counted(log: Any) -> Any:
        replays.append(len(log.entries))
        return replay_log(log)

    for replaying in (recording, boards):  # the referee's, and the kept boards'
        monkeypatch.setattr(replaying, "replay_log", counted)
    appended = _next_hand(game, now, 0, tricks=4)
    assert appended.board == replay_log(load(game))
    assert replays == [1]  # nothing kept yet: the first board is replayed
    for seq in range(1, 9):
        if seq == 4:
            appended = services.hand_pass_out(game=game, expected_seq=seq, now=now)
        elif seq == 6:
            appended = services.hand_void(
                game=game, expected_seq=seq, target=2, now=now
            )
        else:
            appended = _next_hand(game, now, seq, tricks=[4, 2, 6, 3][seq % 4])
        assert appended.board == replay_log(load(game))
        assert tuple(appended.board.hands) == tuple(replay_log(load(game)).hands)
    assert replays == [1, 7]  # only the void replayed
    end = services.game_end(game=game, expected_seq=9, reason="time", now=now)
    assert end.board == replay_log(load(game)) and end.board.finished
    assert replays == [1, 7]
    assert boards.scoreboard(game.pk, load(game)) is end.board  # pages read it


@pytest.mark.django_db(transaction=True)
def test_a_board_is_kept_only_where_the_log_stands_and_once_committed(
    now: datetime,
) -> None:
    game = new_game("classic")
    _next_hand(game, now, 0, tricks=4)
    kept = boards.scoreboard(game.pk, load(game))
    assert boards.scoreboard(game.pk, load(game)) is kept
    # An append that rolls back leaves no board (nor log) behind.
    with pytest.raises(RuntimeError), transaction.atomic():
        _next_hand(game, now, 1, tricks=4)
        raise RuntimeError("the request failed after the append")
    game = Game.objects.get(pk=game.pk)
    assert game.last_seq == 1
    assert boards.scoreboard(game.pk, load(game)) is kept
    # Another event takes the place of the rolled-back one: its board is
    # its own, not the one the rolled-back append made.
    passed = services.hand_pass_out(game=game, expected_seq=1, now=now)
    assert passed.board == replay_log(load(game))
    assert boards.scoreboard(game.pk, load(game)) == replay_log(load(game))
    # The log as it stood before (an earlier event), or under other house
    # rules: not the kept board's, so replayed.
    earlier = load(game, up_to=1)
    assert boards.scoreboard(game.pk, earlier) == replay_log(earlier)
    log = load(game)
    other = type(log)(
        with_overrides(find_variant("classic", 4), {"target_score": 10}),
        log.seats,
        log.first_dealer,
        log.entries,
    )
    assert boards.scoreboard(game.pk, other).variant.target_score == 10
