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
from typing import Any
from uuid import UUID

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night
from scorekeeper.models import Game, GameEvent
from tests.hardening.league_world import make_world
from tests.leagues.nights import play_hand
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


# Closes the night (or calls its round) in a process of its own, which
# stops for good after the first game it ends (as a server killed 1-30 ms
# into the close).
_ACT_AND_HANG = """
import sys, time, django
django.setup()
from django.utils import timezone
from scorekeeper.leagues import rounds
from scorekeeper.leagues.models import Night
real_end = rounds._end

def end_then_hang(game, **kwargs):
    real_end(game, **kwargs)
    print("ended one game", flush=True)
    time.sleep(600)

rounds._end = end_then_hang
night = Night.objects.select_related("season__league").get(pk=int(sys.argv[2]))
if sys.argv[1] == "close":
    rounds.night_close(night=night, by="org", now=timezone.now())
else:
    rounds.round_call(round=night.rounds.get(), by="org", now=timezone.now())
"""


@pytest.mark.parametrize("action", ["close", "call"])
def test_a_night_killed_while_closing_stays_open_whole_and_closes_again(
    action: str,
) -> None:
    world = make_world()
    night = world.playing_night()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "DATABASE_URL": _database_url(),
    }
    acting = subprocess.Popen(
        [sys.executable, "-c", _ACT_AND_HANG, action, str(night.pk)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert acting.stdout is not None
        assert acting.stdout.readline().strip() == "ended one game"
    finally:
        acting.send_signal(signal.SIGKILL)
        acting.wait(timeout=30)
    night.refresh_from_db()
    assert night.closed_at is None and night.rounds.get().called_at is None
    assert not GameEvent.objects.filter(type="end").exists()  # none ended
    assert not Game.objects.filter(finished=True).exists()
    assert not Game.objects.filter(locked=True).exists()
    rounds.night_close(night=night, by="org", now=NOW)  # asked again
    closed = Night.objects.get(pk=night.pk)
    assert closed.closed_at is not None
    assert GameEvent.objects.filter(type="end").count() == 2
    assert Game.objects.filter(finished=True, locked=True).count() == 2


def test_a_hand_saved_while_its_round_is_called_is_kept_and_the_game_ended(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The call read a table's game, then the table saved a hand before the
    call ended it: the call reads the game again and ends it after that
    hand (the event store's conflict was a 500)."""
    night = make_world().playing_night()
    real_end = rounds._end
    saved: list[UUID] = []

    def a_hand_first(game: Game, **kwargs: Any) -> None:
        if not saved:  # the table's phone saves, from its own copy
            play_hand(Game.objects.get(pk=game.pk))
            saved.append(game.pk)
        real_end(game, **kwargs)

    monkeypatch.setattr(rounds, "_end", a_hand_first)
    assert rounds.round_call(round=night.rounds.get(), by="org", now=NOW) == 2
    game = Game.objects.get(pk=saved[0])
    kinds = list(game.events.values_list("type", flat=True))
    assert kinds == ["hand", "hand", "end"] and game.finished
