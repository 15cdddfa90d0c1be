"""Issue 34, "Every player's own phone at the table": a seat each, and the
hand's auction bid from the players' own phones, refereed as it goes."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client
from pytest_django import DjangoAssertNumQueries

from scorekeeper.games.table import table_of
from scorekeeper.models import Game, GameEvent
from scorekeeper.projections.boards import game_log, scoreboard
from scorekeeper.rules.referee import auction_turn
from tests.conftest import join
from tests.records import HTMX, NOW, new_game, record_hands


def phone(game: Game) -> Client:
    """Another phone at the table, holding the game's edit link."""
    client = Client()
    join(client, game)
    return client


def sit(client: Client, game: Game, seat: int, saw: str = "free") -> str:
    data = {"seat": seat, "action": "take", "saw": saw}
    response = client.post(f"/games/{game.pk}/table/seat", data, headers=HTMX)
    return response.content.decode().replace("&#x27;", "'")


def call(client: Client, game: Game, seat: int, what: str, position: int) -> Any:
    game.refresh_from_db()
    data = {"seat": seat, "call": what, "position": position, "seq": game.last_seq}
    return client.post(f"/games/{game.pk}/table/call", data, headers=HTMX)


def offered(game: Game) -> tuple[str, ...]:
    """What the referee allows next, as the buttons' values."""
    game.refresh_from_db()
    board = scoreboard(game.pk, game_log(game))
    assert board.next is not None
    now = auction_turn(board.variant, board.next, table_of(game, game.last_seq).auction)
    return tuple(str(c) for c in now.calls)


def test_a_seat_taken_on_one_phone_shows_on_every_phone(classic: Game) -> None:
    ann, bob = phone(classic), phone(classic)
    assert "Ann: this phone" in sit(ann, classic, 0)
    page = bob.get(f"/games/{classic.pk}/").content.decode().replace("&#x27;", "'")
    assert "Ann: on another phone" in page and "I am Bob" in page


def test_the_first_callers_phone_offers_only_the_calls_the_referee_allows(
    classic: Game,
) -> None:
    bob = phone(classic)
    sit(bob, classic, 1)
    page = bob.get(f"/games/{classic.pk}/").content.decode().replace("&#x27;", "'")
    assert "Your call, Bob" in page
    for value in offered(classic):
        assert f'name="call" value="{value}"' in page
    other = (
        phone(classic)
        .get(f"/games/{classic.pk}/")
        .content.decode()
        .replace("&#x27;", "'")
    )
    assert "Waiting for Bob's call" in other and 'name="call"' not in other


def test_a_call_out_of_turn_is_refused_in_words(classic: Game) -> None:
    response = call(phone(classic), classic, 2, offered(classic)[1], 0)
    assert response.status_code == 409
    assert "It is Bob's turn to call, not Cat's." in response.content.decode().replace(
        "&#x27;", "'"
    )


def test_a_call_below_the_high_bid_is_refused_with_the_calls_left(
    classic: Game,
) -> None:
    table = phone(classic)
    low, higher = offered(classic)[1:3]
    assert call(table, classic, 1, higher, 0).status_code == 200
    response = call(table, classic, 2, low, 1)
    assert response.status_code == 409
    assert f"Cat cannot call {low} now" in response.content.decode().replace(
        "&#x27;", "'"
    )


def test_a_seat_on_another_phone_is_called_from_there(classic: Game) -> None:
    bob, cat = phone(classic), phone(classic)
    sit(bob, classic, 1)
    response = call(cat, classic, 1, "pass", 0)
    assert response.status_code == 409
    assert "Bob's seat is on another phone" in response.content.decode().replace(
        "&#x27;", "'"
    )
    bob.post(
        f"/games/{classic.pk}/table/seat", {"seat": 1, "action": "leave"}, headers=HTMX
    )
    assert call(cat, classic, 1, "pass", 0).status_code == 200  # nobody's seat


def test_of_two_phones_calling_for_one_seat_the_first_wins_the_other_is_told(
    classic: Game,
) -> None:
    first, second = phone(classic), phone(classic)
    bid = offered(classic)[1]
    assert call(first, classic, 1, bid, 0).status_code == 200
    response = call(second, classic, 1, "pass", 0)
    assert response.status_code == 409
    assert f"Bob's call was just made by another phone: {bid}" in (
        response.content.decode().replace("&#x27;", "'")
    )


def test_a_call_sent_twice_from_one_phone_is_made_once(classic: Game) -> None:
    table = phone(classic)
    assert call(table, classic, 1, "pass", 0).status_code == 200
    assert call(table, classic, 1, "pass", 0).status_code == 200
    assert "Bob pass · Cat …" in table.get(
        f"/games/{classic.pk}/"
    ).content.decode().replace("&#x27;", "'")


def test_a_won_auction_fills_the_record_form_and_the_hand_keeps_the_auction(
    classic: Game,
) -> None:
    table = phone(classic)
    sit(table, classic, 0)  # a player sat down: the table bids on its phones
    bid = offered(classic)[1]
    for position, (seat, what) in enumerate(
        [(1, bid), (2, "pass"), (3, "pass"), (0, "pass")]
    ):
        assert call(table, classic, seat, what, position).status_code == 200
    answer = (
        table.post(
            f"/games/{classic.pk}/table/call",
            {"trump": "hearts", "seq": 0},
            headers=HTMX,
        )
        .content.decode()
        .replace("&#x27;", "'")
    )
    assert "Bob bid" in answer and 'id="hand-choices" hx-swap-oob="true"' in answer
    page = table.get(f"/games/{classic.pk}/").content.decode().replace("&#x27;", "'")
    assert f'value="{bid}, pass, pass, pass"' in page
    assert 'name="trump" value="hearts" aria-label="hearts" checked' in page
    saved = table.post(
        f"/games/{classic.pk}/hands",
        {
            "expected_seq": 0,
            "event_id": "live-1",
            "bidder": "1",
            "bid": bid,
            "trump": "hearts",
            "outcome": "played",
            "taken": "6",
            "auction": f"{bid}, pass, pass, pass",
            "action": "save",
        },
    )
    assert saved.status_code in (200, 302, 303)
    event = GameEvent.objects.get(game=classic, seq=1).payload
    assert event["auction"] == [[1, int(bid)], [2, "pass"], [3, "pass"], [0, "pass"]]
    # The next hand's auction starts empty: the old calls were that hand's.
    board = scoreboard(classic.pk, game_log(Game.objects.get(pk=classic.pk)))
    assert board.next is not None
    first = board.seats[board.next.first_bidder]
    page = table.get(f"/games/{classic.pk}/").content.decode()
    assert f"Hand 2: {first} …" in page


def test_in_a_pepper_round_there_is_no_auction_the_forced_bidder_names_trump(
    db: None,
) -> None:
    game = new_game("moon-42", pepper_round_hands=1)
    table = phone(game)
    sit(table, game, 0)  # a player sat down: the table bids on its phones
    page = table.get(f"/games/{game.pk}/").content.decode().replace("&#x27;", "'")
    assert "a pepper round: Bob bids 4, no auction" in page
    assert "Bob won with 4: name trump" in page
    refused = call(table, game, 1, "5", 0)
    assert "The auction is over" in refused.content.decode().replace("&#x27;", "'")


def test_the_pages_one_poll_answers_204_in_one_query_until_the_table_moves(
    classic: Game,
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    """The game page polls once every 1.5 s for the score and the table
    (it polled twice: the bench counted 75 requests a minute a phone)."""
    table = phone(classic)
    page = table.get(f"/games/{classic.pk}/").content.decode()
    assert page.count('hx-trigger="every') == 1 and 'data-version="0"' in page
    with django_assert_num_queries(1):
        quiet = table.get(f"/games/{classic.pk}/poll", {"seq": 0, "v": 0})
    assert quiet.status_code == 204
    call(table, classic, 1, "pass", 0)
    moved = table.get(f"/games/{classic.pk}/poll", {"seq": 0, "v": 0}, headers=HTMX)
    shown = moved.content.decode().replace("&#x27;", "'")
    assert moved.status_code == 200 and "Bob pass · Cat …" in shown
    assert 'data-version="1" data-seq="0" data-filled="0" hx-swap-oob="true"' in shown
    assert 'id="hands"' not in shown  # the score did not move: only the panel
    with django_assert_num_queries(1):
        again = table.get(f"/games/{classic.pk}/poll", {"seq": 0, "v": 1})
    assert again.status_code == 204


def test_a_hand_saved_elsewhere_brings_the_next_hands_table_with_the_score(
    classic: Game,
) -> None:
    table = phone(classic)
    sit(table, classic, 0)  # Ann bids from her phone: the table's auction is live
    call(table, classic, 1, "pass", 0)
    record_hands(classic, NOW, (1, 2, "clubs", [6, 0]))  # another phone's save
    moved = table.get(f"/games/{classic.pk}/poll", {"seq": 0, "v": 2}, headers=HTMX)
    shown = moved.content.decode().replace("&#x27;", "'")
    assert 'id="hands"' in shown  # the score and history
    assert 'id="table"' in shown and "Bob pass" not in shown  # hand 2's auction
    assert "Hand 2: Cat …" in shown
    # The phone that saved it: its page is at seq 1, its panel at hand 1's.
    saved_here = {"seq": 1, "v": 2, "table_seq": 0}
    stale = table.get(f"/games/{classic.pk}/poll", saved_here, headers=HTMX)
    assert "Hand 2: Cat …" in stale.content.decode().replace("&#x27;", "'")
    fresh = {"seq": 1, "v": 2, "table_seq": 1}
    assert table.get(f"/games/{classic.pk}/poll", fresh).status_code == 204
    # A page that shows no table (the TV) is asked nothing of it.
    tv = table.get(f"/games/{classic.pk}/poll", {"seq": 0}, headers=HTMX)
    assert 'id="table"' not in tv.content.decode()


def test_a_page_opened_before_the_one_poll_reloads_into_it(classic: Game) -> None:
    """Its panel's own poll (the route it was served with) answers 204 while
    nothing moved, then has the page reload: the new panel has no poll of
    its own, the new page's one poll follows the table."""
    table = phone(classic)
    assert (
        table.get(f"/games/{classic.pk}/table", {"v": 0, "seq": 0}).status_code == 204
    )
    call(table, classic, 1, "pass", 0)
    moved = table.get(f"/games/{classic.pk}/table", {"v": 0, "seq": 0}, headers=HTMX)
    assert moved.status_code == 200 and moved["HX-Refresh"] == "true"


def test_a_table_only_answer_says_the_phones_log_is_current(classic: Game) -> None:
    """An offline-ready phone sends how much of the log it holds: the panel's
    answer says nothing is new (else it would fetch the log again for every
    call made at the table)."""
    table = phone(classic)
    call(table, classic, 1, "pass", 0)
    headers = {**HTMX, "X-Pepper-Have-Seq": "0"}
    moved = table.get(f"/games/{classic.pk}/poll", {"seq": 0, "v": 0}, headers=headers)
    assert 'id="table"' in moved.content.decode()
    assert json.loads(moved["X-Pepper-Events"])["events"] == []


def test_a_game_over_takes_the_table_off_the_page(db: None) -> None:
    short = new_game("classic", target_score=10)
    table = phone(short)
    sit(table, short, 0)
    record_hands(short, NOW, (0, 4, "hearts", [5, 1]), (0, 4, "hearts", [6, 0]))
    short.refresh_from_db()
    assert short.finished
    answer = table.get(f"/games/{short.pk}/poll", {"seq": 0, "v": 1}, headers=HTMX)
    shown = answer.content.decode()
    assert '<section id="table" hx-swap-oob="delete"></section>' in shown
    assert "At the table" not in shown


def test_a_read_only_phone_follows_the_auction_without_controls(
    classic: Game,
) -> None:
    call(phone(classic), classic, 1, "pass", 0)
    watcher = Client()
    join(watcher, classic, classic.view_token)
    page = watcher.get(f"/games/{classic.pk}/").content.decode().replace("&#x27;", "'")
    assert "Bob pass · Cat …" in page and 'name="call"' not in page
    assert "I am Ann" not in page
    denied = call(watcher, classic, 2, "pass", 1)
    assert denied.status_code == 403


def test_the_calls_so_far_are_kept_in_the_record_forms_auction_line(
    classic: Game,
) -> None:
    table = phone(classic)
    bid = offered(classic)[1]
    call(table, classic, 1, "pass", 0)
    answer = call(table, classic, 2, bid, 1).content.decode()
    assert 'id="record-auction" name="auction"' in answer
    assert f'value="pass, {bid}" hx-swap-oob="true"' in answer
    assert 'id="hand-choices"' not in answer  # nothing else in the form moves


def test_a_form_filled_from_the_auction_is_not_filled_again_over_its_entries(
    classic: Game,
) -> None:
    table, other = phone(classic), phone(classic)
    bid = offered(classic)[1]
    for position, (seat, what) in enumerate(
        [(1, bid), (2, "pass"), (3, "pass"), (0, "pass")]
    ):
        call(table, classic, seat, what, position)
    table.post(
        f"/games/{classic.pk}/table/call", {"trump": "clubs", "seq": 0}, headers=HTMX
    )
    first = other.get(
        f"/games/{classic.pk}/poll", {"v": 0, "seq": 0, "filled": 0}, headers=HTMX
    ).content.decode()
    assert 'id="hand-choices" hx-swap-oob="true"' in first
    assert 'data-filled="1"' in first  # the next poll says so
    seated = sit(other, classic, 3)  # a seat moves after the form was filled
    assert 'id="hand-choices"' not in seated
    again = other.get(
        f"/games/{classic.pk}/poll", {"v": 1, "seq": 0, "filled": 1}, headers=HTMX
    ).content.decode()
    assert "Dan: this phone" in again and 'id="hand-choices"' not in again


def test_without_javascript_a_call_is_a_plain_post_back_to_the_game_page(
    classic: Game,
) -> None:
    table = phone(classic)
    sit(table, classic, 0)  # a player sat down: the table bids on its phones
    page = table.get(f"/games/{classic.pk}/").content.decode()
    assert (
        f'<form class="call-form" method="post" action="/games/{classic.pk}/table/call"'
        in page
    )
    done = table.post(
        f"/games/{classic.pk}/table/call",
        {"seat": 1, "call": "pass", "position": 0, "seq": 0},
    )
    assert done.status_code == 302 and done["Location"] == f"/games/{classic.pk}/"
    refused = table.post(
        f"/games/{classic.pk}/table/call",
        {"seat": 1, "call": "pass", "position": 1, "seq": 0},
    )
    text = refused.content.decode().replace("&#x27;", "'")
    assert refused.status_code == 409 and "<!doctype html>" in text
    assert "It is Cat's turn to call, not Bob's." in text and "Rule: " in text


def test_a_call_reads_and_writes_in_a_pinned_number_of_queries(
    classic: Game, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    table = phone(classic)
    call(table, classic, 1, "pass", 0)  # the table's row exists from here on
    classic.refresh_from_db()
    data = {"seat": 2, "call": "pass", "position": 1, "seq": 0}
    # The game (no hand yet: no events to read); the table read to referee
    # the call, its guarded update; the table read again for the panel.
    with django_assert_num_queries(4):
        answer = table.post(f"/games/{classic.pk}/table/call", data, headers=HTMX)
    assert answer.status_code == 200


def test_a_table_that_records_on_one_phone_sees_no_auction(classic: Game) -> None:
    """Until a player sits down on a phone, the page is today's: one short
    line for the seats, closed, and no auction above the record form."""
    page = phone(classic).get(f"/games/{classic.pk}/").content.decode()
    assert 'class="call-form"' not in page and "Your call" not in page
    assert '<details class="seats">' in page  # closed
