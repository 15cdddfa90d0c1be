"""Issue 34, a seat handed to another phone: "Move to this phone" takes a
seat from a phone that is gone (a game is never blocked by a missing
phone), and a seat taken meanwhile by another phone is moved only on a
second, deliberate tap."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client

from scorekeeper.games.table import NOBODY, table_of
from scorekeeper.models import Game
from tests.games.test_live_table import phone
from tests.records import HTMX


def seen(page: str, seat: int) -> str:
    """What ``page`` says it saw of ``seat``: "free", or the mark of the
    phone holding it (its Move to this phone button sends that)."""
    form = re.search(
        rf'name="seat" value="{seat}"><input type="hidden" name="saw" value="([^"]+)"',
        page,
    )
    assert form, page[:500]
    return form.group(1)


def looked(client: Client, game: Game, seat: int) -> str:
    """What this phone's game page shows of ``seat`` now."""
    return seen(words(client.get(f"/games/{game.pk}/")), seat)


def take(client: Client, game: Game, seat: int, saw: str, htmx: bool = True) -> Any:
    """The seat's button as the page drew it: ``saw`` is "free", or the
    holder's mark on a seat the page showed on another phone (Move to this
    phone)."""
    data = {"seat": seat, "action": "take", "saw": saw}
    headers = HTMX if htmx else {}
    return client.post(f"/games/{game.pk}/table/seat", data, headers=headers)


def words(response: Any) -> str:
    return str(response.content.decode()).replace("&#x27;", "'")


def call(client: Client, game: Game, seat: int, position: int) -> Any:
    data = {"seat": seat, "call": "pass", "position": position, "seq": 0}
    return client.post(f"/games/{game.pk}/table/call", data, headers=HTMX)


def test_it_moves_a_seat_from_a_phone_that_is_gone_to_the_phone_that_asks(
    classic: Game,
) -> None:
    gone, cat = phone(classic), phone(classic)
    take(gone, classic, 3, "free")
    take(cat, classic, 2, "free")
    moved = take(cat, classic, 3, looked(cat, classic, 3))
    assert moved.status_code == 200
    assert "Dan: this phone" in words(moved)
    # A phone holds one seat: Cat's is left with nobody (any phone calls for it).
    assert "I am Cat" in words(moved)
    phones = table_of(classic, 0).phones
    assert phones[2] == NOBODY and phones[3] not in (NOBODY, phones[0])
    # Bob and Cat have no phone: any phone calls for them; Dan's call is
    # now this phone's, no longer the phone that is gone.
    assert call(cat, classic, 1, 0).status_code == 200
    assert call(cat, classic, 2, 1).status_code == 200
    refused = call(gone, classic, 3, 2)
    assert refused.status_code == 409
    assert "Dan's seat is on another phone" in words(refused)
    assert call(cat, classic, 3, 2).status_code == 200
    assert "Dan: on another phone" in words(gone.get(f"/games/{classic.pk}/"))


def test_it_refuses_a_seat_taken_by_another_phone_after_this_one_saw_it_free(
    classic: Game,
) -> None:
    ann, bob = phone(classic), phone(classic)
    assert "I am Bob" in words(ann.get(f"/games/{classic.pk}/"))
    take(bob, classic, 1, "free")
    bobs = table_of(classic, 0).phones[1]
    refused = take(ann, classic, 1, "free")  # the page still said "I am Bob"
    assert refused.status_code == 409
    assert (
        "Bob's seat was just taken by another phone. "
        "Tap it again to move it to this phone." in words(refused)
    )
    assert table_of(classic, 0).phones[1] == bobs  # still Bob's phone's
    # The answer draws the seat as taken: its button now moves it.
    assert "Bob: on another phone" in words(refused)
    mark = seen(words(refused), 1)
    assert mark != "free" and bobs not in words(refused)  # never the cookie
    assert take(ann, classic, 1, mark).status_code == 200
    assert table_of(classic, 0).phones[1] not in (NOBODY, bobs)


def test_without_javascript_the_refusal_is_the_game_page_with_its_words(
    classic: Game,
) -> None:
    ann, bob = phone(classic), phone(classic)
    take(bob, classic, 1, "free")
    refused = take(ann, classic, 1, "free", htmx=False)
    assert refused.status_code == 409 and "<!doctype html>" in words(refused)
    assert "Bob's seat was just taken by another phone." in words(refused)
    assert "Move to this phone" in words(refused)
    moved = take(ann, classic, 1, seen(words(refused), 1), htmx=False)
    assert moved.status_code == 302
    assert "Bob: this phone" in words(ann.get(f"/games/{classic.pk}/"))


def test_two_phones_moving_a_gone_phones_seat_at_once_the_second_is_told(
    classic: Game,
) -> None:
    """Dan's phone is gone; Ann and Cat both tap Move to this phone on the
    page that showed it on Dan's phone: Cat's tap moves it, Ann's is told
    it was just moved (not handed it silently), and moves it on a second
    tap, as the answer's button now names Cat's phone."""
    gone, ann, cat = phone(classic), phone(classic), phone(classic)
    take(gone, classic, 3, "free")
    mark = looked(ann, classic, 3)
    assert mark == looked(cat, classic, 3)
    assert take(cat, classic, 3, mark).status_code == 200
    cats = table_of(classic, 0).phones[3]
    refused = take(ann, classic, 3, mark)
    assert refused.status_code == 409
    assert (
        "Dan's seat was just moved to another phone. "
        "Tap it again to move it to this phone." in words(refused)
    )
    assert table_of(classic, 0).phones[3] == cats
    again = seen(words(refused), 3)
    assert again not in (mark, "free")
    assert take(ann, classic, 3, again).status_code == 200
    assert table_of(classic, 0).phones[3] not in (NOBODY, cats)
