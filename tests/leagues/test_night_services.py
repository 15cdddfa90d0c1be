"""A league night through its services: check-in, rounds that create
games bound to players, calling a round, closing, a correction after
closing, standings from the games' rows, a rebuild, export and import."""

from __future__ import annotations

import json
import random
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from scorekeeper.eventstore import load
from scorekeeper.gamelog import replay_log
from scorekeeper.games import services as game_services
from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.interchange import season_export, season_import
from scorekeeper.leagues.models import Change, League, Night, Player, Season, Table
from scorekeeper.leagues.results import season_standings
from scorekeeper.leagues.season import parse_season
from scorekeeper.leagues.standings import standings
from scorekeeper.models import Game
from scorekeeper.projections.game_rows import summary
from scorekeeper.recording import Appended
from scorekeeper.rules.events import GameEnded, HandRecorded
from tests.leagues.nights import (
    NAMES,
    play_hand,
    play_out,
    progressive_night,
    void_first_hand,
)
from tests.records import NOW

pytestmark = pytest.mark.django_db


def test_a_round_seats_the_players_present_at_tables_of_real_games(
    season: Season,
) -> None:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    tables = list(first.tables.select_related("game"))
    assert len(tables) == 2 and first.sitting_out.count() == 1
    seated = [seat.player.name for t in tables for seat in t.seats.all()]
    assert sorted(seated + [p.name for p in first.sitting_out.all()]) == NAMES
    game = tables[0].game
    assert game.seats == [seat.player.name for seat in tables[0].seats.all()]
    assert game.overrides == {"hand_limit": 4}


def test_the_next_round_waits_until_the_last_is_finished_or_called(
    season: Season, organizer: User
) -> None:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    with pytest.raises(services.LeagueError, match="round 1 is still being played"):
        rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    finished, playing = (t.game for t in first.tables.all())
    play_out(finished)
    play_hand(playing)
    assert rounds.round_call(round=first, by="org", now=NOW) == 1
    second = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    assert second.number == 2
    playing.refresh_from_db()
    assert playing.finished and replay_log(load(playing)).decided == "ended"


def test_a_late_arrival_is_seated_and_a_leaver_is_not(season: Season) -> None:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    rounds.round_call(round=first, by="org", now=NOW)
    late = services.newcomer_check_in(night=night, name="Joe", now=NOW)
    ann = Player.objects.get(name="Ann")
    services.check_out(night=night, player=ann)
    second = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    seated = {s.player_id for t in second.tables.all() for s in t.seats.all()}
    assert late.pk in seated and ann.pk not in seated
    assert len(seated) == 8 and second.sitting_out.count() == 1


def test_standings_follow_each_save_and_equal_a_rebuild_from_the_logs(
    season: Season,
) -> None:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(2), now=NOW)
    tables = list(first.tables.select_related("game"))
    play_out(tables[0].game)
    play_hand(tables[1].game, bidder_side_takes=1)
    running = season_standings(season)
    # Rebuild: every game's projection from its log, then the standings again.
    for game in Game.objects.all():
        board = replay_log(load(game))
        Game.objects.filter(pk=game.pk).update(**summary(board, game.last_seq))
    cache.clear()  # the nights' cached tallies too
    assert season_standings(season) == running
    # And both equal the contract's standings of the season's export.
    assert standings(parse_season(season_export(season=season))) == _by_name(running)
    rows = running["season"]["rows"]  # type: ignore[index]
    assert len(rows) == 4 and {r["played"] for r in rows} == {1}


def test_cached_nights_follow_every_change_to_their_standings(
    season: Season, organizer: User
) -> None:
    """A night's tallies are cached; a hand, a correction after closing and
    a merge of two players and a rename each show at once, equal to a cold
    computation."""
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(2), now=NOW)
    game = first.tables.select_related("game")[0].game
    play_hand(game)

    def fresh() -> dict[str, object]:
        cache.clear()
        return season_standings(season)

    seen = [season_standings(season)]
    play_out(game)
    seen.append(season_standings(season))
    assert seen[-1] == fresh() != seen[0]
    rounds.night_close(night=night, by="org", now=NOW)
    game.refresh_from_db()
    seen.append(season_standings(season))
    void_first_hand(game, organizer)
    assert season_standings(season) == fresh() != seen[-1]
    seen.append(season_standings(season))
    newcomer = services.player_add(league=season.league, name="Nan")
    services.player_merge(keep=newcomer, merge=game.table.seats.all()[0].player)
    season.league.refresh_from_db()
    assert season_standings(season) == fresh() != seen[-1]
    seen.append(season_standings(season))
    services.player_rename(player=newcomer, name="Nancy")
    assert season_standings(season) == fresh() != seen[-1]
    assert "Nancy" in json.dumps(season_standings(season))


def _by_name(document: dict[str, object]) -> dict[str, object]:
    """The standings with player ids as the export writes them (names)."""
    names = {str(p.pk): p.name for p in Player.objects.all()}
    text = json.dumps(document)
    for pk, name in names.items():
        text = text.replace(f'"player": "{pk}"', f'"player": "{name}"')
    return json.loads(text)  # type: ignore[no-any-return]


def test_closing_locks_the_games_and_ends_the_unfinished(season: Season) -> None:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    played, unplayed = (t.game for t in first.tables.all())
    play_hand(played)
    rounds.night_close(night=night, by="org", now=NOW)
    played, unplayed = (Game.objects.get(pk=g.pk) for g in (played, unplayed))
    assert played.locked and played.finished
    # A table that recorded no hand is not ended: it counts for nobody.
    assert unplayed.locked and not unplayed.finished and unplayed.last_seq == 0
    with pytest.raises(services.LeagueError, match="closed"):
        rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    with pytest.raises(services.LeagueError, match="closed"):
        services.check_in(night=night, player=Player.objects.first(), now=NOW)  # type: ignore[arg-type]


def test_a_correction_after_closing_needs_a_reason_and_is_logged(
    season: Season, organizer: User
) -> None:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(4), now=NOW)
    table = first.tables.select_related("game").first()
    assert table is not None
    play_out(table.game)
    rounds.night_close(night=night, by="org", now=NOW)
    game = Game.objects.get(pk=table.game.pk)
    board = replay_log(load(game))
    hand = board.hands[0].hand
    assert isinstance(hand, HandRecorded)

    def void(by: str, note: str) -> Appended:
        return game_services.hand_void(
            game=game, expected_seq=game.last_seq, target=1, by=by, note=note, now=NOW
        )

    with pytest.raises(services.LeagueError, match="needs a reason"):
        rounds.closed_game_change(
            game=game, user=organizer, reason="  ", what="x", append=void, now=NOW
        )
    assert Game.objects.get(pk=game.pk).last_seq == game.last_seq
    rounds.closed_game_change(
        game=game,
        user=organizer,
        reason="Ann misread the score sheet",
        what="hand 1 voided",
        append=void,
        now=NOW + timedelta(hours=1),
    )
    change = Change.objects.get()
    assert (change.night, change.game, change.by) == (night, game, organizer)
    assert change.what.startswith(f"round 1 table {table.number}: hand 1 voided; ")
    assert "the winner changed: " in change.what  # the voided hand had won it
    voided, ended = load(game).entries[-2:]
    assert (voided.by, voided.note) == ("org", "Ann misread the score sheet")
    # The void took away the hand that won the game: it ends as it stands.
    assert isinstance(ended.event, GameEnded) and Game.objects.get(pk=game.pk).finished


def test_players_are_unique_in_a_league_whatever_the_case(league: League) -> None:
    with pytest.raises(services.LeagueError, match="already a player"):
        services.player_add(league=league, name="  ann ")
    bob = Player.objects.get(name="Bob")
    with pytest.raises(services.LeagueError, match="merge them"):
        services.player_rename(player=bob, name="ANN")
    assert services.player_rename(player=bob, name="Robert").name == "Robert"


def test_merging_moves_the_games_and_refuses_two_people_at_one_table(
    season: Season,
) -> None:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(5), now=NOW)
    table = first.tables.first()
    assert table is not None
    a, b = (seat.player for seat in table.seats.all()[:2])
    with pytest.raises(services.LeagueError, match="same table"):
        services.player_merge(keep=a, merge=b)
    twin = services.player_add(league=season.league, name="Annie")
    sat_out = first.sitting_out.get()
    services.player_merge(keep=twin, merge=sat_out)
    assert list(first.sitting_out.all()) == [twin]
    assert not Player.objects.filter(pk=sat_out.pk).exists()


def test_a_season_refuses_rules_a_league_table_cannot_play(league: League) -> None:
    with pytest.raises(services.LeagueError, match="not a house setting"):
        services.season_create(
            league=league, name="x", preset="classic", seats=4,
            overrides={"teams": False}, now=NOW,
        )  # fmt: skip
    with pytest.raises(services.LeagueError, match="4, 6 or 8"):
        services.season_create(
            league=league, name="x", preset="classic", seats=3, now=NOW
        )
    with pytest.raises(services.LeagueError, match="order"):
        services.season_create(
            league=league, name="x", preset="classic", order=["luck"], now=NOW
        )


def test_fixed_teams_of_four_at_eight_seat_tables(league: League) -> None:
    for name in ("Kim", "Lou", "Max", "Ned", "Ola", "Pat", "Quin"):
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league, name="Big", preset="bid-euchre", seats=8, now=NOW
    )
    with pytest.raises(services.LeagueError, match="fixed teams"):
        services.night_create(
            season=season, day=date(2026, 1, 1), format="progressive", now=NOW
        )
    night = services.night_create(
        season=season, day=date(2026, 1, 1), format="fixed", now=NOW
    )
    for player in league.players.all():
        services.check_in(night=night, player=player, now=NOW)
    first = rounds.round_start(night=night, rng=random.Random(6), now=NOW)
    night.refresh_from_db()
    assert len(night.teams) == 4 and all(len(team) == 4 for team in night.teams)
    tables = list(first.tables.all())
    assert len(tables) == 2 and all(len(t.game.seats) == 8 for t in tables)
    with pytest.raises(services.LeagueError, match="check-in is over"):
        services.check_in(night=night, player=league.players.first(), now=NOW)  # type: ignore[arg-type]


def test_teams_entered_by_hand_play_the_night_together(season: Season) -> None:
    night = services.night_create(
        season=season, day=date(2026, 1, 1), format="fixed", now=NOW
    )
    players = list(season.league.players.order_by("name"))[:8]
    for player in players:
        services.check_in(night=night, player=player, now=NOW)
    ids = [player.pk for player in players]
    refusals = [
        ("one team", [ids[:2], ids[2:4], ids[4:6]]),  # two players left out
        ("one team", [ids[:2], ids[:2], ids[4:6], ids[6:]]),  # twice
        ("2 players", [ids[:3], ids[3:6], ids[6:]]),
        ("two teams", [ids]),
    ]
    for words, wrong in refusals:
        with pytest.raises(services.LeagueError, match=words):
            services.teams_enter(night=night, teams=wrong)
        assert Night.objects.get(pk=night.pk).teams == []
    teams = [ids[0::4], ids[1::4], ids[2::4], ids[3::4]]
    services.teams_enter(night=night, teams=teams)
    first = rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    partners = set()
    for table in first.tables.all():
        seated = [seat.player_id for seat in table.seats.all()]
        partners |= {frozenset(seated[0::2]), frozenset(seated[1::2])}
    assert partners == {frozenset(team) for team in teams}
    with pytest.raises(services.LeagueError, match="has started"):
        services.teams_enter(night=night, teams=teams)


def test_teams_are_entered_only_on_a_fixed_night(season: Season) -> None:
    night = progressive_night(season)
    with pytest.raises(services.LeagueError, match="partners rotate"):
        services.teams_enter(night=night, teams=[])


def test_a_season_exported_imports_as_the_same_season(
    season: Season, organizer: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(7), now=NOW)
    for table in first.tables.select_related("game"):
        play_out(table.game)
    rounds.night_close(night=night, by="org", now=NOW)
    exported = season_export(season=season)
    other = services.league_create(name="Elsewhere", organizer=organizer, now=NOW)

    def replayed_again(document: object) -> None:
        raise AssertionError("the season's referee already replayed each game")

    monkeypatch.setattr(game_services, "read_and_replay", replayed_again)
    copy = season_import(league=other, text=json.dumps(exported), now=NOW)
    assert season_export(season=copy) == exported
    assert all(t.game.locked for t in Table.objects.filter(round__night__season=copy))


def test_an_import_refuses_a_broken_season_naming_where(league: League) -> None:
    document = {
        "format": "pepper-league",
        "version": 1,
        "players": [{"id": "a", "name": "A"}],
        "nights": [{"date": "2026-01-01", "games": [{"table": 1, "round": 1}]}],
    }
    with pytest.raises(services.LeagueError, match="night 1 game 1"):
        season_import(league=league, text=json.dumps(document), now=NOW)
    assert not league.seasons.exists()


def test_an_invitation_makes_an_organizer_once(league: League, organizer: User) -> None:
    invite = services.invite_create(league=league, by=organizer, now=NOW)
    other = User.objects.create_user("second", password="another passphrase")
    assert services.invite_accept(token=invite.token, user=other, now=NOW) == league
    assert league.organizers.filter(pk=other.pk).exists()
    # Sent again by the same account (a double tap): answered as it was.
    assert services.invite_accept(token=invite.token, user=other, now=NOW) == league
    third = User.objects.create_user("third", password="a third passphrase")
    with pytest.raises(services.LeagueError, match="used already"):
        services.invite_accept(token=invite.token, user=third, now=NOW)
    assert not league.organizers.filter(pk=third.pk).exists()
    with pytest.raises(services.LeagueError, match="not valid"):
        services.invite_accept(token="nope", user=other, now=NOW)
