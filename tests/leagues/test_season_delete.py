"""An organizer deletes a season: its nights and games go, the league's
ratings are those of its other games, and no page shows a cached number
of the deleted season."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks as CaptureCallbacks

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.deletion import season_delete
from scorekeeper.leagues.interchange import season_import
from scorekeeper.leagues.models import League, Night, Player, Rating, Season
from scorekeeper.leagues.rated_games import ratings_refresh
from scorekeeper.models import Game, GameEvent
from tests.leagues.nights import play_out, progressive_night
from tests.leagues.test_season_import import MIXED
from tests.records import NOW

pytestmark = pytest.mark.django_db


def _played(season: Season) -> Night:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(5), now=NOW)
    for table in first.tables.select_related("game"):
        play_out(table.game)
    rounds.night_close(night=night, by="org", now=NOW)
    return night


def _ratings(league: League) -> dict[str, tuple[float | None, float | None, int]]:
    return {
        p.name: (p.mu, p.sigma, p.rated_games)
        for p in Player.objects.filter(league=league)
    }


def test_deleting_a_season_leaves_the_league_as_if_it_never_was(
    season: Season,
    league: League,
    django_capture_on_commit_callbacks: CaptureCallbacks,
) -> None:
    night = _played(season)
    ratings_refresh(league)
    before = _ratings(league)
    games = Game.objects.count()
    imported = season_import(league=league, text=MIXED, now=NOW)
    later = services.season_create(
        league=league, name="Later", preset="classic", now=NOW
    )
    _played(later)  # the same players again, after the imported season
    ratings_refresh(league)
    assert _ratings(league) != before
    with django_capture_on_commit_callbacks(execute=True) as asked:
        season_delete(season=imported)
        season_delete(season=later)
    assert asked  # the worker redoes the ratings, once each deletion commits
    assert Season.objects.get() == season and Night.objects.get() == night
    assert Game.objects.count() == games
    assert GameEvent.objects.filter(game__table=None).count() == 0
    after = _ratings(league)
    assert {name: after[name] for name in before} == before
    assert Rating.objects.filter(league=league).count() == games


def test_the_pages_after_a_deletion_show_no_cached_number_of_it(
    client: Client, organizer: User, season: Season, league: League
) -> None:
    """The league's game counts come back to an earlier value after a
    deletion: a cache keyed on them alone would show the old page."""
    client.force_login(organizer)
    _played(season)
    player = Player.objects.filter(seats__isnull=False).first()
    assert player is not None
    first = client.get(f"/players/{player.pk}/").context["all_games"]
    other = services.season_create(
        league=league, name="Other", preset="classic", now=NOW
    )
    exported = json.loads(client.get(f"/seasons/{season.pk}/season.json").content)
    season_delete(season=season)
    assert client.get(f"/players/{player.pk}/").context["all_games"] == 0
    copy = season_import(league=league, text=json.dumps(exported), now=NOW)
    assert client.get(f"/players/{player.pk}/").context["all_games"] == first
    season_delete(season=copy)
    response = client.get(f"/players/{player.pk}/")
    assert response.context["all_games"] == 0 and response.context["seasons"] == []
    assert client.get(f"/seasons/{other.pk}/").status_code == 200
    assert client.get(f"/seasons/{copy.pk}/").status_code == 404
