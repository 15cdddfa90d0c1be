"""A series of games at one table: started from the new-game form, its
score on each game page, the next game started with one tap (once, however
often it is tapped), the winner named with the rule, in the home list and
in the series' download."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from scorekeeper.gamelog import read_and_replay
from scorekeeper.games import services
from scorekeeper.games.models import LiveTable, Series
from scorekeeper.models import Game, GameEvent
from tests.conftest import join
from tests.factories import NAMES
from tests.games.series_play import (
    ANN_CAT_WIN,
    BOB_DAN_WIN,
    first_game,
    keys,
    next_game,
    played_series,
    won,
)
from tests.records import HTMX, NOW, record_hands


def test_the_new_game_form_starts_a_series(client: Client, db: None) -> None:
    seats = {f"seat_{n}": name for n, name in enumerate(NAMES[:4])}
    client.post(
        "/games/new",
        {"preset": "classic", "first_dealer": "0", "series": "first-to-2", **seats},
    )
    game = Game.objects.get()
    series = Series.objects.get()
    assert (game.series_id, series.rule, series.games) == (
        series.pk,
        "first-to-2",
        [game.pk.hex],
    )


def test_a_game_of_its_own_reads_no_series(
    client: Client, db: None, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    game = services.game_create(
        preset="classic", seats=list(NAMES[:4]), first_dealer=0, now=NOW
    )
    join(client, game)
    with django_assert_num_queries(2):  # the game, its table (as before)
        page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="series"' not in page


def test_each_game_page_of_a_series_shows_the_series_score(
    client: Client,
    db: None,
    django_assert_num_queries: DjangoAssertNumQueries,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = won(first_game(), BOB_DAN_WIN)
    join(client, game)
    with django_capture_on_commit_callbacks(execute=True):
        client.get(f"/games/{game.pk}/")  # its log read and kept
    # The game, its table; the series and its games' rows.
    with django_assert_num_queries(4):
        page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Best of 3 · game 1" in page
    assert "Ann &amp; Cat 0 – Bob &amp; Dan 1" in page
    assert "Start game 2" in page and "Cat deals first" in page


def test_one_tap_starts_the_next_game_dealt_on_around_the_table(
    client: Client, db: None
) -> None:
    game = won(first_game(first_dealer=3), ANN_CAT_WIN)
    join(client, game)
    following = next_game(client, game, keys())
    # Dan dealt hand 1, Ann hand 2: Bob deals first now.
    assert following.first_dealer == 1
    assert (following.seats, following.preset, following.overrides) == (
        game.seats,
        game.preset,
        game.overrides,
    )
    assert Series.objects.get().games == [game.pk.hex, following.pk.hex]
    page = client.get(f"/games/{following.pk}/").content.decode()
    assert "Best of 3 · game 2" in page and "Bob deals" in page
    assert "Ann &amp; Cat 1 – Bob &amp; Dan 0" in page


def test_the_same_tap_sent_twice_starts_one_game(client: Client, db: None) -> None:
    game = won(first_game(), ANN_CAT_WIN)
    join(client, game)
    chosen = keys()
    first, second = next_game(client, game, chosen), next_game(client, game, chosen)
    assert first == second
    assert Game.objects.count() == 2


def test_two_phones_tapping_start_one_game_and_both_can_score_it(
    client: Client, db: None
) -> None:
    game = won(first_game(), ANN_CAT_WIN)
    other = Client()
    join(client, game)
    join(other, game)
    mine, theirs = next_game(client, game, keys()), next_game(other, game, keys())
    assert mine == theirs and Game.objects.count() == 2
    page = other.get(f"/games/{theirs.pk}/").content.decode()
    assert "Record hand 1" in page


def test_the_next_game_waits_for_this_one_to_be_won(client: Client, db: None) -> None:
    game = first_game()
    record_hands(game, NOW, ANN_CAT_WIN[0])
    join(client, game)
    answer = client.post(f"/games/{game.pk}/next", keys())
    assert answer.status_code == 409
    assert "Game 1 is still being played" in answer.content.decode()
    assert Game.objects.count() == 1


def test_a_read_only_link_cannot_start_the_next_game(client: Client, db: None) -> None:
    game = won(first_game(), ANN_CAT_WIN)
    join(client, game, game.view_token)
    assert client.post(f"/games/{game.pk}/next", keys()).status_code == 403
    assert "Start game 2" not in client.get(f"/games/{game.pk}/").content.decode()


def test_the_series_winner_is_named_with_the_rule(client: Client, db: None) -> None:
    games = played_series(client)
    page = client.get(f"/games/{games[-1].pk}/").content.decode()
    assert "Best of 3: Ann &amp; Cat win 2 games to 1" in page
    assert "Start game" not in page
    over = client.post(f"/games/{games[-1].pk}/next", keys())
    assert over.status_code == 409 and "The next game was not started" in (
        over.content.decode()
    )


def test_other_phones_follow_the_table_to_the_next_game_with_their_own_right(
    client: Client, db: None
) -> None:
    game = won(first_game(), ANN_CAT_WIN)
    join(client, game)
    following = next_game(client, game, keys())
    watcher = Client()
    join(watcher, game, game.view_token)
    page = watcher.get(f"/games/{game.pk}/").content.decode()
    assert f"/games/{game.pk}/series/2" in page and "Go to game 2" in page
    opened = watcher.get(f"/games/{game.pk}/series/2", follow=True)
    text = opened.content.decode()
    assert opened.redirect_chain[-1][0] == f"/games/{following.pk}/"
    assert "A read-only link" in text and "Record hand" not in text


def test_a_game_outside_the_series_is_not_opened_through_it(
    client: Client, db: None
) -> None:
    game = won(first_game(), ANN_CAT_WIN)
    join(client, game)
    assert client.get(f"/games/{game.pk}/series/2").status_code == 404


def test_the_home_list_shows_each_games_series(
    client: Client, db: None, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    played_series(client)
    # The games; the series and their games.
    with django_assert_num_queries(3):
        page = client.get("/").content.decode()
    assert page.count("Best of 3: Ann &amp; Cat win 2 games to 1") == 3
    assert "Best of 3 · game 2" in page


def test_the_series_download_holds_each_games_own_log(
    client: Client, db: None, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    games = played_series(client)
    answer = client.get(f"/games/{games[0].pk}/series.json?download=1")
    document = json.loads(answer.content)
    assert answer["Content-Disposition"].startswith("attachment")
    assert (document["format"], document["rule"], document["winners"]) == (
        "pepper-series",
        "best-of-3",
        [0],
    )
    for game, log in zip(games, document["games"], strict=True):
        own = client.get(f"/games/{game.pk}/log.json").json()
        assert log == own
        _, board = read_and_replay(json.dumps(log))
        assert list(board.totals) == game.totals
        path = tmp_path / f"{game.pk}.json"
        path.write_text(json.dumps(log))
        call_command("replay", str(path))
        winners = " and ".join(board.side_names[side] for side in game.winners)
        assert f"{winners} win with" in capsys.readouterr().out


def test_a_game_of_its_own_has_no_series_download(client: Client, db: None) -> None:
    game = services.game_create(
        preset="classic", seats=list(NAMES[:4]), first_dealer=0, now=NOW
    )
    join(client, game)
    assert client.get(f"/games/{game.pk}/series.json").status_code == 404


def test_the_winning_save_brings_the_series_panel_with_the_next_game(
    client: Client, db: None
) -> None:
    game = first_game()
    record_hands(game, NOW, ANN_CAT_WIN[0])
    join(client, game)
    bidder, bid, trump, tricks = ANN_CAT_WIN[1]
    fields = {
        "expected_seq": "1",
        "event_id": "winning",
        "action": "save",
        "bidder": str(bidder),
        "bid": str(bid),
        "trump": trump,
        "outcome": "played",
        "taken": str(tricks[0]),
    }
    answer = client.post(f"/games/{game.pk}/hands", fields, headers=HTMX)
    text = answer.content.decode()
    assert answer.status_code == 200
    assert '<section id="series" class="series-panel"' in text
    assert 'hx-swap-oob="true"' in text.split('id="series"')[1].split(">")[0]
    assert "Start game 2" in text


def test_another_phones_poll_brings_the_series_panel_once_the_game_is_won(
    client: Client,
    db: None,
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    game = first_game()
    join(client, game)
    record_hands(game, NOW, *ANN_CAT_WIN)
    # The head, the game's row, its events; the series and its games' rows.
    with django_assert_num_queries(5):
        answer = client.get(f"/games/{game.pk}/poll?seq=1", headers=HTMX)
    text = answer.content.decode()
    assert (
        'id="series" class="series-panel" aria-labelledby="series-title" hx-swap-oob="true"'
        in text
    )
    assert "Start game 2" in text


def test_the_players_stay_in_their_seats_for_the_next_game(
    client: Client, db: None
) -> None:
    game = first_game()
    join(client, game)
    page = f"/games/{game.pk}/"
    client.get(page)
    taken = client.post(
        f"{page}table/seat", {"seat": 2, "action": "take", "saw": "free"}
    )
    assert taken.status_code == 302
    record_hands(game, NOW, *ANN_CAT_WIN)
    following = next_game(client, game, keys())
    assert LiveTable.objects.get(pk=following.pk).phones == (
        LiveTable.objects.get(pk=game.pk).phones
    )
    assert "Cat: this phone" in client.get(f"/games/{following.pk}/").content.decode()


def test_the_series_download_reads_each_game_log_once(
    client: Client, db: None, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    games = played_series(client)
    # The game's row, the series and its games' rows; then each game's log
    # (a series is at most 15 games: rules.series.MOST_GAMES).
    with django_assert_num_queries(3 + len(games)):
        assert client.get(f"/games/{games[0].pk}/series.json").status_code == 200


def test_replacing_a_series_games_links_replaces_the_whole_series(
    client: Client, db: None
) -> None:
    """A phone that held game 1's edit link (lost, or not welcome) neither
    voids game 1's hands nor opens game 2 through it once game 2's links
    are replaced; the table reaches game 1 from game 2's page as before."""
    game = won(first_game(), ANN_CAT_WIN)
    join(client, game)
    following = next_game(client, game, keys())
    lost = Client()
    join(lost, game)
    asked = client.get(f"/games/{following.pk}/links/replace").content.decode()
    assert "The other games of this series get new links too" in asked
    assert client.post(f"/games/{following.pk}/links/replace").status_code == 302
    old = game.edit_token
    game.refresh_from_db()
    assert game.edit_token != old and Client().get(f"/join/{old}").status_code == 404
    assert lost.get(f"/games/{game.pk}/").status_code == 410
    assert lost.get(f"/games/{game.pk}/series/2").status_code == 410
    void = {"expected_seq": 2, "reason": "lost phone", "event_id": "v1"}
    assert lost.post(f"/games/{game.pk}/hands/1/void", void).status_code == 410
    assert not GameEvent.objects.filter(game=game, event_id="v1").exists()
    opened = client.get(f"/games/{following.pk}/series/1", follow=True)
    assert opened.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert "Void" in opened.content.decode()  # still this table's to edit


def test_the_tv_shows_the_series_and_its_poll_has_somewhere_to_put_the_win(
    client: Client, db: None
) -> None:
    """The room's screen shows the series (title and score) as the game
    page does, with no button to start the next game; the poll that brings
    the win swaps its series panel (with none on the page, htmx had no
    target for it)."""
    game = first_game()
    join(client, game, game.view_token)
    tv = client.get(f"/games/{game.pk}/tv").content.decode()
    page = client.get(f"/games/{game.pk}/").content.decode()
    panel = page[page.index('<section id="series"') :]
    panel = panel[: panel.index("</section>")]
    assert panel and panel in tv
    record_hands(game, NOW, *ANN_CAT_WIN)
    polled = client.get(f"/games/{game.pk}/poll?seq=0", headers=HTMX).content.decode()
    assert 'id="series" class="series-panel"' in polled
    tv = client.get(f"/games/{game.pk}/tv").content.decode()
    page = client.get(f"/games/{game.pk}/").content.decode()
    score = page[page.index('<p class="series-score">') :]
    assert score[: score.index("</p>")] in tv and "Start game" not in tv


def test_a_finished_games_tv_follows_the_table_to_the_next_game(
    client: Client, db: None
) -> None:
    """The TV asks (every few seconds) whether the next game has started:
    nothing until it has, then it is sent to that game's TV, with the
    read-only right it has here."""
    game = won(first_game(), ANN_CAT_WIN)
    join(client, game, game.view_token)
    tv = client.get(f"/games/{game.pk}/tv").content.decode()
    assert f'hx-get="/games/{game.pk}/tv/next"' in tv
    assert client.get(f"/games/{game.pk}/tv/next", headers=HTMX).status_code == 204
    following = services.series_next(game=game, now=NOW)
    asked = client.get(f"/games/{game.pk}/tv/next", headers=HTMX)
    assert asked["HX-Redirect"] == f"/games/{game.pk}/series/2?to=tv"
    opened = client.get(asked["HX-Redirect"], follow=True)
    assert opened.redirect_chain[-1][0] == f"/games/{following.pk}/tv"
    page = client.get(f"/games/{following.pk}/").content.decode()
    assert "A read-only link" in page and "Record hand" not in page
    won(following, ANN_CAT_WIN)  # the series is won: nothing more to follow
    over = client.get(f"/games/{following.pk}/tv").content.decode()
    assert "/tv/next" not in over
    # A TV that was showing when the series was won is told to stop asking.
    stop = client.get(f"/games/{following.pk}/tv/next", headers=HTMX)
    assert stop.status_code == 286
