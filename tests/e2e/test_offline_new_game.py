"""Issue 32: a new game started with no signal. On a 360 px phone with the
browser offline AND the live server stopped, the new-game form opens from
the phone's copy, the game it starts is drawn by the phone's own engine
under the chosen rules, its hands wait in the outbox, the start page lists
it; when the signal returns the game arrives on the server with its hands,
once, and the phone shows its links."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.models import Game, GameEvent
from tests.e2e.conftest import DOCS, Looker, fill_hand
from tests.e2e.offline import ENGINE_LOADS, SYNCED, Server, new_phone, open_ready, until
from tests.e2e.test_offline_start import no_signal, signal_back
from tests.records import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("Ann", "Bob", "Cat", "Dan")
# moon-42's pepper round: Bob, then Cat, bid 4
HANDS = (("hearts", "5"), ("clubs", "2"))


def start_a_game(page: Page) -> None:
    """The new-game form as a table fills it: moon-42, four players, a
    house target of 30."""
    page.get_by_label("moon-42").check()
    page.get_by_label("Name of the game (optional)").fill("Kitchen table")
    for seat, name in enumerate(PLAYERS, 1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    page.locator("summary", has_text="House rules").click()
    page.get_by_label("Points to win").fill("30")
    page.get_by_role("button", name="Start the game").click()


def arrived(game_id: str, count: int) -> Game:
    """Wait until the server holds the game with ``count`` events."""
    until(
        lambda: GameEvent.objects.filter(game_id=game_id).count() >= count,
        f"the game never reached the server with {count} events",
    )
    return Game.objects.get(pk=game_id)


def test_a_game_started_offline_arrives_on_the_server_with_its_hands_once(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    context = new_phone(browser, phones)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # A phone that has scored at a table before (its engine kept), and has
    # opened the start page once (the app installed).
    earlier = new_game("classic")
    open_ready(page, f"{server.url}/join/{earlier.edit_token}")
    page.goto(f"{server.url}/")
    no_signal(context, server)
    looker = Looker(page, "offline-new-game")

    page.get_by_role("link", name="New game", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New game")
    expect(page.locator("#new-game-offline")).to_be_visible()
    expect(page.locator("#new-game-offline")).to_contain_text(
        "the game starts on this phone"
    )
    looker.look("form")
    # The kept copy's choice of id (its HTML) is not this game's: each page
    # chooses its own, so two games started offline are two.
    kept = page.evaluate(
        """caches.match('/games/new').then(r => r.text()).then(html =>
            new DOMParser().parseFromString(html, 'text/html')
                .querySelector('input[name=game_id]').value)"""
    )
    chosen = page.locator('input[name="game_id"]')
    expect(chosen).not_to_have_value(kept)
    game_id = chosen.input_value()
    start_a_game(page)
    page.wait_for_url(f"**/games/{game_id}/")
    form = page.locator("#record")
    expect(form).to_be_visible(timeout=ENGINE_LOADS)  # drawn by the engine
    expect(page.locator("#record-title")).to_have_text("Record hand 1")
    expect(page.locator("#board .turn")).to_contain_text("Ann deals")
    status = page.locator("#offline-status")
    expect(status).to_contain_text("This game was started on this phone")
    for count, (trump, taken) in enumerate(HANDS, 1):
        fill_hand(form, trump=trump, taken=taken)
        form.get_by_role("button", name="Save hand").click()
        expect(page.locator("#record-title")).to_have_text(f"Record hand {count + 1}")
    expect(status).to_contain_text("with its 2 hands when the connection is back")
    expect(page.locator("#hands > li")).to_have_count(2)
    looker.look("two-hands-waiting")
    DOCS.mkdir(parents=True, exist_ok=True)  # the players' guide shows it
    page.screenshot(path=str(DOCS / "offline-new-game.png"), full_page=True)
    assert not Game.objects.filter(pk=game_id).exists()

    page.goto(f"{server.url}/")  # the start page lists it, from the phone
    link = page.locator(f'#phone-games a[href="/games/{game_id}/"]')
    expect(link).to_contain_text("2 changes wait on this phone to be sent")
    link.click()
    expect(page.locator("#hands > li")).to_have_count(2, timeout=ENGINE_LOADS)

    signal_back(context, server)
    game = arrived(game_id, 2)
    expect(page.locator("#record-note")).to_contain_text(
        "started on this phone, is on the server", timeout=SYNCED
    )
    links = page.locator("details.share a")
    expect(links.first).to_be_visible()  # shown, not folded away
    expect(links.first).to_contain_text("/join/")
    looker.look("on-the-server")
    page.wait_for_timeout(3000)  # a second send would land by now
    assert GameEvent.objects.filter(game=game).count() == 2
    assert Game.objects.filter(pk=game_id).count() == 1
    assert (game.name, game.preset, list(game.seats)) == (
        "Kitchen table",
        "moon-42",
        list(PLAYERS),
    )
    assert game.overrides == {"target_score": 30}
    trumps = [event.payload["trump"] for event in game.events.order_by("seq")]
    assert trumps == [trump for trump, _ in HANDS]
    assert errors == []


def test_a_game_page_this_phone_never_opened_says_so_offline(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """Offline, the page of a game this phone neither opened nor started is
    not drawn as an empty game: it says the phone has never had it."""
    context = new_phone(browser, phones)
    page = context.new_page()
    page.goto(f"{server.url}/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    no_signal(context, server)
    page.goto(f"{server.url}/games/{uuid.uuid4()}/")
    expect(page.locator("#board")).to_contain_text(
        "this game was not opened on this phone yet"
    )
    expect(page.locator("#record")).to_be_hidden()
    expect(page.locator("#offline")).to_be_hidden()
    Looker(page, "offline-unknown-game").look("said")


def test_a_game_the_rules_would_not_start_is_refused_offline_in_the_servers_words(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """Moon-42 with two players, started with no signal: the phone's engine
    refuses it as the server would, says how to go back, and the start
    page does not list it as a game."""
    context = new_phone(browser, phones)
    page = context.new_page()
    open_ready(page, f"{server.url}/join/{new_game('classic').edit_token}")
    no_signal(context, server)
    page.goto(f"{server.url}/games/new")
    page.get_by_label("moon-42").check()
    for seat, name in enumerate(PLAYERS[:2], 1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    game_id = page.locator('input[name="game_id"]').input_value()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(f"**/games/{game_id}/")
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text(
        "This game cannot start: Moon-42 is played by 4 players, not 2.",
        timeout=ENGINE_LOADS,
    )
    expect(page.locator("#record")).to_be_hidden()
    Looker(page, "offline-new-game-refused").look("said")
    refusal.get_by_role("link", name="Back to the new-game form").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New game")
    page.goto(f"{server.url}/")
    expect(page.locator(f'#phone-games a[href="/games/{game_id}/"]')).to_have_count(0)


def test_a_game_started_where_the_engine_never_loaded_is_kept_and_lands(
    browser: Browser, server: Server, phones: list[BrowserContext]
) -> None:
    """A phone that never scored a game (its engine not on the phone)
    starts one with no signal: the game is kept, said so, and arrives on
    the server when the signal returns."""
    context = new_phone(browser, phones)
    page = context.new_page()
    page.goto(f"{server.url}/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    no_signal(context, server)
    page.goto(f"{server.url}/games/new")
    for seat, name in enumerate(PLAYERS, 1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    game_id = page.locator('input[name="game_id"]').input_value()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(f"**/games/{game_id}/")
    expect(page.locator("#board")).to_contain_text(
        "the game is kept, and opens when the connection is back",
        timeout=ENGINE_LOADS,
    )
    Looker(page, "offline-new-game-no-engine").look("kept")
    assert not Game.objects.filter(pk=game_id).exists()

    # The signal returns while the phone is elsewhere; the game, opened
    # from the start page, is this phone's until the server has it.
    page.goto(f"{server.url}/")
    signal_back(context, server)
    page.locator(f'#phone-games a[href="/games/{game_id}/"]').click()
    expect(page.locator("#record-note")).to_contain_text(
        "is on the server", timeout=SYNCED
    )
    expect(page.locator("#record")).to_be_visible()  # the server's form
    game = Game.objects.get(pk=game_id)
    assert list(game.seats) == list(PLAYERS)
