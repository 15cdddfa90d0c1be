"""Each night's tallies kept as rows (``NightTally``): every write keeps
them in step with the games' rows, a rebuild from the logs finds the same
rows, and the pages read them (their queries pinned, cold and warm)."""

from __future__ import annotations

import io
import json
import random
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.interchange import season_export, season_import
from scorekeeper.leagues.models import (
    League,
    Night,
    NightProjection,
    NightTally,
    Player,
    Season,
    Seat,
)
from scorekeeper.leagues.night_rows import stale_nights
from scorekeeper.leagues.presenters import player_numbers
from scorekeeper.leagues.results import (
    player_nights,
    player_results,
    rows_of,
    season_nights,
    season_players,
    season_rows,
    season_standings,
)
from scorekeeper.leagues.season import parse_season
from scorekeeper.leagues.standings import standings
from scorekeeper.leagues.stats import player_stats
from tests.leagues.nights import (
    play_hand,
    play_out_round,
    progressive_night,
    take_over,
    void_first_hand,
)
from tests.records import NOW

pytestmark = pytest.mark.django_db


def _rows(league: League) -> list[tuple[Any, ...]]:
    """Every kept row of the league's nights, as plain values."""
    tallies = NightTally.objects.filter(night__season__league=league)
    fields = [f.name for f in NightTally._meta.fields if f.name != "id"]
    kept = NightProjection.objects.filter(night__season__league=league)
    return [
        *tallies.order_by("night", "player").values_list(*fields),
        *kept.order_by("night").values_list("night", "version", "rules"),
    ]


def _all_nights(league: League) -> list[int]:
    return list(
        Night.objects.filter(season__league=league).values_list("pk", flat=True)
    )


def _mixed_season(season: Season, organizer: User) -> None:
    """Two nights: the first with a substitute credited the whole game and a
    hand voided after closing; the second with a 3-handed classic table
    beside 4-handed ones (one season, two rule sets)."""
    first = progressive_night(season, date(2026, 1, 1))
    played = rounds.round_start(night=first, rng=random.Random(1), now=NOW)
    table = played.tables.select_related("game").first()
    assert table is not None
    play_hand(table.game)
    take_over(table, played.sitting_out.get())
    play_out_round(played)
    rounds.night_close(night=first, by="org", now=NOW)
    table.game.refresh_from_db()
    void_first_hand(table.game, organizer)
    second = progressive_night(season, date(2026, 1, 8))
    for name in ("Hal", "Ivy"):
        services.check_out(night=second, player=Player.objects.get(name=name))
    played = rounds.round_start(
        night=second, rng=random.Random(2), now=NOW, three_handed=True
    )
    assert sorted(len(t.game.seats) for t in played.tables.all()) == [3, 4]
    play_out_round(played)
    # A game still being played: no tallies, but its rules count.
    again = rounds.round_start(night=second, rng=random.Random(3), now=NOW)
    started = again.tables.select_related("game").first()
    assert started is not None
    play_hand(started.game)


def test_a_rebuild_from_the_logs_finds_the_rows_every_write_kept(
    season: Season, organizer: User
) -> None:
    _mixed_season(season, organizer)
    league = season.league
    assert stale_nights(_all_nights(league)) == []  # kept by the writes alone
    running = _rows(league)
    assert len(running) > 10
    # Spoil one row: the rebuild sums the logs, it does not copy the rows.
    NightTally.objects.filter(pk=NightTally.objects.first().pk).update(  # type: ignore[union-attr]
        points=999, bid_lines={}
    )
    NightProjection.objects.update(rules=[])
    call_command("rebuild", stdout=io.StringIO())
    assert _rows(league) == running
    # The standings read from the rows agree with the pure arithmetic of
    # the season's export (the ``standings`` command's).
    cache.clear()
    names = {str(p.pk): p.name for p in Player.objects.filter(league=league)}
    kept = season_standings(season)
    counted = standings(parse_season(season_export(season=season)))
    for mine, theirs in zip(
        kept["nights"] + [kept["season"]],  # type: ignore[operator]
        counted["nights"] + [counted["season"]],  # type: ignore[operator]
        strict=True,
    ):
        assert [{**row, "player": names[row["player"]]} for row in mine["rows"]] == [
            {**row, "name": row["player"]} for row in theirs["rows"]
        ]


def test_a_players_numbers_from_the_rows_equal_those_from_every_game(
    season: Season, organizer: User
) -> None:
    _mixed_season(season, organizer)
    for player in Player.objects.filter(seats__isnull=False).distinct():
        cache.clear()
        kept = player_numbers(player, every_game=True)
        every = player_results(player)
        assert kept.stats == player_stats(str(player.pk), every)
        assert kept.recent == every[::-1]
        assert kept.games == len(every)
        assert kept.nights == len({(game.season, game.night) for game in every})


def test_a_players_games_are_their_game_rows_and_their_own_seats_numbers(
    season: Season, organizer: User
) -> None:
    """Each game a player sat in (plain SQL, ``player_rows``), in the order
    played: the game row's totals, winners, bids and bids made, who sat
    where, and of the per-seat statistics only the player's own; the
    latest two are the last two of them all."""
    _mixed_season(season, organizer)
    place = [f"table__round__{key}" for key in ("night__date", "night__season")]
    place += ["table__round__number", "table__number", "table"]
    for player in Player.objects.filter(seats__isnull=False).distinct():
        every = player_results(player)
        seats = list(
            Seat.objects.filter(player=player)
            .select_related("table__game", "table__round__night")
            .order_by(*place)
        )
        assert [(p.night, p.round, p.table, p.seat) for p in every] == [
            (
                s.table.round.night.date.isoformat(),
                s.table.round.number,
                s.table.number,
                s.position,
            )
            for s in seats
        ]
        for played, seat in zip(every, seats, strict=True):
            game, stats = seat.table.game, seat.table.game.seat_stats
            assert (played.game.totals, played.game.winners) == (
                tuple(game.totals),
                frozenset(game.winners),
            )
            assert (played.game.bids, played.game.made) == (
                tuple(game.seat_bids),
                tuple(game.seat_made),
            )
            assert played.mine == (
                stats[seat.position] if len(stats) > seat.position else None
            )
            sat = seat.table.seats.order_by("position")
            assert played.game.players == tuple(
                map(str, sat.values_list("player", flat=True))
            )
        assert player_results(player, 2) == every[-2:]


def test_a_players_nights_never_summed_are_summed_first(
    season: Season, organizer: User
) -> None:
    """Nights from before their rows were kept: the player's numbers sum
    the player's nights first (those alone), and equal what they were."""
    _mixed_season(season, organizer)
    player = Player.objects.filter(seats__isnull=False).first()
    assert player is not None
    before = player_nights(player)
    NightTally.objects.all().delete()
    NightProjection.objects.all().delete()
    assert player_nights(player) == before
    theirs = Night.objects.filter(rounds__tables__seats__player=player).distinct()
    assert set(NightProjection.objects.values_list("night", flat=True)) == set(
        theirs.values_list("pk", flat=True)
    )


def test_an_imported_season_and_a_merge_keep_their_rows(
    season: Season, organizer: User
) -> None:
    _mixed_season(season, organizer)
    exported = season_export(season=season)
    other = services.league_create(name="Elsewhere", organizer=organizer, now=NOW)
    copy = season_import(league=other, text=json.dumps(exported), now=NOW)
    assert NightTally.objects.filter(night__season=copy).exists()
    assert stale_nights(_all_nights(other)) == []
    players = list(Player.objects.filter(league=other).order_by("pk"))
    keep, gone = players[0], players[-1]
    if not Seat.objects.filter(player=gone).exists():  # pragma: no cover
        gone = players[-2]
    assert NightTally.objects.filter(player=gone).exists()
    try:
        services.player_merge(keep=keep, merge=gone)
    except services.LeagueError:  # two people at one table: nothing to see
        return
    assert stale_nights(_all_nights(other)) == []
    assert not NightTally.objects.filter(player_id=gone.pk).exists()


def test_the_season_and_player_pages_read_a_fixed_number_of_queries(
    client: Client, season: Season, organizer: User
) -> None:
    """Cold (after a restart: an empty cache) and warm, whatever the number
    of nights and games: the pages read the kept rows, not the games."""
    client.force_login(organizer)
    _mixed_season(season, organizer)
    player = Player.objects.filter(seats__isnull=False).first()
    assert player is not None
    counts = {}
    for nights in (2, 3):
        if nights == 3:
            third = progressive_night(season, date(2026, 1, 15))
            played = rounds.round_start(night=third, rng=random.Random(4), now=NOW)
            play_out_round(played)
        for url in (f"/seasons/{season.pk}/", f"/players/{player.pk}/"):
            client.get(url)  # the ratings brought up to date
            for state in ("cold", "warm"):
                if state == "cold":
                    cache.clear()
                with CaptureQueriesContext(connection) as queries:
                    assert client.get(url).status_code == 200
                counts[nights, url, state] = len(queries)
    pinned = {
        ("season", "cold"): SEASON_COLD,
        ("season", "warm"): SEASON_WARM,
        ("player", "cold"): PLAYER_COLD,
        ("player", "warm"): PLAYER_WARM,
    }
    for (_, url, state), count in counts.items():
        page = "season" if url.startswith("/seasons") else "player"
        assert count == pinned[page, state], sorted(counts.items())


# The season page: the user, the season and its league, the league's
# nights with their revisions (the ratings: nothing to redo), its nights,
# their kept versions, the players; cold, one aggregate query of the
# nights' rows (the standings), and the nights' rules and rows (two
# queries, whatever their number: the awards, the race, the rules line);
# then the nights with their substitutes counted, the ratings and the
# season's changes after closing (its log).
# The player page: the user, the player and league, the league's nights
# with their revisions (the ratings), the player's rating, the names, its
# games per night with their logs' lengths (with the ratings' version, the
# key of its cached numbers); cold, its latest games (two queries), its
# nights not yet summed (none), its nights' rows, its ratings; then its
# seasons with their league and, per season, its standings (the season's
# nights, their kept versions and players; cold, one aggregate query of
# the nights' rows), and the substitutes.
SEASON_COLD = 12
SEASON_WARM = 9
PLAYER_COLD = 17
PLAYER_WARM = 11


@pytest.mark.parametrize("best_nights", [0, 1])
def test_the_season_rows_summed_in_one_query_equal_the_nights_summed_here(
    season: Season, organizer: User, best_nights: int
) -> None:
    """The aggregate query (every night counted) and the nights summed one
    by one (as ``best_nights`` needs) give the same rows."""
    _mixed_season(season, organizer)
    Season.objects.filter(pk=season.pk).update(best_nights=best_nights, min_nights=2)
    season.refresh_from_db()
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        rows = season_rows(season)
    summed = [q for q in queries if "SUM(" in q["sql"] and "nighttally" in q["sql"]]
    assert len(summed) == (0 if best_nights else 1)
    assert rows == season_standings(season)["season"]["rows"]  # type: ignore[index]
    assert {row["rank"] for row in rows} >= {None}  # one night only: not ranked
    if not best_nights:
        people = season_players(season)
        assert rows == rows_of(season, season_nights(season), people)
