"""The recap page of a game (and of its series): each player's game, the
hands that mattered, the awards with their rules, the chart; shared by the
game's read-only link; the same numbers the engine's replay gives."""

from __future__ import annotations

from typing import Any

from django.test import Client
from pytest_django import DjangoAssertNumQueries

from scorekeeper.projections.boards import game_log, scoreboard
from scorekeeper.projections.recap import game_recap
from tests.conftest import join
from tests.games.series_play import played_series
from tests.records import NOW, HandSpec, new_game, record_hands

# Moon-42: the pepper round (Cat is set), Bob's moon made, Ann's moon set.
MOON_HANDS: list[HandSpec] = [
    (1, 4, "hearts", [1, 5]),
    (2, 4, "hearts", [3, 3]),
    (3, 4, "hearts", [2, 4]),
    (0, 4, "hearts", [6, 0]),
    (1, "moon", "spades", [0, 6]),
    (0, "moon", "clubs", [5, 1]),
]


def test_the_recap_tells_each_players_game_and_the_awards_with_their_rules(
    client: Client,
    db: None,
    django_assert_num_queries: DjangoAssertNumQueries,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = new_game("moon-42")
    record_hands(game, NOW, *MOON_HANDS)
    join(client, game)
    with django_capture_on_commit_callbacks(execute=True):
        client.get(f"/games/{game.pk}/recap")  # its log read and kept
    with django_assert_num_queries(1):  # the game's row
        page = client.get(f"/games/{game.pk}/recap").content.decode()
    game.refresh_from_db()
    recap = game_recap(scoreboard(game.pk, game_log(game)))
    for line in recap.players:
        name = game.seats[line.seat]
        row = f'<th scope="row">{name}</th><td>{line.bids}</td><td>{line.made}</td><td>{line.set}</td>'
        assert row in page
    assert "<strong>Moon shooter</strong>: Bob" in page
    assert "(made a moon or double moon)" in page
    assert "Pepper-proof</strong>: Ann, Bob and Dan" in page
    assert "The biggest swing: hand 5." in page and "Bob bid moon" in page
    assert "The game is still being played" in page
    assert "<svg" in page  # the score chart


def test_a_won_game_names_the_hand_that_decided_it(client: Client, db: None) -> None:
    game = new_game(target_score=10)
    record_hands(game, NOW, (0, 4, "hearts", [5, 1]), (0, 4, "hearts", [6, 0]))
    join(client, game)
    game_page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/recap">The recap</a>' in game_page
    page = client.get(f"/games/{game.pk}/recap").content.decode()
    assert "The hand that decided it: hand 2." in page
    assert "Ann &amp; Cat win" in page


def test_the_recap_is_shared_by_the_read_only_link(client: Client, db: None) -> None:
    game = new_game()
    join(client, game)
    page = client.get(f"/games/{game.pk}/recap").content.decode()
    link = f"/join/{game.view_token}/recap"
    assert link in page and game.edit_token not in page
    friend = Client()
    opened = friend.get(link, follow=True)
    assert opened.redirect_chain[-1][0] == f"/games/{game.pk}/recap"
    assert "Share this recap" not in opened.content.decode()
    assert friend.post(f"/games/{game.pk}/hands", {}).status_code == 403


def test_a_replaced_link_no_longer_opens_the_recap(client: Client, db: None) -> None:
    game = new_game()
    assert Client().get(f"/join/{'A' * 32}/recap").status_code == 404
    assert Client().get(f"/games/{game.pk}/recap").status_code == 404


def test_the_series_recap_names_the_winner_and_each_game(
    client: Client,
    db: None,
    django_assert_num_queries: DjangoAssertNumQueries,
    django_capture_on_commit_callbacks: Any,
) -> None:
    games = played_series(client)
    last = games[-1]
    with django_capture_on_commit_callbacks(execute=True):
        client.get(f"/games/{last.pk}/recap")
    # The game's row; the series and its games' rows.
    with django_assert_num_queries(3):
        page = client.get(f"/games/{last.pk}/recap").content.decode()
    assert "Best of 3: Ann &amp; Cat win 2 games to 1" in page
    assert f"/games/{last.pk}/series/1?to=recap" in page
    assert "Game 3</strong> (this recap)" in page
    # Each player's series: the bids of the three games, summed.
    bids = sum(sum(n for n, _ in g.seat_stats[0]["bids"].values()) for g in games)
    assert f'<th scope="row">Ann</th><td>{bids}</td>' in page


def test_the_recap_of_a_game_not_started_says_so(client: Client, db: None) -> None:
    game = new_game()
    join(client, game)
    page = client.get(f"/games/{game.pk}/recap").content.decode()
    assert "No hand has been played yet." in page
    assert "The score, hand by hand" not in page and "Awards" not in page
