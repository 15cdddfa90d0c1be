"""Issue 19: the score chart's key wraps at 360 px, whatever the sides'
names: long partnerships, three players each for himself, four to a side
at an eight-seat table. Nothing may reach past the phone's screen."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.gamelog import NAME_LIMIT
from scorekeeper.games import services
from tests.e2e.conftest import PHONE, SCREENSHOTS, Looker
from tests.records import HandSpec, record_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Long names: one as long as a seat takes (NAME_LIMIT), one long word.
LONG = [
    ("Christopher Alexander Jameson-Whitfield " * 2)[:NAME_LIMIT].strip(),
    "Bartholomew-Fitzgerald Smythe",
    "Alexandra Konstantinopoulou",
    "Maximiliana Wolfeschlegel",
    "Evangeline",
    "Montgomery",
    "Anastasia",
    "Constantinopolitanischer",
]
TABLES: dict[str, tuple[str, int, list[HandSpec]]] = {
    "partners": ("moon-42", 4, [(1, 4, "hearts", [1, 5]), (2, 4, "spades", [4, 2])]),
    "three-alone": (
        "classic",
        3,
        [(1, 2, "hearts", [2, 4, 2]), (2, 3, "clubs", [2, 2, 4])],
    ),
    "eight-seats": (
        "bid-euchre",
        8,
        [(1, 2, "hearts", [2, 6]), (2, 3, "clubs", [5, 3])],
    ),
}


@pytest.mark.parametrize("table", list(TABLES))
def test_the_charts_key_stays_on_a_phones_screen(
    page: Page, live_server: LiveServer, table: str, console_errors: list[str]
) -> None:
    preset, seats, hands = TABLES[table]
    names = LONG[:seats]
    game = services.game_create(
        preset=preset, seats=names, first_dealer=0, now=timezone.now()
    )
    record_hands(game, timezone.now(), *hands)
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    legend = page.locator("#chart .legend")
    expect(legend).to_be_visible()
    legend.scroll_into_view_if_needed()
    right_edges = legend.locator(":scope > span").evaluate_all(
        "spans => spans.map(s => s.getBoundingClientRect().right)"
    )
    assert len(right_edges) >= 3  # every side, and the dotted line's key
    assert max(right_edges) <= PHONE["width"], right_edges
    looker = Looker(page, f"chart-legend-{table}")
    looker.look("legend")  # axe-clean, and the page never scrolls sideways
    page.locator("#chart").screenshot(path=SCREENSHOTS / f"chart-legend-{table}.png")
    assert console_errors == []
