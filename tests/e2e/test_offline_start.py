"""Issue 32: offline never loses a hand, whatever the phone is doing when
Save is tapped. On a 360 px phone with the browser offline AND the live
server stopped: a Save at every stage of the page's start-up (before its
scripts took over the form, the engine loading, the engine failed, the
engine up) is kept on the phone, said so, and on the server once after
the signal returns; a phone reopened with hands waiting shows them, the
right hand number and totals from its first paint, before its engine is
up (never its old copy of the page); the installed app's start
page lists a game this phone reached only by its table link, and the
rules pages open, with no connection."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, BrowserType, Page, expect

from scorekeeper.models import Game, GameEvent
from scorekeeper.web import installable
from tests.e2e.conftest import LIVE, PHONE, Looker, fill_hand
from tests.e2e.offline import READY, Server, new_phone, open_ready, until
from tests.records import new_game, record_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The engine kept "loading" for a while: its worker's first message (start)
# waits 20 s, as on a slow phone.
STALLED = """(() => {
  const Real = window.Worker;
  window.Worker = function (url, options) {
    const worker = new Real(url, options);
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message, transfer) => setTimeout(() => post(message, transfer), 20000);
    return worker;
  };
})();"""
# An engine that never starts (no workers: an old phone).
NO_WORKERS = "window.Worker = undefined;"
# What the page shows of the game's numbers (hand numbers, totals), looked
# at from its first paint: on every change to the document (delivered
# before the browser paints it), at DOMContentLoaded and before each frame.
# Nothing is painted while the page's style sheet is still loading (it
# blocks rendering), so nothing is counted then either.
WATCH = """(() => {
  const seen = window.pepperSeen = [];
  const texts = selector => [...document.querySelectorAll(selector)]
    .filter(node => node.checkVisibility({visibilityProperty: true}))
    .map(node => node.textContent.replace(/\\s+/g, ' ').trim());
  window.pepperLook = () => ({
    title: texts('#record-title'), turn: texts('#board .turn'),
    totals: texts('#board .side-total'), bar: texts('#record .bar-totals'),
    hands: texts('#hands .hand-no'),
  });
  const look = () => {
    const sheets = [...document.querySelectorAll('link[rel=stylesheet]')];
    if (!document.body || sheets.some(link => !link.sheet)) return;
    const now = pepperLook();
    if (JSON.stringify(now) !== JSON.stringify(seen[seen.length - 1])) seen.push(now);
  };
  new MutationObserver(look).observe(document, {
    childList: true, subtree: true, attributes: true, characterData: true});
  document.addEventListener('DOMContentLoaded', look);
  const frame = () => { look(); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})();"""


def no_signal(context: BrowserContext, server: Server) -> None:
    context.set_offline(True)
    server.stop()


def signal_back(context: BrowserContext, server: Server) -> None:
    server.start()
    context.set_offline(False)


def stored_once(game: Game, count: int) -> None:
    """Wait until the server holds ``count`` events; never more."""
    until(
        lambda: GameEvent.objects.filter(game=game).count() >= count,
        f"the server never held {count} events (the waiting hands)",
    )
    assert GameEvent.objects.filter(game=game).count() == count


def shows_only(look: dict[str, list[str]], truth: dict[str, list[str]]) -> bool:
    """Each part of the game the page showed (WATCH) is the truth, or
    was not shown at all."""
    return all(look[part] in ([], truth[part]) for part in truth)


def hand_one(page: Page) -> None:
    """Moon-42's hand 1 (the pepper round: Bob forced to 4), not saved."""
    fill_hand(page.locator("#record"), trump="hearts", taken="5")


@pytest.mark.parametrize(
    "stage", ["before-scripts", "engine-loading", "engine-failed", "engine-up"]
)
def test_a_save_at_every_stage_of_start_up_reaches_the_server_once(
    browser: Browser, server: Server, phones: list[BrowserContext], stage: str
) -> None:
    game = new_game("moon-42", now=timezone.now())
    context = new_phone(browser, phones)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_ready(page, f"{server.url}/join/{game.edit_token}")
    if stage == "engine-loading":
        context.add_init_script(STALLED)
    elif stage == "engine-failed":
        context.add_init_script(NO_WORKERS)
    no_signal(context, server)
    page.reload()  # from the phone's copy
    status = page.locator("#offline-status")
    hand_one(page)
    if stage == "before-scripts":
        # As a tap before the page's scripts took the form: a plain POST,
        # which the service worker keeps.
        page.evaluate("document.getElementById('record').submit()")
        page.wait_for_load_state()
    else:
        if stage == "engine-up":
            expect(status).to_contain_text(READY, timeout=90_000)
        else:
            expect(status).not_to_contain_text(READY)
        page.locator("#record").get_by_role("button", name="Save hand").click()
    expect(status).to_contain_text("1 hand waits to be sent on this phone")
    expect(page.locator("#record-title")).to_have_text("Record hand 2")
    Looker(page, f"offline-start-{stage}").look("waiting")
    assert GameEvent.objects.filter(game=game).count() == 0

    signal_back(context, server)
    stored_once(game, 1)
    event = GameEvent.objects.get(game=game)
    assert (event.payload["bidder"], event.payload["trump"]) == (1, "hearts")
    page.wait_for_timeout(3000)  # a second send would land by now
    assert GameEvent.objects.filter(game=game).count() == 1
    assert errors == []


def test_a_reopened_phone_never_shows_a_lower_hand_or_other_totals(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    server: Server,
    tmp_path: Any,
) -> None:
    """Hand 1 on the server, two hands queued on the phone, the browser
    closed, reopened offline with its engine slow to start: from the first
    paint the page shows hand 4 and the totals after hand 3, or nothing of
    the game yet; never the phone's old copy of the page (hand 2, the totals
    after hand 1): a table would enter a hand again."""
    game = new_game("moon-42", now=timezone.now())
    record_hands(game, timezone.now(), (1, 4, "hearts", [1, 5]))
    args = {**browser_type_launch_args, "viewport": PHONE, "service_workers": "allow"}
    first = browser_type.launch_persistent_context(tmp_path, **args)
    first.add_init_script(WATCH)
    page = first.pages[0] if first.pages else first.new_page()
    open_ready(page, f"{server.url}/join/{game.edit_token}")
    no_signal(first, server)
    form = page.locator("#record")
    for number, (trump, taken) in enumerate((("clubs", "2"), ("diamonds", "5")), 3):
        fill_hand(form, trump=trump, taken=taken)
        form.get_by_role("button", name="Save hand").click()
        expect(page.locator("#record-title")).to_have_text(f"Record hand {number}")
    expect(page.locator("#offline-status")).to_contain_text("2 hands wait")
    truth = page.evaluate("pepperLook()")
    first.close()

    second = browser_type.launch_persistent_context(tmp_path, **args)
    try:
        second.add_init_script(STALLED)
        second.add_init_script(WATCH)
        second.set_offline(True)
        page = second.pages[0] if second.pages else second.new_page()
        page.goto(f"{server.url}/games/{game.pk}/")
        expect(page.locator("#offline-status")).to_contain_text("2 hands wait")
        expect(page.locator("#record-title")).to_have_text("Record hand 4")
        expect(page.locator("#offline-status")).not_to_contain_text(READY)
        seen: list[dict[str, Any]] = page.evaluate("pepperSeen")
        assert truth["title"] == ["Record hand 4"]
        assert any(look == truth for look in seen), seen
        assert [look for look in seen if not shows_only(look, truth)] == []
        Looker(page, "offline-reopened").look("before-the-engine")
    finally:
        second.close()


def test_the_start_page_lists_a_game_reached_by_its_table_link_and_the_rules_open(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """The phone opened the start page once (its copy lists no game), then
    came to a game by the table's link or QR code: offline, the start page
    lists that game from the phone's own store, and it opens."""
    game = new_game("moon-42", now=timezone.now())
    context = new_phone(browser, phones)
    page = context.new_page()
    page.goto(f"{server.url}/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    open_ready(page, f"{server.url}/join/{game.edit_token}")  # the table's QR code
    no_signal(context, server)
    page.goto(f"{server.url}/")  # the installed app's start page
    link = page.locator(f'#phone-games a[href="/games/{game.pk}/"]')
    expect(link).to_contain_text("Ann & Cat v Bob & Dan")
    expect(link).to_contain_text("Ann & Cat 0 · Bob & Dan 0")
    Looker(page, "offline-start-page").look("this-phones-games")
    link.click()
    expect(page.locator("#record-title")).to_have_text("Record hand 1")
    for path, heading in (
        ("/rules/", "The rules"),
        ("/rules/moon-42/", "moon-42"),
        ("/trick", "Who won the trick?"),
    ):
        page.goto(f"{server.url}{path}")
        expect(page.get_by_role("heading", level=1)).to_contain_text(heading)
    Looker(page, "offline-rules").look("trick-page")


def test_help_opened_once_online_opens_with_no_signal(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """The players' guide, read once at the table, is there again when
    the signal is gone (its pictures too), from the game page's Help."""
    game = new_game("moon-42", now=timezone.now())
    context = new_phone(browser, phones)
    page = context.new_page()
    open_ready(page, f"{server.url}/join/{game.edit_token}")
    page.get_by_role("link", name="Help").click()
    shot = page.get_by_role("img", name="The game page on a phone, at 360 px")
    expect(shot).to_have_js_property("naturalWidth", 360)
    no_signal(context, server)
    page.goto(f"{server.url}/games/{game.pk}/")
    page.get_by_role("link", name="Help").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Scoring a game: the players' guide"
    )
    expect(shot).to_have_js_property("naturalWidth", 360)
    # Kept by the service worker, not only in the browser's own cache.
    kept = page.evaluate(
        "() => Promise.all(['/help/', '/help/game-page.png'].map(u => caches.match(u)))"
        ".then(found => found.map(Boolean))"
    )
    assert kept == [True, True]
    Looker(page, "offline-help").look("players-guide")


def test_a_new_version_waits_for_update_now_and_never_reloads_a_hand(
    browser: Browser,
    server: Server,
    phones: list[BrowserContext],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = new_game("moon-42", now=timezone.now())
    page = new_phone(browser, phones).new_page()
    open_ready(page, f"{server.url}/join/{game.edit_token}")
    first = page.evaluate("navigator.serviceWorker.controller.scriptURL")
    hand_one(page)  # a hand being entered
    # A new version of the app (it keeps one more page).
    pages = installable._pages
    monkeypatch.setattr(installable, "_pages", lambda: [*pages(), "/verify"])
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    update = page.locator("#update")
    expect(update).to_contain_text("A new version of the app is ready")
    Looker(page, "offline-update").look("asked")
    # Nothing reloaded: the hand being entered is still there.
    expect(page.get_by_role("radio", name="hearts", exact=True)).to_be_checked()
    update.get_by_role("button", name="Later").click()
    expect(update).to_be_hidden()
    page.reload()
    expect(update).to_be_visible()  # asked again at the next page open
    page.evaluate("window.beforeTheUpdate = true")
    # The page is opened again once the new version took over: waited for
    # as a navigation first (a predicate polled across the reload could be
    # cut off by it), then the new version in charge.
    with page.expect_navigation():
        update.get_by_role("button", name="Update now").click()
    page.wait_for_function(
        """() => !window.beforeTheUpdate && navigator.serviceWorker.controller &&
            navigator.serviceWorker.getRegistration().then(r => !r.waiting && !!r.active)""",
        polling=250,
    )
    assert first.endswith("/sw.js")
    expect(page.locator("#update")).to_have_count(0)


def test_a_save_while_the_update_hands_over_is_kept_and_the_page_never_sticks(
    browser: Browser,
    server: Server,
    phones: list[BrowserContext],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After "Update now" the page sends nothing itself: a Save then goes
    into the outbox; and should the new version never take over, the page
    is opened again after 15 s, and the hand reaches the server once."""
    game = new_game("moon-42", now=timezone.now())
    page = new_phone(browser, phones).new_page()
    open_ready(page, f"{server.url}/join/{game.edit_token}")
    pages = installable._pages
    monkeypatch.setattr(installable, "_pages", lambda: [*pages(), "/verify"])
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    update = page.locator("#update")
    expect(update).to_contain_text("A new version of the app is ready")
    page.evaluate(
        "ServiceWorker.prototype.postMessage = function () {}"
    )  # never hands over
    page.evaluate("window.beforeTheUpdate = true")
    update.get_by_role("button", name="Update now").click()
    hand_one(page)
    page.locator("#record").get_by_role("button", name="Save hand").click()
    expect(page.locator("#offline-status")).to_contain_text("1 hand waits")
    assert GameEvent.objects.filter(game=game).count() == 0
    page.wait_for_function("() => !window.beforeTheUpdate", timeout=30_000)
    stored_once(game, 1)


def test_the_kill_switch_removes_the_worker_and_its_caches_and_keeps_waiting_hands(
    browser: Browser,
    server: Server,
    phones: list[BrowserContext],
    settings: Any,
) -> None:
    game = new_game("moon-42", now=timezone.now())
    context = new_phone(browser, phones)
    page = context.new_page()
    open_ready(page, f"{server.url}/join/{game.edit_token}")
    no_signal(context, server)
    hand_one(page)
    page.locator("#record").get_by_role("button", name="Save hand").click()
    expect(page.locator("#offline-status")).to_contain_text("1 hand waits")

    settings.OFFLINE_OFF = True  # the operator switches offline play off
    signal_back(context, server)
    page.reload()
    page.wait_for_function(
        """() => navigator.serviceWorker.getRegistrations().then(
            all => all.length === 0).then(none => none && caches.keys().then(
            names => names.length === 0))""",
        polling=500,
    )
    stored_once(game, 1)  # the waiting hand was not lost: the page sent it
    page.reload()
    expect(page.locator(".side-total")).to_have_text(["1", "4"])


def test_a_waiting_hand_the_server_refuses_stays_until_the_table_decides(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """A hand kept as entered (this phone runs no engine) meets a server
    that answers: another phone recorded hand 1 first. The refusal is shown
    in the server's words, in view, never as "offline"; the hand stays on
    the phone until the table puts it back in the form."""
    game = new_game("moon-42", now=timezone.now())
    context = new_phone(browser, phones)
    context.add_init_script(NO_WORKERS)
    page = context.new_page()
    page.goto(f"{server.url}/join/{game.edit_token}")
    no_signal(context, server)
    hand_one(page)
    page.locator("#record").get_by_role("button", name="Save hand").click()
    expect(page.locator("#offline-status")).to_contain_text("1 hand waits")
    record_hands(game, timezone.now(), (1, 4, "clubs", [4, 2]))  # the other phone
    signal_back(context, server)
    held = page.locator("#offline-held")
    expect(held).to_contain_text("Hand 1 was just recorded by the other phone")
    expect(held).to_be_in_viewport()
    expect(page.locator("#offline-status")).to_contain_text("1 hand waits")
    # While the table decides, the page follows the server: the other
    # phone's hand 1 is there to compare (the poll used to wait).
    expect(page.locator("#hands > li")).to_have_count(1, timeout=LIVE)
    expect(page.locator("#hands")).to_contain_text("bid 4")
    expect(held).to_be_visible()
    Looker(page, "offline-held").look("refused")
    held.get_by_role("button", name="Put it back in the form").click()
    expect(held).to_be_hidden()
    expect(page.get_by_role("radio", name="hearts", exact=True)).to_be_checked()
    # The page catches up with the other phone's hand: the entry put back
    # stays in the fresh form for hand 2 (the poll once took it away).
    expect(page.locator("#poller")).to_have_attribute("hx-get", re.compile("seq=1$"))
    expect(page.locator("#record h2")).to_have_text("Record hand 2")
    expect(page.get_by_role("radio", name="hearts", exact=True)).to_be_checked()
    assert GameEvent.objects.filter(game=game).count() == 1
    # Saved again with no signal: hand 3's form is empty, not the entry
    # carried into hand 2's (a reset once brought it back).
    no_signal(context, server)
    page.locator("#record").get_by_role("button", name="Save hand").click()
    expect(page.locator("#offline-status")).to_contain_text("1 hand waits")
    expect(page.locator("#record h2")).to_have_text("Record hand 3")
    expect(page.locator("#record input[name=trump]:checked")).to_have_count(0)


def test_hands_waiting_on_a_phone_whose_links_were_replaced_are_kept_and_said(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    game = new_game("moon-42", now=timezone.now())
    context = new_phone(browser, phones)
    page = context.new_page()
    open_ready(page, f"{server.url}/join/{game.edit_token}")
    no_signal(context, server)
    hand_one(page)
    page.locator("#record").get_by_role("button", name="Save hand").click()
    expect(page.locator("#offline-status")).to_contain_text("1 hand waits")
    Game.objects.filter(pk=game.pk).update(edit_token="R" * 32, view_token="V" * 32)
    signal_back(context, server)
    replaced = page.locator("#offline-replaced")
    expect(replaced).to_contain_text("This game's links were replaced")
    expect(replaced).to_contain_text("were not sent")
    copy = replaced.get_by_role("textbox", name="What waits on this phone")
    expect(copy).to_have_value(re.compile('"trump": "hearts"'))
    Looker(page, "offline-replaced").look("kept")
    assert GameEvent.objects.filter(game=game).count() == 0
