"""Issue 24, closing criterion: a crawl of every page an organizer reaches,
fed odd values in every field, query and header (HX-Request included),
finds no 5xx (SQLite, and PostgreSQL when DATABASE_URL names it: a 503 for
a database fault counts as a failure too)."""

from __future__ import annotations

import random
from datetime import date
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night
from scorekeeper.models import Game
from tests.hardening.crawler import Form, crawl
from tests.hardening.league_world import World, make_world
from tests.leagues.nights import play_hand, play_out, progressive_night, void_first_hand
from tests.records import NOW

pytestmark = pytest.mark.django_db

ODD = [
    "",
    "\x00",
    "a\x00b",
    "9" * 25,
    "-1",
    "²",
    "x" * 3000,
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "\u202e\ufeff",
    "NaN",
    "2026-02-30",
    "//evil.example/",
    "javascript:alert(1)",
]
# Query keys the pages read, and some they do not.
QUERY_KEYS = ["v", "games", "after", "hands", "seq", "next", "download", "x"]
HEADERS: list[dict[str, str]] = [
    {},
    {"HX-Request": "true"},
    {"HX-Request": "true", "HX-Target": "\x00", "HX-Current-URL": "javascript:"},
    {"X-Forwarded-For": "not an address, 999.1.1.1", "Referer": "//evil.example/"},
    {"Accept-Language": "x" * 500, "Accept": "application/json"},
]


def rich_world() -> World:
    """Every kind of page: a closed night with a change after closing, an
    open night with a round being played, a fixed-teams night with its
    teams entered, a public standings link."""
    world = make_world()
    closed = progressive_night(world.season, date(2026, 11, 12))
    rounds.round_start(night=closed, rng=random.Random(1), now=NOW)
    games = list(Game.objects.filter(table__round__night=closed))
    for game in games:
        play_out(game)
    rounds.night_close(night=closed, by="org", now=NOW)
    void_first_hand(Game.objects.get(pk=games[0].pk), world.organizer)
    playing = progressive_night(world.season, date(2026, 11, 19))
    rounds.round_start(night=playing, rng=random.Random(2), now=NOW)
    play_hand(Game.objects.filter(table__round__night=playing).first())  # type: ignore[arg-type]
    fixed = world.night(fixed=True)
    here = list(fixed.checkins.values_list("player", flat=True))
    services.teams_enter(night=fixed, teams=[here[:3], here[3:]])
    services.season_link_new(season=world.season)
    return world


class Tally:
    def __init__(self) -> None:
        self.sent = 0
        self.failures: list[str] = []

    def note(self, what: str, answer: Any) -> None:
        self.sent += 1
        if answer.status_code >= 500:
            self.failures.append(f"{answer.status_code} {what}")


def _odd_queries(client: Client, pages: list[str], tally: Tally) -> None:
    for page in pages:
        base = page.split("?")[0]
        for n, value in enumerate(ODD):
            query = dict.fromkeys(QUERY_KEYS, value)
            headers = HEADERS[n % len(HEADERS)]
            tally.note(
                f"GET {base} {value[:12]!r} {headers}",
                client.get(base, query, headers=headers),
            )


def _odd_forms(client: Client, forms: list[Form], tally: Tally) -> None:
    for form in forms:
        send = client.post if form.method == "post" else client.get
        for n, value in enumerate(ODD):
            headers = HEADERS[n % len(HEADERS)]
            for name in [*form.fields, "*"]:
                data: dict[str, Any] = dict(form.fields)
                data.update({k: value for k in form.fields if name in ("*", k)})
                for upload in form.files:
                    data[upload] = SimpleUploadedFile("x.json", value.encode())
                answer = send(form.action, data, headers=headers)
                tally.note(f"{form.method} {form.action} {name}={value[:12]!r}", answer)


def test_a_crawl_with_odd_values_everywhere_finds_no_server_error() -> None:
    world = rich_world()
    client = world.client
    client.raise_request_exception = False
    invite = services.invite_create(league=world.league, by=world.organizer, now=NOW)
    start = ["/", "/leagues/", f"/invite/{invite.token}", "/accounts/signup"]
    pages, forms = crawl(client, start)
    visited = " ".join(pages)
    for kind in ("/nights/", "/seasons/", "/players/", "/standings/", "/games/"):
        assert kind in visited, kind
    actions = " ".join(form.action for form in forms)
    for action in (
        "/teams",
        "/rounds",
        "/close",
        "/merge",
        "/import",
        "/signup",
        "/substitute",
        "/card/enter",
        "/delete",
    ):
        assert action in actions, action
    tally = Tally()
    _odd_queries(client, list(pages), tally)
    _odd_forms(client, forms, tally)
    for page in pages:  # again, after the forms changed things
        tally.note(f"GET {page}", client.get(page))
    assert tally.sent > 1000
    assert tally.failures == []


def test_a_fixed_teams_night_can_be_crawled_after_its_teams_are_entered() -> None:
    """The fixed night's own pages, before and after its first round."""
    world = rich_world()
    fixed = Night.objects.get(format=Night.FIXED)
    client = world.client
    for path in ("", "sheet", "desk", "tv", "teams", "standings.csv"):
        assert client.get(f"/nights/{fixed.pk}/{path}").status_code == 200
    assert client.post(f"/nights/{fixed.pk}/rounds", {"number": "1"}).status_code == 302
    for path in ("", "sheet", "desk", "tv", "teams"):
        assert client.get(f"/nights/{fixed.pk}/{path}").status_code == 200
