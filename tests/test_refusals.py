"""Issue 19: a refusal on a page is in a player's words. The engine's
"event N: ..." and its "(contract §6)" stay in the API, the log and the
commands; a page names the hand and puts the rule's source on a line of
its own. First the wording (no database), then a sample on each page."""

from __future__ import annotations

import json
import re
from datetime import datetime

import pytest
from django.test import Client

from scorekeeper.games import services
from scorekeeper.games.forms import VoidForm
from scorekeeper.models import Game
from scorekeeper.refusals import in_a_game, ordinal, players_words
from scorekeeper.rules.events import (
    Event,
    GameEnded,
    HandCorrected,
    HandRecorded,
    HandVoided,
)
from tests.conftest import join
from tests.records import MOON_HAND_1, new_game, record_hands

# What must not be in the sentence a player reads.
ENGINE_WORDS = re.compile(r"event \d|contract §|seed \d|\blog:")


def test_ordinals_read_as_spoken() -> None:
    numbers = [1, 2, 3, 4, 11, 12, 13, 21, 22, 102, 111]
    assert [ordinal(n) for n in numbers] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd",
        "102nd", "111th",
    ]  # fmt: skip


def test_the_rules_source_is_taken_off_the_sentence() -> None:
    said = players_words(
        "with clubs trump the defenders must play the hand (seed 001 §3.4)",
        "record it as played",
    )
    assert said.text == (
        "With clubs trump the defenders must play the hand. "
        "To make it legal: record it as played."
    )
    assert said.rule == "seed 001 §3.4"
    house = players_words("the dealer is stuck (house rule: stick the dealer)")
    assert (house.text, house.rule) == (
        "The dealer is stuck.",
        "house rule: stick the dealer",
    )
    assert players_words("a plain refusal").rule == ""


def test_a_page_writes_a_house_value_below_zero_with_a_true_minus() -> None:
    said = players_words(
        "a side at -10 or below ended it (house rule: mercy at -10)",
        "no hand after hand -2",  # as typed: a page shows it as a number
    )
    assert (said.text, said.rule) == (
        "A side at −10 or below ended it. To make it legal: no hand after hand −2.",
        "house rule: mercy at −10",
    )
    assert players_words("tricks 2-4 (seed 000 'Outcome')").text == "Tricks 2-4."


def test_an_event_of_a_stored_game_is_named_as_the_table_knows_it() -> None:
    hand = HandRecorded(1, 4, "hearts", (1, 5))
    events: list[Event] = [
        hand,
        hand,
        HandVoided(2),
        GameEnded(),
        HandCorrected(1, hand),
    ]
    name = in_a_game(events, {1: 1})
    assert [name(n) for n in range(1, 7)] == [
        "hand 1", "that hand", "a void", "", "a correction", "this change",
    ]  # fmt: skip
    ended = players_words(
        "the game was ended at event 4: only a void or a correction of an "
        "earlier hand can follow it (contract §6)",
        name=name,
    )
    assert ended.text.startswith("The game was ended: only a void")
    voided = players_words(
        "hand event 2 was voided: it cannot be changed again", name=name
    )
    assert voided.text == "That hand was voided: it cannot be changed again."


def test_an_event_of_a_log_not_stored_is_counted() -> None:
    said = players_words("the game was ended at event 4: only a void (contract §6)")
    assert said.text == "The game was ended at the log's 4th event: only a void."


def _alerts(page: str) -> list[str]:
    """The text of every alert on the page (what a player reads first)."""
    return re.findall(r'role="alert"[^>]*>(.*?)</(?:p|div|section)>', page, re.S)


def _in_players_words(page: str) -> list[str]:
    alerts = _alerts(page)
    assert alerts, "no refusal shown"
    assert not [alert for alert in alerts if ENGINE_WORDS.search(alert)], alerts
    return alerts


@pytest.mark.django_db
def test_the_record_form_refuses_in_a_players_words(
    client: Client, moon_game: Game
) -> None:
    forced_wrong = {**MOON_HAND_1, "bidder": "2"}  # Bob must bid in the pepper round
    response = client.post(f"/games/{moon_game.pk}/hands", forced_wrong)
    assert response.status_code == 422
    page = response.content.decode()
    _in_players_words(page)
    assert re.search(r"Rule: seed \d{3}", page)


@pytest.mark.django_db
def test_void_and_correct_refuse_in_a_players_words(
    client: Client, moon_game: Game, now: datetime
) -> None:
    record_hands(
        moon_game, now, (1, 4, "hearts", [1, 5]), (2, 4, "hearts", [5, 1])
    )  # hands 1 and 2 of the pepper round: Bob, then Cat, forced to 4
    void = {"expected_seq": 2, "event_id": "v", "reason": "", "by": "Ann"}
    response = client.post(f"/games/{moon_game.pk}/hands/1/void", void)
    assert response.status_code == 422
    [said] = _in_players_words(response.content.decode())
    assert "hand 2 (Cat bid 4 ♥" in said
    correct = {
        "expected_seq": 2, "event_id": "c", "bidder": "1", "bid": "4",
        "trump": "clubs", "outcome": "conceded", "free_tricks": "0", "action": "save",
    }  # fmt: skip
    response = client.post(f"/games/{moon_game.pk}/hands/1/correct", correct)
    assert response.status_code == 422
    page = response.content.decode()
    _in_players_words(page)
    assert "Rule: seed 001 §3.4" in page


@pytest.mark.django_db
def test_ending_refuses_in_a_players_words(client: Client, moon_game: Game) -> None:
    end = {"expected_seq": 0, "event_id": "e", "reason": "late\x07", "by": "Ann"}
    response = client.post(f"/games/{moon_game.pk}/end", end)
    assert response.status_code == 422
    _in_players_words(response.content.decode())


@pytest.mark.django_db
@pytest.mark.parametrize("reason", ["late\x07", "late\x1b[2J", "late\x9b"])
def test_an_end_with_a_control_character_is_refused_in_words_and_nothing_saved(
    client: Client, moon_game: Game, reason: str
) -> None:
    end = {"expected_seq": 0, "event_id": "e", "reason": reason, "by": "Ann"}
    response = client.post(f"/games/{moon_game.pk}/end", end)
    assert response.status_code == 422
    [said] = _in_players_words(response.content.decode())
    assert said.startswith("The reason: it holds "), said
    assert "&quot;reason&quot;" not in said and "control character." not in said
    assert said.endswith("type it again without it. The game goes on.")
    moon_game.refresh_from_db()
    assert moon_game.last_seq == 0 and not moon_game.finished


@pytest.mark.django_db
def test_a_void_entered_by_a_control_character_is_refused_in_words(
    client: Client, now: datetime
) -> None:
    game = new_game()
    join(client, game)
    record_hands(game, now, (1, 2, "spades", [1, 5]))
    void = {"expected_seq": 1, "event_id": "v", "reason": "typo", "by": "Ann\x1b"}
    response = client.post(f"/games/{game.pk}/hands/1/void", void)
    assert response.status_code == 422
    [said] = _in_players_words(response.content.decode())
    assert said.startswith("“Entered by”: it holds an invisible character"), said
    game.refresh_from_db()
    assert game.last_seq == 1


def test_a_broken_character_in_a_reason_is_refused_in_words() -> None:
    form = VoidForm({"expected_seq": 0, "event_id": "e", "reason": "late\ud800"})
    assert not form.is_valid()
    assert form.errors["reason"] == ["it holds a broken character: type it again."]


@pytest.mark.django_db
def test_import_and_verify_refuse_in_a_players_words(
    client: Client, now: datetime
) -> None:
    game = new_game()
    record_hands(game, now, (1, 2, "spades", [1, 5]))
    services.game_end(game=game, expected_seq=1, now=now)
    log = services.game_export(game=game)
    events = log["events"]
    assert isinstance(events, list)
    events.append({"type": "hand", "passed_out": True})
    for url in ("/games/import", "/verify"):
        response = client.post(url, {"text": json.dumps(log)})
        assert response.status_code == 422
        page = response.content.decode()
        [said] = _in_players_words(page)
        assert "The game was ended at the log&#x27;s 2nd event" in said
        assert "3rd event" in page and "Rule: contract §6" in page
