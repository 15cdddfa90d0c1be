"""One clock format on every page: the template filter ``clock`` (the
home page, an import, a league night), the history's change times
(``tablewords.clock``, the phone's too) and the phone's banner write a
time the same way, in the zone the page is shown in."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from django.template import Context, Template
from django.test import Client
from django.utils import timezone

from scorekeeper.games import services
from scorekeeper.tablewords import clock
from tests.records import NOW, new_game, record_hands

FILTER = Template("{% load clock %}{{ when|clock }}|{{ when|clock:'time' }}")
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_the_history_writes_a_time_as_the_pages_filter_writes_it() -> None:
    day_and_time, time = FILTER.render(Context({"when": NOW})).split("|")
    assert clock(NOW.isoformat()) == day_and_time
    assert day_and_time.endswith(time)  # the time of day is the same words
    assert "UTC" in time  # the server's pages are in UTC, and say so


def test_a_league_page_writes_the_leagues_own_time_unnamed() -> None:
    with timezone.override("Asia/Kolkata"):
        day_and_time, time = FILTER.render(Context({"when": NOW})).split("|")
    local = NOW.astimezone(timezone.get_fixed_timezone(timedelta(hours=5, minutes=30)))
    assert time == f"{local:%H:%M}"
    assert day_and_time.endswith(f", {time}")


def test_no_template_formats_a_time_its_own_way() -> None:
    own = [
        f"{path.relative_to(TEMPLATES)}: {found}"
        for path in TEMPLATES.rglob("*.html")
        for found in re.findall(
            r"\|(?:date|time):[\"'][^\"']*[HGgh][^\"']*[\"']", path.read_text()
        )
    ]
    assert own == []


def test_a_correction_on_the_game_page_says_when_as_the_start_page_does(
    client: Client, db: None
) -> None:
    game = new_game(now=NOW)
    record_hands(game, NOW, (1, 3, "hearts", [4, 2]))
    services.hand_void(game=game, target=1, expected_seq=1, by="Ann", now=NOW)
    client.get(f"/join/{game.edit_token}")
    page = client.get(f"/games/{game.pk}/").text
    start = client.get("/").text
    written = FILTER.render(Context({"when": NOW})).split("|")[0]
    assert f"at {written}" in page
    assert written in start
