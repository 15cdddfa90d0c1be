"""A save answers only what changed (issue 22): the score, the form for the
next hand, the new hand's row; the chart drawn before stays on the page
until the new one, loaded after the save, replaces it."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.conftest import Looker, fill_hand
from tests.records import new_game, record_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_chart_stays_while_the_next_one_loads_after_a_save(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    game = new_game("moon-42", now=timezone.now())
    record_hands(
        game, timezone.now(), (1, 4, "hearts", [2, 4]), (2, 4, "spades", [4, 2])
    )
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    desc = page.locator("#chart desc")
    expect(desc).to_contain_text("after 2 hands")
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)  # the next chart waits until it is let go

    page.route("**/chart", hold)

    form = page.locator("#record")
    fill_hand(form, trump="clubs", taken="5")  # Dan, forced at 4, takes 5
    form.get_by_role("button", name="Save hand").click()
    expect(page.locator("#record h2")).to_have_text("Record hand 4")
    expect(page.locator(".hand")).to_have_count(3)
    expect(page.locator(".hand").first.locator(".hand-no")).to_contain_text("3")
    page.wait_for_timeout(300)
    assert len(held) == 1  # asked for, not answered yet
    expect(desc).to_contain_text("after 2 hands")  # the chart drawn before stays
    expect(page.get_by_role("img", name="The score after every hand")).to_be_visible()

    held[0].continue_()
    expect(desc).to_contain_text("after 3 hands")
    expect(page.locator("#chart")).to_have_count(1)
    looker.look("after-save")
    assert console_errors == []
