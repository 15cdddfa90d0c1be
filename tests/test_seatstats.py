"""Each seat's statistics read off a replayed game (the game row keeps them)."""

from __future__ import annotations

from scorekeeper.seatstats import seat_bids, seat_stats
from tests.factories import conceded, passed, play, played, variant


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
