"""Each seat's statistics read off a replayed game (the game row keeps them)."""

from __future__ import annotations

import importlib

import pytest

from scorekeeper.eventstore import load
from scorekeeper.gamelog import replay_log
from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.seatstats import seat_bids, seat_stats
from tests.factories import conceded, passed, play, played, variant
from tests.records import NOW, new_game


def test_bids_sets_concessions_runs_and_the_best_hand_per_seat() -> None:
    board = play(
        variant("classic", pepper_round_hands=0, negotiation=True),
        played(1, 3, 2, 4),  # Bob (side 1) bids 3, takes 4: made, +4
        played(1, 4, 4, 2),  # Bob bids 4, takes 2: set
        conceded(2, 4, 1),  # Cat bids 4, conceded with 1 free trick: made
        passed(),
        played(0, 3, 3, 3),  # Ann bids 3, takes 3: made
    )
    stats = seat_stats(board)
    ann, bob, cat, dan = stats
    assert bob["bids"] == {"3": [1, 1], "4": [1, 0]} and bob["run"] == "MS"
    assert bob["best"] == board.hands[0].deltas[1]
    assert cat["bids"] == {"4": [1, 1]} and cat["best"] == board.hands[2].deltas[0]
    assert ann["sets"] == 1 and cat["sets"] == 1 and bob["sets"] == dan["sets"] == 0
    assert bob["conceded"] == dan["conceded"] == 1 and ann["conceded"] == 0
    assert ann["run"] == "M" and dan == {
        "bids": {},
        "sets": 0,
        "conceded": 1,
        "run": "",
        "best": 0,
    }
    assert seat_bids(stats) == ([1, 2, 1, 0], [1, 1, 1, 0])


@pytest.mark.django_db
def test_the_migration_fills_the_statistics_of_games_already_stored() -> None:
    game = new_game()
    for bidder_takes in (4, 1):
        board = replay_log(load(game))
        turn = board.next
        assert turn is not None
        services.hand_record(
            game=game,
            expected_seq=game.last_seq,
            bidder=turn.first_bidder,
            bid=3,
            trump="hearts",
            tricks=[bidder_takes, 6 - bidder_takes]
            if turn.first_bidder % 2 == 0
            else [6 - bidder_takes, bidder_takes],
            now=NOW,
        )
    stored = Game.objects.get(pk=game.pk).seat_stats
    Game.objects.update(seat_stats=[])  # as before the migration
    migration = importlib.import_module("scorekeeper.migrations.0005_game_seat_stats")
    migration.fill_seat_stats(None, None)
    assert Game.objects.get(pk=game.pk).seat_stats == stored
    assert [seat["run"] for seat in stored] == ["", "M", "S", ""]
