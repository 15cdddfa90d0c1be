"""A league of nine players and its season (classic, 4 hands a game)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from scorekeeper.leagues import services
from scorekeeper.leagues.models import League, Season
from tests.leagues.nights import NAMES
from tests.records import NOW


@pytest.fixture
def organizer() -> User:
    return User.objects.create_user("org", password="a long passphrase")


@pytest.fixture
def league(organizer: User) -> League:
    found = services.league_create(name="Thursday", organizer=organizer, now=NOW)
    for name in NAMES:
        services.player_add(league=found, name=name)
    return found


@pytest.fixture
def season(league: League) -> Season:
    return services.season_create(
        league=league,
        name="Autumn",
        preset="classic",
        overrides={"hand_limit": 4},
        now=NOW,
    )


# The app's own queue (config.settings): tasks wait in the database for
# the worker. The tests' settings run a task where it is enqueued instead.
DATABASE_TASKS = {
    "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}
}


def run_worker() -> None:
    """The real worker command, over every task waiting, then it stops.
    Inside a test's transaction its look at the connection (which would
    close one that is not in autocommit) is left out."""
    checks: AbstractContextManager[Any] = (
        nullcontext()
        if not connection.in_atomic_block
        else mock.patch(
            "django_tasks_db.management.commands.db_worker.close_old_connections"
        )
    )
    with checks:
        call_command(
            "db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0
        )


@pytest.fixture
def worker() -> Iterator[Callable[[], None]]:
    """Tasks queued in the database, as the app queues them (no page or
    change runs one); call it to run the worker over what waits."""
    with override_settings(TASKS=DATABASE_TASKS):
        yield run_worker
