"""Issue "The table, on a real phone": a test for each minor item."""

from __future__ import annotations

import json
import subprocess
from datetime import datetime
from pathlib import Path

from django.test import Client

from scorekeeper.games import services
from scorekeeper.models import Game, GameEvent
from scorekeeper.web import access
from tests.conftest import join
from tests.records import HTMX, MOON_HAND_1, NOW, new_game, record_hands

ROOT = Path(__file__).resolve().parents[2]


def test_5_a_save_is_confirmed_in_place_with_an_undo_that_voids_it(
    client: Client, moon_game: Game
) -> None:
    text = client.post(
        f"/games/{moon_game.pk}/hands", MOON_HAND_1, headers=HTMX
    ).content.decode()
    assert "Hand 1 saved: Ann &amp; Cat 1, Bob &amp; Dan 4." in text
    assert 'class="actions savebar"' in text
    # The Undo button names the hand (the page's undo form gets new fields).
    assert (
        f'form="undo" formaction="/games/{moon_game.pk}/hands/1/void">Undo</button>'
        in text
    )
    assert '<div id="undo-fields" hx-swap-oob="true">' in text
    undo = {"expected_seq": 1, "event_id": "u1", "reason": "undone right after saving"}
    assert client.post(f"/games/{moon_game.pk}/hands/1/void", undo).status_code == 302
    assert GameEvent.objects.filter(type="void").count() == 1


def test_5_without_javascript_the_page_after_a_save_confirms_it(
    client: Client, moon_game: Game
) -> None:
    response = client.post(f"/games/{moon_game.pk}/hands", MOON_HAND_1)
    assert response["Location"].endswith("?saved=1")
    assert "Hand 1 saved" in client.get(response["Location"]).content.decode()
    assert "Hand 1 saved" not in client.get(f"/games/{moon_game.pk}/").content.decode()


def test_6_three_players_tap_their_tricks_and_the_last_is_filled(
    client: Client, db: None
) -> None:
    game = new_game("classic", players=3)
    join(client, game)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert (
        'type="radio" name="tricks_2" value="8"' in page and 'type="number"' not in page
    )
    data = {**MOON_HAND_1, "bid": "3", "tricks_0": "2", "tricks_1": "5"}
    del data["taken"]
    assert client.post(f"/games/{game.pk}/hands", data).status_code == 302
    assert GameEvent.objects.get().payload["tricks"] == [2, 5, 1]


def test_7_entered_by_stays_after_a_save(client: Client, moon_game: Game) -> None:
    text = client.post(
        f"/games/{moon_game.pk}/hands", {**MOON_HAND_1, "by": "Cat"}, headers=HTMX
    ).content.decode()
    # The answer leaves the form's field as typed (it swaps no "by" field);
    # the undo carries the name, and the next page fills it in.
    assert 'name="by"' in text and 'name="by" maxlength' not in text
    assert '<input type="hidden" name="by" value="Cat">' in text
    page = client.get(f"/games/{moon_game.pk}/").content.decode()
    assert 'name="by" maxlength="60" autocomplete="nickname" value="Cat"' in page


def test_10_who_deals_first_lists_the_names_typed_and_both_reach_is_offered(
    client: Client, db: None
) -> None:
    empty = client.get("/games/new").content.decode()
    assert 'name="both_reach"' in empty and "Player 1" in empty
    typed = {
        "preset": "classic",
        "seat_0": "Ann",
        "seat_1": "Bob",
        "seat_2": "Cat",
        "first_dealer": "9",
        "both_reach": "bidder",
    }
    refused = client.post("/games/new", typed).content.decode()  # a bad dealer
    assert ">Bob</option>" in refused and ">Player 2<" not in refused
    assert '<option value="4" hidden>' in refused  # nobody typed for player 5
    created = client.post("/games/new", {**typed, "first_dealer": "1", "name": "Fri"})
    game = Game.objects.get()
    assert created.status_code == 302
    assert (game.overrides, game.first_dealer, game.name) == (
        {"both_reach": "bidder"},
        1,
        "Fri",
    )


def test_11_the_home_list_tells_games_apart(
    client: Client, db: None, now: datetime
) -> None:
    game = services.game_create(
        preset="moon-42",
        seats=["Ann", "Bob", "Cat", "Dan"],
        first_dealer=0,
        name="Thursday at Ann's",
        now=now,
    )
    join(client, game)
    record_hands(game, now, (1, 4, "hearts", [2, 4]))
    text = client.get("/").content.decode()
    assert "Thursday at Ann&#x27;s" in text and "Ann, Bob, Cat, Dan" in text
    assert "Sun 22 Nov 2026, 20:00 UTC" in text
    assert "Ann &amp; Cat 2 – Bob &amp; Dan 4 · in progress" in text
    assert "remembers the 80 games it opened most recently" in text


def test_11_a_browser_remembers_80_games_in_a_cookie_under_4_kb(
    client: Client, db: None
) -> None:
    games = [new_game() for _ in range(access.KEPT + 1)]
    for game in games:
        join(client, game)
    assert len(client.cookies["sessionid"].value) < 4000
    held = client.session[access.RIGHTS]
    assert len(held) == access.KEPT and games[0].pk.hex not in held
    assert client.get(f"/games/{games[1].pk}/").status_code == 200
    assert games[-1].edit_token not in client.cookies["sessionid"].value


def test_12_make_run_serves_as_production_does() -> None:
    plan = subprocess.run(
        ["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "gunicorn" in plan and "collectstatic" in plan and "DEBUG=1" not in plan
    dev = subprocess.run(
        ["make", "-n", "dev"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "DEBUG=1" in dev and "runserver" in dev


def test_13_one_minus_sign_and_the_rule_books_words(
    client: Client, db: None, now: datetime
) -> None:
    game = new_game("classic")
    join(client, game)
    record_hands(game, now, (1, 4, "hearts", [3, 3]))  # set: -6
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "−6" in page and " -6" not in page
    moon = client.get("/rules/moon-42/").content.decode()
    assert "up to 0" not in moon and "none (throw in only)" in moon
    moon_game = new_game("moon-42")
    join(client, moon_game)
    assert (
        "Conceded (thrown in)" in client.get(f"/games/{moon_game.pk}/").content.decode()
    )


def test_13_after_a_hand_that_is_not_there_says_so(
    client: Client, moon_game: Game, now: datetime
) -> None:
    url = f"/games/{moon_game.pk}/"
    assert (
        "No hand has been played yet" in client.get(url, {"after": 1}).content.decode()
    )
    record_hands(moon_game, now, (1, 4, "hearts", [2, 4]), (2, 4, "spades", [4, 2]))
    for asked, note, shown in (
        ("0", "There is no hand 0", 1),
        ("99", "There is no hand 99: the game has 2 hands", 2),
        ("x", "“x” is not a hand number", 2),
    ):
        text = client.get(url, {"after": asked}).content.decode()
        assert note in text and f"The game after hand {shown}" in text


def test_13_the_tv_view_has_no_site_menu_and_a_big_chart(
    client: Client, moon_game: Game, now: datetime
) -> None:
    record_hands(moon_game, now, (1, 4, "hearts", [2, 4]))
    text = client.get(f"/games/{moon_game.pk}/tv").content.decode()
    assert 'class="top"' not in text and 'class="tv-page"' in text
    assert '<title id="chart-title">The score after every hand</title>' in text


def test_13_importing_the_same_log_twice_says_so_and_links_the_first(
    client: Client, moon_game: Game, now: datetime
) -> None:
    record_hands(moon_game, now, (1, 4, "hearts", [2, 4]))
    log = client.get(f"/games/{moon_game.pk}/log.json").content.decode()
    first = client.post("/games/import", {"text": log})
    assert first.status_code == 302
    again = client.post(
        "/games/import", {"text": json.dumps(json.loads(log), indent=4)}
    )
    text = again.content.decode()
    imported = Game.objects.exclude(pk=moon_game.pk).get()
    assert "You imported this same log before" in text and str(imported.pk) in text
    assert Game.objects.count() == 2  # nothing imported twice yet
    assert client.post("/games/import", {"text": log, "again": "1"}).status_code == 302
    assert Game.objects.count() == 3


def test_13_the_log_downloads_as_a_file(client: Client, moon_game: Game) -> None:
    response = client.get(f"/games/{moon_game.pk}/log.json", {"download": 1})
    assert (
        response["Content-Disposition"]
        == 'attachment; filename="pepper-2026-11-22.json"'
    )
    page = client.get(f"/games/{moon_game.pk}/").content.decode()
    assert "log.json?download=1" in page and "Copy the log" in page


def test_14_the_game_page_draws_the_score_chart_and_keeps_it_live(
    client: Client, moon_game: Game, now: datetime
) -> None:
    assert "<svg" not in client.get(f"/games/{moon_game.pk}/").content.decode()
    record_hands(moon_game, now, (1, 4, "hearts", [2, 4]))
    page = client.get(f"/games/{moon_game.pk}/").content.decode()
    assert '<svg viewBox="0 0 320 180" role="img"' in page
    assert page.count("<polyline") == 2 and "Ann &amp; Cat: 2; Bob &amp; Dan: 4" in page
    polled = client.get(f"/games/{moon_game.pk}/poll", {"seq": 0}, headers=HTMX)
    assert '<div id="chart" hx-swap-oob="true">' in polled.content.decode()


def test_14_a_save_loads_the_chart_after_itself_so_drawing_it_never_slows_a_save(
    client: Client, moon_game: Game
) -> None:
    saved = client.post(
        f"/games/{moon_game.pk}/hands", MOON_HAND_1, headers=HTMX
    ).content.decode()
    # The chart drawn before the save stays until the new one is loaded.
    assert (
        f'<div id="chart-next" hx-swap-oob="true" hx-get="/games/{moon_game.pk}/chart"'
        ' hx-trigger="load" hx-target="#chart" hx-swap="outerHTML">' in saved
    )
    assert "<polyline" not in saved and 'id="chart"' not in saved
    page = client.get(f"/games/{moon_game.pk}/").content.decode()
    assert '<div id="chart-next"></div>' in page  # where the save's loader goes
    chart = client.get(f"/games/{moon_game.pk}/chart", headers=HTMX).content.decode()
    assert chart.count("<polyline") == 2 and 'id="chart"' in chart
    assert Client().get(f"/games/{moon_game.pk}/chart").status_code == 404  # no link


def test_a_passed_out_deal_is_confirmed_as_passed_out(client: Client, db: None) -> None:
    game = new_game("classic", now=NOW)
    join(client, game)
    answer = client.post(
        f"/games/{game.pk}/hands",
        {"expected_seq": "0", "event_id": "p1", "action": "pass"},
        headers=HTMX,
    ).content.decode()
    assert "Hand 1 saved as passed out:" in answer
