"""Issue 24, item 4: a merge of two entries of one person carries every
reference to the merged entry (fixed teams, sit-outs, check-ins, seats,
ratings), so nothing still names an id that no longer exists."""

from __future__ import annotations

import json
import random
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.db import models
from django.test import Client

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import CheckIn, League, Night, Player, Rating, Season
from scorekeeper.leagues.rated_games import ratings_refresh
from scorekeeper.models import Game
from tests.leagues.nights import play_out
from tests.records import NOW

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


def _six_seat_night(league: League, teams: bool) -> Night:
    """A bid-euchre night at 6-seat tables, fixed teams, six players here;
    ``teams``: entered by hand (else drawn when the first round starts)."""
    season = services.season_create(
        league=league, name="Six", preset="bid-euchre", seats=6, now=NOW
    )
    night = services.night_create(
        season=season, day=date(2026, 11, 20), format=Night.FIXED, now=NOW
    )
    here = list(league.players.order_by("name")[:6])
    for player in here:
        services.check_in(night=night, player=player, now=NOW)
    if teams:
        services.teams_enter(
            night=night, teams=[[p.pk for p in here[:3]], [p.pk for p in here[3:]]]
        )
    return night


def test_a_team_member_merged_into_another_entry_keeps_the_night_working(
    signed_in: Client, league: League
) -> None:
    night = _six_seat_night(league, teams=True)
    member = Player.objects.get(name="Ann")
    twin = services.player_add(league=league, name="Ann B.")  # not here tonight
    services.player_merge(keep=twin, merge=member)
    night.refresh_from_db()
    assert [str(twin.pk) in team for team in night.teams] == [True, False]
    assert str(member.pk) not in json.dumps(night.teams)
    assert signed_in.get(f"/nights/{night.pk}/").status_code == 200
    started = signed_in.post(f"/nights/{night.pk}/rounds", {"number": "1"})
    assert started.status_code == 302
    seated = Game.objects.get(table__round__night=night).seats
    assert "Ann B." in seated and "Ann" not in seated
    assert signed_in.get(f"/nights/{night.pk}/").status_code == 200


def test_two_entries_in_one_nights_teams_are_two_people(league: League) -> None:
    night = _six_seat_night(league, teams=True)
    ann, bob = Player.objects.get(name="Ann"), Player.objects.get(name="Bob")
    with pytest.raises(services.LeagueError, match="two people"):
        services.player_merge(keep=ann, merge=bob)
    night.refresh_from_db()
    assert str(bob.pk) in json.dumps(night.teams)


def test_two_entries_in_one_round_at_different_tables_are_two_people(
    season: Season,
) -> None:
    night = services.night_create(
        season=season, day=date(2026, 11, 19), format=Night.PROGRESSIVE, now=NOW
    )
    for player in season.league.players.all():
        services.check_in(night=night, player=player, now=NOW)
    played = rounds.round_start(night=night, rng=random.Random(4), now=NOW)
    first, second = played.tables.all()[:2]
    a, b = first.seats.first(), second.seats.first()
    assert a is not None and b is not None
    with pytest.raises(services.LeagueError, match="one round"):
        services.player_merge(keep=a.player, merge=b.player)


def _references_to(player_id: int) -> list[str]:
    """Every row that still names ``player_id``: a foreign key or a
    many-to-many to Player in any model, the fixed teams, the ratings."""
    found = []
    for model in (m for m in models.Model.__subclasses__() if not m._meta.abstract):
        for field in model._meta.get_fields():
            if getattr(field, "related_model", None) is not Player:
                continue
            if field.many_to_many and not field.auto_created:
                rows = model.objects.filter(**{field.name: player_id})  # type: ignore[attr-defined]
            elif field.many_to_one and field.concrete:
                rows = model.objects.filter(**{field.attname: player_id})  # type: ignore[attr-defined]
            else:
                continue
            if rows.exists():
                found.append(f"{model.__name__}.{field.name}")
    if any(str(player_id) in team for n in Night.objects.all() for team in n.teams):
        found.append("Night.teams")
    if any(f"p{player_id}" in r.skills for r in Rating.objects.all()):
        found.append("Rating.skills")
    return found


def test_after_a_merge_nothing_names_the_merged_entry(league: League) -> None:
    night = _six_seat_night(league, teams=False)
    played = rounds.round_start(night=night, rng=random.Random(2), now=NOW)
    for table in played.tables.select_related("game"):
        play_out(table.game)
    rounds.night_close(night=night, by="org", now=NOW)
    ratings_refresh(league)
    member = Player.objects.get(name="Cat")
    merged_id = member.pk  # a deleted row's instance forgets its id
    named = _references_to(merged_id)
    assert {"CheckIn.player", "Seat.player", "Night.teams", "Rating.skills"} <= set(
        named
    )
    twin = services.player_add(league=league, name="Catherine")
    services.player_merge(keep=twin, merge=member)
    league.refresh_from_db()
    ratings_refresh(league)  # as the next page does
    assert _references_to(merged_id) == []
    assert CheckIn.objects.filter(night=night, player=twin).exists()
    merged = list(Rating.objects.values_list("skills", flat=True))
    ratings_refresh(league, rebuild=True)
    assert list(Rating.objects.values_list("skills", flat=True)) == merged
