"""Online, a phone keeps its copy of the log (for scoring offline) from
what each save's and poll's answer carries: no second request to
``offline.json`` after every change. When what is carried does not follow
on from its copy, or nothing is carried, the phone asks ``offline.json``,
and its copy is the server's log either way."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, Request, Route, expect

from scorekeeper.games.sharing import CARRIED_MAX
from scorekeeper.models import Game
from tests.e2e.offline import Server, log_of, new_phone, open_ready, until
from tests.e2e.test_offline import record
from tests.e2e.test_offline_sync import passed_out, synced
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def watched_phone(
    browser: Browser, phones: list[BrowserContext], url: str, *, deaf: bool = False
) -> tuple[Page, list[str]]:
    """A phone ready to score offline, and every offline.json it asks for;
    ``deaf``: its polls are refused from the start (until the test unroutes
    them), so no poll in flight hears of what the test adds next."""
    page = new_phone(browser, phones).new_page()
    if deaf:
        page.route("**/poll?*", lambda route: route.abort())
    asked: list[str] = []

    def note(request: Request) -> None:
        if "/offline.json" in request.url:
            asked.append(request.url)

    page.on("request", note)
    open_ready(page, url)
    return page, asked


def copy_of(page: Page, game: Game) -> list[dict[str, Any]] | None:
    """The events of this phone's copy of the log (IndexedDB)."""
    events: list[dict[str, Any]] | None = page.evaluate(
        """id => PepperStore.load(id).then(s => s.log && JSON.parse(s.log).events)""",
        str(game.pk),
    )
    return events


def copy_is_the_log(page: Page, server: Server, game: Game) -> None:
    """Wait until this phone's copy is the server's log (it is written
    after the answer is on screen)."""
    until(
        lambda: copy_of(page, game) == log_of(page, server, game.pk),
        "the phone's copy never became the server's log",
        page=page,
    )


def test_saving_online_keeps_the_copy_with_no_offline_json_request(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game = new_game(now=timezone.now())
    page, asked = watched_phone(browser, phones, f"{server.url}/join/{game.edit_token}")
    assert len(asked) == 1 and asked[0].endswith("/offline.json")  # the first load
    record(page, bidder="Bob", bid="3", trump="spades", taken="4")
    record(page, passed=True)
    page.get_by_label("Entered by").fill("Łukasz")  # carried in ASCII escapes
    record(page, bidder="Cat", bid="4", trump="hearts", taken="5")
    expect(page.locator("#offline")).to_have_attribute("data-seq", "3")
    passed_out(game, 1)  # another phone: this phone's poll carries it
    expect(page.locator("#hands > li")).to_have_count(4)
    expect(page.locator("#offline")).to_have_attribute("data-seq", "4")
    copy_is_the_log(page, server, game)
    assert len(asked) == 1

    page.context.set_offline(True)  # the copy scores a hand with no connection
    record(page, bidder="Dan", bid="3", trump="clubs", taken="2")
    expect(page.locator(".badge.queued")).to_have_count(1)
    page.context.set_offline(False)
    synced(page)
    copy_is_the_log(page, server, game)
    assert len(log_of(page, server, game.pk)) == 5


def test_a_copy_that_carried_events_do_not_follow_is_brought_up_by_offline_json(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game = new_game(now=timezone.now())
    passed_out(game, 2)
    join = f"{server.url}/join/{game.edit_token}"
    page, asked = watched_phone(browser, phones, join, deaf=True)  # hears of nothing
    many = CARRIED_MAX // 40  # more than an answer carries (~70 characters each)
    passed_out(game, many)  # another phone saved meanwhile, much
    page.unroute("**/poll?*")
    expect(page.locator("#offline")).to_have_attribute("data-seq", str(2 + many))
    assert asked[1:] == [f"{server.url}/games/{game.pk}/offline.json?after=2"]
    copy_is_the_log(page, server, game)

    def moved_on(route: Route) -> None:
        """The copy grew while the save was on its way (its answer's
        events start after what the copy holds now)."""
        headers = route.request.headers
        held = int(headers["x-pepper-have-seq"])
        route.continue_(headers={**headers, "x-pepper-have-seq": str(held + 1)})

    page.route("**/hands", moved_on)
    record(page, passed=True)
    expect(page.locator("#offline")).to_have_attribute("data-seq", str(3 + many))
    assert asked[2:] == [f"{server.url}/games/{game.pk}/offline.json?after={2 + many}"]
    copy_is_the_log(page, server, game)
