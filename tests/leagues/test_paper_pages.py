"""The paper cards' pages: the printable card of a table and of a round,
and the page where the organizer types the cards in, a table at a time."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import League, Round, Season, Table
from scorekeeper.models import Game, GameEvent
from tests.leagues.nights import progressive_night
from tests.records import HTMX, NOW

pytestmark = pytest.mark.django_db

CARD = [  # bidder, bid, trump, result: eight hands
    ("2", "3", "h", "4"),
    ("c", "2", "s", "2"),
    ("", "", "", "p"),
    ("1", "4", "d", "C"),
    ("4", "3", "c", "3"),
    ("2", "2", "n", "1"),
    ("3", "3", "h", "5"),
    ("1", "2", "s", "3"),
]


@pytest.fixture
def played(league: League, client: Client, organizer: User) -> Round:
    """Round 1 of a night of nine, hand limit 8; the organizer signed in."""
    client.force_login(organizer)
    season = services.season_create(
        league=league,
        name="Paper",
        preset="classic",
        overrides={"hand_limit": 8, "negotiation": True},
        now=NOW,
    )
    night = progressive_night(season)
    return rounds.round_start(night=night, rng=random.Random(1), now=NOW)


def _posted(first: int, rows: list[tuple[str, str, str, str]]) -> dict[str, str]:
    data = {"first": str(first), "count": str(len(rows))}
    for n, cells in enumerate(rows, start=first):
        for name, value in zip(
            ("bidder", "bid", "trump", "result"), cells, strict=True
        ):
            data[f"h{n}-{name}"] = value
    return data


def test_the_night_links_each_tables_card_and_the_rounds(
    client: Client, played: Round
) -> None:
    page = client.get(f"/nights/{played.night_id}/").content.decode()
    for table in played.tables.all():
        assert f'href="/tables/{table.pk}/card"' in page
    assert f'href="/rounds/{played.pk}/cards"' in page
    assert f'href="/rounds/{played.pk}/cards/enter"' in page


def test_a_tables_printable_card(
    client: Client, played: Round, django_assert_num_queries: Any
) -> None:
    table = played.tables.select_related("game").first()
    assert table is not None
    game = table.game
    with django_assert_num_queries(4):  # user, table, substitutes, events
        page = client.get(f"/tables/{table.pk}/card").content.decode()
    for name in game.seats:
        assert f"<td>{name}</td>" in page
    dealers = [game.seats[(game.first_dealer + n) % 4] for n in range(12)]
    rows = page.split("<tbody>")[2].split("</tbody>")[0].split("<tr>")[1:]
    assert len(rows) == 12  # the hand limit and 4 more, in case of a tie
    assert [row.split("<td>")[1].split("</td>")[0] for row in rows] == dealers
    assert "Bids</strong>: 1, 2, 3, 4, 5, little pepper, big pepper" in page


def test_every_tables_card_of_a_round_in_the_same_queries(
    client: Client, played: Round, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(5):  # whatever the number of tables
        page = client.get(f"/rounds/{played.pk}/cards").content.decode()
    assert page.count('<article class="score-card"') == 2


def test_the_entry_page_has_a_grid_a_table(
    client: Client, played: Round, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(5):  # user, round, substitutes, tables, events
        page = client.get(f"/rounds/{played.pk}/cards/enter").content.decode()
    for table in played.tables.all():
        assert f'action="/tables/{table.pk}/card/enter"' in page
    assert page.count('name="h12-result"') == 2


def test_a_card_posted_records_its_hands_and_says_so(
    client: Client, played: Round, django_assert_num_queries: Any
) -> None:
    table = played.tables.select_related("game").first()
    assert table is not None
    response = client.post(f"/tables/{table.pk}/card/enter", _posted(1, CARD[:4]))
    assert response.status_code == 302
    assert response["Location"] == (
        f"/rounds/{played.pk}/cards/enter?saved={table.pk}#card-{table.pk}"
    )
    assert Game.objects.get(pk=table.game_id).hands_played == 4
    page = client.get(response["Location"]).content.decode()
    mine = page.split(f'id="card-{table.pk}"')[1].split("</section>")[0]
    assert "Saved." in mine and "4 hands recorded" in mine
    assert 'name="h5-bidder"' in mine and 'name="h4-bidder"' not in mine
    rest = _posted(5, CARD[4:])
    # Each hand: its savepoint and release, the event it follows (read),
    # its insert and the game row's update (and PostgreSQL's row lock);
    # around them the user, the table, its substitutes and, for the
    # answer, the substitutes and the log again; and, in the transaction
    # that writes (decided against what it locked: a card sent twice at
    # once waits for the first), the night's row and the game's row locked
    # and read again, and the round's call read again.
    per_hand = 5 + connection.features.has_select_for_update
    # The hand that finishes the game sums its players' night again, in
    # its transaction: the game's seats, a savepoint and its release, the
    # night's lock row (made if new, then locked), its version, their
    # games' seats and rows, their old tallies out, the night's version
    # in, their new tallies in, and the night's league (its ratings are
    # the task worker's: one row queued once this commits, never here in
    # the test's transaction).
    night_summed = 12
    # A log read inside a transaction is kept only once it commits (never,
    # in the test's): the answer's and the last hand's reads go to the
    # database again.
    unkept = 2
    with django_assert_num_queries(10 + 4 * per_hand + night_summed + unkept):
        answer = client.post(f"/tables/{table.pk}/card/enter", rest, headers=HTMX)
    text = answer.content.decode()
    assert answer.status_code == 200 and text.lstrip().startswith(
        f'<section id="card-{table.pk}"'
    )
    assert "Saved 4 hands of table 1." in text and "Finished" in text
    assert Game.objects.get(pk=table.game_id).finished


def test_a_refused_row_is_said_beside_it_and_nothing_is_stored(
    client: Client, played: Round
) -> None:
    table = played.tables.first()
    assert table is not None
    rows = [*CARD[:4], ("1", "9", "h", "6"), *CARD[5:]]
    response = client.post(
        f"/tables/{table.pk}/card/enter", _posted(1, rows), headers=HTMX
    )
    assert response.status_code == 422
    text = response.content.decode()
    row = text.split('id="problem-')[1]
    assert row.startswith(f'{table.pk}-5">Hand 5: Classic has no bid 9')
    assert 'value="9"' in text and 'value="C"' in text  # what was typed is kept
    assert "Nothing of this card was saved" in text
    assert GameEvent.objects.count() == 0
    whole = client.post(f"/tables/{table.pk}/card/enter", _posted(1, rows))
    assert whole.status_code == 422  # without htmx: the whole page, the others fresh
    assert whole.content.decode().count('class="card-entry"') == 2


def test_another_organizers_tables_are_not_found(client: Client, played: Round) -> None:
    User.objects.create_user("other", password="x long passphrase")
    client.login(username="other", password="x long passphrase")
    table = Table.objects.first()
    assert table is not None
    for url in (
        f"/tables/{table.pk}/card",
        f"/rounds/{played.pk}/cards",
        f"/rounds/{played.pk}/cards/enter",
        f"/tables/{table.pk}/substitute",
    ):
        assert client.get(url).status_code == 404, url
    posted = client.post(f"/tables/{table.pk}/card/enter", _posted(1, CARD))
    assert posted.status_code == 404 and GameEvent.objects.count() == 0


def test_garbled_counts_are_read_safely(client: Client, played: Round) -> None:
    table = played.tables.first()
    assert table is not None
    for data in (
        {"first": "x", "count": "y"},
        {"first": "1", "count": "999999999999"},
        {"first": "٣", "count": "2", "h3-result": "p"},
    ):
        response = client.post(f"/tables/{table.pk}/card/enter", data)
        assert response.status_code == 422, data
    assert GameEvent.objects.count() == 0


def test_a_closed_night_still_prints_its_cards(
    client: Client, played: Round, season: Season
) -> None:
    rounds.night_close(night=played.night, by="org", now=NOW)
    assert client.get(f"/rounds/{played.pk}/cards").status_code == 200
    page = client.get(f"/nights/{played.night_id}/").content.decode()
    assert "enter the cards" not in page
    entry = client.get(f"/rounds/{played.pk}/cards/enter").content.decode()
    assert "The night is closed: its cards are entered before closing." in entry
    assert "<form" not in entry.split("<main")[1]
