"""The round clock: a round's end shown on the desk and the TV (in the
league's time zone, counted down by a script, the end time without one),
and the round called by the task worker at its end when the organizer
asked; called once whoever comes first."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.tasks import TaskResultStatus
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scorekeeper.leagues import round_clock, rounds
from scorekeeper.leagues.local_time import league_time_zone_set
from scorekeeper.leagues.models import Night, Round, Season
from scorekeeper.models import GameEvent
from tests.leagues.nights import play_hand, play_out, progressive_night
from tests.records import NOW

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


def _timed(night: Night, now: datetime, auto_call: bool = True) -> Round:
    """Round 1 of 30 minutes, a hand played at each table: all unfinished."""
    played = rounds.round_start(
        night=night, rng=random.Random(4), now=now, minutes=30, auto_call=auto_call
    )
    round_clock.round_clock_ask(played=played)
    for table in played.tables.select_related("game"):
        play_hand(table.game)
    return played


def _ends(played: Round) -> int:
    return GameEvent.objects.filter(game__table__round=played, type="end").count()


@pytest.mark.django_db(transaction=True)
def test_the_worker_calls_the_round_once_its_time_is_up(
    season: Season, worker: Callable[[], None]
) -> None:
    played = _timed(progressive_night(season), NOW)  # its end is long past
    queued = DBTaskResult.objects.get(
        task_path=round_clock.round_call_when_due.module_path
    )
    assert queued.run_after == played.ends_at
    worker()
    played.refresh_from_db()
    assert played.called_at is not None
    assert _ends(played) == played.tables.count()
    ended = GameEvent.objects.filter(game__table__round=played, type="end").first()
    assert ended is not None and ended.recorded_by == round_clock.CLOCK


@pytest.mark.django_db(transaction=True)
def test_the_worker_leaves_a_round_whose_time_is_not_up(
    season: Season, worker: Callable[[], None]
) -> None:
    played = _timed(progressive_night(season), timezone.now())
    worker()  # the task waits for its time
    path = round_clock.round_call_when_due.module_path
    waiting = DBTaskResult.objects.get(task_path=path)
    assert waiting.status == TaskResultStatus.READY
    assert waiting.run_after == played.ends_at
    assert round_clock.round_call_when_due.call(played.pk) == 0  # run early
    played.refresh_from_db()
    assert played.called_at is None and _ends(played) == 0


def test_a_round_not_asked_to_be_called_is_not_queued_nor_called(
    season: Season, worker: Callable[[], None]
) -> None:
    played = _timed(progressive_night(season), NOW, auto_call=False)
    assert not DBTaskResult.objects.exists()
    assert round_clock.rounds_call_due(now=timezone.now()) == 0
    played.refresh_from_db()
    assert played.called_at is None


def test_a_round_called_by_the_organizer_first_is_left_as_it_is(
    season: Season,
) -> None:
    played = _timed(progressive_night(season), NOW)
    rounds.round_call(round=played, by="org", now=NOW)
    assert round_clock.round_call_when_due.call(played.pk) == 0
    assert _ends(played) == played.tables.count()


def test_the_command_calls_every_round_past_its_end(season: Season) -> None:
    from django.core.management import call_command

    first = _timed(progressive_night(season), NOW)
    second = _timed(progressive_night(season, NOW.date()), NOW)
    call_command("call_due_rounds", verbosity=0)
    for played in (first, second):
        played.refresh_from_db()
        assert played.called_at is not None


@pytest.mark.django_db(transaction=True)
def test_the_clock_and_the_organizer_calling_at_once_call_it_once(
    season: Season,
) -> None:
    played = _timed(progressive_night(season), NOW)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def clock() -> None:
        round_clock.rounds_call_due(now=timezone.now())

    def organizer() -> None:
        rounds.round_call(round=Round.objects.get(pk=played.pk), by="org", now=NOW)

    def run(call: Callable[[], None]) -> None:
        try:
            barrier.wait()
            call()
        except BaseException as error:  # noqa: BLE001 - said by the assert
            errors.append(error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(call,)) for call in (clock, organizer)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    played.refresh_from_db()
    assert played.called_at is not None
    assert _ends(played) == played.tables.count()  # one `end` a game, not two


def _time_in(night: Night, when: datetime | None) -> str:
    assert when is not None
    return f"{when.astimezone(ZoneInfo(night.season.league.time_zone)):%H:%M}"


@pytest.mark.parametrize("screen", ["desk", "tv"])
def test_the_screens_show_the_round_s_end_in_the_league_s_time(
    signed_in: Client,
    season: Season,
    screen: str,
    django_assert_num_queries: Any,
) -> None:
    league_time_zone_set(league=season.league, zone="Europe/Oslo")
    night = progressive_night(season)
    played = _timed(night, timezone.now())
    with django_assert_num_queries(12):  # as without a clock (test_desk_poll)
        page = signed_in.get(f"/nights/{night.pk}/{screen}").content.decode()
    end = _time_in(night, played.ends_at)
    assert "Round 1 ends <time datetime=" in page
    assert f">{end}</time>" in page
    assert "called by itself then" in page
    left = int(page.split('data-left="', 1)[1].split('"', 1)[0])
    assert 29 * 60 < left <= 30 * 60
    assert "round_clock.js" in page


def test_the_clock_goes_once_the_round_is_called(
    signed_in: Client, season: Season
) -> None:
    night = progressive_night(season)
    played = _timed(night, timezone.now())
    rounds.round_call(round=played, by="org", now=timezone.now())
    page = signed_in.get(f"/nights/{night.pk}/desk").content.decode()
    assert "ends <time" not in page


def test_the_clock_leaves_a_finished_round_and_a_closed_night_alone(
    season: Season,
) -> None:
    finished = _timed(progressive_night(season), NOW)
    for table in finished.tables.select_related("game"):
        play_out(table.game)
    closed_night = progressive_night(season, NOW.date())
    closed = _timed(closed_night, NOW)
    rounds.night_close(night=closed_night, by="org", now=NOW)  # calls it
    assert round_clock.rounds_due(timezone.now()) == []
    assert round_clock.rounds_call_due(now=timezone.now()) == 0
    ended = GameEvent.objects.filter(game__table__round=closed, type="end")
    assert {event.recorded_by for event in ended} == {"org"}
    finished.refresh_from_db()
    assert finished.called_at is None  # finished, not called


@pytest.mark.django_db(transaction=True)
def test_a_start_sent_twice_queues_one_call(
    signed_in: Client, season: Season, worker: Callable[[], None]
) -> None:
    night = progressive_night(season)
    form = {"number": "1", "minutes": "30", "auto_call": "yes"}
    for _ in range(2):
        assert signed_in.post(f"/nights/{night.pk}/rounds", form).status_code == 302
    path = round_clock.round_call_when_due.module_path
    queued = DBTaskResult.objects.get(task_path=path)
    assert queued.run_after == night.rounds.get().ends_at


def test_an_undone_call_is_not_called_again_by_the_clock(
    season: Season, organizer: User
) -> None:
    """The clock called round 1 at its end; the organizer undoes the call:
    the round plays on, and the clock (past its end) leaves it alone."""
    from django.core.management import call_command

    from scorekeeper.leagues import undo

    played = _timed(progressive_night(season), NOW)
    call_command("call_due_rounds", verbosity=0)
    played.refresh_from_db()
    assert played.called_at is not None
    undo.round_call_undo(round=played, user=organizer, now=timezone.now())
    call_command("call_due_rounds", verbosity=0)
    assert round_clock.round_call_when_due.call(played.pk) == 0
    played.refresh_from_db()
    assert played.called_at is None and not played.auto_call
