"""The append-only event store: one way in, refusals change nothing."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.eventstore import Conflict, IdTaken, load, stored_entry
from scorekeeper.gamelog import LogEntry, LogError, event_document, parse_entry
from scorekeeper.games import services
from scorekeeper.models import Game, GameEvent
from scorekeeper.projections.boards import _ENTRIES, game_log
from scorekeeper.recording import Appended, Refused
from scorekeeper.rules.events import (
    GameEnded,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from tests.factories import log_document


def record(game: Game, now: datetime, seq: int, **hand: Any) -> Appended:
    return services.hand_record(game=game, expected_seq=seq, now=now, **hand)


def test_sqlite_runs_in_wal_mode_with_full_sync(db: None) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite only")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 2  # FULL


def test_a_recorded_hand_is_stored_as_its_pepper_log_event(
    moon_game: Game, now: datetime
) -> None:
    appended = services.hand_record(
        game=moon_game,
        expected_seq=0,
        bidder=1,
        bid=4,
        trump="hearts",
        tricks=[2, 4],
        by="Ann",
        event_id="e-1",
        now=now,
    )
    assert (appended.seq, appended.board.totals, appended.repeated) == (
        1,
        (2, 4),
        False,
    )
    stored = GameEvent.objects.get(game=moon_game)
    assert stored.payload == {
        "type": "hand",
        "bidder": 1,
        "bid": 4,
        "trump": "hearts",
        "tricks": [2, 4],
        "id": "e-1",
        "at": now.isoformat(),
        "by": "Ann",
    }
    moon_game.refresh_from_db()
    assert (moon_game.last_seq, moon_game.hands_played, moon_game.totals) == (
        1,
        1,
        [2, 4],
    )


def test_an_illegal_hand_is_refused_with_the_rule_and_nothing_is_written(
    moon_game: Game, now: datetime
) -> None:
    with pytest.raises(Refused) as refused:
        record(moon_game, now, 0, bidder=2, bid=4, trump="hearts", tricks=[2, 4])
    assert refused.value.message.startswith("event 1: hand 1 is in the pepper round")
    assert GameEvent.objects.count() == 0
    moon_game.refresh_from_db()
    assert moon_game.last_seq == 0


def test_a_stale_expected_seq_is_a_conflict(moon_game: Game, now: datetime) -> None:
    record(moon_game, now, 0, bidder=1, bid=4, trump="hearts", tricks=[2, 4])
    with pytest.raises(Conflict) as conflict:
        record(moon_game, now, 0, bidder=1, bid=4, trump="hearts", tricks=[2, 4])
    assert conflict.value.current_seq == 1
    assert GameEvent.objects.count() == 1


SAME = {"bidder": 1, "bid": 4, "trump": "hearts", "tricks": [2, 4]}


@pytest.mark.parametrize("moved_on", [True, False])
def test_a_repeated_event_id_is_answered_as_the_first_time_and_stored_once(
    moon_game: Game, now: datetime, moved_on: bool
) -> None:
    first = record(moon_game, now, 0, event_id="same", **SAME)
    if moved_on:  # a retry, once the log has moved on
        record(moon_game, now, 1, bidder=2, bid=4, trump="spades", tricks=[4, 2])
    again = record(moon_game, now, 0 if moved_on else 1, event_id="same", **SAME)
    assert (again.seq, again.board.totals, again.repeated) == (
        1,
        first.board.totals,
        True,
    )
    assert GameEvent.objects.filter(event_id="same").count() == 1
    stored = Game.objects.get(pk=moon_game.pk)  # the caller's copy is right
    assert (moon_game.last_seq, moon_game.totals) == (stored.last_seq, stored.totals)


@pytest.mark.parametrize(
    ("seq", "hand"),
    [
        (0, {"bidder": 2, "bid": 4, "trump": "spades", "tricks": [3, 3]}),
        (1, {"bidder": 2, "bid": 4, "trump": "spades", "tricks": [3, 3]}),
        # the id reused for a hand that is illegal too (clubs: no concession)
        (1, {"bidder": 2, "bid": 4, "trump": "clubs", "free_tricks": 1}),
    ],
)
def test_an_id_reused_for_a_different_hand_is_refused_naming_the_id(
    moon_game: Game, now: datetime, seq: int, hand: dict[str, Any]
) -> None:
    record(moon_game, now, 0, event_id="same", **SAME)
    with pytest.raises(IdTaken) as taken:
        record(moon_game, now, seq, event_id="same", **hand)
    assert (taken.value.event_id, taken.value.seq) == ("same", 1)
    assert GameEvent.objects.count() == 1


def test_a_stale_copy_of_the_game_appends_at_the_seq_it_names(
    moon_game: Game, now: datetime
) -> None:
    stale = Game.objects.get(pk=moon_game.pk)
    record(moon_game, now, 0, bidder=1, bid=4, trump="hearts", tricks=[2, 4])
    record(stale, now, 1, bidder=2, bid=4, trump="spades", tricks=[4, 2])
    assert list(GameEvent.objects.values_list("seq", flat=True)) == [1, 2]
    assert (stale.last_seq, stale.totals) == (2, [6, 6])


@pytest.mark.django_db(transaction=True)  # real commits
def test_a_committed_append_is_kept_parsed_as_a_read_back_gives_it(
    moon_game: Game, now: datetime
) -> None:
    game = moon_game
    record(game, now, 0, bidder=1, bid=4, trump="hearts", tricks=[2, 4], by="Ann")
    with CaptureQueriesContext(connection) as queries:
        record(game, now, 1, bidder=2, bid=4, trump="spades", tricks=[4, 2])
    reads = [
        sql
        for sql in (q["sql"] for q in queries)
        if sql.startswith("SELECT") and "gameevent" in sql
    ]
    assert reads == []  # event 1 was not fetched again
    kept = game_log(game).entries
    _ENTRIES.clear()
    assert game_log(game).entries == kept == load(game).entries and len(kept) == 2


def test_void_and_correct_append_events_and_history_stays(
    moon_game: Game, now: datetime
) -> None:
    record(moon_game, now, 0, bidder=1, bid=4, trump="hearts", tricks=[2, 4])
    record(moon_game, now, 1, bidder=2, bid=4, trump="spades", tricks=[4, 2])
    corrected = services.hand_correct(
        game=moon_game,
        expected_seq=2,
        target=1,
        now=now,
        hand=HandRecorded(1, 4, "hearts", (1, 5)),
    )
    assert corrected.board.totals == (5, 6)
    voided = services.hand_void(
        game=moon_game, expected_seq=3, target=2, reason="oops", now=now
    )
    assert voided.board.totals == (1, 4)
    assert [event.type for event in GameEvent.objects.order_by("seq")] == [
        "hand",
        "hand",
        "correct",
        "void",
    ]


def test_export_is_the_stored_log_and_reimports_to_the_same_game(
    moon_game: Game, now: datetime
) -> None:
    record(moon_game, now, 0, bidder=1, bid=4, trump="hearts", tricks=[2, 4])
    services.hand_void(
        game=moon_game, expected_seq=1, target=1, reason="wrong game", now=now
    )
    exported = services.game_export(game=moon_game)
    assert exported["events"] == [
        row.payload for row in GameEvent.objects.order_by("seq")
    ]
    again = services.game_import(document=json.dumps(exported), now=now)
    assert services.game_export(game=again) == exported
    assert (again.last_seq, again.totals) == (2, moon_game.totals)


def test_an_import_with_one_illegal_event_is_refused_whole(
    db: None, now: datetime
) -> None:
    document = json.dumps(
        log_document(
            "moon-42",
            {
                "type": "hand",
                "bidder": 1,
                "bid": 4,
                "trump": "hearts",
                "tricks": [2, 4],
            },
            {
                "type": "hand",
                "bidder": 2,
                "bid": 4,
                "trump": "clubs",
                "conceded": {"free_tricks": 0},
            },
        )
    )
    with pytest.raises(LogError, match="event 2: with clubs trump"):
        services.game_import(document=document, now=now)
    assert Game.objects.count() == 0 and GameEvent.objects.count() == 0


def test_imported_overrides_and_times_are_kept(db: None, now: datetime) -> None:
    document = json.dumps(
        log_document(
            {"preset": "moon-42", "pepper_round_hands": 0},
            {"type": "hand", "passed_out": True, "at": "2026-11-01T19:00:00"},
            first_dealer=2,
        )
    )
    game = services.game_import(document=document, by="importer", now=now)
    assert game.overrides == {"pepper_round_hands": 0}
    event = GameEvent.objects.get(game=game)
    assert event.recorded_at.isoformat() == "2026-11-01T19:00:00+00:00"
    assert event.recorded_by == "importer" and len(event.event_id) == 32
    assert load(game).variant.pepper_round_hands == 0


def test_game_create_refuses_bad_setups_clearly(db: None, now: datetime) -> None:
    with pytest.raises(
        services.SetupError, match="moon-42 is played by 4 players, not 3"
    ):
        services.game_create(
            preset="moon-42", seats=["A", "B", "C"], first_dealer=0, now=now
        )
    with pytest.raises(services.SetupError, match="two seats have the same name"):
        services.game_create(
            preset="classic", seats=["A", "a"], first_dealer=0, now=now
        )
    with pytest.raises(
        services.SetupError, match="first dealer must be one of the players"
    ):
        services.game_create(
            preset="classic", seats=["A", "B"], first_dealer=2, now=now
        )
    with pytest.raises(services.SetupError, match="target_score must be"):
        services.game_create(
            preset="classic",
            seats=["A", "B"],
            first_dealer=0,
            overrides={"target_score": 0},
            now=now,
        )
    assert Game.objects.count() == 0


NOW_TEXT = "2026-11-25T09:00:00+00:00"
AUCTION = ((1, "pass"), (2, 3), (3, 4), (0, "pass"), (2, "pass"))
STORED_EVENTS = {
    "played, with its auction": HandRecorded(3, 4, "spades", (4, 2), None, AUCTION),
    "conceded": HandRecorded(1, "little-pepper", "hearts", None, 1),
    "passed out, with its auction": HandPassedOut(((1, "pass"), (2, "pass"))),
    "passed out": HandPassedOut(),
    "voided, with a reason": HandVoided(2, "misdeal"),
    "voided": HandVoided(2, ""),
    "corrected": HandCorrected(1, HandRecorded(0, 2, "no-trump", (6, 0))),
    "ended, with a reason": GameEnded("time"),
    "ended": GameEnded(""),
}


@pytest.mark.parametrize("event", STORED_EVENTS.values(), ids=STORED_EVENTS.keys())
@pytest.mark.parametrize("by, note", [("Ann", None), (None, "a typo"), (None, None)])
def test_an_entry_as_appended_is_the_entry_its_stored_form_reads_back_as(
    event: Any, by: str | None, note: str | None
) -> None:
    """The read model keeps the entry appended as the process's copy of the
    log (not a parse of what was stored), and the store reads its stored
    form back without validating it again: each kind of event, as the
    services build it, reads back from its stored document as itself."""
    entry = LogEntry(event, "e7", NOW_TEXT, by, note)
    stored = json.loads(json.dumps(event_document(entry)))  # as the column returns it
    assert parse_entry(stored, 7) == entry
    assert stored_entry(stored) == entry  # read back, trusted, as the store reads it


def test_appends_rolled_back_leave_nothing_kept_in_the_process(
    moon_game: Game, now: datetime
) -> None:
    """Several appends in one transaction (a paper card) read each other
    uncommitted: when it rolls back, no read of the game, in this thread
    or another of the process, is served the hands that never were."""
    from django.db import transaction

    from scorekeeper.projections import boards

    class Undone(Exception):
        pass

    with pytest.raises(Undone), transaction.atomic():
        for seq, bidder in ((0, 1), (1, 2)):
            services.hand_record(
                game=moon_game,
                expected_seq=seq,
                bidder=bidder,
                bid=4,
                trump="hearts",
                tricks=[2, 4],
                now=now,
            )
        raise Undone
    fresh = Game.objects.get(pk=moon_game.pk)
    assert fresh.last_seq == 0
    assert boards.game_log(fresh).entries == ()
