"""The desk and the TV (Django's test client): tables that need a look
first, the round's controls on the desk, the night's standings with the
games in play counted (and said to be live), and polls that answer only
what changed, in pinned numbers of queries."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper.leagues import rounds
from scorekeeper.leagues.live import QUIET
from scorekeeper.leagues.models import Night, Season, Table
from scorekeeper.models import Game
from tests.leagues.nights import play_hand, play_out, three_tables
from tests.records import HTMX

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(client: Client, organizer: User, season: Season) -> Night:
    return three_tables(client, organizer, season)


def _hand(table: Table) -> None:
    """A hand at the table, recorded now (the desk tells quiet tables by
    the time of their last change)."""
    play_hand(table.game)
    Game.objects.filter(pk=table.game_id).update(updated_at=timezone.now())


def _tables(night: Night) -> list[Table]:
    return list(Table.objects.filter(round__night=night).select_related("game"))


def _state(page: str) -> dict[str, str]:
    """What the page's poll sends back: its hidden fields, and ``v``."""
    held = dict(re.findall(r'class="poll-state" name="(\w+)" value="([^"]*)"', page))
    version = re.search(r'\?v=([^"]+)"', page)
    assert version is not None
    return held | {"v": version.group(1)}


def _rows(page: str) -> list[str]:
    return re.findall(r'<li id="table-(\d+)"', page)


def test_quiet_tables_come_first_then_those_playing_then_the_finished(
    client: Client, night: Night
) -> None:
    done, quiet, playing = _tables(night)
    play_out(done.game)
    for table in (quiet, playing):
        _hand(table)
    now = timezone.now()
    Game.objects.filter(pk=quiet.game_id).update(updated_at=now - QUIET)
    Game.objects.filter(pk=playing.game_id).update(updated_at=now)
    page = client.get(f"/nights/{night.pk}/desk").content.decode()
    assert _rows(page) == [str(quiet.pk), str(playing.pk), str(done.pk)]
    assert (
        "<strong>1 quiet</strong>" in page
        and "<strong>quiet</strong>: nothing since" in page
    )
    tv = client.get(f"/nights/{night.pk}/tv").content.decode()
    assert _rows(tv) == sorted(_rows(tv), key=int)  # the room reads by number


def test_the_rounds_controls_are_on_the_desk(client: Client, night: Night) -> None:
    first, *others = _tables(night)
    _hand(first)
    page = client.get(f"/nights/{night.pk}/desk").content.decode()
    played = night.rounds.get()
    assert f'href="/rounds/{played.pk}/call?from=desk"' in page
    assert "Round 1 is still being played (3 of 3 tables unfinished)" in page
    assert 'name="next" value="desk"' in page and "Close the night…" in page
    response = client.post(f"/rounds/{played.pk}/call", {"next": "desk"})
    assert response["Location"] == f"/nights/{night.pk}/desk"
    response = client.post(f"/nights/{night.pk}/rounds", {"next": "desk"})
    assert response["Location"] == f"/nights/{night.pk}/desk"
    assert night.rounds.count() == 2


def test_the_standings_count_games_in_play_and_say_they_are_live(
    client: Client, night: Night
) -> None:
    first, *_ = _tables(night)
    _hand(first)  # the bidders make 6: they lead 6 to 0
    desk = client.get(f"/nights/{night.pk}/desk")
    rows = desk.context["live_rows"]
    assert len(rows) == 4 and {row.tally["played"] for row in rows} == {1}
    assert sorted(row.tally["points"] for row in rows) == [0, 0, 6, 6]
    assert "Provisional: the games in play count as they stand" in desk.content.decode()
    tv = client.get(f"/nights/{night.pk}/tv").content.decode()
    assert "Live: games in play count as they stand" in tv
    night_page = client.get(f"/nights/{night.pk}/").context["rows"]
    assert night_page == []  # the night's own standings: finished games only
    for table in _tables(night):
        play_out(table.game)
    desk = client.get(f"/nights/{night.pk}/desk")
    assert not desk.context["live"] and "Provisional" not in desk.content.decode()


def test_a_poll_after_a_hand_answers_that_tables_row_and_the_standings(
    client: Client, night: Night
) -> None:
    page = client.get(f"/nights/{night.pk}/desk").content.decode()
    held = _state(page)
    changed = _tables(night)[1]
    _hand(changed)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/nights/{night.pk}/desk", held, headers=HTMX)
    answer = response.content.decode()
    # whatever the number of tables (version read once; one for who has
    # not sat down yet)
    assert len(queries) == 12
    assert _rows(answer) == [str(changed.pk)]
    assert (
        f'<li id="table-{changed.pk}" class="desk-table" hx-swap-oob="true">' in answer
    )
    assert '<section id="desk-standings"' in answer
    assert '<div id="desk-poll"' in answer and 'id="live"' not in answer
    held |= _state(answer)  # as the page holds it after the swaps
    unchanged = client.get(f"/nights/{night.pk}/desk", held, headers=HTMX)
    assert unchanged.status_code == 204


def test_a_changed_frame_sends_the_whole_live_part(
    client: Client, night: Night
) -> None:
    held = _state(client.get(f"/nights/{night.pk}/tv").content.decode())
    rounds.round_call(round=night.rounds.get(), by="org", now=timezone.now())
    answer = client.get(f"/nights/{night.pk}/tv", held, headers=HTMX)
    content = answer.content.decode()
    assert '<div id="live" class="tv-live" hx-swap-oob="true">' in content
    assert "Round 1 · called" in content
    assert len(_rows(content)) == 3 and content.count("hx-swap-oob") == 2


def test_polls_with_nothing_new_are_one_query_and_a_table_going_quiet_is_new(
    client: Client, night: Night
) -> None:
    for screen in ("desk", "tv"):
        held = _state(client.get(f"/nights/{night.pk}/{screen}").content.decode())
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"/nights/{night.pk}/{screen}", held, headers=HTMX)
        assert response.status_code == 204 and len(queries) == 1
    held = _state(client.get(f"/nights/{night.pk}/desk").content.decode())
    Game.objects.filter(pk=_tables(night)[-1].game_id).update(
        updated_at=timezone.now() - QUIET - timedelta(seconds=1)
    )
    response = client.get(f"/nights/{night.pk}/desk", held, headers=HTMX)
    assert response.status_code == 200  # the last table goes quiet: to the top
    assert (
        '<div id="live" class="desk-live" hx-swap-oob="true">'
        in response.content.decode()
    )


def test_the_night_pages_queries_do_not_grow_with_its_rounds(
    client: Client, night: Night
) -> None:
    def next_round() -> int:
        rounds.round_call(round=night.rounds.last(), by="org", now=timezone.now())  # type: ignore[arg-type]
        client.post(f"/nights/{night.pk}/rounds")
        client.get(f"/nights/{night.pk}/")  # the night's standings cached
        with CaptureQueriesContext(connection) as queries:
            client.get(f"/nights/{night.pk}/")
        return len(queries)

    assert next_round() == next_round() == 21  # with the change log (undo lines)
