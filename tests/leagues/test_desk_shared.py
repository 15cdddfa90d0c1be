"""The night's screens share what a change makes them compute (the live
standings and the round's rows, in the cache under the night's version):
the desk's poll after a hand computes them, the TV's finds them; and the
version moves with every change the screens show, a credited substitute
(which adds no hand) included."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper.games import services as game_services
from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night, Season, Table
from scorekeeper.leagues.screens import version
from scorekeeper.models import Game
from scorekeeper.rules.events import HandRecorded
from tests.leagues.nights import newcomer, play_hand, take_over, three_tables
from tests.leagues.test_desk_poll import _rows, _state
from tests.records import HTMX

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(client: Client, organizer: User, season: Season) -> Night:
    return three_tables(client, organizer, season)


def _table(night: Night) -> Table:
    found = Table.objects.filter(round__night=night).select_related("game").first()
    assert found is not None
    return found


def _poll(client: Client, night: Night, screen: str, held: dict[str, str]) -> str:
    response = client.get(f"/nights/{night.pk}/{screen}", held, headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def test_the_tv_finds_what_the_desk_computed_for_the_same_change(
    client: Client, night: Night
) -> None:
    desk = _state(client.get(f"/nights/{night.pk}/desk").content.decode())
    tv = _state(client.get(f"/nights/{night.pk}/tv").content.decode())
    changed = _table(night)
    play_hand(changed.game)
    Game.objects.filter(pk=changed.game_id).update(updated_at=timezone.now())
    with CaptureQueriesContext(connection) as by_desk:
        _poll(client, night, "desk", desk)
    with CaptureQueriesContext(connection) as by_tv:
        shared = _poll(client, night, "tv", tv)
    # no standings, seats, rows or who has not sat down read
    assert len(by_tv) == len(by_desk) - 6
    assert _rows(shared) == [str(changed.pk)]
    assert '<section id="tv-standings"' in shared
    cache.clear()
    assert _poll(client, night, "tv", tv) == shared  # as computed afresh


def _saved(night: Night, table: Table, organizer: User) -> None:
    play_hand(table.game)


def _voided(night: Night, table: Table, organizer: User) -> None:
    game = Game.objects.get(pk=table.game_id)
    game_services.hand_void(
        game=game, expected_seq=game.last_seq, target=1, now=timezone.now()
    )


def _corrected(night: Night, table: Table, organizer: User) -> None:
    game = Game.objects.get(pk=table.game_id)
    game_services.hand_correct(
        game=game,
        expected_seq=game.last_seq,
        target=1,
        hand=HandRecorded(1, 4, "hearts", (1, 5)),
        now=timezone.now(),
    )


def _ended(night: Night, table: Table, organizer: User) -> None:
    game = Game.objects.get(pk=table.game_id)
    game_services.game_end(game=game, expected_seq=game.last_seq, now=timezone.now())


def _called(night: Night, table: Table, organizer: User) -> None:
    rounds.round_call(round=table.round, by="org", now=timezone.now())


def _closed(night: Night, table: Table, organizer: User) -> None:
    rounds.night_close(night=night, by="org", now=timezone.now())


def _left(night: Night, table: Table, organizer: User) -> None:
    seat = table.seats.order_by("position").first()
    assert seat is not None
    services.check_out(night=night, player=seat.player)


CHANGES: dict[str, Callable[[Night, Table, User], None]] = {
    "a hand saved": _saved,
    "a hand voided": _voided,
    "a hand corrected": _corrected,
    "a game ended": _ended,
    "the round called": _called,
    "the night closed": _closed,
    "a player gone home": _left,
}


@pytest.mark.parametrize("change", CHANGES)
def test_every_change_the_screens_show_moves_their_version(
    night: Night, organizer: User, change: str
) -> None:
    table = _table(night)
    play_hand(table.game)
    table.game.refresh_from_db()
    before = version(night.pk, organizer.pk)
    assert before == version(night.pk, organizer.pk)  # nothing new: the same
    CHANGES[change](night, table, organizer)
    assert version(night.pk, organizer.pk) != before


def test_a_credited_substitute_moves_the_version_the_screens_poll(
    client: Client, night: Night, organizer: User
) -> None:
    table = _table(night)
    play_hand(table.game)
    zed = newcomer(night, now=timezone.now())
    before = version(night.pk, organizer.pk)  # a check-in moves it too
    take_over(table, zed, now=timezone.now())
    assert version(night.pk, organizer.pk) != before
