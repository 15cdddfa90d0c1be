"""Issue 24, item 2: an organizer's form sent again (a double tap, a resend)
is done once and answered as if sent once (the same page, or "already
done" in words), never a 500: every action of the league, sent twice in a
row. Four times at once: tests/hardening/test_route_races.py sends each of
these actions (and every other POST route) through four server processes."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.hardening.league_actions import ACTIONS, Action
from tests.hardening.league_world import league_actions, make_world


def test_every_action_of_the_league_is_covered() -> None:
    assert set(ACTIONS) == league_actions()


def _post(client: Client, action: Action) -> Any:
    return client.post(action.url, action.data)


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_an_action_sent_twice_in_a_row_is_done_once(name: str) -> None:
    action = ACTIONS[name](make_world())
    answers = [_post(action.client, action), _post(action.client, action)]
    assert all(answer.status_code < 500 for answer in answers)
    action.check(answers)
