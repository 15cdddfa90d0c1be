"""Issue 32: a new game started on a phone with no connection. The phone
reads the new-game form as the server reads it (``phone.new_game``): the
same game's log, the same refusals in the same words, and the record
form the server's page would offer."""

from __future__ import annotations

import json
import re
import uuid
from html import unescape

import pytest
from django.test import Client

from scorekeeper import phone
from scorekeeper.gamelog import log_document
from scorekeeper.models import Game, new_token
from scorekeeper.projections.boards import game_log, scoreboard
from scorekeeper.record_form import form_options

FORMS = [
    {"preset": "moon-42", "seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cat",
     "seat_3": "Dan", "first_dealer": "1", "target_score": "30"},
    {"preset": "classic", "seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cat",
     "first_dealer": "2", "no_trump": "no", "name": "Kitchen"},
    {"preset": "classic", "seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cat",
     "seat_3": "Dan", "first_dealer": "3", "negotiation": "yes"},
    {"preset": "bid-euchre", **{f"seat_{n}": name for n, name in
     enumerate(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"])}, "first_dealer": "0",
     "target_score": "50", "mercy": ""},
]  # fmt: skip
REFUSED = [
    {"preset": "moon-42", "seat_0": "Ann", "seat_1": "Bob", "first_dealer": "0"},
    {"preset": "classic", "seat_0": "Ann", "seat_1": "ann", "first_dealer": "0"},
    {"preset": "classic", "seat_0": "Ann", "seat_1": "Bob", "first_dealer": "5"},
    {"preset": "classic", "seat_0": "Ann", "seat_1": "Bob", "first_dealer": "0",
     "target_score": "-4"},
    {"preset": "classic", "seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cat",
     "first_dealer": "0", "negotiation": "yes"},
]  # fmt: skip


def chosen(fields: dict[str, str]) -> dict[str, str]:
    return {**fields, "game_id": str(uuid.uuid4()), "edit_token": new_token()}


@pytest.mark.parametrize("fields", FORMS)
def test_a_game_started_on_the_phone_has_the_log_the_server_stores(
    client: Client, db: None, fields: dict[str, str]
) -> None:
    sent = chosen(fields)
    response = client.post("/games/new", sent)
    assert response.status_code == 302
    stored = log_document(game_log(Game.objects.get(pk=sent["game_id"])))
    assert json.loads(phone.new_game(json.dumps(sent))) == {"log": stored}


@pytest.mark.parametrize("fields", REFUSED)
def test_a_form_the_server_refuses_is_refused_on_the_phone_in_its_words(
    client: Client, db: None, fields: dict[str, str]
) -> None:
    response = client.post("/games/new", chosen(fields))
    assert response.status_code == 422
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', response.text)
    assert found is not None
    answer = json.loads(phone.new_game(json.dumps(fields)))
    assert answer == {"refusal": unescape(found.group(1))}


@pytest.mark.parametrize("fields", FORMS)
def test_the_phone_offers_the_record_form_the_server_offers(
    client: Client, db: None, fields: dict[str, str]
) -> None:
    sent = chosen(fields)
    client.post("/games/new", sent)
    game = Game.objects.get(pk=sent["game_id"])
    board = scoreboard(game.pk, game_log(game))
    assert board.next is not None
    server = form_options({}, board, board.next)
    log = json.loads(phone.new_game(json.dumps(sent)))["log"]
    offered = json.loads(phone.view(json.dumps(log), "[]"))["form"]
    assert [[t.value, t.label, t.name] for t in server.trumps] == offered["trumps"]
    assert bool(server.outcomes) == offered["negotiation"]
    assert len(server.taken) == offered["tricks"] + 1
    assert len(server.free) == offered["most_free"] + 1
    players = [[name, label] for name, label, _ in server.players]
    assert offered["per_player"] == (players if server.per_player else [])
    assert offered["has_auction"] == server.has_auction
