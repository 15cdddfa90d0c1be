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


FORM_STATE = """() => [...document.querySelectorAll('#record input')]
    .filter(i => !['csrfmiddlewaretoken', 'event_id', 'by'].includes(i.name))
    .filter(i => i.type !== 'radio' || i.checked)
    .map(i => `${i.name}=${i.value}`)"""


def test_hands_saved_in_a_row_leave_the_form_a_reload_would_show(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    """The form stays in the page through saves (only its parts are swapped):
    after each save, a refused one before it, and the pepper round's end,
    it is the very form a reload shows, untouched, with no stale error."""
    game = new_game("moon-42", now=timezone.now())
    record_hands(
        game, timezone.now(), (1, 4, "hearts", [2, 4]), (2, 4, "spades", [4, 2])
    )
    page.goto(f"{live_server.url}/join/{game.edit_token}")
    form = page.locator("#record")
    form.get_by_role("radio", name="clubs", exact=True).check()  # no tricks yet
    form.get_by_role("button", name="Save hand").click()
    expect(page.locator("#record .error")).to_contain_text("how many tricks")
    fill_hand(form, trump="clubs", taken="5")
    for number, entry in (
        (3, {}),
        (4, {"trump": "hearts", "taken": "4"}),  # the pepper round's last
        (5, {"bidder": "Bob", "bid": "4", "trump": "spades", "taken": "6"}),
    ):
        if entry:
            fill_hand(form, **entry)
        form.get_by_role("button", name="Save hand").click()
        expect(page.locator("#record h2")).to_have_text(f"Record hand {number + 1}")
        expect(page.locator(".saved")).to_contain_text(f"Hand {number} saved")
        expect(page.locator("#record .error")).to_have_count(0)
        assert page.locator("#record").get_attribute("data-touched") is None
        after_save = page.evaluate(FORM_STATE)
        looker.look(f"after-hand-{number}")
        page.reload()
        assert page.evaluate(FORM_STATE) == after_save
    expect(page.get_by_role("button", name="Undo")).to_have_count(0)  # reloaded
    fill_hand(form, bidder="Cat", bid="5", trump="diamonds", taken="6")
    form.get_by_role("button", name="Save hand").click()
    expect(page.locator(".saved")).to_contain_text("Hand 6 saved")
    page.get_by_role("button", name="Undo").click()  # the undo a save answered
    expect(page.locator("#record h2")).to_have_text("Record hand 6")
    expect(page.locator(".hand")).to_have_count(5)
    # Only the refused save's answer (422): no swap missed its target.
    assert [error for error in console_errors if "422" not in error] == []
