"""Issue "The table, on a real phone": what a second phone, a read-only
phone and the winner banner get from the server."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.test import Client

from scorekeeper.models import Game
from scorekeeper.record_form import auction_example
from scorekeeper.rules.referee import seat_calls, turn_of, verify_auction
from scorekeeper.tablewords import call_of
from tests.conftest import join
from tests.factories import variant
from tests.records import HTMX, new_game, record_hands
from tests.strategies import SEATINGS


def poll(client: Client, game: Game, seq: int, form: str | None) -> str:
    query: dict[str, str | int] = {"seq": seq}
    if form:
        query["form"] = form
    response = client.get(f"/games/{game.pk}/poll", query, headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def test_an_untouched_form_follows_the_game(
    client: Client, moon_game: Game, now: datetime
) -> None:
    record_hands(moon_game, now, (1, 4, "hearts", [2, 4]))
    text = poll(client, moon_game, 0, "untouched")
    assert '<form id="record"' in text and 'hx-swap-oob="true"' in text
    assert (
        "Record hand 2" in text
        and 'id="record-seq" name="expected_seq" value="1"' in text
    )
    assert "Cat" in text  # the pepper round's forced bidder for hand 2
    assert "Fresh form" not in text


def test_a_touched_form_is_replaced_by_the_next_hands_with_a_note(
    client: Client, moon_game: Game, now: datetime
) -> None:
    record_hands(moon_game, now, (1, 4, "hearts", [2, 4]))
    text = poll(client, moon_game, 0, "touched")
    # The next hand's form, valid for it (issue 19: Cat is hand 2's forced
    # bidder), fresh (issue 32: both phones were entering the same hand);
    # the page's script offers the entry back.
    form = text[text.index('<form id="record"') :]
    assert "data-touched" not in form[: form.index(">")]
    assert "Record hand 2" in form
    assert 'id="record-seq" name="expected_seq" value="1"' in form
    bidders = form[form.index("<legend>Bidder</legend>") :].split("</fieldset>")[0]
    assert "Cat" in bidders and "Bob" not in bidders
    # The note sits by the Save bar, not at the top of the page.
    savebar = form[form.index('class="actions savebar"') :]
    assert "This is a fresh form for hand 2" in savebar
    assert "That was a different hand: keep my entry" in savebar
    top = text[text.index('id="record-note"') :].split("</p>")[0]
    assert "hidden" in top and "fresh" not in top


def test_a_read_only_phone_gets_no_form_and_no_fresh_form_link(
    client: Client, moon_game: Game, now: datetime
) -> None:
    record_hands(moon_game, now, (1, 4, "hearts", [2, 4]))
    viewer = Client()
    join(viewer, moon_game, moon_game.view_token)
    text = poll(viewer, moon_game, 0, "untouched")
    assert 'id="record"' not in text and "keep my entry" not in text
    assert "Hand 1 was just recorded" in text


def test_a_game_won_on_another_phone_takes_the_form_away(
    client: Client, db: None, now: datetime
) -> None:
    game = new_game("classic", target_score=5)
    join(client, game)
    record_hands(game, now, (1, 5, "hearts", [1, 5]))
    for state in ("touched", "untouched"):
        assert '<div id="record" hx-swap-oob="true"></div>' in poll(
            client, game, 0, state
        )


def test_the_banner_names_the_winners_own_total_and_the_rule(
    client: Client, db: None, now: datetime
) -> None:
    game = new_game("bid-euchre", target_score=50)
    join(client, game)
    record_hands(game, now, *[(1, 1, "hearts", [4, 4])] * 12, (0, 2, "spades", [2, 6]))
    page = client.get(f"/games/{game.pk}/").content.decode()
    banner = page[page.index('class="winner"') :][:600]
    words = banner.split("<a ")[0]  # the sentence, not the link (a game id)
    assert "Ann &amp; Cat win with 50" in words and "54" not in words
    assert "the bidding side wins when both reach 50" in banner
    assert "seed 002" in banner and 'href="/games/' in banner  # the rule's link
    winner = page[page.index('class="side leading won"') :][:120]
    assert "Ann &amp; Cat" in winner  # the outline on the winner, not the top total


@pytest.mark.parametrize(("preset", "seats"), SEATINGS)
@pytest.mark.parametrize("lowest", ["preset", "top", "second"])
def test_the_auction_placeholder_is_a_legal_auction_of_the_preset(
    preset: str, seats: int, lowest: str
) -> None:
    rules = variant(preset, seats)
    if lowest != "preset":
        rung = rules.ladder[-1 if lowest == "top" else 1]
        rules = variant(preset, seats, minimum_bid=rung.call)
    turn = turn_of(rules, 0, 1, False)
    example = auction_example(rules)
    calls = [call_of("-".join(word.split())) for word in example.split(", ")]
    verify_auction(rules, turn, seat_calls(rules, turn, calls))  # raises if illegal


def test_voiding_an_earlier_pepper_round_hand_says_the_real_cause(
    client: Client, moon_game: Game, now: datetime
) -> None:
    record_hands(moon_game, now, (1, 4, "hearts", [2, 4]), (2, 4, "spades", [4, 2]))
    response = client.post(
        f"/games/{moon_game.pk}/hands/1/void",
        {"expected_seq": 2, "event_id": "v1", "reason": "wrong"},
    )
    text = response.content.decode()
    assert response.status_code == 422
    assert "Voiding hand 1 would move every later hand to another dealer" in text
    assert "hand 2 (Cat bid 4 ♠, took 4) would no longer be legal" in text
    assert "Void from the last hand back, or correct hand 1 instead" in text
    assert "record Cat bidding 4" not in text
