"""The pages, through Django's test client: what a phone sends, what it gets."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from scorekeeper.games import services
from scorekeeper.models import Game, GameEvent
from tests.conftest import join
from tests.records import HTMX, new_game, record_hands


def hand(game: Game, seq: int, **fields: Any) -> dict[str, Any]:
    data = {
        "expected_seq": seq,
        "event_id": f"ev-{seq}-{fields.get('bidder', 'p')}",
        "outcome": "played",
        "action": "save",
    }
    data.update(fields)
    return data


def test_home_lists_games_unfinished_first(
    client: Client,
    moon_game: Game,
    now: datetime,
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    done = services.game_create(
        preset="classic", seats=["Eve", "Fay"], first_dealer=0, now=now
    )
    join(client, done)
    Game.objects.filter(pk=done.pk).update(finished=True)
    with django_assert_num_queries(1):
        response = client.get("/")
    text = response.content.decode()
    assert text.index("Ann, Bob, Cat, Dan") < text.index("Eve, Fay")


def test_a_new_game_starts_from_the_form(client: Client, db: None) -> None:
    response = client.post(
        "/games/new",
        {
            "preset": "moon-42",
            "seat_0": "Ann",
            "seat_1": "Bob",
            "seat_2": "Cat",
            "seat_3": "Dan",
            "first_dealer": "1",
            "target_score": "21",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert (game.first_dealer, game.overrides) == (1, {"target_score": 21})


def test_a_new_game_with_the_wrong_number_of_players_says_so(
    client: Client, db: None
) -> None:
    response = client.post(
        "/games/new",
        {"preset": "moon-42", "seat_0": "Ann", "seat_1": "Bob", "first_dealer": "0"},
    )
    assert response.status_code == 422
    assert "Moon-42 is played by 4 players, not 2." in response.content.decode()
    assert Game.objects.count() == 0


def test_the_game_page_shows_whose_deal_and_the_forced_bid(
    client: Client, moon_game: Game, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(2):  # the game, its table's seats and auction
        response = client.get(f"/games/{moon_game.pk}/")
    text = response.content.decode()
    assert "Hand 1 · Ann deals · Bob bids first" in text
    assert "Pepper round: Bob must bid 4" in text
    assert 'value="pass"' not in text  # no passing out in the pepper round


def test_the_game_page_reads_only_what_is_new(
    client: Client,
    moon_game: Game,
    now: datetime,
    django_assert_num_queries: DjangoAssertNumQueries,
    django_capture_on_commit_callbacks: Any,
) -> None:
    record_hands(
        moon_game,
        now,
        (1, 4, "hearts", [1, 5]),
        (2, 4, "hearts", [5, 1]),
        (3, 4, "hearts", [1, 5]),
    )
    # A page is served outside a transaction: what it read is kept at once
    # (here, as the test's transaction would commit). The game, then the
    # event it has not seen, and the table's row.
    with (
        django_assert_num_queries(3),
        django_capture_on_commit_callbacks(execute=True),
    ):
        first = client.get(f"/games/{moon_game.pk}/")
    with django_assert_num_queries(2):  # the game and its table: nothing is new
        second = client.get(f"/games/{moon_game.pk}/")
    history = [
        page.content.decode().split('<ol id="hands"')[1].split("</ol>")[0]
        for page in (first, second)
    ]
    assert history[0] == history[1] and history[0].count("<li") == 3


def test_saving_a_hand_redirects_and_the_page_shows_it(
    client: Client, moon_game: Game
) -> None:
    response = client.post(
        f"/games/{moon_game.pk}/hands",
        hand(moon_game, 0, bidder=1, bid=4, trump="hearts", taken=5, by="Ann"),
    )
    assert response.status_code == 302
    moon_game.refresh_from_db()
    assert moon_game.totals == [1, 4]
    page = client.get(f"/games/{moon_game.pk}/").content.decode()
    assert (
        "Bob bid 4 ♥, took 5" in page
        and "Bob &amp; Dan bid 4 and took 5: made, +4" in page
    )
    assert response.cookies["pepper_by"].value == "Ann"


def test_an_htmx_save_answers_only_what_changed_out_of_band(
    client: Client, moon_game: Game, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    # PostgreSQL also takes the game's row lock (see game_rows.current_row).
    locking = connection.features.has_select_for_update
    with django_assert_num_queries(5 + locking):
        response = client.post(
            f"/games/{moon_game.pk}/hands",
            hand(moon_game, 0, bidder=1, bid=4, trump="hearts", taken=5),
            headers=HTMX,
        )
    text = response.content.decode()
    assert response.status_code == 200
    # The form stays in the page (nothing swapped in its place); its
    # heading, hidden fields and choices are swapped in out of band.
    assert response["HX-Reswap"] == "none" and 'id="live"' not in text
    assert "<html" not in text and "<form" not in text.replace('<form id="undo"', "")
    assert '<h2 id="record-title" hx-swap-oob="true">Record hand 2</h2>' in text
    assert 'name="expected_seq" value="1" hx-swap-oob="true"' in text
    assert '<div id="hand-choices" hx-swap-oob="true">' in text
    assert (
        '<ol hx-swap-oob="afterbegin:#hands">' in text and "Bob bid 4 ♥, took 5" in text
    )


def test_a_refused_hand_says_the_rule_and_writes_nothing(
    client: Client, moon_game: Game
) -> None:
    response = client.post(
        f"/games/{moon_game.pk}/hands",
        hand(
            moon_game,
            0,
            bidder=1,
            bid=4,
            trump="clubs",
            outcome="conceded",
            free_tricks=0,
        ),
        headers=HTMX,
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert (
        "With clubs trump the defenders must play the hand. "
        "To make it legal: record it as played, with each side&#x27;s tricks." in page
    )
    assert "Rule: seed 001 §3.4" in page  # the source apart (issue 19)
    assert GameEvent.objects.count() == 0


def test_a_half_filled_form_lists_what_is_missing(
    client: Client, moon_game: Game
) -> None:
    response = client.post(
        f"/games/{moon_game.pk}/hands",
        {"expected_seq": 0, "event_id": "x", "action": "save", "bidder": 1},
    )
    text = response.content.decode()
    assert response.status_code == 422
    assert "Choose the bid." in text and "Choose trump (or no trump)." in text
    assert "Say how many tricks the bidding side took." in text


def test_the_second_phone_is_told_and_keeps_what_it_entered(
    client: Client, moon_game: Game
) -> None:
    client.post(
        f"/games/{moon_game.pk}/hands",
        hand(moon_game, 0, bidder=1, bid=4, trump="hearts", taken=5, by="Cat"),
    )
    response = client.post(
        f"/games/{moon_game.pk}/hands",
        {
            **hand(moon_game, 0, bidder=1, bid=4, trump="spades", taken=3),
            "event_id": "other-phone",
        },
        headers=HTMX,
    )
    text = response.content.decode()
    assert response.status_code == 409
    assert "Hand 1 was just recorded by Cat." in text
    assert (
        'value="spades" aria-label="spades" checked' in text
        and 'name="taken" value="3" checked' in text
    )
    assert 'name="expected_seq" value="1"' in text
    assert GameEvent.objects.count() == 1


def test_a_repeated_submission_is_recorded_once(
    client: Client, moon_game: Game
) -> None:
    data = hand(moon_game, 0, bidder=1, bid=4, trump="hearts", taken=5)
    client.post(f"/games/{moon_game.pk}/hands", data)
    again = client.post(f"/games/{moon_game.pk}/hands", data)
    assert again.status_code == 302
    assert GameEvent.objects.count() == 1


def test_passed_out_is_its_own_button(client: Client, now: datetime, db: None) -> None:
    game = services.game_create(
        preset="classic", seats=["A", "B", "C", "D"], first_dealer=0, now=now
    )
    join(client, game)
    client.post(
        f"/games/{game.pk}/hands",
        {"expected_seq": 0, "event_id": "p", "action": "pass"},
    )
    assert GameEvent.objects.get().payload["passed_out"] is True


def test_three_players_enter_each_players_tricks(
    client: Client, now: datetime, db: None
) -> None:
    game = services.game_create(
        preset="classic", seats=["A", "B", "C"], first_dealer=0, now=now
    )
    join(client, game)
    response = client.post(
        f"/games/{game.pk}/hands",
        {
            "expected_seq": 0,
            "event_id": "t",
            "action": "save",
            "bidder": 1,
            "bid": "5",
            "trump": "hearts",
            "tricks_0": 2,
            "tricks_1": 5,
            "tricks_2": 1,
        },
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.totals == [2, 5, 1]


def test_void_asks_first_then_appends_and_the_history_shows_it(
    client: Client, moon_game: Game, now: datetime
) -> None:
    record_hands(moon_game, now, (1, 4, "hearts", [1, 5]))
    confirm = client.get(f"/games/{moon_game.pk}/hands/1/void")
    assert "Void hand 1?" in confirm.content.decode()
    response = client.post(
        f"/games/{moon_game.pk}/hands/1/void",
        {"expected_seq": 1, "event_id": "v", "reason": "wrong table", "by": "Dan"},
    )
    assert response.status_code == 302
    page = client.get(f"/games/{moon_game.pk}/").content.decode()
    assert "voided by Dan" in page and "(wrong table)" in page
    assert [e.type for e in GameEvent.objects.order_by("seq")] == ["hand", "void"]


def test_correct_appends_a_correction_and_the_history_says_who(
    client: Client, moon_game: Game, now: datetime
) -> None:
    record_hands(moon_game, now, (1, 4, "hearts", [1, 5]))
    form = client.get(f"/games/{moon_game.pk}/hands/1/correct").content.decode()
    assert 'name="taken" value="5" checked' in form
    response = client.post(
        f"/games/{moon_game.pk}/hands/1/correct",
        hand(moon_game, 1, bidder=1, bid=4, trump="hearts", taken=6, by="Eve"),
    )
    assert response.status_code == 302
    moon_game.refresh_from_db()
    assert moon_game.totals == [-4, 4]
    assert "Corrected by Eve" in client.get(f"/games/{moon_game.pk}/").content.decode()


def test_a_void_of_a_hand_not_in_the_game_is_404(
    client: Client, moon_game: Game
) -> None:
    assert client.get(f"/games/{moon_game.pk}/hands/9/void").status_code == 404


def test_export_and_reimport_give_the_same_game(
    client: Client, moon_game: Game, now: datetime
) -> None:
    record_hands(moon_game, now, (1, 4, "hearts", [1, 5]))
    log = client.get(f"/games/{moon_game.pk}/log.json").json()
    score = client.get(f"/games/{moon_game.pk}/score.json").json()
    response = client.post("/games/import", {"text": json.dumps(log)})
    again = Game.objects.exclude(pk=moon_game.pk).get()
    assert response["Location"] == f"/games/{again.pk}/"
    assert client.get(f"/games/{again.pk}/score.json").json() == score
    assert score["totals"] == [1, 4] and score["format"] == "pepper-score"


def test_an_illegal_import_is_refused_whole_with_the_event(
    client: Client, db: None
) -> None:
    log = {
        "format": "pepper-log",
        "version": 1,
        "variant": "moon-42",
        "seats": ["Ann", "Bob", "Cat", "Dan"],
        "first_dealer": 0,
        "events": [{"type": "hand", "passed_out": True}],
    }
    response = client.post("/games/import", {"text": json.dumps(log)})
    assert response.status_code == 422
    page = response.content.decode()
    assert (
        "The log was not imported: its 1st event is refused. "
        "Hand 1 is in the pepper round" in page
    )
    assert "event 1" not in page
    assert Game.objects.count() == 0


@pytest.mark.parametrize("url", ["/", "/games/new", "/games/import"])
def test_pages_answer_with_security_headers(client: Client, db: None, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert response["X-Content-Type-Options"] == "nosniff"


def test_an_exact_tie_shows_the_tie_break_and_play_goes_on(
    client: Client, db: None, now: datetime
) -> None:
    game = new_game(target_score=6, exact_tie="play-on")
    join(client, game)
    record_hands(game, now, (0, 3, "hearts", [3, 3]), (1, 3, "hearts", [3, 3]))
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert (
        "Ann &amp; Cat and Bob &amp; Dan are tied at 6: play on until one side is ahead"
        in page
    )
    assert "Record hand 3" in page


def test_the_winners_are_named_and_the_form_is_gone(
    client: Client, db: None, now: datetime
) -> None:
    game = new_game(players=2, target_score=5)
    join(client, game)
    record_hands(game, now, (1, 5, "spades", [2, 6]))
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Bob wins with 6" in page and 'id="record"' not in page


def test_the_game_can_be_shown_as_it_stood_after_any_hand(
    client: Client, moon_game: Game, now: datetime
) -> None:
    record_hands(
        moon_game,
        now,
        (1, 4, "hearts", [1, 5]),
        (2, 4, "hearts", [5, 1]),
        (3, 4, "hearts", [2, 4]),
    )
    page = client.get(f"/games/{moon_game.pk}/", {"after": 2}).content.decode()
    assert "The game after hand 2" in page and "Hands 1 to 2" in page
    assert (
        page.count('class="side-total"') == 2 and ">5</span>" in page
    )  # 5-5 after hand 2
    assert "3.</strong>" not in page and 'id="record"' not in page
    assert "?after=2" in client.get(f"/games/{moon_game.pk}/").content.decode()


def test_an_auction_entered_as_calls_is_seated_and_refereed(
    client: Client, now: datetime, db: None
) -> None:
    game = new_game()
    join(client, game)
    url = f"/games/{game.pk}/hands"
    legal = hand(
        game,
        0,
        bidder=3,
        bid=4,
        trump="spades",
        taken=4,
        auction="pass, 3, 4, pass, pass",
    )
    assert client.post(url, legal).status_code == 302
    stored = GameEvent.objects.get().payload
    assert stored["auction"] == [[1, "pass"], [2, 3], [3, 4], [0, "pass"], [2, "pass"]]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Auction: Bob pass, Cat 3, Dan 4, Ann pass, Cat pass." in page
    low = hand(
        game, 1, bidder=2, bid=3, trump="spades", taken=4, auction="3, 3, pass, pass"
    )
    refused = client.post(url, low)
    assert refused.status_code == 422
    assert "Call 2: a bid must be higher than 3" in refused.content.decode()
    wrong = hand(
        game, 1, bidder=2, bid=5, trump="hearts", taken=5, auction="2, pass, pass, pass"
    )
    text = client.post(url, wrong).content.decode()
    assert "The auction was won by Cat bidding 2, but the hand says Cat bid 5" in text
    assert GameEvent.objects.count() == 1


def test_the_poll_answers_204_with_one_query_while_nothing_changes(
    client: Client,
    moon_game: Game,
    now: datetime,
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    with django_assert_num_queries(1):
        unchanged = client.get(f"/games/{moon_game.pk}/poll", {"seq": 0})
    assert unchanged.status_code == 204
    record_hands(moon_game, now, (1, 4, "hearts", [1, 5]))
    changed = client.get(f"/games/{moon_game.pk}/poll", {"seq": 0}).content.decode()
    assert '<div id="board" hx-swap-oob="true">' in changed and ">4</span>" in changed
    assert (
        '<ol id="hands" hx-swap-oob="innerHTML">' in changed
        and "Bob bid 4 ♥, took 5" in changed
    )
    assert "Hand 1 was just recorded by the other phone." in changed
    assert 'hx-get="/games/' in changed and "poll?seq=1" in changed
    assert client.get(f"/games/{moon_game.pk}/poll", {"seq": 1}).status_code == 204


def test_after_its_own_save_a_phone_polls_from_the_new_event(
    client: Client, moon_game: Game
) -> None:
    response = client.post(
        f"/games/{moon_game.pk}/hands",
        hand(moon_game, 0, bidder=1, bid=4, trump="hearts", taken=5),
        headers=HTMX,
    )
    text = response.content.decode()
    assert (
        'id="poller"' in text and "poll?seq=1" in text and 'hx-swap-oob="true"' in text
    )


def test_the_record_form_marks_the_trump_a_hand_must_be_played_with(
    client: Client, moon_game: Game
) -> None:
    text = client.get(f"/games/{moon_game.pk}/").content.decode()
    marked = text.split('name="trump"')[1:]
    assert [
        part.split('"')[1] for part in marked if "data-must-play" in part.split(">")[0]
    ] == ["clubs"]
