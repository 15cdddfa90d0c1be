"""Issue 24, items 1 and 3: an invitation taken by two accounts at the same
moment makes one organizer; a night closed while its server is killed is
either closed whole or still open (and closes when asked again). Real
threads and processes, real commits (SQLite, and PostgreSQL when
DATABASE_URL names it)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night
from scorekeeper.models import Game, GameEvent
from tests.hardening.league_actions import make_world
from tests.records import NOW

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def test_an_invitation_sent_by_eight_accounts_at_once_makes_one_organizer() -> None:
    world = make_world()
    invite = services.invite_create(league=world.league, by=world.organizer, now=NOW)
    browsers = []
    for n in range(8):
        browser = Client()
        browser.force_login(User.objects.create_user(f"guest{n}", password="x"))
        browsers.append(browser)
    barrier = threading.Barrier(len(browsers))
    answers: list[int] = [0] * len(browsers)

    def accept(index: int) -> None:
        try:
            barrier.wait()
            answers[index] = browsers[index].post(f"/invite/{invite.token}").status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Counter(answers) == {302: 1, 410: 7}
    assert world.league.organizers.count() == 2


def _database_url() -> str:
    """The test database, as a URL another process can open."""
    config = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{config['NAME']}"
    user, host, port = config["USER"], config["HOST"], config["PORT"] or 5432
    return f"postgres://{user}@{host}:{port}/{config['NAME']}"


# Closes the night in a process of its own, which stops for good after the
# first game it ends (as a server killed 1-30 ms into the close).
_CLOSE_AND_HANG = """
import sys, time, django
django.setup()
from scorekeeper.leagues import rounds
from scorekeeper.leagues.models import Night
real_end = rounds._end

def end_then_hang(game, **kwargs):
    real_end(game, **kwargs)
    print("ended one game", flush=True)
    time.sleep(600)

rounds._end = end_then_hang
night = Night.objects.select_related("season__league").get(pk=int(sys.argv[1]))
rounds.night_close(night=night, by="org", now=django.utils.timezone.now())
"""


def test_a_night_killed_while_closing_stays_open_whole_and_closes_again() -> None:
    world = make_world()
    night = world.playing_night()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "DATABASE_URL": _database_url(),
    }
    closing = subprocess.Popen(
        [sys.executable, "-c", _CLOSE_AND_HANG, str(night.pk)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert closing.stdout is not None
        assert closing.stdout.readline().strip() == "ended one game"
    finally:
        closing.send_signal(signal.SIGKILL)
        closing.wait(timeout=30)
    night.refresh_from_db()
    assert night.closed_at is None
    assert not GameEvent.objects.filter(type="end").exists()  # none ended
    assert not Game.objects.filter(finished=True).exists()
    assert not Game.objects.filter(locked=True).exists()
    rounds.night_close(night=night, by="org", now=NOW)  # asked again
    closed = Night.objects.get(pk=night.pk)
    assert closed.closed_at is not None
    assert GameEvent.objects.filter(type="end").count() == 2
    assert Game.objects.filter(finished=True, locked=True).count() == 2
