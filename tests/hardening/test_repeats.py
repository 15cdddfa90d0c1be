"""Issue 24, item 2: an organizer's form sent again (a double tap, a resend)
is done once and answered as if sent once (the same page, or "already
done" in words), never a 500: every action of the league, sent twice in a
row, and four times at once with real threads and commits (SQLite's
immediate transactions; PostgreSQL's row locks when DATABASE_URL names it)."""

from __future__ import annotations

import threading
from copy import deepcopy
from typing import Any

import pytest
from django.db import connection
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


def at_once(action: Action, count: int) -> list[Any]:
    """The action sent by ``count`` copies of its browser, started together;
    each thread closes its own database connection."""
    barrier = threading.Barrier(count)
    answers: list[Any] = [None] * count

    def run(index: int) -> None:
        browser = Client()
        browser.cookies = deepcopy(action.client.cookies)
        try:
            barrier.wait()
            answers[index] = _post(browser, action)
        except Exception as error:  # a crash the test client re-raised
            answers[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_an_action_sent_four_times_at_once_is_done_once(name: str) -> None:
    action = ACTIONS[name](make_world())
    answers = at_once(action, 4)
    crashes = [a for a in answers if isinstance(a, Exception)]
    assert crashes == []
    assert all(answer.status_code < 500 for answer in answers)
    action.check(answers)
