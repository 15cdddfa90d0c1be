"""Issue 33, a player's own night: the link each check-in holds shows
where the player sits this round (table, seat, partner, opponents), who
took their seat, a sit-out or a called round; "I'm at my table" tells
the desk; its queries are pinned and do not grow with the league."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import CheckIn, Night, Round, Season, Seat
from scorekeeper.models import Game
from tests.leagues.nights import play_hand, progressive_night, take_over
from tests.records import HTMX, NOW

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(season: Season) -> Round:
    """Nine players checked in, round 1 seated: two tables, one sits out."""
    night = progressive_night(season)
    return rounds.round_start(night=night, rng=random.Random(3), now=NOW)


def _page(client: Client, checkin: CheckIn, **headers: str) -> str:
    response = client.get(f"/me/{checkin.token}", headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _checkin(played: Round, position: int, table: int = 1) -> CheckIn:
    seat = Seat.objects.get(table__round=played, table__number=table, position=position)
    return CheckIn.objects.get(night=played.night, player=seat.player)


def _names(played: Round, table: int = 1) -> list[str]:
    seats = Seat.objects.filter(table__round=played, table__number=table)
    return [seat.player.name for seat in seats.order_by("position")]


def test_the_page_says_table_seat_partner_and_opponents(
    client: Client, played: Round
) -> None:
    names = _names(played)
    text = _text(_page(client, _checkin(played, 1)))
    assert f"{names[1]}'s night" in text
    assert "Round 1" in text and "Table 1 , seat 2" in text
    assert f"Partner {names[3]}" in text  # seats 2 and 4 play together
    assert f"Opponents {names[0]}, {names[2]}" in text
    assert "I'm at my table" in text


def test_its_queries_are_pinned_and_do_not_grow_with_the_league(
    client: Client, played: Round
) -> None:
    mine = _checkin(played, 0)

    def counted() -> int:
        with CaptureQueriesContext(connection) as queries:
            _page(client, mine, **HTMX)
        return len(queries)

    counted()  # the night's standings read once a process, then kept
    before = counted()
    for number in range(40):  # a bigger league, another night with a round
        services.player_add(league=played.night.season.league, name=f"P{number}")
    other = progressive_night(played.night.season, played.night.date.replace(day=26))
    rounds.round_start(night=other, rng=random.Random(1), now=NOW)
    # check-in, round, its substitutes, seats; the night so far: the
    # player's tables, their seats, their substitutes, the night's version
    assert before == counted() == 8


def test_a_poll_gets_only_where_the_player_sits(client: Client, played: Round) -> None:
    answer = _page(client, _checkin(played, 0), **HTMX).strip()
    assert answer.startswith('<section id="where"') and "<html" not in answer
    assert 'hx-trigger="every 4s"' in answer


def test_a_substitute_shows_on_both_players_pages(
    client: Client, played: Round
) -> None:
    table = played.tables.get(number=1)
    play_hand(table.game)
    leaver = _checkin(played, 0)
    sitting = played.sitting_out.get()
    take_over(table, sitting, from_hand=2, credit="started", position=0)
    assert f"{sitting.name} took your seat from hand 2" in _text(_page(client, leaver))
    joined = CheckIn.objects.get(night=played.night, player=sitting)
    text = _text(_page(client, joined))
    names = _names(played)
    assert "Table 1 , seat 1" in text and f"Partner {names[2]}" in text
    assert leaver.player.name not in text.split("Tonight so far")[0]


def test_sitting_out_a_called_round_and_a_late_arrival_are_said(
    client: Client, played: Round
) -> None:
    night = played.night
    out = CheckIn.objects.get(night=night, player=played.sitting_out.get())
    assert "You sit out this round" in _text(_page(client, out))
    late = services.player_add(league=night.season.league, name="Zed")
    came = services.check_in(night=night, player=late, now=NOW)
    assert "you play from the next round" in _text(_page(client, came))
    rounds.round_call(round=played, by="org", now=timezone.now())
    assert "The round was called: wait for round 2" in _text(
        _page(client, _checkin(played, 0))
    )


def test_an_unknown_link_is_not_found(client: Client, played: Round) -> None:
    assert client.get("/me/" + "x" * 32).status_code == 404


def test_im_at_my_table_is_stored_once_and_the_desk_stops_listing_them(
    client: Client, organizer: User, played: Round
) -> None:
    mine = _checkin(played, 0)
    client.force_login(organizer)
    desk = _text(client.get(f"/nights/{played.night_id}/desk").content.decode())
    assert "Not at their table yet (8)" in desk and mine.player.name in desk
    client.logout()
    for _ in range(2):  # a double tap
        response = client.post(f"/me/{mine.token}/seated", {"round": 1})
        assert response.status_code == 302
    mine.refresh_from_db()
    assert mine.seated_round == 1
    assert "You are at your table" in _text(_page(client, mine))
    client.force_login(organizer)
    desk = _text(client.get(f"/nights/{played.night_id}/desk").content.decode())
    assert "Not at their table yet (7)" in desk
    assert mine.player.name not in desk.split("Not at their table yet")[1].split(".")[0]


def test_the_desks_poll_sends_the_list_when_someone_sits_down(
    client: Client, organizer: User, played: Round
) -> None:
    client.force_login(organizer)
    page = client.get(f"/nights/{played.night_id}/desk").content.decode()
    held = dict(re.findall(r'class="poll-state" name="(\w+)" value="([^"]*)"', page))
    version = re.search(r'\?v=([^"]+)"', page)
    assert version is not None
    held["v"] = version.group(1)
    assert (
        client.get(f"/nights/{played.night_id}/desk", held, headers=HTMX).status_code
        == 204
    )
    mine = _checkin(played, 2)
    CheckIn.objects.filter(pk=mine.pk).update(seated_round=1)
    answer = client.get(f"/nights/{played.night_id}/desk", held, headers=HTMX)
    content = answer.content.decode()
    assert '<div id="desk-waiting" hx-swap-oob="true">' in content
    assert "Not at their table yet (7)" in content


def test_the_organizers_tap_shows_the_players_own_link(
    client: Client, organizer: User, season: Season
) -> None:
    night = services.night_create(
        season=season, day=NOW.date(), format=Night.PROGRESSIVE, now=NOW
    )
    ann = season.league.players.get(name="Ann")
    client.force_login(organizer)
    answer = client.post(
        f"/nights/{night.pk}/check-in", {"player": ann.pk}, headers=HTMX
    ).content.decode()
    token = night.checkins.get().token
    assert (
        '<div id="just-in" class="just-in" role="status" hx-swap-oob="true">' in answer
    )
    assert f"/me/{token}" in answer and "QR code of Ann's own night" in answer
    page = client.get(f"/nights/{night.pk}/?in={ann.pk}").content.decode()
    assert f"/me/{token}" in page
    sheet = client.get(f"/nights/{night.pk}/links").content.decode()
    assert f"/me/{token}" in sheet and f"/door/{night.door_token}" in sheet


def test_a_tap_for_a_round_not_started_is_refused_and_changes_nothing(
    client: Client, played: Round
) -> None:
    mine = _checkin(played, 0)
    refused = client.post(f"/me/{mine.token}/seated", {"round": 2})
    assert refused.status_code == 422
    assert "That round has not started" in refused.content.decode()
    mine.refresh_from_db()
    assert mine.seated_round == 0


def test_a_player_who_left_is_told_who_took_their_seat(
    client: Client, played: Round
) -> None:
    """The desk seats a substitute for someone leaving for the night: their
    page says who plays on in their seat, and that they are checked out."""
    table = played.tables.get(number=1)
    play_hand(table.game)
    leaver = _checkin(played, 0)
    sitting = played.sitting_out.get()
    take_over(table, sitting, from_hand=2, credit="started", position=0)
    services.check_out(night=played.night, player=leaver.player)
    text = _text(_page(client, leaver))
    assert f"{sitting.name} took your seat in round 1, from hand 2" in text
    assert "You are checked out for tonight" in text
    stayed = _checkin(played, 1)
    services.check_out(night=played.night, player=stayed.player)
    text = _text(_page(client, stayed))
    assert "took your seat" not in text and "You are checked out" in text


def _night_rank(played: Round, name: str) -> tuple[int, int]:
    """``name``'s rank tonight and how many are ranked, as the season's
    standings document (the `standings` command's) says."""
    from scorekeeper.leagues.results import season_standings

    document = season_standings(played.night.season)
    rows = document["nights"][0]["rows"]  # type: ignore[index]
    rank = next(row["rank"] for row in rows if row["name"] == name)
    return rank, len(rows)


def test_the_page_shows_the_night_so_far_and_the_players_place(
    client: Client, played: Round
) -> None:
    """Each game the player sat at tonight, with partner, score and how it
    ended, and their place in the night's standings as the standings say
    it (partners share theirs)."""
    mine = _checkin(played, 0)
    assert "Tonight so far" not in _text(_page(client, mine))  # nothing yet
    table = played.tables.get(number=1)
    play_hand(table.game)
    text = _text(_page(client, mine))
    names = _names(played)
    table.game.refresh_from_db()
    ours, theirs = table.game.totals
    assert "Tonight so far" in text
    assert f"Round 1, table 1, with {names[2]}: in play {ours} to {theirs}" in text
    assert (
        "Your place tonight shows when a game that counts for you is finished" in text
    )
    for _ in range(3):  # the season's hand limit is 4: the game ends
        play_hand(table.game)
    table.game.refresh_from_db()
    ours, theirs = table.game.totals
    winners = table.game.winners
    outcome = "won" if winners == [0] else "lost" if 0 not in winners else "tied"
    if outcome == "tied":  # 12 to 12 with this seed: co-winners
        outcome = "tied, a win for both sides,"
    text = _text(_page(client, mine))
    assert f"with {names[2]}: {outcome} {ours} to {theirs}" in text
    for position in range(4):  # partners share a place
        rank, ranked = _night_rank(played, names[position])
        place = {1: "1st", 2: "2nd", 3: "3rd"}[rank]
        text = _text(_page(client, _checkin(played, position)))
        assert f"Joint {place} of {ranked} tonight: " in text
        assert ranked == 4  # table 2 has not begun: only table 1 is ranked


def test_a_substitutes_game_shows_on_both_players_nights_and_whom_it_counts_for(
    client: Client, played: Round
) -> None:
    """Credited to the player who started it: the substitute sees the game,
    that it counts for the other, and no place from it; the one who left
    gets the place."""
    table = played.tables.get(number=1)
    play_hand(table.game)
    leaver = _checkin(played, 0)
    sitting = played.sitting_out.get()
    take_over(table, sitting, from_hand=2, credit="started", position=0)
    for _ in range(3):
        play_hand(table.game)  # the hand limit: finished
    joined = CheckIn.objects.get(night=played.night, player=sitting)
    theirs = _text(_page(client, joined))
    assert "you came in from hand 2" in theirs
    assert f"(it counts for {leaver.player.name})" in theirs
    assert "when a game that counts for you is finished" in theirs
    left = _text(_page(client, leaver))
    assert "you left it from hand 2" in left and "counts for" not in left
    assert " of 4 tonight: " in left


def test_a_tie_is_said_as_a_win_for_both_sides(client: Client, played: Round) -> None:
    table = played.tables.get(number=1)
    Game.objects.filter(pk=table.game_id).update(
        hands_played=4, finished=True, totals=[12, 12], winners=[0, 1]
    )
    text = _text(_page(client, _checkin(played, 0)))
    assert ": tied, a win for both sides, 12 to 12" in text
