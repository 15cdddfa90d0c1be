"""No league-wide work inside a request: a league's ratings are brought up
to date by the worker (``tasks.ratings_bring_up_to_date``, run by the real
``db_worker`` command here), never by a page view or by the change's own
POST. Meanwhile the pages show the ratings as of the last rated game and
say they are being brought up to date; once the worker has run, the
ratings equal a rebuild from scratch and the notice is gone."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date, timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scorekeeper.leagues import services, tasks
from scorekeeper.leagues.models import League, Night, Player, Rating, Season
from scorekeeper.leagues.rated_games import ratings_refresh, ratings_version
from scorekeeper.models import Game
from tests.leagues.nights import closed_night, void_first_hand

NOTICE = "The ratings are being brought up to date"


def _nights(season: Season, count: int = 3) -> list[Night]:
    return [closed_night(season, date(2026, 1, 1 + 7 * n), n) for n in range(count)]


def _first_game(night: Night) -> Game:
    return night.rounds.get(number=1).tables.get(number=1).game


def _stored(league: League) -> tuple[list[Any], list[Any]]:
    """Every stored rating and every player's current one."""
    ratings = Rating.objects.filter(league=league).order_by("position")
    players = Player.objects.filter(league=league).order_by("pk")
    return (
        list(ratings.values_list("position", "game", "seq", "skills")),
        list(players.values_list("pk", "mu", "sigma", "rated_games")),
    )


def _as_a_rebuild_gives(league: League) -> None:
    running = _stored(league)
    ratings_refresh(league, rebuild=True)
    assert _stored(league) == running


@pytest.fixture
def no_rating_here() -> Iterator[None]:
    """Any rating inside the test's requests fails the test."""

    def refused(*args: object, **kwargs: object) -> int:
        raise AssertionError("the ratings were redone inside a request")

    with mock.patch.object(tasks, "ratings_refresh", refused):
        yield


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_an_early_correction_is_rated_by_the_worker_as_a_rebuild_would(
    client: Client,
    organizer: User,
    season: Season,
    worker: Callable[[], None],
) -> None:
    """A correction in night 1 of three closed nights: the season's and a
    player's pages say the ratings are being brought up to date, and rate
    nothing; the worker, started by its command, redoes them from that
    game on; the pages then show them without the notice."""
    client.force_login(organizer)
    nights = _nights(season)
    worker()
    league = season.league
    assert ratings_version(league) == League.objects.get().rated_version
    before = _stored(league)
    game = _first_game(nights[0])
    void_first_hand(game, organizer)  # commits, and asks the worker
    assert DBTaskResult.objects.ready().count() >= 1
    player = game.table.seats.get(position=0).player
    season_url, player_url = f"/seasons/{season.pk}/", f"/players/{player.pk}/"
    with mock.patch.object(
        tasks, "ratings_refresh", side_effect=AssertionError("rated in a request")
    ):
        assert NOTICE in _page(client, season_url)
        assert NOTICE in _page(client, player_url)
    assert _stored(league) == before  # as of the last rated game
    worker()
    assert not DBTaskResult.objects.ready().exists()
    assert _stored(league) != before
    assert NOTICE not in _page(client, season_url)
    assert NOTICE not in _page(client, player_url)
    _as_a_rebuild_gives(league)


@pytest.mark.django_db
def test_a_page_view_after_an_early_correction_does_no_rating(
    client: Client,
    organizer: User,
    season: Season,
    worker: Callable[[], None],
    no_rating_here: None,
) -> None:
    """Whatever the games after the change, the first view of the season
    and of a player rates nothing, in as many queries as after a change to
    the last night. (The change's own commit queues the task; here, in the
    test's transaction, it never commits: the first page finds none
    waiting and queues it, the second finds it waiting and writes
    nothing.)"""
    client.force_login(organizer)
    nights = _nights(season)
    ratings_refresh(season.league)
    player = _first_game(nights[0]).table.seats.get(position=0).player
    urls = (f"/seasons/{season.pk}/", f"/players/{player.pk}/")
    counts = []
    for night in (nights[-1], nights[0]):  # a late change, then an early one
        void_first_hand(_first_game(night), organizer)
        for url in urls:
            with CaptureQueriesContext(connection) as first:
                assert NOTICE in _page(client, url)
            counts.append(len(first))
        with mock.patch.object(tasks, "ratings_refresh", ratings_refresh):
            worker()
    season_late, player_late, season_early, player_early = counts
    assert (season_early, player_early) == (season_late, player_late)
    assert season_early <= 14 and player_early <= 18  # the season's log: +1
    assert DBTaskResult.objects.count() == 2  # one a change: the pages asked once


@pytest.mark.django_db
def test_the_public_page_says_so_and_stops_saying_so_once_rated(
    client: Client,
    organizer: User,
    season: Season,
    worker: Callable[[], None],
) -> None:
    nights = _nights(season, 2)
    ratings_refresh(season.league)
    token = services.season_link_new(season=season)
    assert NOTICE not in _page(client, f"/standings/{token}")
    void_first_hand(_first_game(nights[0]), organizer)
    assert NOTICE in _page(client, f"/standings/{token}")
    assert NOTICE in _page(client, f"/standings/{token}")  # kept as it is
    worker()
    assert NOTICE not in _page(client, f"/standings/{token}")


@pytest.mark.django_db
def test_a_task_enqueued_many_times_rates_each_change_once(
    organizer: User, season: Season, worker: Callable[[], None]
) -> None:
    """A correction, then another, each queued again by a page: every task
    runs; the first does the work, the rest find nothing to do."""
    nights = _nights(season)
    ratings_refresh(season.league)
    league = season.league
    for night in nights[:2]:
        void_first_hand(_first_game(night), organizer)
    for _ in range(3):
        tasks.ratings_bring_up_to_date.enqueue(league.pk)
    worker()
    done = DBTaskResult.objects.order_by("enqueued_at")
    rated = [each.return_value for each in done.successful()]
    assert len(rated) == done.count() and rated[-3] > 0 and rated[-2:] == [0, 0]
    _as_a_rebuild_gives(league)


@pytest.mark.django_db
def test_a_change_that_lands_while_the_task_runs_is_not_lost(
    organizer: User, season: Season, worker: Callable[[], None]
) -> None:
    """While the worker re-rates after one correction, another lands (and
    its own task is lost): the task looks again at its end and takes it
    in; the ratings then equal a rebuild."""
    nights = _nights(season)
    ratings_refresh(season.league)
    league = season.league
    void_first_hand(_first_game(nights[1]), organizer)
    DBTaskResult.objects.all().delete()
    landed: list[str] = []

    def refresh_then_change(league: League, **kwargs: bool) -> int:
        rated = ratings_refresh(league, **kwargs)
        if not landed:
            void_first_hand(_first_game(nights[0]), organizer)
            DBTaskResult.objects.ready().delete()  # its own task lost
            landed.append(ratings_version(league))
        return rated

    with mock.patch.object(tasks, "ratings_refresh", refresh_then_change):
        tasks.ratings_bring_up_to_date.enqueue(league.pk)
        worker()
    league.refresh_from_db()
    assert landed and league.rated_version == ratings_version(league) == landed[0]
    _as_a_rebuild_gives(league)


@pytest.mark.django_db
def test_a_task_left_running_by_a_stopped_worker_is_asked_for_again(
    client: Client,
    organizer: User,
    season: Season,
    worker: Callable[[], None],
) -> None:
    """A task the worker is running stops the pages from asking again; one
    "running" for longer than a re-rating takes (its worker was stopped in
    its middle) does not, and the ratings are brought up to date."""
    client.force_login(organizer)
    nights = _nights(season, 2)
    league = season.league
    ratings_refresh(league)
    void_first_hand(_first_game(nights[0]), organizer)
    claimed = tasks.ratings_bring_up_to_date.enqueue(league.pk)
    running = DBTaskResult.objects.filter(id=claimed.id)
    running.update(status="RUNNING", started_at=timezone.now())
    assert NOTICE in _page(client, f"/seasons/{season.pk}/")
    assert not DBTaskResult.objects.ready().exists()  # it runs: nothing asked
    running.update(started_at=timezone.now() - tasks.STUCK - timedelta(seconds=1))
    assert NOTICE in _page(client, f"/seasons/{season.pk}/")
    assert DBTaskResult.objects.ready().count() == 1  # asked again
    worker()
    assert NOTICE not in _page(client, f"/seasons/{season.pk}/")
    _as_a_rebuild_gives(league)
