"""The outbox never loses, repeats or resends a change because two of its
jobs overlapped or the server refused one: each defect a reviewer found,
on a 360 px phone, with the server stopped or answering as it would."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from scorekeeper import recording
from scorekeeper.models import Game, GameEvent
from tests.e2e.conftest import LIVE, classic_game, fill_hand
from tests.e2e.offline import ENGINE_LOADS, READY, Server, new_phone, open_ready
from tests.e2e.test_offline_start import NO_WORKERS, no_signal, signal_back, stored_once
from tests.records import record_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _open_without_engine(page: Page, server: Server, game: Game) -> None:
    """The game opened by its table link on a phone whose engine never
    starts, once the service worker controls the page."""
    page.add_init_script(NO_WORKERS)
    page.goto(f"{server.url}/join/{game.edit_token}")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


# A hand sent as entered reaches the server, but its answer reaches the
# page only once the engine has come up: the engine starts while the send
# is in flight.
ANSWER_AFTER_ENGINE = """(() => {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  const realFetch = window.fetch.bind(window);
  window.fetch = (url, options) => {
    const answer = realFetch(url, options);
    const hand = options && options.method === "POST" && /\\/hands$/.test(String(url));
    return hand ? answer.then((response) => gate.then(() => response)) : answer;
  };
  const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  let released = false;
  gate.then(() => { released = true; });
  // Once the answer is in, the phone's storage is slow to confirm a write.
  let store;
  Object.defineProperty(window, "PepperStore", {
    configurable: true,
    get: () => store,
    set: (value) => {
      const save = value.save;
      value.save = (state) => {
        const wrote = save(state);
        return released ? wrote.then((done) => later(1500).then(() => done)) : wrote;
      };
      store = value;
    },
  });
  let engine;
  Object.defineProperty(window, "PepperEngine", {
    configurable: true,
    get: () => engine,
    set: (value) => {
      const start = value.start;
      const json = value.json;
      // The engine is up a second before the send's answer comes...
      value.start = (...args) => start(...args).then((done) => { later(1000).then(release); return done; });
      // ...unless it is asked to referee a hand first: the answer comes
      // while the engine thinks about it.
      value.json = (...args) => {
        if (args[0] !== "hand_of") return json(...args);
        release();
        return later(500).then(() => json(...args));
      };
      engine = value;
    },
  });
})();"""


def test_no_hand_is_dropped_when_the_engine_comes_up_during_a_send(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game = classic_game()
    context = new_phone(browser, phones)
    page = context.new_page()
    _open_without_engine(page, server, game)  # two hands kept as entered
    no_signal(context, server)
    form = page.locator("#record")
    for count in (1, 2):
        fill_hand(form, bidder="Bob", bid="3", trump="spades", taken="4")
        form.get_by_role("button", name="Save hand").click()
        expect(page.locator("#record-title")).to_have_text(f"Record hand {count + 1}")
    expect(page.locator("#offline-status")).to_contain_text("2 hands wait")
    page.close()

    signal_back(context, server)
    again = context.new_page()
    errors: list[str] = []
    again.on("pageerror", lambda error: errors.append(str(error)))
    again.add_init_script(ANSWER_AFTER_ENGINE)
    again.goto(f"{server.url}/games/{game.pk}/")
    expect(again.locator("#offline-status")).to_contain_text(
        READY, timeout=ENGINE_LOADS
    )
    stored_once(game, 2)
    again.wait_for_timeout(3000)  # a second send would land by now
    assert GameEvent.objects.filter(game=game).count() == 2
    assert errors == []


# The server refuses every change this phone sends through the API.
REFUSED = "The server has its own reason to refuse this hand."
REFUSING_SERVER = """(() => {
  window.refusals = 0;
  const realFetch = window.fetch.bind(window);
  window.fetch = (url, options) => {
    const api = options && options.method === "POST" && /\\/api\\//.test(String(url));
    if (!api || !navigator.onLine) return realFetch(url, options);
    window.refusals += 1;
    const body = JSON.stringify({ error: REFUSED });
    const json = { "Content-Type": "application/json" };
    return Promise.resolve(new Response(body, { status: 422, headers: json }));
  };
})();""".replace("REFUSED", json.dumps(REFUSED))


def _saved_offline_for_a_refusing_server(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> tuple[Game, Page, Locator]:
    """A phone ready offline whose server will refuse its hand: Bob's 3
    spades saved with no signal. The game, the page and its form."""
    game = classic_game()
    context = new_phone(browser, phones)
    page = context.new_page()
    page.add_init_script(REFUSING_SERVER)
    open_ready(page, f"{server.url}/join/{game.edit_token}")
    context.set_offline(True)
    form = page.locator("#record")
    fill_hand(form, bidder="Bob", bid="3", trump="spades", taken="4")
    form.get_by_role("button", name="Save hand").click()
    return game, page, form


def test_a_change_the_server_refuses_is_held_for_the_table_not_resent(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game, page, form = _saved_offline_for_a_refusing_server(browser, server, phones)
    status = page.locator("#offline-status")
    expect(status).to_contain_text("1 hand waits to be sent on this phone")

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    held = page.locator("#offline-held")
    expect(held).to_be_visible()
    expect(held).to_contain_text(REFUSED)
    expect(status).to_contain_text("the table chooses above")
    page.wait_for_timeout(7000)  # the outbox tries every 5 s
    assert page.evaluate("window.refusals") == 1
    expect(status).not_to_contain_text("sending")

    held.get_by_role("button", name="Put it back in the form").click()
    expect(held).to_be_hidden()
    expect(form.get_by_role("radio", name="spades", exact=True)).to_be_checked()
    expect(status).not_to_contain_text("waits")
    assert GameEvent.objects.filter(game=game).count() == 0


def test_a_passed_out_that_meets_no_answer_stays_passed_out(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """No referee on the phone: "Passed out" is kept as entered, as a
    pass (not a Save of an empty form), and the server records a pass."""
    game = classic_game()
    context = new_phone(browser, phones)
    page = context.new_page()
    _open_without_engine(page, server, game)
    server.stop()  # the phone thinks itself online: the tap meets no answer
    page.locator("#record").get_by_role("button", name="Passed out").click()
    expect(page.locator("#offline-status")).to_contain_text("1 hand waits")
    expect(page.locator("#hands")).to_contain_text("passed out")

    server.start()
    stored_once(game, 1)
    assert GameEvent.objects.get(game=game).payload.get("passed_out") is True


def _faulty(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server fails every change it is sent (a 500), whichever way."""

    def fault(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a server fault")

    monkeypatch.setattr(recording, "_append_refereed", fault)


def test_a_plain_save_the_server_fails_on_is_kept_and_sent_once(
    browser: Browser,
    server: Server,
    phones: list[BrowserContext],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Save before the page's scripts took the form (a plain POST) that
    the server answers with a 500: the service worker keeps it in the
    outbox, the page says it waits, and it lands once the server mends."""
    game = classic_game()
    context = new_phone(browser, phones)
    page = context.new_page()
    _open_without_engine(page, server, game)  # its sends go as entered
    _faulty(monkeypatch)
    fill_hand(page.locator("#record"), bidder="Bob", bid="3", trump="spades", taken="4")
    page.evaluate("document.getElementById('record').submit()")
    page.wait_for_load_state()
    expect(page.locator("#offline-status")).to_contain_text("1 hand waits to be sent")
    assert GameEvent.objects.filter(game=game).count() == 0

    monkeypatch.undo()
    stored_once(game, 1)
    assert GameEvent.objects.get(game=game).payload["trump"] == "spades"


def test_a_save_that_meets_no_answer_in_15_s_is_kept_and_recorded_once(
    browser: Browser,
    server: Server,
    phones: list[BrowserContext],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server takes 20 s over the first save (it does record it in the
    end): after 15 s the phone keeps the hand in its outbox and sends it
    again with the same event id, so the game holds it once."""
    game = classic_game()
    context = new_phone(browser, phones)
    page = context.new_page()
    _open_without_engine(page, server, game)
    real = recording._append_refereed
    first = threading.Event()
    answered = threading.Event()

    def slow(*args: Any, **kwargs: Any) -> Any:
        if first.is_set():
            return real(*args, **kwargs)
        first.set()
        threading.Event().wait(20)
        try:
            return real(*args, **kwargs)
        finally:
            answered.set()

    monkeypatch.setattr(recording, "_append_refereed", slow)
    form = page.locator("#record")
    fill_hand(form, bidder="Bob", bid="3", trump="spades", taken="4")
    form.get_by_role("button", name="Save hand").click()
    status = page.locator("#offline-status")
    expect(status).to_contain_text("1 hand waits", timeout=19_000)
    assert first.is_set() and not answered.is_set()  # kept before any answer
    stored_once(game, 1)
    answered.wait(30)  # the first save's own answer, and the resend's
    expect(status).not_to_contain_text("waits")
    assert GameEvent.objects.filter(game=game).count() == 1
    expect(page.locator("#hands")).to_contain_text("Bob bid 3")


def test_a_held_hand_dropped_leaves_the_page_as_the_server_has_it(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """While the table decides about a refused hand, the page follows the
    server (another phone's hand 1 arrives); dropping the held hand then
    draws the game as the server has it now, not as this phone last knew
    it (its copy of the log kept up with the poll)."""
    game, page, _ = _saved_offline_for_a_refusing_server(browser, server, phones)
    page.context.set_offline(False)
    held = page.locator("#offline-held")
    expect(held).to_contain_text(REFUSED)
    record_hands(game, timezone.now(), (1, 4, "clubs", [4, 2]))  # the other phone
    hands = page.locator("#hands")
    expect(hands.locator("> li")).to_have_count(1, timeout=LIVE)
    expect(hands).to_contain_text("bid 4")
    held.get_by_role("button", name="Drop it").click()
    expect(held).to_be_hidden()
    expect(page.locator("#record h2")).to_have_text("Record hand 2")
    page.wait_for_timeout(3000)  # two polls: nothing moves it back
    expect(hands.locator("> li")).to_have_count(1)
    expect(hands).to_contain_text("bid 4")
    expect(hands).not_to_contain_text("bid 3")
    assert GameEvent.objects.filter(game=game).count() == 1


def test_a_waiting_hand_is_sent_with_the_cookie_as_it_is_now(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """The browser's CSRF cookie was renewed while the hand waited (the
    form's token is from the old one): the hand is sent, not taken for a
    game whose links were replaced."""
    game = classic_game()
    context = new_phone(browser, phones)
    page = context.new_page()
    _open_without_engine(page, server, game)
    context.set_offline(True)
    form = page.locator("#record")
    fill_hand(form, bidder="Bob", bid="3", trump="spades", taken="4")
    form.get_by_role("button", name="Save hand").click()
    expect(page.locator("#offline-status")).to_contain_text(
        "1 hand waits to be sent on this phone"
    )
    context.add_cookies([{"name": "csrftoken", "value": "N" * 32, "url": server.url}])

    # The browser's own "online" sends it (and the page then reloads with
    # the server's scores: an evaluate here could land in that reload).
    context.set_offline(False)
    stored_once(game, 1)
    expect(page.locator("#hands")).to_contain_text("Bob bid 3")
    expect(page.locator("#offline-replaced")).to_be_hidden()


def test_a_hand_put_back_takes_its_queued_void_along(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """A hand saved and then voided with no signal; the server refuses the
    hand and the table puts it back in the form: the void aimed at it goes
    too (sent alone, its position would name whatever hand sits there)."""
    game, page, form = _saved_offline_for_a_refusing_server(browser, server, phones)
    hands = page.locator("#hands > li")
    hands.first.locator("summary").click()
    hands.first.get_by_role("link", name="Void").click()
    void = page.get_by_role("form", name="Void hand 1")
    void.get_by_label("Why?").fill("wrong table")
    void.get_by_role("button", name="Void hand 1").click()
    status = page.locator("#offline-status")
    expect(status).to_contain_text("2 changes wait")

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    held = page.locator("#offline-held")
    expect(held).to_contain_text(REFUSED)
    held.get_by_role("button", name="Put it back in the form").click()
    expect(status).not_to_contain_text("wait")
    page.wait_for_timeout(7000)  # the outbox tries every 5 s
    assert page.evaluate("window.refusals") == 1
    assert GameEvent.objects.filter(game=game).count() == 0
