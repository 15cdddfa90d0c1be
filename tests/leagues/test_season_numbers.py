"""The season in numbers with a database: ratings kept up to date (a late
correction redoes them, equal to a rebuild), a player's page, the awards,
the CSV files and the public standings link."""

from __future__ import annotations

import csv
import io
import random
import re
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.eventstore import load
from scorekeeper.gamelog import replay_log
from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.exports import HANDS, SEASON_STANDINGS, STANDINGS
from scorekeeper.leagues.models import Player, Rating, Season
from scorekeeper.leagues.rated_games import ratings_refresh
from scorekeeper.models import Game
from tests.leagues.nights import (
    closed_night,
    play_hand,
    play_out,
    progressive_night,
    void_first_hand,
)
from tests.records import NOW

pytestmark = pytest.mark.django_db


def _ratings(season: Season) -> list[tuple[int, object, int, object]]:
    rows = Rating.objects.filter(league=season.league)
    return list(rows.values_list("position", "game", "seq", "skills"))


@pytest.mark.parametrize(("corrected", "rerated"), [(0, 11), (1, 7), (2, 3)])
def test_a_late_correction_redoes_the_ratings_after_it_as_a_rebuild_would(
    season: Season, organizer: User, corrected: int, rerated: int
) -> None:
    """Three nights of 4 games; the 2nd game (round 1, table 2) of night
    1, 2 or 3 gets a hand voided after closing: the ratings from it on are
    redone, those before it stay, and all equal a rebuild from scratch."""
    nights = [closed_night(season, date(2026, 1, 1 + 7 * n), n) for n in range(3)]
    assert ratings_refresh(season.league) == 12  # 3 nights x 2 rounds x 2 tables
    assert ratings_refresh(season.league) == 0  # nothing changed: nothing done
    before = _ratings(season)
    table = nights[corrected].rounds.get(number=1).tables.get(number=2)
    game = table.game
    void_first_hand(game, organizer)
    assert ratings_refresh(season.league) == rerated  # that game and every one after
    running = _ratings(season)
    assert running[: 12 - rerated] == before[: 12 - rerated]
    assert running != before and len(running) == len(before)
    players = list(
        Player.objects.order_by("pk").values_list("pk", "mu", "sigma", "rated_games")
    )
    assert ratings_refresh(season.league, rebuild=True) == 12
    assert _ratings(season) == running
    again = Player.objects.order_by("pk").values_list(
        "pk", "mu", "sigma", "rated_games"
    )
    assert list(again) == players
    for player in Player.objects.all():
        finished = Game.objects.filter(table__seats__player=player, finished=True)
        assert player.rated_games == finished.count()


def test_a_new_game_is_rated_on_from_the_ratings_before_it(season: Season) -> None:
    closed_night(season, date(2026, 1, 1), 1)
    ratings_refresh(season.league)
    before = _ratings(season)
    night = progressive_night(season, date(2026, 1, 8))
    played = rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    table = played.tables.select_related("game").first()
    assert table is not None
    play_hand(table.game)  # a hand at a game still being played
    assert ratings_refresh(season.league) == 0  # rates nothing
    play_out(table.game)
    assert ratings_refresh(season.league) == 1
    assert _ratings(season)[: len(before)] == before
    running = _ratings(season)
    ratings_refresh(season.league, rebuild=True)
    assert _ratings(season) == running


def test_the_player_page_counts_from_the_games(
    client: Client, season: Season, organizer: User
) -> None:
    client.force_login(organizer)
    closed_night(season, date(2026, 1, 1), 1)
    closed_night(season, date(2026, 1, 8), 2)
    player = Player.objects.filter(seats__isnull=False).distinct().first()
    assert player is not None
    client.get(f"/players/{player.pk}/")  # rates the games
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/players/{player.pk}/")
    assert len(queries) <= 14
    stats = page.context["stats"]
    seated = Game.objects.filter(table__seats__player=player)
    assert stats.games == seated.filter(finished=True).count()
    # Every bid the player made, counted from the logs by hand.
    bids = made = 0
    for game in seated:
        board = replay_log(load(game))
        seat = [s.player_id for s in game.table.seats.all()].index(player.pk)
        for result in board.hands:
            if getattr(result.hand, "bidder", None) == seat:
                bids += 1
                side = board.variant.side_of(seat)
                made += int(result.deltas[side] > 0)
    assert sum(n for _, n, _ in stats.bid_lines) == bids
    assert sum(m for _, _, m in stats.bid_lines) == made
    html = page.content.decode()
    assert "rating after each night" in html and "<svg" in html
    assert "Sets taken defending" in html


def test_the_season_page_gives_awards_ratings_and_the_race(
    client: Client, season: Season, organizer: User
) -> None:
    client.force_login(organizer)
    for n in range(3):  # Ann and Hal sit out three rounds: 3 games, the rest 6
        closed_night(season, date(2026, 1, 1 + 7 * n), n + 1)
    page = client.get(f"/seasons/{season.pk}/")
    # The same games everywhere: every figure is shared by most of the
    # room, so no award means anything (once, "Most games won" named all).
    assert page.context["awards"] == []
    assert "only when at most a quarter of the players" in page.content.decode()
    ratings = page.context["ratings"]
    assert len(ratings) == 9
    settled = [entry for entry in ratings if entry["rank"]]
    new = [entry for entry in ratings if not entry["rank"]]
    assert [entry["rank"] for entry in settled] == list(range(1, 8))
    ordinals = [float(entry["ordinal"].replace("−", "-")) for entry in settled]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [entry["player"].name for entry in new] == ["Ann", "Hal"]  # after, by name
    assert new[0]["ordinal"] == "new (3 games)"
    assert "A new player's rating shows after 5 games" in page.content.decode()
    assert page.context["race"] is not None


def _csv(response: object) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8-sig")  # type: ignore[attr-defined]
    return list(csv.reader(io.StringIO(text)))


def test_the_csv_files_open_with_their_header_rows(
    client: Client, season: Season, organizer: User
) -> None:
    client.force_login(organizer)
    night = closed_night(season, date(2026, 1, 1), 1)
    standings = _csv(client.get(f"/seasons/{season.pk}/standings.csv"))
    assert tuple(standings[0]) == SEASON_STANDINGS
    assert len(standings) == 1 + 9 and standings[1][0] == "1"
    tonight = _csv(client.get(f"/nights/{night.pk}/standings.csv"))
    assert tuple(tonight[0]) == STANDINGS and len(tonight) == 1 + 9
    hands = _csv(client.get(f"/seasons/{season.pk}/hands.csv"))
    assert tuple(hands[0]) == HANDS
    games = Game.objects.filter(table__round__night=night)
    assert len(hands) - 1 == sum(game.hands_played for game in games)
    row = dict(zip(HANDS, hands[1], strict=True))
    assert row["night"] == "2026-01-01" and row["round"] == "1" and row["hand"] == "1"
    assert row["outcome"] in {"made", "set"} and " & " in row["side_1"]
    assert int(row["delta_1"]) + int(row["delta_2"]) != 0 or row["outcome"] == "set"
    assert client.get(f"/seasons/{season.pk}/hands.csv").status_code == 200
    client.logout()
    assert client.get(f"/seasons/{season.pk}/hands.csv").status_code == 302


def test_a_public_standings_link_reads_without_signing_in_until_revoked(
    client: Client, season: Season, organizer: User
) -> None:
    client.force_login(organizer)
    closed_night(season, date(2026, 1, 1), 1)
    client.post(f"/seasons/{season.pk}/public", {"action": "new"})
    season.refresh_from_db()
    token = season.public_token
    assert token
    page = client.get(f"/seasons/{season.pk}/").content.decode()
    assert f"/standings/{token}" in page and "QR code" in page
    client.logout()
    public = client.get(f"/standings/{token}")
    assert public.status_code == 200
    html = public.content.decode()
    assert "Season standings" in html and "/players/" not in html
    assert 'href="/nights/' not in html  # no table links, no organizer pages
    client.force_login(organizer)
    client.post(f"/seasons/{season.pk}/public", {"action": "new"})
    client.logout()
    assert client.get(f"/standings/{token}").status_code == 404  # replaced
    client.force_login(organizer)
    client.post(f"/seasons/{season.pk}/public", {"action": "revoke"})
    season.refresh_from_db()
    assert season.public_token is None


def test_an_unplayed_hand_only_season_shows_no_awards(
    client: Client, season: Season, organizer: User
) -> None:
    client.force_login(organizer)
    night = progressive_night(season, date(2026, 1, 1))
    played = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    table = played.tables.select_related("game").first()
    assert table is not None
    play_hand(table.game)
    page = client.get(f"/seasons/{season.pk}/")
    assert page.context["awards"] == [] and page.context["ratings"] == []
    assert "No award yet" in page.content.decode()


def test_the_rebuild_command_redoes_rows_and_ratings(season: Season) -> None:
    closed_night(season, date(2026, 1, 1), 1)
    ratings_refresh(season.league)
    running = _ratings(season)
    rows = list(
        Game.objects.order_by("pk").values_list("pk", "seat_stats", "totals", "winners")
    )
    Game.objects.update(seat_stats=[], winners=[])  # as after an upgrade
    Rating.objects.all().delete()
    out = io.StringIO()
    call_command("rebuild", stdout=out)
    assert "4 game rows rebuilt" in out.getvalue()
    assert "Thursday: 4 games rated" in out.getvalue()
    assert (
        list(
            Game.objects.order_by("pk").values_list(
                "pk", "seat_stats", "totals", "winners"
            )
        )
        == rows
    )
    assert _ratings(season) == running
    with pytest.raises(CommandError, match="no league 99"):
        call_command("rebuild", "--league", "99")
    call_command("rebuild", "--league", str(season.league_id), stdout=out)
    assert _ratings(season) == running


def test_the_organizers_guide_documents_the_csv_header_rows() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "organizers.md").read_text()
    documented = set(
        re.findall(r"`(rank,player[a-z_,]*|night,round[a-z_0-9,]*)`", guide)
    )
    assert documented == {
        ",".join(SEASON_STANDINGS),
        ",".join(STANDINGS),
        ",".join(HANDS),
    }


def test_a_players_cached_numbers_follow_a_new_game_and_a_rename(
    client: Client, season: Season, organizer: User
) -> None:
    client.force_login(organizer)
    closed_night(season, date(2026, 1, 1), 1)
    night = progressive_night(season, date(2026, 1, 8))
    played = rounds.round_start(night=night, rng=random.Random(5), now=NOW)
    table = played.tables.select_related("game").first()
    assert table is not None
    player, partner = (seat.player for seat in table.seats.all()[:2])
    before = client.get(f"/players/{player.pk}/").context["stats"].games
    assert client.get(f"/players/{player.pk}/").context["stats"].games == before
    play_out(table.game)
    page = client.get(f"/players/{player.pk}/")
    assert page.context["stats"].games == before + 1
    assert page.context["nights"] == 2
    services.player_rename(player=partner, name="Renamed")
    assert "Renamed" in client.get(f"/players/{player.pk}/").content.decode()
