"""Issue 32, iPhones: Safari has no Background Sync and drops the
IndexedDB connection of a page left in the background. On a 360 px phone
with the browser offline AND the live server stopped: the store opens its
connection again when the page shows again, and retries a request once
on a new one; the outbox has a copy that survives IndexedDB losing a
write; "N unsent · Send now" sends from the page; the phone asks for
persistent storage. And Safari on an iPhone (or on an iPad, which says it
is a Mac) is told, once, how to add the app to its home screen; other
browsers, and a Mac, are not."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect

from scorekeeper.models import Game, GameEvent
from tests.e2e.conftest import Looker
from tests.e2e.offline import Server, new_phone
from tests.e2e.test_offline_start import (
    NO_WORKERS,
    hand_one,
    no_signal,
    signal_back,
    stored_once,
)
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every IndexedDB connection the page opens, kept where the test can close
# it as Safari does (a request on it then throws InvalidStateError); how
# many requests met a closed one; and, once ``pepperStoreGone`` is set,
# IndexedDB refusing every request, as a connection that cannot be opened
# again. The phone's requests for persistent storage, counted.
PHONE_WATCH = """(() => {
  window.pepperConnections = [];
  window.pepperDeadUses = 0;
  window.pepperStoreGone = false;
  window.pepperPersistAsked = 0;
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (...args) {
    const request = open.apply(this, args);
    request.addEventListener('success', () => pepperConnections.push(request.result));
    return request;
  };
  const transaction = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (...args) {
    if (pepperStoreGone) throw new DOMException('gone', 'InvalidStateError');
    try {
      return transaction.apply(this, args);
    } catch (error) {
      if (error.name === 'InvalidStateError') pepperDeadUses += 1;
      throw error;
    }
  };
  navigator.storage.persist = () => { pepperPersistAsked += 1; return Promise.resolve(true); };
})();"""
# Safari closing the page's connection while it is in the background.
DROPPED = "pepperConnections.forEach((db) => db.close())"
NO_SCORING = "cannot score offline"  # the banner once the page has started


def open_phone(
    browser: Browser,
    phones: list[BrowserContext],
    server: Server,
    game: Game,
    script: str = "",
    **options: Any,
) -> Page:
    """A phone whose engine never starts (as on some iPhones), its game
    opened by the table's link and kept by the service worker; ``script``
    runs first in its pages too."""
    context = new_phone(browser, phones, **options)
    context.add_init_script(NO_WORKERS)
    context.add_init_script(PHONE_WATCH)
    if script:
        context.add_init_script(script)
    page = context.new_page()
    page.goto(f"{server.url}/join/{game.edit_token}")
    expect(page.locator("#offline-status")).to_contain_text(NO_SCORING)
    page.wait_for_function("() => caches.match(location.pathname).then(Boolean)")
    return page


def offline_phone(
    browser: Browser, phones: list[BrowserContext], server: Server
) -> tuple[Game, Page]:
    """A new moon-42 game on such a phone, and then no signal: the browser
    offline and the live server stopped."""
    game = new_game("moon-42", now=timezone.now())
    page = open_phone(browser, phones, server, game)
    no_signal(page.context, server)
    return game, page


def waiting_in_indexeddb(page: Page, game: Game) -> int:
    """The hands waiting in this phone's IndexedDB record of the game, read
    on a connection of the test's own."""
    count: int = page.evaluate(
        """id => new Promise((resolve, reject) => {
          const asked = indexedDB.open('pepper-offline', 1);
          asked.onerror = () => reject(asked.error);
          asked.onsuccess = () => {
            const db = asked.result;
            const read = db.transaction('games').objectStore('games').get(id);
            read.onerror = () => reject(read.error);
            read.onsuccess = () => {
              db.close();
              resolve(read.result ? read.result.raw.length + read.result.items.length : 0);
            };
          };
        })""",
        str(game.pk),
    )
    return count


def save_hand(page: Page, number: int) -> None:
    """Moon-42's pepper round: hand ``number``, the first bidder held to 4."""
    hand_one(page)
    page.locator("#record").get_by_role("button", name="Save hand").click()
    expect(page.locator("#record-title")).to_have_text(f"Record hand {number + 1}")


def test_a_connection_dropped_in_the_background_loses_no_hand(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game, page = offline_phone(browser, phones, server)
    status = page.locator("#offline-status")
    # Dropped, and the page never shown again: the save meets the closed
    # connection once, and is written on a new one.
    page.evaluate(DROPPED)
    save_hand(page, 1)
    expect(status).to_contain_text("1 hand waits")
    assert waiting_in_indexeddb(page, game) == 1
    assert page.evaluate("pepperDeadUses") == 1
    # Dropped, then the page shown again (visibilitychange): the store
    # opens a new connection then, and no request meets the closed one.
    page.evaluate(DROPPED)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    save_hand(page, 2)
    expect(status).to_contain_text("2 hands wait")
    assert waiting_in_indexeddb(page, game) == 2
    assert page.evaluate("pepperDeadUses") == 1


def test_a_page_back_from_the_back_forward_cache_saves_on_a_new_connection(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """Safari restores a page from its back/forward cache with no
    visibilitychange, its store connection dropped: pageshow (persisted)
    has the store open a new one before the next request."""
    game, page = offline_phone(browser, phones, server)
    page.evaluate(DROPPED)
    opened = page.evaluate("pepperConnections.length")
    page.evaluate(
        "window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))"
    )
    save_hand(page, 1)
    expect(page.locator("#offline-status")).to_contain_text("1 hand waits")
    assert page.evaluate("pepperConnections.length") > opened  # a new connection
    assert waiting_in_indexeddb(page, game) == 1
    assert page.evaluate("pepperDeadUses") == 0  # none met the dropped one


def test_a_hand_indexeddb_lost_is_kept_by_the_outbox_copy_and_sent(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game, page = offline_phone(browser, phones, server)
    context = page.context
    page.evaluate("pepperStoreGone = true")  # IndexedDB takes no write, twice
    save_hand(page, 1)
    expect(page.locator("#offline-status")).to_contain_text("1 hand waits")
    page.evaluate("pepperStoreGone = false")
    assert waiting_in_indexeddb(page, game) == 0  # lost there...
    page.close()
    page = context.new_page()  # ...and the phone reopened, still offline
    page.goto(f"{server.url}/games/{game.pk}/")
    expect(page.locator("#offline-status")).to_contain_text("1 hand waits")
    expect(page.locator("#record-title")).to_have_text("Record hand 2")
    signal_back(context, server)
    stored_once(game, 1)


def test_send_now_sends_what_waits_from_the_page(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """The page's own timers held (the clock paused): only the tap sends."""
    game, page = offline_phone(browser, phones, server)
    context = page.context
    save_hand(page, 1)
    assert page.evaluate("pepperPersistAsked") == 1  # never evicted, if it agrees
    expect(page.get_by_role("button", name="1 unsent · Send now")).to_be_visible()
    Looker(page, "offline-send-now").look("one-unsent")
    page.close()
    context.clock.install()
    context.clock.pause_at(timezone.now() + timedelta(minutes=1))
    page = context.new_page()  # the phone reopened, its timers held
    page.goto(f"{server.url}/games/{game.pk}/")
    send = page.get_by_role("button", name="1 unsent · Send now")
    expect(send).to_be_visible()
    # The signal back: the page tries at once ("online"), while the server
    # is still down; the server is up a moment later.
    with page.expect_event(
        "requestfailed", lambda request: request.url.endswith("/hands")
    ):
        context.set_offline(False)
    server.start()
    page.wait_for_timeout(
        6000
    )  # past every retry and the 5 s resend, had the clock run
    assert GameEvent.objects.filter(game=game).count() == 0
    send.click()
    stored_once(game, 1)


IPHONE = "iPhone 13"


@pytest.mark.parametrize("device", [IPHONE, "Pixel 7"])
def test_the_home_screen_hint_is_shown_on_an_iphone_only_once(
    browser: Browser,
    server: Server,
    phones: list[BrowserContext],
    playwright: Playwright,
    device: str,
) -> None:
    game = new_game("moon-42", now=timezone.now())
    agent = playwright.devices[device]["user_agent"]
    page = open_phone(browser, phones, server, game, user_agent=agent)
    hint = page.locator("#offline-ios")
    if device != IPHONE:
        expect(hint).to_be_hidden()
        return
    expect(hint).to_be_visible()
    expect(hint).to_have_text(
        "On an iPhone or iPad: Share, then “Add to Home Screen”, keeps this game one tap "
        "away, with no connection too."
    )
    Looker(page, "offline-ios-hint").look("shown")
    page.reload()
    expect(page.locator("#offline-status")).to_contain_text(NO_SCORING)
    expect(hint).to_be_hidden()


# Safari on an iPad (iPadOS 13+) asks for desktop sites: it sends a Mac's
# user agent, the one Safari on a Mac sends.
MAC_SAFARI = (
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.4 Safari/605.1.15"
)


def touch_points(count: int) -> str:
    """The touch points the device says it has (an iPad says 5; Chromium
    with touch says 1)."""
    return (
        "Object.defineProperty(Navigator.prototype, 'maxTouchPoints', "
        f"{{get: () => {count}}})"
    )


@pytest.mark.parametrize(
    ("touch", "points"), [(True, 5), (False, 0)], ids=["ipad", "mac"]
)
def test_the_home_screen_hint_is_shown_on_an_ipad_that_says_it_is_a_mac(
    browser: Browser,
    server: Server,
    phones: list[BrowserContext],
    touch: bool,
    points: int,
) -> None:
    """Only touch tells the iPad from a Mac: a Mac is not told."""
    game = new_game("moon-42", now=timezone.now())
    page = open_phone(
        browser,
        phones,
        server,
        game,
        touch_points(points),
        user_agent=MAC_SAFARI,
        has_touch=touch,
    )
    hint = page.locator("#offline-ios")
    if touch:
        expect(hint).to_be_visible()
    else:
        expect(hint).to_be_hidden()
