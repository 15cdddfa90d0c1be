"""A night's movement chosen round by round: a round-robin round 1, then
a progressive round 2 seated from round 1's results; the start form's
choice; and the printed movement cards."""

from __future__ import annotations

import json
import random
import re
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues import rounds, schedule, services
from scorekeeper.leagues.interchange import season_export, season_import
from scorekeeper.leagues.models import Movement, Night, Round, Season
from tests.leagues.nights import play_hand, play_out_round, progressive_night
from tests.records import NOW

pytestmark = pytest.mark.django_db
SIXTEEN = [f"Player {letter}" for letter in "JKLMNOP"]  # with the nine: 16


@pytest.fixture
def night(season: Season) -> Night:
    for name in SIXTEEN:
        services.player_add(league=season.league, name=name)
    return progressive_night(season)


@pytest.fixture
def signed_in(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


def _tables(played: Round) -> list[tuple[list[int], list[int]]]:
    """Each table's winning and losing pair (player ids), head first."""
    found = []
    for table in played.tables.select_related("game").prefetch_related("seats"):
        seats = [seat.player_id for seat in table.seats.all()]
        won = table.game.winners[0] if len(table.game.winners) == 1 else 0
        found.append((seats[won::2], seats[1 - won :: 2]))
    return found


def _seats(played: Round) -> list[set[int]]:
    return [
        {seat.player_id for seat in table.seats.all()}
        for table in played.tables.prefetch_related("seats")
    ]


def _teams(played: Round) -> set[frozenset[int]]:
    teams = set()
    for table in played.tables.prefetch_related("seats"):
        seats = [seat.player_id for seat in table.seats.all()]
        teams |= {frozenset(seats[0::2]), frozenset(seats[1::2])}
    return teams


def test_round_2_seats_winners_up_from_round_1_s_round_robin_results(
    night: Night,
) -> None:
    first = rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    assert first.movement == Movement.CIRCLE
    for number, table in enumerate(first.tables.select_related("game")):
        while not table.game.finished:  # each table's own winners
            play_hand(table.game, bidder_side_takes=6 if number % 2 else 0)
            table.game.refresh_from_db()
    second = rounds.round_start(
        night=night, rng=random.Random(3), now=NOW, movement=Movement.WINNERS_UP
    )
    assert second.movement == Movement.WINNERS_UP
    results, seats = _tables(first), _seats(second)
    last = len(results) - 1
    for number, (won, lost) in enumerate(results):
        assert set(won) <= seats[max(number - 1, 0)]  # up a table (the head stays)
        assert set(lost) <= seats[number if number else last]  # head's go to foot
    assert _teams(second).isdisjoint(_teams(first))


def test_a_progressive_first_round_is_seated_as_the_round_robin_s(
    night: Night,
) -> None:
    other = progressive_night(night.season, night.date.replace(day=20))
    circle = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    winners = rounds.round_start(
        night=other, rng=random.Random(1), now=NOW, movement=Movement.WINNERS_UP
    )
    assert _seats(circle) == _seats(winners)


def test_the_start_form_sets_the_movement_and_the_clock(
    signed_in: Client, night: Night
) -> None:
    rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    play_out_round(night.rounds.get())
    answer = signed_in.post(
        f"/nights/{night.pk}/rounds",
        {"number": "2", "movement": "winners-up", "minutes": "25", "auto_call": "yes"},
    )
    assert answer.status_code == 302
    second = night.rounds.get(number=2)
    assert second.movement == Movement.WINNERS_UP and second.auto_call
    assert second.ends_at is not None
    assert (second.ends_at - second.started_at).total_seconds() == 25 * 60
    page = signed_in.get(f"/nights/{night.pk}/").content.decode()
    # the next round's form offers what the last one had
    assert re.search(r'value="winners-up" checked', page) is None  # round 2 in play
    play_out_round(second)
    page = signed_in.get(f"/nights/{night.pk}/").content.decode()
    assert re.search(r'name="movement" value="winners-up" checked', page)
    assert 'name="minutes" min="1" max="240" inputmode="numeric" value="25"' in page
    assert re.search(r'name="auto_call" value="yes" checked', page)


@pytest.mark.parametrize("typed", ["0", "abc", "241", "²"])
def test_a_round_length_that_is_not_minutes_is_refused_in_words(
    signed_in: Client, night: Night, typed: str
) -> None:
    answer = signed_in.post(
        f"/nights/{night.pk}/rounds", {"number": "1", "minutes": typed}
    )
    assert answer.status_code == 422
    assert "whole number of minutes, 1 to 240" in answer.content.decode()
    assert not night.rounds.exists()


def test_calling_by_itself_needs_the_round_s_length(
    signed_in: Client, night: Night
) -> None:
    answer = signed_in.post(
        f"/nights/{night.pk}/rounds", {"number": "1", "auto_call": "yes"}
    )
    assert answer.status_code == 422
    assert "give its length" in answer.content.decode()
    assert not night.rounds.exists()


def _card_rows(page: str, name: str) -> list[str]:
    """A player's card as its rows' text."""
    card = page.split(f">{name}</h2>", 1)[1].split("</section>", 1)[0]
    rows = re.findall(r"<tr(?: class=\"ahead\")?><th scope=\"row\">(.*?)</tr>", card)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in rows]


def _place(played: Round, player_id: int) -> str:
    """``round table seat partner`` as the card writes it."""
    for table in played.tables.prefetch_related("seats__player"):
        seats = list(table.seats.all())
        for seat in seats:
            if seat.player_id == player_id:
                partner = seats[(seat.position + 2) % 4].player.name
                return f"{played.number} {table.number} {seat.position + 1} {partner}"
    return f"{played.number} sits out"


def test_the_round_robin_card_lists_every_round_as_it_will_be_seated(
    signed_in: Client, night: Night, django_assert_num_queries: Any
) -> None:
    # session's user, night, rounds, here, last round, names
    with django_assert_num_queries(7):
        page = signed_in.get(f"/nights/{night.pk}/movement").content.decode()
    ann = night.season.league.players.get(name="Ann")
    rows = _card_rows(page, "Ann")
    assert len(rows) == 12  # of the 15 of a whole circle (16 here)
    assert "every round can be known in advance, for the 16 players" in page
    for number in (1, 2):
        played = rounds.round_start(night=night, rng=random.Random(5), now=NOW)
        play_out_round(played)
        assert rows[number - 1] == _place(played, ann.pk)
    # played rounds: their tables, seats and sit-outs too, however many
    with django_assert_num_queries(10):
        again = signed_in.get(f"/nights/{night.pk}/movement").content.decode()
    assert _card_rows(again, "Ann") == rows


def test_the_progressive_card_knows_only_the_next_round(
    signed_in: Client, night: Night
) -> None:
    page = signed_in.get(f"/nights/{night.pk}/movement?movement=winners-up")
    text = page.content.decode()
    assert len(_card_rows(text, "Ann")) == 1
    assert "Only round 1 can be known in advance" in text
    first = rounds.round_start(night=night, rng=random.Random(5), now=NOW)
    text = signed_in.get(
        f"/nights/{night.pk}/movement?movement=winners-up"
    ).content.decode()
    assert len(_card_rows(text, "Ann")) == 1  # round 1 in play: 2 unknown yet
    play_out_round(first)
    text = signed_in.get(
        f"/nights/{night.pk}/movement?movement=winners-up"
    ).content.decode()
    ann = night.season.league.players.get(name="Ann")
    rows = _card_rows(text, "Ann")
    second = rounds.round_start(
        night=night, rng=random.Random(5), now=NOW, movement=Movement.WINNERS_UP
    )
    assert rows == [_place(first, ann.pk), _place(second, ann.pk)]


def test_another_organizer_s_night_has_no_cards(night: Night, client: Client) -> None:
    other = User.objects.create_user("other", password="a long passphrase")
    client.force_login(other)
    assert client.get(f"/nights/{night.pk}/movement").status_code == 404


def test_the_round_robin_s_rounds_ahead_are_worked_out_once_until_a_change(
    signed_in: Client, night: Night
) -> None:
    url = f"/nights/{night.pk}/movement"
    before = signed_in.get(url).content.decode()
    with mock.patch.object(
        schedule,
        "progressive_round",
        side_effect=AssertionError("worked out again"),
    ):
        again = signed_in.get(url).content.decode()
    assert again.split('class="move-cards"')[1] == before.split('class="move-cards"')[1]
    late = services.player_add(league=night.season.league, name="Quinn")
    services.check_in(night=night, player=late, now=NOW)
    after = signed_in.get(url).content.decode()
    assert len(_card_rows(after, "Quinn")) == 12  # 17 here: the first 12 of 17
    assert _card_rows(after, "Ann") != _card_rows(before, "Ann")


def test_winners_move_up_seats_no_3_handed_table(night: Night) -> None:
    rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    play_out_round(night.rounds.get())
    late = services.player_add(league=night.season.league, name="Quinn")
    services.check_in(night=night, player=late, now=NOW)  # 17: not fours
    with pytest.raises(services.LeagueError, match="every table seats 4"):
        rounds.round_start(
            night=night,
            rng=random.Random(3),
            now=NOW,
            movement=Movement.WINNERS_UP,
            three_handed=True,
        )
    second = rounds.round_start(
        night=night, rng=random.Random(3), now=NOW, movement=Movement.WINNERS_UP
    )
    assert second.sitting_out.count() == 1 and second.tables.count() == 4


def test_a_fixed_teams_night_s_cards_follow_its_teams_once_drawn(
    signed_in: Client, season: Season
) -> None:
    night = services.night_create(
        season=season, day=NOW.date(), format=Night.FIXED, now=NOW
    )
    for player in season.league.players.all()[:8]:
        services.check_in(night=night, player=player, now=NOW)
    url = f"/nights/{night.pk}/movement"
    page = signed_in.get(url).content.decode()
    assert "once the teams are drawn" in page and 'name="movement"' not in page
    assert "No round can be known yet" in page and ">Ann</h2>" not in page
    first = rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    rows = _card_rows(signed_in.get(url).content.decode(), "Ann")
    assert len(rows) == 3  # 4 teams: each meets the 3 others once
    ann = season.league.players.get(name="Ann")
    assert rows[0] == _place(first, ann.pk)


def test_a_night_seated_winners_up_on_the_clock_goes_out_and_back_byte_for_byte(
    night: Night, organizer: User
) -> None:
    """pepper-league v1 knows neither movement nor clock: the season's file
    says who sat where, and reads back the same."""
    first = rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    play_out_round(first)
    second = rounds.round_start(
        night=night,
        rng=random.Random(3),
        now=NOW,
        movement=Movement.WINNERS_UP,
        minutes=20,
        auto_call=True,
    )
    play_hand(second.tables.select_related("game")[0].game)
    rounds.night_close(night=night, by="org", now=NOW)
    exported: dict[str, Any] = season_export(season=night.season)
    assert len(exported["nights"][0]["games"]) == 8
    other = services.league_create(name="Elsewhere", organizer=organizer, now=NOW)
    copy = season_import(league=other, text=json.dumps(exported), now=NOW)
    again = season_export(season=copy)
    assert json.dumps(again, indent=1) == json.dumps(exported, indent=1)
