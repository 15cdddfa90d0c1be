"""A negative number reads the same on every page of a league night, as
the game page prints it: with a true minus sign ("−6"), never a hyphen
("-6"), which a glance mistakes for a dash; the desk says a game's score
in words ("12 to −6", not "12 – −6"). The CSV files keep the ASCII
hyphen-minus that spreadsheets read as a number."""

from __future__ import annotations

import csv
import random
import re
from html.parser import HTMLParser
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues import rounds
from scorekeeper.leagues.models import Night, Player, Round, Seat
from scorekeeper.models import Game
from scorekeeper.tablewords import signed
from tests.leagues.nights import play_hand, progressive_night
from tests.records import NOW

pytestmark = pytest.mark.django_db

HYPHEN_MINUS = re.compile(r"(?<![\w.-])-\d")  # "-6", not "2026-11-19"
LINK = re.compile(r"\S+/\S+")  # a link shown as text: "http://…/join/-9Xb…"


class _Text(HTMLParser):
    """What a page shows: its text, not its tags, attributes or scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in {"script", "style"}

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in {"script", "style"}

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def shown_text(page: str) -> str:
    parser = _Text()
    parser.feed(page)
    return " ".join(parser.parts)


def _play(game: Game, *takes: int) -> None:
    """A hand for each of ``takes``: the tricks its bidders take (0: set)."""
    for tricks in takes:
        play_hand(game, bidder_side_takes=tricks)
    game.refresh_from_db()


@pytest.fixture
def night(season: Any) -> Night:
    """Round 1: table 1 finished, one side set twice and below zero; table
    2 in play, one set hand in."""
    found = progressive_night(season)
    first = rounds.round_start(night=found, rng=random.Random(3), now=NOW)
    one, two = first.tables.select_related("game").order_by("number")
    _play(one.game, 0, 6, 0, 6)
    _play(two.game, 0)
    assert one.game.finished and min(one.game.totals) < 0
    assert min(two.game.totals) < 0
    return found


@pytest.fixture
def signed_in(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


def _first_round(night: Night) -> Round:
    return night.rounds.get(number=1)


def _a_loser(night: Night) -> Player:
    """A player of table 1 whose side ended below zero."""
    table = _first_round(night).tables.select_related("game").get(number=1)
    side = min(range(2), key=lambda s: table.game.totals[s])
    seats = Seat.objects.filter(table=table).select_related("player")
    return next(seat.player for seat in seats if seat.position % 2 == side)


def _pages(night: Night, client: Client) -> dict[str, str]:
    season, first = night.season, _first_round(night)
    table = first.tables.get(number=2)
    client.post(f"/seasons/{season.pk}/public", {"action": "new"})
    season.refresh_from_db()
    urls = {
        "desk": f"/nights/{night.pk}/desk",
        "tv": f"/nights/{night.pk}/tv",
        "night": f"/nights/{night.pk}/",
        "season": f"/seasons/{season.pk}/",
        "public standings": f"/standings/{season.public_token}",
        "player": f"/players/{_a_loser(night).pk}/",
        "score cards": f"/rounds/{first.pk}/cards",
        "card": f"/tables/{table.pk}/card",
        "card entry": f"/rounds/{first.pk}/cards/enter",
    }
    found = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, name
        found[name] = shown_text(response.content.decode())
    return found


def test_every_league_page_prints_negatives_with_a_true_minus(
    night: Night, signed_in: Client
) -> None:
    for name, text in _pages(night, signed_in).items():
        assert "−" in text, name
        # A table's link is shown as text, and its random token may hold
        # "/-9..." (one link in a few hundred): not a number.
        numbers = LINK.sub(" ", text)
        assert not HYPHEN_MINUS.search(numbers), (name, HYPHEN_MINUS.findall(numbers))


def test_the_desk_says_a_games_score_in_words(night: Night, signed_in: Client) -> None:
    page = signed_in.get(f"/nights/{night.pk}/desk").content.decode()
    for table in _first_round(night).tables.select_related("game"):
        score = " to ".join(signed(total) for total in table.game.totals)
        assert f'<span class="desk-score">{score}</span>' in page
    assert "–\u2009−" not in page and "– −" not in page


def test_the_standings_files_keep_the_ascii_minus_for_spreadsheets(
    night: Night, signed_in: Client
) -> None:
    for url in (
        f"/nights/{night.pk}/standings.csv",
        f"/seasons/{night.season.pk}/standings.csv",
        f"/seasons/{night.season.pk}/hands.csv",
    ):
        response = signed_in.get(url)
        text = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
        cells = [cell for row in csv.reader(StringIO(text)) for cell in row]
        assert "−" not in text, url
        assert any(re.fullmatch(r"-\d+", cell) for cell in cells), url


@pytest.mark.parametrize(
    ("value", "places", "plus", "shown"),
    [
        (-6, 0, False, "−6"),
        (6, 0, False, "6"),
        (0, 0, True, "+0"),
        (-2.26, 1, True, "−2.3"),
        (-0.04, 1, True, "+0.0"),  # rounds to zero: no sign of a loss
        (3.5, 1, True, "+3.5"),
    ],
)
def test_one_helper_writes_a_signed_number(
    value: float, places: int, plus: bool, shown: str
) -> None:
    assert signed(value, places=places, plus=plus) == shown
