"""A new organizer with the guide open: from the README's first minute to
a running night, each step done by the words "The night on one page"
(docs/organizers.md) gives for it, at 360 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.docs.reading import DOCS
from tests.e2e.conftest import Looker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
# The controls the guide names, in the order it names them.
NAMED = [
    "Leagues",
    "Start a league",
    "Paste a list of names",
    "New season",
    "New night",
    "Find a name",
    "Start round 1",
    "Printable links",
    "Score card",
    "Desk",
    "TV",
    "Call round 1…",
    "Substitute…",
    "Close the night…",
    "Make a public link",
    "Season files",
]


def test_the_guide_names_the_controls_the_pages_show() -> None:
    text = (DOCS / "organizers.md").read_text().split("## Before the first night")[0]
    steps = " ".join(text.split())  # a control's name may wrap
    for control in NAMED:
        assert f"*{control}*" in steps, control


def test_from_the_readme_to_a_running_night_with_the_guide_open(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    url = live_server.url
    page.goto(url)  # the README's step 4: Leagues, sign up, start a league
    page.get_by_role("link", name="Leagues", exact=True).click()
    page.get_by_role("link", name="Sign up as an organizer").click()
    page.get_by_label("Username").fill("maria")
    page.get_by_label("Password", exact=True).fill("pepper nights 2026")
    page.get_by_label("Password again").fill("pepper nights 2026")
    page.get_by_role("button", name="Sign up").click()
    looker.look("leagues-with-help")
    page.get_by_label("New league's name").fill("Thursday Pepper")
    page.get_by_role("button", name="Start a league").click()
    page.get_by_text("Paste a list of names", exact=True).click()
    page.get_by_label("Names, one a line").fill("\n".join(EIGHT))
    page.get_by_role("button", name="Add these players").click()
    expect(page.get_by_text("Hal").first).to_be_visible()
    page.get_by_text("New season", exact=True).click()
    page.get_by_label("Name", exact=True).fill("Autumn")
    page.get_by_role("button", name="Create the season").click()
    looker.look("season-with-help")

    page.get_by_label("Date").fill("2026-11-19")  # 1. New night
    page.get_by_role("button", name="New night").click()
    for name in EIGHT:  # 2. at the door
        page.get_by_role("button", name=name, exact=True).click()
    expect(page.locator(".chip.on")).to_have_count(8)
    looker.look("night-with-help")
    page.get_by_role("button", name="Start round 1").click()  # 3.
    expect(page.get_by_role("link", name="Printable links")).to_be_visible()
    expect(page.get_by_role("link", name="Score card", exact=True)).to_have_count(2)
    page.get_by_role("link", name="Desk", exact=True).click()  # 4.
    expect(page.get_by_role("link", name="Call round 1…")).to_be_visible()
    looker.look("desk-with-help")

    page.get_by_role("link", name="Help", exact=True).click()  # the guide open
    expect(
        page.get_by_role("heading", name="5. The desk and the TV")
    ).to_be_in_viewport()
    looker.look("guide-at-the-desk")
    page.go_back()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    assert console_errors == []
