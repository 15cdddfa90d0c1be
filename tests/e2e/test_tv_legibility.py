"""The TV across the room at 1280x720: a score with a negative total reads
as each side's own number beside its players (one a line) (not "12 – −6"), and names
with marks above and below their letters (Đặng, Zoë, Ångström) are drawn
whole, not clipped at the top or the bottom of their line. The standings
there and on the desk (a phone) print negatives with a true minus, and the
desk says the score in words ("12 to −6")."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night
from tests.e2e.conftest import Looker
from tests.e2e.league import TV, new_screen, sign_in
from tests.leagues.nights import play_hand, progressive_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pepper nights 2026"
LONG = "Maria Guadalupe Fernández de la Cruz y Villanueva-Ortega III"
NAMES = ["Đặng Văn Ấu", "Zoë Ýgür", "Ångström Ÿ", "Ḉelik Ǫ", "Bob", "Cat", LONG, "Eve"]

# Whether a name is drawn whole up and down: its box does not clip
# vertically, or each mark's ink (from the font's own measures) falls
# inside it (negative px: cut off). And whether it is cut across.
INK = """side => {
  const style = getComputedStyle(side);
  const context = document.createElement("canvas").getContext("2d");
  context.font = style.font;
  const text = context.measureText(side.textContent);
  const box = side.getBoundingClientRect();
  const above = parseFloat(style.paddingTop), below = parseFloat(style.paddingBottom);
  const line = box.height - above - below;
  const font = text.fontBoundingBoxAscent + text.fontBoundingBoxDescent;
  const baseline = above + (line - font) / 2 + text.fontBoundingBoxAscent;
  const clips = style.overflowY !== "visible";
  return {
    name: side.textContent,
    top: clips ? baseline - text.actualBoundingBoxAscent : 0,
    bottom: clips ? box.height - (baseline + text.actualBoundingBoxDescent) : 0,
    across: side.scrollWidth > side.clientWidth && style.textOverflow === "ellipsis",
  };
}"""


def _night() -> Night:
    user = User.objects.create_user("maria", password=PASSWORD)
    now = timezone.now()
    league = services.league_create(name="Thursday Pepper", organizer=user, now=now)
    for name in NAMES:
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league, name="Autumn", preset="classic", now=now
    )
    return progressive_night(season)


def test_the_tv_shows_each_sides_score_and_whole_accented_names(
    browser: Browser,
    contexts: list[BrowserContext],
    live_server: LiveServer,
    console_errors: list[str],
) -> None:
    night = _night()
    first = rounds.round_start(night=night, rng=random.Random(2), now=timezone.now())
    table = first.tables.order_by("number").first()
    assert table is not None
    game = table.game
    play_hand(game, bidder_side_takes=6)
    play_hand(game, bidder_side_takes=0)  # the second bidders are set
    game.refresh_from_db()
    assert min(game.totals) < 0 < max(game.totals)

    tv = new_screen(browser, contexts, TV)
    sign_in(tv, live_server.url, "maria", PASSWORD)
    tv.goto(f"{live_server.url}/nights/{night.pk}/tv")
    row = tv.locator(f"#table-{table.pk}")
    shown = [f"{t}".replace("-", "−") for t in game.totals]
    ends = [re.compile(f"{re.escape(score)}$") for score in shown]
    expect(row.locator(".tv-side-score")).to_have_text(ends)
    assert "–" not in row.inner_text()
    # Each side's number beside its players, within their lines.
    for side, score in zip(
        row.locator(".tv-side .tv-names").all(),
        row.locator(".tv-side-score").all(),
        strict=True,
    ):
        side_box, score_box = side.bounding_box(), score.bounding_box()
        assert side_box and score_box
        assert side_box["y"] <= score_box["y"]
        assert (
            score_box["y"] + score_box["height"] <= side_box["y"] + side_box["height"]
        )
    Looker(tv, "tv-legibility", width=TV["width"]).look("tv")

    for side in tv.locator(".tv-name").all():
        ink = side.evaluate(INK)
        assert ink["top"] >= 0 and ink["bottom"] >= 0, ink
        assert ink["across"] == (LONG in ink["name"]), ink  # the long one ends in …
    _minus_signs_only(tv.locator("#tv-standings").inner_text())

    # The desk on the organizer's phone: the score in words, the same signs.
    desk = new_screen(browser, contexts)
    sign_in(desk, live_server.url, "maria", PASSWORD)
    desk.goto(f"{live_server.url}/nights/{night.pk}/desk")
    expect(desk.locator(f"#table-{table.pk} .desk-score")).to_have_text(
        " to ".join(shown)
    )
    _minus_signs_only(desk.locator("#desk-standings").inner_text())
    Looker(desk, "tv-legibility-desk").look("desk")
    assert console_errors == []


def _minus_signs_only(text: str) -> None:
    """Some number below zero, each with a true minus, none with "-"."""
    assert "−" in text and not re.search(r"(?<![\w.-])-\d", text), text
