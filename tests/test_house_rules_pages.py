"""Issue "House rules": the pages follow the house's settings, and a game
can be ended as it stands."""

from __future__ import annotations

from datetime import datetime

from django.test import Client
from django.utils.html import escape

from scorekeeper.models import Game, GameEvent
from tests.conftest import join
from tests.records import new_game, record_hands


def test_the_form_offers_only_what_the_house_allows(client: Client, db: None) -> None:
    game = new_game("classic", minimum_bid=3, stick_the_dealer=True, no_trump=False)
    join(client, game)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'name="bid" value="2"' not in page and 'name="bid" value="3"' in page
    assert 'value="no-trump"' not in page and 'value="hearts"' in page
    assert "Passed out</button>" not in page and "The auction (optional)" in page
    assert 'placeholder="pass, 3, 4, pass, pass"' in page
    talks = new_game("classic", negotiation=True)
    join(client, talks)
    assert "Conceded (thrown in)" in client.get(f"/games/{talks.pk}/").content.decode()


def test_a_game_is_ended_after_a_confirmation_with_a_reason(
    client: Client, moon_game: Game, now: datetime
) -> None:
    record_hands(moon_game, now, (1, 4, "hearts", [2, 4]))
    url = f"/games/{moon_game.pk}/"
    assert f'href="{url}end"' in client.get(url).content.decode()
    asked = client.get(f"{url}end").content.decode()
    assert "End the game now?" in asked and "Bob &amp; Dan (4)" in asked
    assert GameEvent.objects.count() == 1  # asking changes nothing
    ended = client.post(
        f"{url}end",
        {"expected_seq": 1, "event_id": "end-1", "reason": "the clock", "by": "Ann"},
    )
    assert ended.status_code == 302
    page = client.get(url).content.decode()
    assert (
        "Bob &amp; Dan win with 4: the game was ended as it stood (the clock)" in page
    )
    assert "The game was ended by Ann at" in page and f'href="{url}end"' not in page
    stored = GameEvent.objects.get(event_id="end-1").payload
    assert {key: stored[key] for key in ("type", "reason", "by")} == {
        "type": "end",
        "reason": "the clock",
        "by": "Ann",
    }


def test_a_read_only_link_cannot_end_the_game(client: Client, moon_game: Game) -> None:
    viewer = Client()
    join(viewer, moon_game, moon_game.view_token)
    assert (
        viewer.post(
            f"/games/{moon_game.pk}/end", {"expected_seq": 0, "event_id": "x"}
        ).status_code
        == 403
    )
    assert (
        "End the game now" not in viewer.get(f"/games/{moon_game.pk}/").content.decode()
    )


def test_new_game_offers_every_house_setting_with_its_meaning(
    client: Client, db: None
) -> None:
    from scorekeeper.house_rules import SETTINGS

    page = client.get("/games/new").content.decode()
    for setting in SETTINGS:
        assert f'name="{setting.key}"' in page and escape(setting.meaning) in page
    assert "as the rules say (classic 30, moon-42 42, bid-euchre 50)" in page


def test_a_new_game_keeps_only_the_settings_that_differ_from_its_preset(
    client: Client, db: None
) -> None:
    chosen = {
        "preset": "classic",
        "seat_0": "Ann",
        "seat_1": "Bob",
        "seat_2": "Cat",
        "first_dealer": "0",
        "target_score": "30",  # the preset's own: no house rule
        "set_penalty": "8",  # classic's own with three players
        "stick_the_dealer": "yes",
        "minimum_bid": "2",
        "mercy": "-20",
        "hand_limit": "12",
        "no_trump": "yes",
        "top_bid_points": "",
    }
    assert client.post("/games/new", chosen).status_code == 302
    game = Game.objects.get()
    assert game.overrides == {
        "stick_the_dealer": True,
        "minimum_bid": 2,
        "mercy": -20,
        "hand_limit": 12,
    }


def test_a_bad_house_setting_is_refused_in_words(client: Client, db: None) -> None:
    bad = {"preset": "classic", "seat_0": "Ann", "seat_1": "Bob", "first_dealer": "0"}
    response = client.post("/games/new", {**bad, "mercy": "5"})
    assert response.status_code == 422
    assert "Mercy must be a negative whole number" in response.content.decode()
    assert Game.objects.count() == 0


def test_a_games_rules_page_marks_house_rules_beside_the_rules_own_reading(
    client: Client, db: None
) -> None:
    game = new_game("classic", target_score=50, stick_the_dealer=True)
    join(client, game)
    page = client.get(f"/games/{game.pk}/rules").content.decode()
    target = page[page.index("<dt>Target") :][:400]
    assert "house rule" in target and "seed 000" not in target.split("The rules say")[0]
    assert "The rules say: 30 (seed 000 &#x27;Game&#x27;)" in target
    assert "Stick the dealer" in page and "The rules say: no" in page


def test_the_rules_page_states_the_cards_and_the_play_with_their_seeds(
    client: Client, db: None
) -> None:
    page = client.get("/rules/").content.decode()
    for topic in (
        "Card ranks",
        "The bowers",
        "Following suit",
        "Identical cards",
        "A hand nobody bids",
        "Pepper is played alone",
        "Two players",
    ):
        assert f"<dt>{topic}</dt>" in page
    assert "seed 002 &#x27;Trick Play&#x27;" in page
    euchre = client.get("/rules/bid-euchre/").content.decode()
    assert "seated alternately" in euchre and "partners opposite" not in euchre
