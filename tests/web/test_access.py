"""Capability links: a game is reached only through one of its links (or
by the browser that created it), read-only links change nothing, and a
replaced link stops working at once."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scorekeeper.models import Game, GameEvent
from scorekeeper.web import access
from tests.conftest import join
from tests.records import HTMX, new_game, record_hands

PAGES = [
    "",
    "poll?seq=0",
    "log.json",
    "score.json",
    "rules",
    "what-if",
    "hands/1/void",
    "hands/1/correct",
]


@pytest.fixture
def game(db: None, now: datetime) -> Game:
    game = new_game()
    record_hands(game, now, (1, 3, "hearts", [2, 4]))
    return game


@pytest.mark.parametrize("page", PAGES)
def test_a_game_is_not_found_by_its_id_alone(
    client: Client, game: Game, page: str
) -> None:
    assert client.get(f"/games/{game.pk}/{page}").status_code == 404


def test_the_creators_browser_holds_the_edit_link(client: Client, db: None) -> None:
    client.post(
        "/games/new",
        {"preset": "classic", "seat_0": "Ann", "seat_1": "Bob", "first_dealer": "0"},
    )
    game = Game.objects.get()
    assert 'id="record"' in client.get(f"/games/{game.pk}/").content.decode()


def test_a_read_only_link_shows_the_game_but_no_control(
    client: Client, game: Game
) -> None:
    join(client, game, game.view_token)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Bob bid 3 ♠" not in page and "Bob bid 3 ♥, took 4" in page
    assert 'id="record"' not in page and "/void" not in page and "/correct" not in page
    assert "Share this game" not in page and "A read-only link" in page
    assert client.get(f"/games/{game.pk}/poll", {"seq": 0}).status_code == 200


@pytest.mark.parametrize(
    ("method", "page"),
    [
        ("post", "hands"),
        ("get", "hands/1/void"),
        ("post", "hands/1/void"),
        ("get", "hands/1/correct"),
        ("post", "hands/1/correct"),
        ("post", "links/replace"),
    ],
)
def test_every_changing_url_refuses_a_read_only_link(
    client: Client, game: Game, method: str, page: str
) -> None:
    join(client, game, game.view_token)
    forged = {"expected_seq": 1, "event_id": "forged", "action": "pass", "reason": "x"}
    response = getattr(client, method)(f"/games/{game.pk}/{page}", forged)
    assert response.status_code == 403
    assert "This link only reads the game; it cannot change it." in (
        response.content.decode()
    )
    assert GameEvent.objects.filter(game=game).count() == 1


def test_the_edit_link_shares_both_links_with_qr_codes(
    client: Client, game: Game
) -> None:
    join(client, game)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f"/join/{game.edit_token}" in page and f"/join/{game.view_token}" in page
    assert page.count('src="data:image/svg+xml') == 2


def test_replacing_the_links_revokes_the_old_ones_at_once(
    client: Client, game: Game
) -> None:
    join(client, game)
    other = Client()
    join(other, game)
    old_edit, old_view = game.edit_token, game.view_token
    asked = client.get(f"/games/{game.pk}/links/replace")  # confirmation first
    assert asked.status_code == 200 and "stop working at once" in asked.content.decode()
    assert (game.edit_token, game.view_token) == (old_edit, old_view)
    replaced = client.post(f"/games/{game.pk}/links/replace")
    assert replaced.status_code == 302
    assert replaced["Location"] == f"/games/{game.pk}/#share"
    given = client.get(replaced["Location"]).content.decode()
    assert '<details class="share" id="share" open>' in given
    assert "New links made: the old ones no longer work" in given
    game.refresh_from_db()
    assert game.edit_token in given and game.view_token in given
    later = client.get(f"/games/{game.pk}/").content.decode()  # said once
    assert "New links made" not in later and 'id="share">' in later
    assert {game.edit_token, game.view_token}.isdisjoint({old_edit, old_view})
    told = "This game&#x27;s links were replaced: ask the table for the new one"
    revoked = other.get(f"/games/{game.pk}/")
    assert revoked.status_code == 410 and told in revoked.content.decode()
    polled = other.get(f"/games/{game.pk}/poll", {"seq": 1}, headers=HTMX)
    assert polled.status_code == 410 and told in polled.content.decode()
    assert polled["HX-Retarget"] == "#main"
    save = {"expected_seq": 1, "event_id": "late", "action": "pass"}
    saved = other.post(f"/games/{game.pk}/hands", save, headers=HTMX)
    assert saved.status_code == 410 and told in saved.content.decode()
    assert GameEvent.objects.filter(event_id="late").count() == 0
    assert Client().get(f"/join/{old_edit}").status_code == 404
    assert Client().get(f"/join/{old_view}").status_code == 404
    assert (
        client.get(f"/games/{game.pk}/").status_code == 200
    )  # the replacer keeps editing


def test_an_unknown_link_is_404(client: Client, db: None) -> None:
    assert client.get("/join/not-a-token").status_code == 404


def test_polling_a_game_that_does_not_exist_is_404(client: Client, db: None) -> None:
    assert client.get(f"/games/{uuid.uuid4()}/poll", {"seq": 0}).status_code == 404


def test_home_lists_only_the_games_this_browser_holds(
    client: Client, game: Game
) -> None:
    assert "Ann, Bob, Cat, Dan" not in client.get("/").content.decode()
    join(client, game, game.view_token)
    assert "Ann, Bob, Cat, Dan" in client.get("/").content.decode()


def test_shared_pages_never_send_their_link_elsewhere_and_are_not_indexed(
    client: Client, game: Game
) -> None:
    join(client, game)
    response = client.get(f"/games/{game.pk}/")
    # The link never leaves the site, and the browser still sends its real
    # origin on the page's own posts, which Django's CSRF check needs.
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Robots-Tag"] == "noindex, nofollow"


@pytest.mark.parametrize(
    ("origin", "with_token", "saved"),
    [
        ("http://testserver", True, True),  # the page's own form or htmx
        ("http://testserver", False, False),  # the token still decides
        ("null", True, False),  # an opaque origin (sandboxed frame): refused
        ("http://elsewhere.example", True, False),  # another site: refused
    ],
)
@pytest.mark.parametrize("secure", [False, True])
def test_django_s_own_csrf_check_guards_the_record_form(
    game: Game, origin: str, with_token: bool, saved: bool, secure: bool
) -> None:
    browser = Client(enforce_csrf_checks=True)
    join(browser, game)
    browser.get(f"/games/{game.pk}/", secure=secure)  # sets the CSRF cookie
    data = {"expected_seq": 1, "event_id": "e-2", "action": "pass"}
    if with_token:
        data["csrfmiddlewaretoken"] = browser.cookies["csrftoken"].value
    if secure and origin == "http://testserver":
        origin = "https://testserver"
    response = browser.post(
        f"/games/{game.pk}/hands", data, headers={"Origin": origin}, secure=secure
    )
    assert response.status_code == (302 if saved else 403)
    assert GameEvent.objects.filter(game=game).count() == (2 if saved else 1)
    if not saved:  # in the player's words, not Django's
        assert "Nothing was saved" in response.content.decode()


def test_the_tv_view_shows_the_score_big_and_keeps_polling(
    client: Client, game: Game
) -> None:
    assert client.get(f"/games/{game.pk}/tv").status_code == 404
    join(client, game, game.view_token)
    page = client.get(f"/games/{game.pk}/tv").content.decode()
    assert 'class="tv"' in page and 'id="poller"' in page and "poll?seq=1" in page
    assert "Bob bid 3 ♥, took 4" in page and 'id="record"' not in page


def test_a_session_from_before_fingerprints_still_opens_its_games(
    client: Client, game: Game
) -> None:
    session = client.session
    session["rights"] = {str(game.pk): game.view_token}  # the token itself, as kept
    session.save()
    client.cookies["sessionid"] = session.session_key or ""
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert client.post(f"/games/{game.pk}/hands", {"action": "pass"}).status_code == 403
    assert "Ann, Bob, Cat, Dan" in client.get("/").content.decode()


def test_a_game_page_renews_the_browsers_hold_once_a_day(
    client: Client, db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game()
    assert client.get(f"/join/{game.edit_token}").status_code == 302
    first = client.get(f"/games/{game.pk}/")
    assert "sessionid" in first.cookies  # renewed: a fresh cookie, a fresh age
    again = client.get(f"/games/{game.pk}/")
    assert "sessionid" not in again.cookies  # the same day: nothing to sign again
    tomorrow = timezone.localdate() + timedelta(days=1)
    monkeypatch.setattr(timezone, "localdate", lambda: tomorrow)
    later = client.get(f"/games/{game.pk}/")
    assert "sessionid" in later.cookies
    assert client.session[access.RENEWED] == tomorrow.isoformat()
