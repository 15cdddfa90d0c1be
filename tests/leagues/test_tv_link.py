"""The room's TV by its read-only link (no sign-in): made, replaced and
revoked as the public standings link is; its page and its polls in pinned
numbers of queries that do not grow with the league; the last round's
totals hidden on it until the night closes."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night, Season
from scorekeeper.leagues.screens import tv_columns
from scorekeeper.leagues.tv_link import night_tv_link_new, night_tv_totals_hide
from tests.leagues.nights import closed_night, play_hand, three_tables
from tests.records import HTMX

pytestmark = pytest.mark.django_db
SCORE, ROWS = 'class="tv-side-score"', 'id="tv-standings-rows"'


@pytest.fixture
def night(client: Client, organizer: User, season: Season) -> Night:
    return three_tables(client, organizer, season)


def _link(client: Client, night: Night) -> str:
    client.post(f"/nights/{night.pk}/tv-link", {"action": "new"})
    night.refresh_from_db()
    assert night.tv_token
    return f"/tv/{night.tv_token}"


def _state(page: str) -> dict[str, str]:
    held = dict(re.findall(r'class="poll-state" name="(\w+)" value="([^"]*)"', page))
    version = re.search(r'\?v=([^"]+)"', page)
    assert version is not None
    return held | {"v": version.group(1)}


def test_it_opens_the_tv_without_a_sign_in(client: Client, night: Night) -> None:
    link = _link(client, night)
    assert link in client.get(f"/nights/{night.pk}/").content.decode()
    client.logout()
    response = client.get(link)
    page = response.content.decode()
    assert response.status_code == 200
    assert len(re.findall(r'<li id="table-\d+" class="tv-table', page)) == 3
    assert f'hx-get="{link}?v=' in page  # it polls its own link
    assert "Start round" not in page and "csrfmiddlewaretoken" not in page


def test_a_replaced_link_answers_404_and_the_new_one_works(
    client: Client, night: Night
) -> None:
    old = _link(client, night)
    new = _link(client, night)
    assert old != new
    visitor = Client()
    assert visitor.get(old).status_code == 404
    assert visitor.get(old, {"v": "x"}, headers=HTMX).status_code == 404
    assert visitor.get(new).status_code == 200
    client.post(f"/nights/{night.pk}/tv-link", {"action": "revoke"})
    assert visitor.get(new).status_code == 404


def test_only_an_organizer_makes_the_link(client: Client, night: Night) -> None:
    User.objects.create_user("other", password="another passphrase")
    stranger = Client()
    stranger.login(username="other", password="another passphrase")
    assert stranger.post(f"/nights/{night.pk}/tv-link").status_code == 404
    night.refresh_from_db()
    assert night.tv_token is None


def _page_queries(link: str) -> int:
    visitor = Client()
    with CaptureQueriesContext(connection) as queries:
        assert visitor.get(link).status_code == 200
    return len(queries)


def test_the_link_page_reads_the_round_it_shows_not_the_league(
    client: Client, night: Night, season: Season
) -> None:
    link = _link(client, night)
    before = _page_queries(link)
    # The night, its version, who is here, the round and its tables, seats
    # and names, the live standings' rows and who has not sat down yet (the
    # live part is shared with the desk under the night's version).
    assert before == 11
    # A bigger league: two more closed nights and twenty more players.
    for name in (f"Player {n}" for n in range(20)):
        services.player_add(league=season.league, name=name)
    closed_night(season, date(2026, 10, 1), seed=3)
    closed_night(season, date(2026, 10, 8), seed=4)
    assert _page_queries(link) == before


def test_a_poll_with_nothing_new_is_one_query_and_a_hand_is_news(
    client: Client, night: Night
) -> None:
    link = _link(client, night)
    visitor = Client()
    held = _state(visitor.get(link).content.decode())
    with CaptureQueriesContext(connection) as queries:
        response = visitor.get(link, held, headers=HTMX)
    assert response.status_code == 204 and len(queries) == 1
    table = night.rounds.get().tables.order_by("number").first()
    assert table is not None
    play_hand(table.game)
    answer = visitor.get(link, held, headers=HTMX).content.decode()
    assert f'<li id="table-{table.pk}"' in answer and 'id="tv-standings"' in answer


def test_hidden_totals_show_no_score_and_no_standings_until_the_close(
    client: Client, night: Night
) -> None:
    link = _link(client, night)
    table = night.rounds.get().tables.order_by("number").first()
    assert table is not None
    play_hand(table.game, bidder_side_takes=6)
    shown = Client().get(link).content.decode()
    assert SCORE in shown and ROWS in shown
    held = _state(shown)
    client.post(f"/nights/{night.pk}/tv-link", {"action": "hide"})
    answer = Client().get(link, held, headers=HTMX).content.decode()
    assert 'id="live" class="tv-live" hx-swap-oob="true"' in answer  # all again
    hidden = Client().get(link).content.decode()
    assert SCORE not in hidden and ROWS not in hidden
    assert "Hidden for the last round" in hidden
    rounds.night_close(night=night, by="org", now=timezone.now())
    closed = Client().get(link).content.decode()
    assert SCORE in closed and ROWS in closed


def test_the_desk_hides_and_shows_the_totals(client: Client, night: Night) -> None:
    client.post(f"/nights/{night.pk}/tv-link", {"action": "hide", "next": "desk"})
    night.refresh_from_db()
    assert night.tv_totals_hidden
    desk = client.get(f"/nights/{night.pk}/desk").content.decode()
    assert "Show the totals on the TV" in desk
    night_tv_totals_hide(night=night, hidden=False)
    assert (
        "Hide the totals on the TV"
        in client.get(f"/nights/{night.pk}/desk").content.decode()
    )


def test_a_new_link_is_another_token() -> None:
    night = Night(tv_token=None)
    night.save = lambda **_: None  # type: ignore[method-assign]
    first = night_tv_link_new(night=night)
    assert first and night_tv_link_new(night=night) != first


@pytest.mark.parametrize(
    ("tables", "columns"),
    [(1, 1), (4, 1), (5, 2), (10, 2), (11, 3), (20, 4), (21, 5), (31, 6)],
)
def test_every_table_finds_a_place_on_one_screen(tables: int, columns: int) -> None:
    assert tv_columns(tables) == columns
