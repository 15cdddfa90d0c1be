"""A seat taken over in the middle of a game: the names a page gives each
hand (no database: a board replayed from hands)."""

from __future__ import annotations

from scorekeeper.gamelog import GameLog
from scorekeeper.games.presenters import played_history, played_row
from scorekeeper.rules.engine import replay
from scorekeeper.rules.events import HandRecorded
from scorekeeper.rules.variants import find_variant
from scorekeeper.tablewords import Takeover, board_now, names_at

SEATS = ("Ann", "Bob", "Cat", "Dan")
CHANGES = (Takeover(1, "Eve", 3), Takeover(3, "Fay", 2))


def test_a_seat_is_named_by_who_took_it_over_from_that_hand_on() -> None:
    assert names_at(SEATS, CHANGES, 1) == SEATS
    assert names_at(SEATS, CHANGES, 2) == ("Ann", "Bob", "Cat", "Fay")
    assert names_at(SEATS, CHANGES, 3) == ("Ann", "Eve", "Cat", "Fay")
    assert names_at(SEATS, (Takeover(9, "Nobody", 1),), 5) == SEATS


def test_the_history_names_each_hand_by_who_played_it() -> None:
    variant = find_variant("classic", 4)
    hands = [HandRecorded(1, 3, "hearts", (4, 2)) for _ in range(3)]  # Bob bids
    board = replay(variant, SEATS, 0, hands)
    log = GameLog(variant, SEATS, 0, ())
    rows = {row["number"]: row for row in played_history(board, log, CHANGES)}
    assert [rows[n]["summary"].split(" bid")[0] for n in (1, 2, 3)] == [
        "Bob",
        "Bob",
        "Eve",
    ]
    assert [rows[n]["dealer"] for n in (1, 2, 3)] == ["Ann", "Bob", "Cat"]
    assert played_row(board, CHANGES, board.hands[2])["summary"].startswith("Eve bid")
    assert board_now(board, CHANGES).seats == ("Ann", "Eve", "Cat", "Fay")
    assert board_now(board, ()) is board
