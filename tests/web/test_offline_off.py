"""A server set up with Python alone (no Node.js, so no phone engine):
the app runs, offline play is off and the home page says why; pages load
none of the offline scripts and register no service worker."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from django.core.checks import run_checks
from django.core.management import ManagementUtility
from django.test import Client
from django.utils.html import escape

from scorekeeper.web import installable, offline_files
from scorekeeper.web.offline_files import UNBUILT
from tests.conftest import join
from tests.records import new_game


@functools.cache
def _unbuilt_now() -> str:
    """``offline_missing`` on a machine with Python alone (a cached function,
    as the check clears its cache)."""
    return UNBUILT


@pytest.fixture
def unbuilt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(installable, "offline_missing", lambda: UNBUILT)


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(installable, "offline_missing", lambda: "")


def test_the_home_page_says_offline_play_is_off_and_why(
    client: Client, db: None, unbuilt: None
) -> None:
    page = client.get("/").content.decode()
    assert f"Offline play is off on this server: {escape(UNBUILT)}." in page
    assert "offline/idb/umd.js" not in page
    assert '<meta name="pepper-offline" content="off">' in page


def test_with_the_engine_the_home_page_says_nothing_of_it(
    client: Client, db: None, built: None
) -> None:
    page = client.get("/").content.decode()
    assert "Offline play is off" not in page
    assert "offline/idb/umd.js" in page
    assert 'name="pepper-offline"' not in page


def test_a_game_page_scores_online_with_no_offline_part(
    client: Client, db: None, unbuilt: None
) -> None:
    game = new_game()
    join(client, game)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="record"' in page
    assert 'id="offline"' not in page
    assert "offline/engine.js" not in page


def test_the_service_worker_removes_itself_and_the_engine_is_not_found(
    client: Client, db: None, unbuilt: None
) -> None:
    worker = client.get("/sw.js").content.decode()
    assert "self.registration.unregister()" in worker
    assert client.get("/offline/engine.json").status_code == 404


def test_with_the_engine_the_service_worker_keeps_the_pages(
    client: Client, db: None, built: None
) -> None:
    worker = client.get("/sw.js").content.decode()
    assert "self.registration.unregister()" not in worker


CONTRACT = Path(__file__).resolve().parents[1] / "data" / "contract"
COMMANDS = {
    "replay": [str(CONTRACT / "classic3.log.json"), "--json"],
    "trick": ["--trump", "hearts", "JD", "AH", "9D", "JH"],
    "standings": [str(CONTRACT / "mixed-season.league.json"), "--json"],
}


@pytest.mark.parametrize("name", COMMANDS)
def test_the_contract_commands_print_only_their_answer_on_such_a_server(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    db: None,
    name: str,
) -> None:
    """The site's checks warn that offline play is off (on stderr): the
    contract's commands, whose stderr is one line or nothing, do not run
    them (run as manage.py runs them)."""
    monkeypatch.setattr(offline_files, "offline_missing", _unbuilt_now)
    warned = run_checks(tags=["staticfiles"])
    assert "offline.W001" in str(warned)  # there to print, were they run
    ManagementUtility(["manage.py", name, *COMMANDS[name]]).execute()
    printed = capsys.readouterr()
    assert printed.out and printed.err == ""
