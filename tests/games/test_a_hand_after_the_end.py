"""A hand sent after the game is over is refused by the rule that ended it:
the target, the house's mercy rule or hand limit (named with its value), or
the end event (contract §5, §6). The API keeps the engine's words, the page
and the offline phone say the same in a player's words, and nothing is
saved."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple

import pytest
from django.test import Client

from scorekeeper import phone
from scorekeeper.gamelog import parse_entry
from scorekeeper.games import services
from scorekeeper.games.forms import correction_initial
from scorekeeper.models import Game
from scorekeeper.rules.variants import find_variant
from tests.conftest import join
from tests.records import new_game, record_hands


class Ending(NamedTuple):
    start: Callable[[datetime], Game]  # a game that ended this way
    words: str  # what a page and the phone say
    rule: str  # the page's "Rule: ..." line
    engine: str  # what the API says, "event N: ..."


def _by_target(now: datetime) -> Game:
    game = new_game("classic")  # to 30: Ann & Cat make big pepper three times
    record_hands(game, now, *[(0, "big-pepper", "hearts", [6, 0])] * 3)
    return game


def _by_mercy(now: datetime) -> Game:
    game = new_game("classic", mercy=-10)  # Bob & Dan set twice: -12
    record_hands(game, now, *[(1, 5, "hearts", [2, 4])] * 2)
    return game


def _at_the_hand_limit(now: datetime) -> Game:
    game = new_game("classic", hand_limit=2)  # 5 to 7 after two hands
    record_hands(game, now, (1, 3, "hearts", [2, 4]), (2, 3, "hearts", [3, 3]))
    return game


def _by_an_end(now: datetime) -> Game:
    game = new_game("classic")
    record_hands(game, now, (1, 3, "hearts", [2, 4]))
    services.game_end(game=game, expected_seq=1, reason="time", now=now)
    return game


ENDINGS = {
    "target": Ending(
        _by_target,
        "The game is over: Ann & Cat won after hand 3, so there is no hand after it.",
        "seed 000 'Game'",
        "event 4: the game is over: Ann & Cat won after hand 3, so there is no "
        "hand after it (seed 000 'Game')",
    ),
    "mercy": Ending(
        _by_mercy,
        "The game is over: Ann & Cat won after hand 2 by the mercy rule (a side "
        "at −10 or below), so there is no hand after it.",
        "house rule: mercy at −10",
        "event 3: the game is over: Ann & Cat won after hand 2 by the mercy rule "
        "(a side at -10 or below), so there is no hand after it "
        "(house rule: mercy at -10)",
    ),
    "hand_limit": Ending(
        _at_the_hand_limit,
        "The game is over: Bob & Dan won after hand 2 at the hand limit (2 "
        "hands), so there is no hand after it.",
        "house rule: hand limit of 2 hands",
        "event 3: the game is over: Bob & Dan won after hand 2 at the hand limit "
        "(2 hands), so there is no hand after it (house rule: hand limit of 2 hands)",
    ),
    "end": Ending(
        _by_an_end,
        "The game was ended: only a void or a correction of an earlier hand can "
        "follow it.",
        "contract §6",
        "event 3: the game was ended at event 2: only a void or a correction of "
        "an earlier hand can follow it (contract §6)",
    ),
}
LATE_HAND = {"type": "hand", "bidder": 3, "bid": 1, "trump": "hearts", "tricks": [1, 5]}
# A hand, and "Passed out" tapped on a form with nothing chosen.
LATE_PASS = {"event_id": "late", "action": "pass"}
LATE_FORM = {
    "event_id": "late",
    "bidder": "3",
    "bid": "1",
    "trump": "hearts",
    "outcome": "played",
    "taken": "5",
    "action": "save",
}
FORMS = {"save": LATE_FORM, "pass": LATE_PASS}


@pytest.fixture(params=list(ENDINGS))
def ending(request: pytest.FixtureRequest) -> Ending:
    return ENDINGS[request.param]


@pytest.mark.django_db
def test_the_api_refuses_it_citing_the_rule_that_ended_the_game(
    client: Client, ending: Ending, now: datetime
) -> None:
    game = ending.start(now)
    game.refresh_from_db()
    seq = game.last_seq
    response = client.post(
        f"/api/games/{game.pk}/events",
        json.dumps({**LATE_HAND, "expected_seq": seq, "id": "late"}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {game.edit_token}"},
    )
    assert response.status_code == 422
    assert response.json()["error"] == ending.engine
    game.refresh_from_db()
    assert game.last_seq == seq


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["save", "pass"])  # a hand, or "Passed out"
@pytest.mark.parametrize(
    ("behind", "status"),
    [(0, 422), (1, 409)],
    ids=["the form after the end", "a form from before the end"],
)
def test_the_page_refuses_it_citing_the_rule_that_ended_the_game(
    client: Client,
    ending: Ending,
    now: datetime,
    behind: int,
    status: int,
    action: str,
) -> None:
    """Also when a second phone saves with the form it showed before the
    ending event (a conflict: its note says what changed): the refusal and
    its rule say why no hand can follow, never "your entry is still
    below", for the form is gone."""
    game = ending.start(now)
    join(client, game)
    game.refresh_from_db()
    seq = game.last_seq
    for headers in ({}, {"HX-Request": "true"}):  # without script, and with htmx
        response = client.post(
            f"/games/{game.pk}/hands",
            {**FORMS[action], "expected_seq": seq - behind},
            headers=headers,
        )
        assert response.status_code == status
        page = html.unescape(response.content.decode())
        [alert] = re.findall(r'<div class="error" role="alert">(.*?)</div>', page, re.S)
        said = re.findall(r"<p[^>]*>(.*?)</p>", alert)
        assert said == [
            f"{ending.words} To make it legal: " + _remedy(ending),
            f"Rule: {ending.rule}",
        ]
        assert "still below" not in page
        assert 'id="record"' not in page
    game.refresh_from_db()
    assert game.last_seq == seq


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["target", "mercy", "hand_limit"])
def test_a_second_phone_that_saved_the_winning_hand_too_is_told_it_is_saved(
    client: Client, name: str, now: datetime
) -> None:
    """Both phones entered the hand that won: the second is not told to void
    it, nor to save it again; it was saved once."""
    game = ENDINGS[name].start(now)
    join(client, game)
    game.refresh_from_db()
    seq = game.last_seq
    events = services.game_export(game=game)["events"]
    assert isinstance(events, list)
    hand = parse_entry(events[-1], seq).event
    entered = correction_initial(
        hand, find_variant(game.preset, len(game.seats)), seq=seq - 1, by=""
    )
    for headers in ({}, {"HX-Request": "true"}):  # without script, and with htmx
        response = client.post(
            f"/games/{game.pk}/hands", {**entered, "action": "save"}, headers=headers
        )
        assert response.status_code == 409
        page = html.unescape(response.content.decode())
        assert "It was the hand you entered: nothing more to save." in page
        assert 'role="alert"' not in page and "still below" not in page
    game.refresh_from_db()
    assert game.last_seq == seq


@pytest.mark.django_db
def test_the_offline_phone_says_what_the_page_says(
    ending: Ending, now: datetime
) -> None:
    log = services.game_export(game=ending.start(now))
    queued: list[dict[str, Any]] = [
        {"event": {**LATE_HAND, "id": "late"}, "expected_seq": None, "target_of": None}
    ]
    refusal = json.loads(phone.view(json.dumps(log), json.dumps(queued)))["refusal"]
    assert refusal == {
        "index": 0,
        "text": f"{ending.words} To make it legal: {_remedy(ending)}",
        "rule": ending.rule,
    }


def _remedy(ending: Ending) -> str:
    if ending.rule == "contract §6":
        return "leave this event out, or void or correct the hand it meant to change."
    return "void or correct the winning hand first, or start a new game."
