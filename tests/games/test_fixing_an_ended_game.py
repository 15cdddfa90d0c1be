"""Issue 19, defect 1, at the table: a game that was ended can still take a
void or a correction of an earlier hand (contract §6). The event store
appends it, the game's row follows it (still finished, won by the highest
totals once the fix is in), the JSON API takes it, the page offers it and
tells it, and the log keeps it through an export and an import."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from django.test import Client

from scorekeeper.eventstore import load
from scorekeeper.gamelog import replay_log
from scorekeeper.games import services
from scorekeeper.models import Game, GameEvent
from scorekeeper.projections.game_rows import rebuild_rows
from scorekeeper.rules.engine import replay
from scorekeeper.rules.events import HandRecorded
from tests.conftest import join
from tests.games.test_api import send
from tests.records import new_game, record_hands

pytestmark = pytest.mark.django_db

# Classic, to 30: Ann & Cat lead 25 to -1 after five hands.
HANDS = [
    (0, 3, "hearts", [6, 0]),
    (2, 3, "hearts", [6, 0]),
    (0, 3, "hearts", [6, 0]),
    (1, 2, "spades", [1, 5]),  # Bob bids 2 and his side takes 5
    (3, 2, "clubs", [6, 0]),  # Dan bids 2 and is set
]


@pytest.fixture
def ended(client: Client, now: datetime) -> Game:
    """Five hands, then the game ended by the clock (event 6); the client
    holds its edit link."""
    game = new_game()
    record_hands(game, now, *HANDS)
    services.game_end(game=game, expected_seq=5, reason="the clock", by="Ann", now=now)
    join(client, game)
    game.refresh_from_db()
    return game


def _as_fixed(game: Game, hand: int, fixed: HandRecorded) -> tuple[int, ...]:
    """The totals the engine gives the hands with hand ``hand`` replaced."""
    board = replay_log(load(game))
    hands = [result.hand for result in board.hands]
    hands[hand - 1] = fixed
    return replay(board.variant, board.seats, board.first_dealer, hands).totals


def test_a_correction_after_the_end_is_stored_and_the_row_follows_it(
    ended: Game, now: datetime
) -> None:
    assert ended.finished and ended.winners == [0]
    fixed = HandRecorded(3, 2, "clubs", (0, 6))  # Dan made it after all
    expected = _as_fixed(ended, 5, fixed)
    appended = services.hand_correct(
        game=ended, expected_seq=6, target=5, hand=fixed, by="Eve", now=now
    )
    assert appended.seq == 7 and appended.board.decided == "ended"
    ended.refresh_from_db()
    assert (ended.last_seq, ended.finished) == (7, True)
    assert ended.totals == list(expected) and ended.hands_played == 5
    top = max(expected)
    assert ended.winners == [s for s, total in enumerate(expected) if total == top]
    row = Game.objects.values("totals", "winners", "seat_stats", "seat_made").get()
    rebuild_rows(Game.objects.all())  # the projection from scratch agrees
    assert (
        Game.objects.values("totals", "winners", "seat_stats", "seat_made").get() == row
    )


def test_the_api_takes_a_fix_after_the_end_and_refuses_a_hand_in_the_engines_words(
    client: Client, ended: Game
) -> None:
    hand = {"type": "hand", "bidder": 0, "bid": 2, "trump": "hearts", "tricks": [4, 2]}
    refused = send(client, ended, ended.edit_token, expected_seq=6, id="h", **hand)
    assert refused.status_code == 422
    assert refused.json()["error"] == (
        "event 7: the game was ended at event 6: only a void or a correction "
        "of an earlier hand can follow it (contract §6)"
    )
    fixed = {**hand, "bidder": 1, "tricks": [1, 5]}
    corrected = send(
        client, ended, ended.edit_token, expected_seq=6, id="c",
        type="correct", target=1, hand={k: v for k, v in fixed.items() if k != "type"},
    )  # fmt: skip
    assert corrected.status_code == 201, corrected.json()
    assert corrected.json()["status"] == "finished"
    assert corrected.json()["hand"]["bid"] == 2
    voided = send(
        client, ended, ended.edit_token, expected_seq=7, id="v", type="void", target=2
    )
    assert voided.status_code == 201 and voided.json()["hand"] is None
    assert GameEvent.objects.filter(game=ended).count() == 8


def test_a_log_with_fixes_after_its_end_exports_and_imports_identically(
    ended: Game, now: datetime
) -> None:
    services.hand_void(game=ended, expected_seq=6, target=2, reason="misdeal", now=now)
    exported = services.game_export(game=ended)
    events = exported["events"]
    assert isinstance(events, list)
    assert [event["type"] for event in events[-3:]] == ["hand", "end", "void"]
    again = services.game_import(document=json.dumps(exported), now=now)
    assert services.game_export(game=again) == exported
    ended.refresh_from_db()
    assert (again.totals, again.winners, again.finished) == (
        ended.totals,
        ended.winners,
        True,
    )


def test_an_ended_games_page_offers_the_fixes_and_tells_them(
    client: Client, ended: Game
) -> None:
    page = client.get(f"/games/{ended.pk}/").content.decode()
    assert "hands/5/correct" in page and "hands/5/void" in page
    response = client.post(
        f"/games/{ended.pk}/hands/5/correct",
        {
            "expected_seq": 6,
            "event_id": "fix",
            "bidder": "3",
            "bid": "2",
            "trump": "clubs",
            "outcome": "played",
            "taken": "6",
            "by": "Eve",
            "action": "save",
        },
    )
    assert response.status_code == 302
    page = client.get(f"/games/{ended.pk}/").content.decode()
    assert "the game was ended as it stood (the clock)" in page
    was = _took(HANDS[4])  # before and after, as the change log says it
    fixed = f"hand 5 (Dan bid 2 ♣): took {was} → took 6"
    assert (
        f"Fixed after the end by Eve: {fixed}. The totals and the result include it."
        in page
    )
    assert "The game was ended by Ann at" in page
    assert "After the end, by Eve at " in page and f": {fixed}." in page


def _took(hand: tuple[int, int, str, list[int]]) -> int:
    """The tricks the bidder's side took in a hand of ``HANDS``."""
    bidder, _, _, tricks = hand
    return tricks[bidder % 2]


def test_a_fix_that_changes_the_winner_says_so_on_the_games_page(
    client: Client, now: datetime
) -> None:
    game = new_game()
    record_hands(game, now, (0, 3, "hearts", [6, 0]), (1, 4, "spades", [2, 4]))
    services.game_end(game=game, expected_seq=2, reason="the clock", by="Ann", now=now)
    join(client, game)
    board = replay_log(load(game))
    before = board.winners
    services.hand_correct(
        game=game,
        expected_seq=3,
        target=1,
        hand=HandRecorded(0, 3, "hearts", (2, 4)),  # Ann is set
        by="Eve",
        now=now,
    )
    after = replay_log(load(game)).winners
    assert after != before
    names = [" & ".join(board.seats[s::2]) for s in range(2)]
    page = client.get(f"/games/{game.pk}/").content.decode()
    changed = f"the winner changed: {names[before[0]]} → {names[after[0]]}".replace(
        "&", "&amp;"
    )
    assert "hand 1 (Ann bid 3 ♥): took 6 → took 2; " + changed in page
    assert "Fixed after the end by Eve: hand 1" in page


def test_a_fix_that_would_win_before_the_end_is_refused_in_a_players_words(
    client: Client, ended: Game
) -> None:
    response = client.post(  # Bob set in hand 4: Ann & Cat reach 30 in hand 5
        f"/games/{ended.pk}/hands/4/correct",
        {
            "expected_seq": 6,
            "event_id": "fix",
            "bidder": "1",
            "bid": "2",
            "trump": "spades",
            "outcome": "played",
            "taken": "0",
            "action": "save",
        },
    )
    page = response.content.decode()
    assert response.status_code == 422
    assert (
        "This change makes Ann &amp; Cat win after hand 5, before the game was "
        "ended: a game that was won cannot be ended." in page
    )
    assert "Rule: contract §6" in page and "event 6" not in page
    assert GameEvent.objects.count() == 6
