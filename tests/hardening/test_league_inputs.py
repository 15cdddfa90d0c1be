"""Issue 24, items 5, 8, 9, 11, 13 and 15: what a hostile organizer, player
or visitor puts in a name, a link or a URL is neutralised before it can do
harm: formulas in CSV files, redirects to other sites, weak passwords,
NUL in tokens, ids past a 64-bit column, tokens in log lines."""

from __future__ import annotations

import csv
import io
import json
import logging
import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from config.gunicorn_conf import redact_atoms
from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.exports import spreadsheet_cell
from scorekeeper.leagues.models import Invite, Player
from scorekeeper.models import Game, new_token
from scorekeeper.web.logs import TOKEN_PATHS, redact
from tests.hardening.league_world import PASSWORD, World, every_route, make_world
from tests.leagues.nights import play_hand, play_out
from tests.records import HTMX, NOW

pytestmark = pytest.mark.django_db

FORMULAS = ['=HYPERLINK("http://x","y")', "+1+1", "@SUM(1)", "-2+3"]


@pytest.fixture
def world() -> World:
    return make_world()


# Item 5: CSV formula injection -------------------------------------------------


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("-2+3", "'-2+3"),
        ("\tx", "'\tx"),
        ("\r=1", "'\r=1"),
        ("-6", "-6"),
        ("-1.5", "-1.5"),
        (-6, -6),
        (3, 3),
        ("Ann & Bob", "Ann & Bob"),
        ("", ""),
    ],
)
def test_a_cell_that_would_run_as_a_formula_is_written_as_text(
    value: Any, cell: Any
) -> None:
    assert spreadsheet_cell(value) == cell


def _csv(response: Any) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def test_no_league_csv_holds_a_formula_and_numbers_stay_numbers(
    world: World,
) -> None:
    for player, name in zip(Player.objects.order_by("pk"), FORMULAS, strict=False):
        services.player_rename(player=player, name=name)
    night = world.playing_night()  # a hand at each table...
    games = list(Game.objects.filter(table__round__night=night))
    play_hand(games[0], bidder_side_takes=0)  # ...and a set: a negative delta
    for game in games:
        play_out(game)
    rounds.night_close(night=night, by="org", now=NOW)
    client, season = world.client, world.season
    files = [
        _csv(client.get(f"/seasons/{season.pk}/standings.csv")),
        _csv(client.get(f"/nights/{night.pk}/standings.csv")),
        _csv(client.get(f"/seasons/{season.pk}/hands.csv")),
    ]
    cells = [cell for rows in files for row in rows for cell in row]
    number = re.compile(r"-?[0-9]+(\.[0-9]+)?")
    dangerous = [
        cell
        for cell in cells
        if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not number.fullmatch(cell)
    ]
    assert dangerous == []
    assert any(re.fullmatch(r"-[0-9]+", cell) for cell in cells)  # still a number
    seated = {name for game in games for name in game.seats}
    for name in set(FORMULAS) & seated:
        assert "'" + name in cells


# Item 8: where sign-up and sign-in go next -------------------------------------


ELSEWHERE = [
    "https://evil.example/",
    "//evil.example/x",
    "///evil.example/x",
    "NaN",
    "javascript:alert(1)",
    "http:evil.example",
    "/\\evil.example",
]


@pytest.mark.parametrize("wanted", ELSEWHERE)
def test_sign_up_goes_to_the_leagues_not_to_another_site(
    client: Client, db: None, wanted: str
) -> None:
    data = {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(f"/accounts/signup?{_next(wanted)}", data)
    assert response.status_code == 302
    assert response["Location"] == "/leagues/"


@pytest.mark.parametrize("wanted", ELSEWHERE)
def test_sign_in_never_leaves_the_site_nor_fails(world: World, wanted: str) -> None:
    guest = Client()
    page = guest.get(f"/accounts/login?{_next(wanted)}")
    assert page.status_code == 200
    assert "evil" not in page.content.decode()
    data = {"username": "org", "password": PASSWORD}
    response = guest.post(f"/accounts/login?{_next(wanted)}", data)
    assert response.status_code == 302 and response["Location"] == "/leagues/"
    again = guest.get(f"/accounts/login?{_next(wanted)}")  # signed in already
    assert again.status_code == 302 and again["Location"] == "/leagues/"


def test_a_path_of_this_site_is_followed_after_signing_up_and_in(
    client: Client, world: World
) -> None:
    invite = services.invite_create(league=world.league, by=world.organizer, now=NOW)
    wanted = f"/invite/{invite.token}"
    data = {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD}
    signup = client.get(f"/accounts/signup?{_next(wanted)}").content.decode()
    assert f'name="next" value="{wanted}"' in signup
    response = client.post(f"/accounts/signup?{_next(wanted)}", data)
    assert response["Location"] == wanted
    signed_in = Client()
    response = signed_in.get(f"/accounts/login?{_next('/accounts/login')}")
    assert response.status_code == 200  # not a redirect to itself, nor a 500


def _next(wanted: str) -> str:
    from urllib.parse import urlencode

    return urlencode({"next": wanted})


# Item 9: password rules -----------------------------------------------------------


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("a", "too short"),
        ("password123", "too common"),
        ("4815162342108", "entirely numeric"),
        ("thursdaypepper", "too similar to the username"),
    ],
)
def test_sign_up_refuses_a_weak_password_in_words(
    client: Client, db: None, password: str, message: str
) -> None:
    data = {"username": "thursdaypepper", "password1": password, "password2": password}
    response = client.post("/accounts/signup", data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.exists()


def test_the_sign_up_page_says_the_password_rules() -> None:
    assert len(settings.AUTH_PASSWORD_VALIDATORS) == 4
    page = Client().get("/accounts/signup").content.decode()
    assert "at least 10 characters" in page and "entirely numeric" in page


# Items 11 and 13: what a URL carries is checked before any query ---------------


def test_a_nul_in_a_token_is_no_page_on_every_database(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    guest = Client()
    for token in ("%00", "a%00b", new_token()[:31] + "%00", new_token() + "%00"):
        assert guest.get(f"/join/{token}").status_code == 404
        assert guest.get(f"/standings/{token}").status_code == 404
        assert world.client.get(f"/invite/{token}").status_code == 404
        assert world.client.post(f"/invite/{token}").status_code == 404
    assert "database fault" not in caplog.text
    assert not Invite.objects.exists()


HUGE = "99999999999999999999"  # past 2**63: SQLite's OverflowError


def _every_id_route() -> list[str]:
    """Every route with an integer id in it, the ids made huge."""
    routes = []
    for route, _ in every_route():
        if re.search(r"<(int|id):", route):
            path = re.sub(r"<(int|id):\w+>", HUGE, route)
            routes.append("/" + re.sub(r"<uuid:\w+>", GAME_ID, path))
    return routes


GAME_ID = "00000000-0000-4000-8000-000000000000"


def test_every_route_with_an_id_has_one() -> None:
    routes = _every_id_route()
    assert len(routes) >= 20 and "/nights/" + HUGE + "/desk" in routes


@pytest.mark.parametrize("path", _every_id_route())
def test_an_id_past_a_64_bit_column_is_no_page(world: World, path: str) -> None:
    for client in (world.client, Client()):
        for send in (client.get, client.post):
            answer = send(path, headers=HTMX)
            assert answer.status_code in (302, 404), (path, answer.status_code)
    desk = world.client.get(f"/nights/{HUGE}/desk?v=1.2.3", headers=HTMX)
    assert desk.status_code == 404


def test_the_largest_id_a_column_holds_is_a_404_too(world: World) -> None:
    largest = str(2**63 - 1)
    assert world.client.get(f"/nights/{largest}/desk", headers=HTMX).status_code == 404
    assert world.client.get(f"/seasons/{largest}/").status_code == 404


# Item 15: no token in a log line -------------------------------------------------


def test_every_route_with_a_token_is_redacted_in_the_logs() -> None:
    token_routes = [route for route, _ in every_route() if "token>" in route]
    assert token_routes
    assert {route.split("/")[0] for route in token_routes} == set(TOKEN_PATHS)


@pytest.mark.parametrize(
    "line",
    [
        "GET /join/{t} HTTP/1.1",
        "POST /invite/{t} HTTP/1.1",
        "GET /standings/{t} HTTP/1.1",
        "GET /standings/{t}%00x HTTP/1.1",
        "GET /accounts/login?next=/invite/{t} HTTP/1.1",
        "GET /accounts/login?next=%2Finvite%2F{t}&x=1 HTTP/1.1",
        "Authorization: Bearer {t}",
        "https://pepper.example/standings/{t}",
    ],
)
def test_a_log_line_never_holds_a_token(line: str) -> None:
    token = new_token()
    assert token not in redact(line.format(t=token))
    atoms = {"r": line.format(t=token), "{authorization}i": f"Bearer {token}"}
    assert token not in str(redact_atoms(atoms))


def test_djangos_log_redacts_invite_and_standings_tokens(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    invite = services.invite_create(league=world.league, by=world.organizer, now=NOW)
    taken = User.objects.create_user("second", password=PASSWORD)
    services.invite_accept(token=invite.token, user=taken, now=NOW)
    revoked = new_token()
    with caplog.at_level(logging.INFO):
        third = Client()
        third.force_login(User.objects.create_user("third", password=PASSWORD))
        assert third.post(f"/invite/{invite.token}").status_code == 410
        assert Client().get(f"/standings/{revoked}").status_code == 404
    assert "/invite/[redacted]" in _written(caplog)
    assert "/standings/[redacted]" in _written(caplog)
    assert invite.token not in _written(caplog) and revoked not in _written(caplog)


def _written(caplog: pytest.LogCaptureFixture) -> str:
    """The log as its handler writes it (through the redacting filter)."""
    handler = logging.getLogger("django").handlers[0]
    return "\n".join(handler.format(r) for r in caplog.records if handler.filter(r))


def test_gunicorns_error_log_redacts_the_url_of_a_failed_request() -> None:
    from gunicorn.config import Config

    from config.gunicorn_conf import RedactingLogger

    error_log = RedactingLogger(Config()).error_log
    token = new_token()
    record = error_log.makeRecord(
        "gunicorn.error",
        logging.ERROR,
        "",
        0,
        "Error handling request %s",
        (f"GET /invite/{token}",),
        None,
    )
    assert error_log.filter(record)
    assert token not in record.getMessage()


def test_a_season_file_whose_player_id_is_a_lone_surrogate_is_refused_in_words(
    world: World,
) -> None:
    """Found by the season import fuzz: the refusal quoted the id as it
    was, and a page holding a lone surrogate cannot be encoded (a 500)."""
    document = {
        "format": "pepper-league",
        "version": 1,
        "players": [{"id": "\ud800", "name": 7}],
        "nights": [],
    }
    url = f"/leagues/{world.league.pk}/import"
    response = world.client.post(url, {"text": json.dumps(document)})
    assert response.status_code == 422
    assert "needs a &quot;name&quot;" in response.content.decode()
