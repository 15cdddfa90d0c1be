"""A night of 80 through its services: two rooms on one date, the
league's time zone, everyone from last night checked in at once, and a
3-handed table instead of sit-outs."""

from __future__ import annotations

import json
import random
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.checkin import (
    AWAY,
    HERE,
    LEFT,
    arrivals,
    by_letter,
    check_in_last_night,
    previous_night,
)
from scorekeeper.leagues.interchange import season_export, season_import
from scorekeeper.leagues.local_time import league_time_zone_set
from scorekeeper.leagues.models import League, Night, Player, Season
from scorekeeper.leagues.season import parse_season
from scorekeeper.leagues.services import LeagueError
from scorekeeper.leagues.standings import standings
from tests.leagues.nights import NAMES, play_hand, play_out, progressive_night
from tests.records import NOW

pytestmark = pytest.mark.django_db
THURSDAY, NEXT = date(2026, 11, 19), date(2026, 11, 26)


def _night(season: Season, day: date = NEXT, label: str = "") -> Night:
    return services.night_create(
        season=season, day=day, format=Night.PROGRESSIVE, label=label, now=NOW
    )


def test_two_rooms_play_on_one_date_told_apart_by_their_label(season: Season) -> None:
    front = _night(season, THURSDAY)
    back = _night(season, THURSDAY, "  Back   room ")
    assert back.label == "Back room" and front.label == ""
    assert str(back).endswith("2026-11-19 Back room")
    with pytest.raises(LeagueError, match="already has a night on 2026-11-19: give"):
        _night(season, THURSDAY)
    with pytest.raises(LeagueError, match="called Back room"):
        _night(season, THURSDAY, "Back room")
    assert list(season.nights.all()) == [front, back]


def test_a_league_plays_in_its_own_time_zone(league: League) -> None:
    assert league.time_zone == "UTC"  # settings.TIME_ZONE, by default
    league_time_zone_set(league=league, zone="Europe/Oslo")
    league.refresh_from_db()
    assert league.time_zone == "Europe/Oslo"
    with pytest.raises(LeagueError, match="no time zone is called Mars/Olympus"):
        league_time_zone_set(league=league, zone="Mars/Olympus")
    league.refresh_from_db()
    assert league.time_zone == "Europe/Oslo"


def test_everyone_from_last_night_is_checked_in_with_one_tap(season: Season) -> None:
    last = progressive_night(season, THURSDAY)  # all nine
    ann = Player.objects.get(name="Ann")
    services.check_out(night=last, player=ann)  # left early: still came
    services.player_add(league=season.league, name="Zed")  # never came
    tonight = _night(season)
    bob = Player.objects.get(name="Bob")
    services.check_in(night=tonight, player=bob, now=NOW)
    services.check_out(night=tonight, player=bob)
    assert previous_night(tonight) == last
    assert check_in_last_night(night=tonight, now=NOW) == 9  # Bob had left
    here = set(
        tonight.checkins.filter(present=True).values_list("player__name", flat=True)
    )
    assert here == set(NAMES)
    assert check_in_last_night(night=tonight, now=NOW) == 0  # twice: no change


def test_the_first_night_has_no_last_night_to_copy(season: Season) -> None:
    first = _night(season, THURSDAY)
    with pytest.raises(LeagueError, match="first night"):
        check_in_last_night(night=first, now=NOW)
    assert not first.checkins.exists()


def test_last_night_is_the_same_rooms_when_there_is_one(season: Season) -> None:
    _night(season, THURSDAY)
    back = _night(season, THURSDAY, "Back room")
    assert previous_night(_night(season, NEXT, "Back room")) == back
    assert previous_night(_night(season, NEXT, "Attic")).date == THURSDAY  # type: ignore[union-attr]


def test_names_come_sorted_by_letter_with_their_state(season: Season) -> None:
    league = season.league
    night = progressive_night(season, THURSDAY)
    for name in ["Đặng", "émile", "Ørjan"]:
        services.player_add(league=league, name=name)
    services.check_out(night=night, player=Player.objects.get(name="Ann"))
    listed = arrivals(night, list(league.players.all()))
    names = [each.player.name for each in listed]
    assert names.index("Dan") < names.index("Đặng") < names.index("Eve")
    assert names.index("émile") < names.index("Fay")
    assert names[-1] == "Ørjan" or names.index("Ørjan") > names.index("Hal")
    states = {each.player.name: each.state for each in listed}
    assert (states["Ann"], states["Bob"], states["Ørjan"]) == (LEFT, HERE, AWAY)
    found = by_letter(listed, "dang")
    assert [(letter, [e.player.name for e in group]) for letter, group in found] == [
        ("D", ["Đặng"])
    ]
    assert [letter for letter, _ in by_letter(listed)][:5] == ["A", "B", "C", "D", "E"]


def test_a_round_may_seat_a_three_handed_classic_table_instead_of_sit_outs(
    league: League,
) -> None:
    moon = services.season_create(
        league=league,
        name="Moon",
        preset="moon-42",
        overrides={"hand_limit": 6},
        now=NOW,
    )
    night = progressive_night(moon, THURSDAY)
    services.check_out(night=night, player=Player.objects.get(name="Ivy"))
    services.check_out(night=night, player=Player.objects.get(name="Hal"))  # 7 here
    first = rounds.round_start(
        night=night, rng=random.Random(1), now=NOW, three_handed=True
    )
    assert first.sitting_out.count() == 0
    games = {len(t.game.seats): t.game for t in first.tables.select_related("game")}
    assert sorted(games) == [3, 4]
    assert (games[3].preset, games[3].overrides) == ("classic", {"hand_limit": 6})
    assert (games[4].preset, games[4].overrides) == ("moon-42", {"hand_limit": 6})
    play_hand(games[3])
    play_hand(games[4])
    rounds.round_call(round=first, by="org", now=NOW)
    second = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    assert second.sitting_out.count() == 3  # the usual way, when not asked


def test_a_fixed_team_night_seats_no_three_handed_table(season: Season) -> None:
    night = services.night_create(
        season=season, day=THURSDAY, format=Night.FIXED, now=NOW
    )
    for player in season.league.players.all()[:6]:
        services.check_in(night=night, player=player, now=NOW)
    with pytest.raises(LeagueError, match="no 3-handed tables"):
        rounds.round_start(
            night=night, rng=random.Random(1), now=NOW, three_handed=True
        )
    assert not night.rounds.exists()


def test_two_rooms_of_one_date_export_as_one_night_of_the_contract(
    season: Season, organizer: User
) -> None:
    front = _night(season, THURSDAY)
    back = _night(season, THURSDAY, "Back room")
    players = list(season.league.players.all())
    for night, group in ((front, players[:4]), (back, players[4:8])):
        for player in group:
            services.check_in(night=night, player=player, now=NOW)
        first = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
        play_hand(first.tables.get().game)
        rounds.night_close(night=night, by="org", now=NOW)
    document: Any = season_export(season=season)
    [exported] = document["nights"]
    assert exported["date"] == "2026-11-19"
    assert [(g["round"], g["table"]) for g in exported["games"]] == [(1, 1), (1, 2)]
    parsed = parse_season(document)  # the contract's reading: valid
    rows = standings(parsed)["nights"][0]["rows"]  # type: ignore[index]
    assert len(rows) == 8  # each player's night as it was in their room
    elsewhere = services.league_create(name="Friday", organizer=organizer, now=NOW)
    again = season_import(league=elsewhere, text=json.dumps(document), now=NOW)
    assert season_export(season=again)["nights"] == document["nights"]


def test_a_three_handed_table_counts_each_player_for_himself(
    client: Client, league: League, organizer: User
) -> None:
    """Each game is read under its own rules (main's results): a 3-handed
    classic table of a moon-42 season counts its three sides apart, on the
    night's standings, the desk's live ones, the season and a player."""
    moon = services.season_create(
        league=league,
        name="Moon",
        preset="moon-42",
        overrides={"hand_limit": 2},
        now=NOW,
    )
    night = progressive_night(moon, THURSDAY)
    for name in ["Hal", "Ivy"]:
        services.check_out(night=night, player=Player.objects.get(name=name))
    first = rounds.round_start(
        night=night, rng=random.Random(1), now=NOW, three_handed=True
    )
    three = next(t for t in first.tables.all() if len(t.game.seats) == 3)
    play_out(three.game)  # the first bidder's side makes 6 of 8, twice
    three.game.refresh_from_db()
    winner = three.game.winners
    assert len(winner) == 1 and three.game.finished
    client.force_login(organizer)
    rows = {
        row.name: row.tally
        for row in client.get(f"/nights/{night.pk}/").context["rows"]
    }
    totals = three.game.totals
    for seat, name in enumerate(three.game.seats):
        others = max(t for side, t in enumerate(totals) if side != seat)
        assert rows[name]["played"] == 1
        assert rows[name]["won"] == int(seat in winner)
        assert (rows[name]["points"], rows[name]["margin"]) == (
            totals[seat],
            totals[seat] - others,
        )
    assert len(rows) == 3  # the table of 4 has not finished
    desk = client.get(f"/nights/{night.pk}/desk").content.decode()
    assert "3-handed classic" in desk
    assert client.get(f"/seasons/{moon.pk}/").status_code == 200
    player = Player.objects.get(name=three.game.seats[0])
    assert client.get(f"/players/{player.pk}/").status_code == 200
