"""A substitute for a player who leaves mid-game: the seat keeps its
scores, the game counts for whoever the organizer says, and the pages,
the standings and the season's file all say who played which hands."""

from __future__ import annotations

import json
import random
import re
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.interchange import season_export, season_import
from scorekeeper.leagues.models import (
    League,
    Night,
    Player,
    Round,
    Seat,
    Substitution,
    Table,
)
from scorekeeper.leagues.results import night_numbers, season_standings
from scorekeeper.leagues.round_tables import round_in_play, table_view
from scorekeeper.leagues.season import parse_season
from scorekeeper.leagues.standings import standings
from scorekeeper.leagues.substitutes import seat_substitute
from scorekeeper.models import Game
from tests.leagues.nights import play_hand, play_out, progressive_night, take_over
from tests.records import NOW

pytestmark = pytest.mark.django_db


def _round(season: Any) -> tuple[Night, Round, Table, Player]:
    """Nine players, two tables: the one sitting out is the substitute."""
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    table = first.tables.select_related("game", "round__night__season").first()
    assert table is not None
    return night, first, table, first.sitting_out.get()


def _seat(table: Table, position: int = 0) -> Player:
    return Seat.objects.get(table=table, position=position).player


def _row(night: Night, player: Player) -> dict[str, Any] | None:
    rows, _, _ = night_numbers(night)
    return next((row for row in rows if row["player"] == str(player.pk)), None)


def test_the_game_counts_for_the_player_who_started_when_the_organizer_says_so(
    season: Any,
) -> None:
    night, _, table, eve = _round(season)
    ann = _seat(table)
    play_hand(table.game)
    play_hand(table.game)
    take_over(table, eve, 3, "started")
    play_out(table.game)
    assert _seat(table) == ann  # the seat still counts for Ann
    assert _row(night, ann) is not None and _row(night, ann)["played"] == 1  # type: ignore[index]
    assert _row(night, eve) is None
    table.game.refresh_from_db()
    assert table.game.seats[0] == ann.name  # the game's own names stay
    assert table.game.seat_notes == [
        f"{ann.name} → {eve.name} from hand 3 (the game counts for {ann.name})"
    ]


def test_credit_to_the_substitute_shows_at_once_on_both_players_pages(
    client: Client, organizer: User, season: Any
) -> None:
    """A player's numbers are cached under the league's version: moving a
    game to the substitute must change it, though no log grew."""
    client.force_login(organizer)
    _, _, table, eve = _round(season)
    ann = _seat(table)
    play_hand(table.game)
    assert client.get(f"/players/{ann.pk}/").context["all_games"] == 1
    assert client.get(f"/players/{eve.pk}/").context["all_games"] == 0
    take_over(table, eve, 2, "substitute")
    assert client.get(f"/players/{ann.pk}/").context["all_games"] == 0
    assert client.get(f"/players/{eve.pk}/").context["all_games"] == 1


def test_credit_to_the_substitute_moves_the_game_between_them(season: Any) -> None:
    night, _, table, eve = _round(season)
    ann = _seat(table)
    play_hand(table.game)
    version = season.league.roster_version
    take_over(table, eve, 2, "substitute")
    play_out(table.game)
    season.league.refresh_from_db()
    assert season.league.roster_version == version + 1
    assert _row(night, eve)["played"] == 1  # type: ignore[index]
    assert _row(night, ann) is None
    substitution = Substitution.objects.get()
    assert (substitution.started, substitution.substitute) == (ann, eve)
    assert substitution.credited == eve and substitution.from_hand == 2


def _refusal_cases() -> list[tuple[str, dict[str, Any], str]]:
    return [
        ("closed", {}, "this night is closed"),
        ("seat", {"position": 7}, "choose a seat of table 1"),
        ("credit", {"credit": "both"}, "say whom the game counts for"),
        ("hand 0", {"from_hand": 0}, "takes over at hand 1 to 2"),
        ("hand 3", {"from_hand": 3}, "takes over at hand 1 to 2"),
        ("absent", {"substitute": "absent"}, "is not checked in tonight"),
        ("here", {"substitute": "here"}, "is already at table 1"),
        ("elsewhere", {"substitute": "elsewhere"}, "plays at table 2 in this round"),
        ("stranger", {"substitute": "stranger"}, "not in this league"),
        ("twice", {}, "already has a substitute"),
    ]


@pytest.mark.parametrize(
    ("case", "change", "message"),
    _refusal_cases(),
    ids=[case for case, _, _ in _refusal_cases()],
)
def test_a_substitution_is_refused_in_words_and_changes_nothing(
    season: Any, organizer: User, case: str, change: dict[str, Any], message: str
) -> None:
    night, first, table, eve = _round(season)
    play_hand(table.game)
    other = first.tables.exclude(pk=table.pk).get()
    kwargs: dict[str, Any] = {
        "table": table,
        "position": 0,
        "substitute": eve,
        "from_hand": 2,
        "credit": "substitute",
        "now": NOW,
    }
    if case == "closed":
        rounds.night_close(night=night, by="org", now=NOW)
        table.round.night.refresh_from_db()
        table.game.refresh_from_db()
    if case == "twice":
        seat_substitute(**kwargs | {"credit": "started"})
    kwargs |= change
    who = change.get("substitute")
    if who == "absent":
        kwargs["substitute"] = services.player_add(league=season.league, name="Zed")
    elif who == "here":
        kwargs["substitute"] = _seat(table, 2)
    elif who == "elsewhere":
        kwargs["substitute"] = _seat(other, 1)
    elif who == "stranger":
        league = League.objects.create(name="Other", created_at=NOW)
        kwargs["substitute"] = Player.objects.create(league=league, name="Eve")
    before = _state(table)
    with pytest.raises(services.LeagueError, match=message):
        seat_substitute(**kwargs)
    assert _state(table) == before


def _state(table: Table) -> list[object]:
    game = Game.objects.get(pk=table.game_id)
    league = League.objects.get(pk=table.round.night.season.league_id)
    return [
        list(Seat.objects.order_by("pk").values_list("player", flat=True)),
        list(Substitution.objects.values_list("pk", "position", "substitute")),
        game.seat_notes,
        game.last_seq,
        league.roster_version,
    ]


def test_a_fixed_teams_game_counts_for_the_teams_own_player(league: League) -> None:
    season = services.season_create(
        league=league, name="Teams", preset="classic", now=NOW
    )
    night = services.night_create(
        season=season, day=date(2026, 11, 19), format=Night.FIXED, now=NOW
    )
    for player in league.players.all()[:6]:
        services.check_in(night=night, player=player, now=NOW)
    first = rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    table = first.tables.select_related("game", "round__night__season").first()
    assert table is not None
    sitting = first.sitting_out.first()
    assert sitting is not None  # three teams: one sits out
    with pytest.raises(services.LeagueError, match="fixed-teams night"):
        take_over(table, sitting, 1, "substitute")
    take_over(table, sitting, 1, "started")
    assert Substitution.objects.get().credited == _seat(table)


def test_merging_follows_the_substitutions_and_refuses_two_people_at_a_seat(
    season: Any,
) -> None:
    _, _, table, eve = _round(season)
    ann = _seat(table)
    take_over(table, eve, 1, "started")
    with pytest.raises(services.LeagueError, match="sat at the same table"):
        services.player_merge(keep=ann, merge=eve)
    again = services.player_add(league=season.league, name="Eve Again")
    services.player_merge(keep=again, merge=eve)
    assert Substitution.objects.get().substitute == again


# The pages ----------------------------------------------------------------------


@pytest.fixture
def signed_in(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


def _substituted(season: Any) -> tuple[Night, Table, Player, Player]:
    night, _, table, eve = _round(season)
    ann = _seat(table)
    for _ in range(3):  # of 4 (the season's hand limit)
        play_hand(table.game)
    table.game.refresh_from_db()
    return night, table, ann, eve


def test_the_organizer_seats_a_substitute_from_the_night(
    signed_in: Client, season: Any
) -> None:
    night, first, table, eve = _round(season)
    ann = _seat(table)
    play_hand(table.game)
    page = signed_in.get(f"/nights/{night.pk}/").content.decode()
    assert f'href="/tables/{table.pk}/substitute"' in page
    form = signed_in.get(f"/tables/{table.pk}/substitute").content.decode()
    assert f'<option value="{eve.pk}">{eve.name}</option>' in form
    assert f'<option value="{ann.pk}"' not in form  # seated: not offered
    response = signed_in.post(
        f"/tables/{table.pk}/substitute",
        {"seat": "0", "substitute": eve.pk, "from_hand": "2", "credit": "started"},
    )
    assert response.status_code == 302
    landed = signed_in.get(response["Location"]).content.decode()
    assert (  # said where the organizer lands, once
        f"Substitute seated. Round 1, table 1: {eve.name} played "
        f"{ann.name}&#x27;s seat from hand 2"
    ) in landed
    page = signed_in.get(f"/nights/{night.pk}/").content.decode()
    assert "Substitute seated." not in page
    assert f"{ann.name} → {eve.name} from hand 2" in page  # the table's seat
    assert (
        f"Round 1, table 1: {eve.name} played {ann.name}&#x27;s seat from hand 2 "
        f"({ann.name} played hands 1–1); the game counts for {ann.name}."
    ) in page


def test_a_refused_substitute_is_said_on_the_form(
    signed_in: Client, season: Any
) -> None:
    _, first, table, _ = _round(season)
    other = first.tables.exclude(pk=table.pk).get()
    busy = _seat(other, 1)
    response = signed_in.post(
        f"/tables/{table.pk}/substitute",
        {"seat": "0", "substitute": busy.pk, "from_hand": "1", "credit": "started"},
    )
    assert response.status_code == 422
    assert f"{busy.name} plays at table 2 in this round" in response.content.decode()
    garbled = signed_in.post(
        f"/tables/{table.pk}/substitute", {"seat": "x", "substitute": "y"}
    )
    assert garbled.status_code == 422
    assert "Choose who takes the seat, or type a newcomer" in garbled.content.decode()
    huge = signed_in.post(
        f"/tables/{table.pk}/substitute",
        {"seat": "9" * 30, "substitute": busy.pk, "from_hand": "9" * 30},
    )
    assert huge.status_code == 422
    assert "Choose a seat of table 1." in huge.content.decode()
    assert not Substitution.objects.exists()


def test_the_game_page_says_who_played_which_hands_in_one_query(
    client: Client,
    season: Any,
    django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    _, table, ann, eve = _substituted(season)
    take_over(table, eve, 3, "substitute")
    client.get(f"/join/{table.game.view_token}")
    # Reads the events once; a page is served outside a transaction, where
    # what it read is kept at once (here, as the test's transaction ends).
    with django_capture_on_commit_callbacks(execute=True):
        client.get(f"/games/{table.game_id}/")
    with django_assert_num_queries(
        2
    ):  # the game's row and its table's, as without a substitute
        page = client.get(f"/games/{table.game_id}/").content.decode()
    assert (
        f"{ann.name} → {eve.name} from hand 3 (the game counts for {eve.name})" in page
    )


def _hand_rows(page: str) -> dict[int, str]:
    """The game page's history: each hand's row by its number."""
    rows = re.findall(
        r'<li class="hand.*?<span class="hand-no">(\d+).*?</li>', page, re.S
    )
    found = re.findall(r'(<li class="hand.*?</li>)', page, re.S)
    return {int(number): row for number, row in zip(rows, found, strict=True)}


def test_the_game_page_names_who_plays_now_and_who_played_each_hand(
    client: Client, season: Any
) -> None:
    """Hand 1 was bid by the seat's first player, hand 2 dealt by the
    substitute: the history says so, and the form for hand 4 offers the
    substitute, not the player who left."""
    _, table, _, eve = _substituted(season)
    game = table.game
    seat = (game.first_dealer + 1) % len(game.seats)  # bids hand 1, deals hand 2
    left = game.seats[seat]
    take_over(table, eve, 2, "started", position=seat)
    client.get(f"/join/{game.edit_token}")
    page = client.get(f"/games/{game.pk}/").content.decode()

    rows = _hand_rows(page)
    assert sorted(rows) == [1, 2, 3]
    assert f"{left} bid" in rows[1] and eve.name not in rows[1]
    assert f"{eve.name} dealt" in rows[2] and left not in rows[2]
    bidders = page.split("<legend>Bidder</legend>", 1)[1].split("</fieldset>", 1)[0]
    assert f"<span>{eve.name}</span>" in bidders
    assert f"<span>{left}</span>" not in bidders
    totals = page.split('aria-label="Score"', 1)[1].split("</section>", 1)[0]
    assert eve.name in totals and left not in totals
    assert f"{left} → {eve.name} from hand 2" in page  # the note keeps both


def test_both_players_pages_say_who_played_which_hands(
    signed_in: Client, season: Any
) -> None:
    _, table, ann, eve = _substituted(season)
    take_over(table, eve, 3, "started")
    play_out(table.game)
    line = (
        f"Round 1, table 1: {eve.name} played {ann.name}&#x27;s seat from hand 3 "
        f"({ann.name} played hands 1–2); the game counts for {ann.name}."
    )
    for player in (ann, eve):
        page = signed_in.get(f"/players/{player.pk}/").content.decode()
        assert "Games left or joined midway" in page and line in page
    eve_page = signed_in.get(f"/players/{eve.pk}/")
    assert eve_page.context["all_games"] == 0  # counted for Ann
    season_page = signed_in.get(f"/seasons/{season.pk}/").content.decode()
    assert "open · 1 substitute</span>" in season_page  # the night's line


# The season's file ----------------------------------------------------------------


def test_export_import_export_keeps_the_substitution_byte_for_byte(
    season: Any, organizer: User
) -> None:
    night, table, ann, eve = _substituted(season)
    take_over(table, eve, 3, "substitute")
    for each in night.rounds.get().tables.select_related("game"):
        play_out(each.game)
    rounds.night_close(night=night, by="org", now=NOW)
    exported: dict[str, Any] = season_export(season=season)
    game = exported["nights"][0]["games"][0]
    assert game["players"][0] == eve.name  # the credited player, one id a seat
    assert game["substitutes"] == [
        {"seat": 0, "started": ann.name, "substitute": eve.name, "from_hand": 3}
    ]
    assert ann.name in [p["id"] for p in exported["players"]]
    other = services.league_create(name="Elsewhere", organizer=organizer, now=NOW)
    copy = season_import(league=other, text=json.dumps(exported), now=NOW)
    again = season_export(season=copy)
    assert json.dumps(again, indent=1) == json.dumps(exported, indent=1)
    moved = Table.objects.get(round__night__season=copy, number=1, round__number=1)
    assert moved.game.seat_notes == [
        f"{ann.name} → {eve.name} from hand 3 (the game counts for {eve.name})"
    ]
    # The standings command reads the file as the league's pages count it.
    names = {str(p.pk): p.name for p in Player.objects.filter(league=season.league)}
    counted = standings(parse_season(exported))
    rows = season_standings(season)["season"]["rows"]  # type: ignore[index]
    assert [(names[r["player"]], r["played"]) for r in rows] == [
        (r["player"], r["played"])
        for r in counted["season"]["rows"]  # type: ignore[index]
    ]


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("nope", '"substitutes" must be a list'),
        ([1], "substitute 1: must be an object"),
        ([{"seat": 9}], '"seat" must be a seat of the game'),
        (
            [{"seat": 0, "started": "A", "substitute": "A"}],
            "must be two of the players",
        ),
        (
            [{"seat": 0, "started": ["A"], "substitute": "B"}],
            "must be two of the players",
        ),
        ([{"seat": 0, "started": "B", "substitute": "E"}], 'name "started" or'),
        ([{"seat": 0, "started": "A", "substitute": "C"}], "'C' sits elsewhere"),
        ([{"seat": 0, "started": "A", "substitute": "E", "from_hand": 0}], "from_hand"),
        ([{"seat": 0, "started": "A", "substitute": "E", "from_hand": 2}], "1 to 1"),
    ],
)
def test_an_import_refuses_a_broken_substitution_naming_where(
    league: League, field: object, message: str
) -> None:
    document = {
        "format": "pepper-league",
        "version": 1,
        "players": [{"id": x, "name": x} for x in "ABCDE"],
        "nights": [
            {
                "date": "2026-01-01",
                "games": [
                    {
                        "table": 1,
                        "round": 1,
                        "players": ["A", "B", "C", "D"],
                        "log": {
                            "format": "pepper-log",
                            "version": 1,
                            "variant": "classic",
                            "seats": ["A", "B", "C", "D"],
                            "first_dealer": 0,
                            "events": [],
                        },
                        "substitutes": field,
                    }
                ],
            }
        ],
    }
    seasons = league.seasons.count()
    with pytest.raises(services.LeagueError, match="night 1 game 1") as refused:
        season_import(league=league, text=json.dumps(document), now=NOW)
    assert message in refused.value.message
    assert league.seasons.count() == seasons


def test_a_game_substituted_before_its_row_kept_the_takeovers_gets_them(
    season: Any,
) -> None:
    """The migration that copies each game's substitutions onto its row
    (the table reads who plays from there): in the order they were made."""
    from importlib import import_module

    from django.apps import apps

    migration = import_module(
        "scorekeeper.leagues.migrations.0014_game_takeovers_from_substitutions"
    )
    _, table, _, eve = _substituted(season)
    take_over(table, eve, 3, "substitute", position=2)
    kept = Game.objects.get(pk=table.game_id).takeovers
    assert kept == [[2, eve.name, 3]]
    Game.objects.filter(pk=table.game_id).update(takeovers=[])
    migration.copy_takeovers(apps, None)
    assert Game.objects.get(pk=table.game_id).takeovers == kept


def test_no_substitute_joins_a_table_of_a_called_round_that_never_played(
    signed_in: Client, season: Any
) -> None:
    """Called with nothing recorded, a table is left unplayed, not over:
    still no substitute joins it, and its Substitute… link is gone."""
    night, first, table, eve = _round(season)
    other = first.tables.exclude(pk=table.pk).get()
    play_hand(table.game)
    rounds.round_call(round=first, by="org", now=NOW)
    other.refresh_from_db()
    assert not other.game.finished  # unplayed
    page = signed_in.get(f"/nights/{night.pk}/").content.decode()
    assert f'href="/tables/{other.pk}/substitute"' not in page
    refused = signed_in.post(
        f"/tables/{other.pk}/substitute",
        {"seat": "0", "substitute": eve.pk, "from_hand": "1", "credit": "started"},
    )
    assert refused.status_code == 422
    assert "game is over: a substitute joins a game still being played" in (
        refused.content.decode()
    )
    assert not Substitution.objects.exists()


def test_the_desk_offers_a_substitute_and_comes_back_to_the_desk(
    signed_in: Client, season: Any
) -> None:
    """The organizer keeps the desk open: each table still being played
    has Substitute... there, and seating one comes back to the desk's row."""
    night, first, table, eve = _round(season)
    ann = _seat(table)
    play_hand(table.game)
    desk = signed_in.get(f"/nights/{night.pk}/desk").content.decode()
    link = f'href="/tables/{table.pk}/substitute?from=desk"'
    assert link in desk
    form = signed_in.get(f"/tables/{table.pk}/substitute?from=desk").content.decode()
    assert "Back to the desk" in form and 'name="next" value="desk"' in form
    response = signed_in.post(
        f"/tables/{table.pk}/substitute",
        {
            "seat": "0",
            "substitute": eve.pk,
            "from_hand": "2",
            "credit": "started",
            "next": "desk",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == f"/nights/{night.pk}/desk#table-{table.pk}"
    desk = signed_in.get(response["Location"]).content.decode()
    assert f"{ann.name} → {eve.name} from hand 2" in desk
    rounds.round_call(round=first, by="org", now=NOW)
    desk = signed_in.get(f"/nights/{night.pk}/desk").content.decode()
    assert "/substitute?from=desk" not in desk  # called: no substitute joins


@pytest.mark.parametrize(
    "state", ["in play", "finished", "round called", "night closed"]
)
def test_substitute_is_offered_only_where_a_substitute_may_join(
    season: Any, state: str
) -> None:
    """TableView.takes_substitute, which the night page and the desk both
    follow, says what the service allows (``_check_seat``)."""
    night, first, table, _ = _round(season)
    if state == "finished":
        play_out(table.game)
    if state == "round called":
        rounds.round_call(round=first, by="org", now=NOW)
    if state == "night closed":
        Night.objects.filter(pk=night.pk).update(closed_at=NOW)
    table = Table.objects.select_related("game", "round__night").get(pk=table.pk)
    in_play = round_in_play(table.round)
    view = table_view(table, list(table.game.seats), "", now=NOW, in_play=in_play)
    assert view.takes_substitute is (state == "in play")
