"""Issue "Hardening" 4-8, 12: production settings that fail closed, logs
without tokens, limits against abuse."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from config.local_key import local_secret_key
from scorekeeper.models import Game
from scorekeeper.web.logs import RedactTokens
from scorekeeper.web.offline_files import offline_missing
from tests.conftest import join
from tests.records import NOW, new_game, record_hands

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """manage.py under the production settings and only the given variables."""
    environment = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**environment, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = manage("check")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_check_deploy_is_clean_with_the_production_settings() -> None:
    key = "k" * 20 + "-production-secret-for-this-test-only-" + "z" * 20
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY=key,
        HTTPS="1",
        DEBUG="0",
    )
    if offline_missing():  # set up without Node.js: offline play off, said once
        said = result.stdout + result.stderr
        assert "(offline.W001)" in said and "identified 1 issue" in said, said
        return
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_the_local_key_is_made_once_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "key"
    first = local_secret_key(path)
    assert len(first) >= 50 and local_secret_key(path) == first
    assert path.stat().st_mode & 0o077 == 0  # readable by its owner only


def test_pages_forbid_foreign_form_targets_and_base_urls(
    client: Client, db: None
) -> None:
    policy = client.get("/")["Content-Security-Policy"]
    assert "form-action 'self'" in policy and "base-uri 'none'" in policy


def test_a_session_lasts_a_month_and_a_game_page_renews_it(
    client: Client, moon_game: Game
) -> None:
    assert settings.SESSION_COOKIE_AGE <= 60 * 60 * 24 * 31
    response = client.get(f"/games/{moon_game.pk}/")
    assert response.cookies["sessionid"]["max-age"] == settings.SESSION_COOKIE_AGE


def test_unhandled_errors_reach_stderr_with_tokens_redacted() -> None:
    logger: logging.Logger | None = logging.getLogger("django.request")
    assert logger is not None and logger.getEffectiveLevel() <= logging.ERROR
    handlers: list[logging.Handler] = []
    while logger is not None:  # the handlers a record reaches, as logging walks
        handlers += [h for h in logger.handlers if isinstance(h, logging.StreamHandler)]
        logger = logger.parent if logger.propagate else None
    assert handlers
    assert any(isinstance(f, RedactTokens) for f in handlers[0].filters)
    record = logging.LogRecord(
        "django.request",
        logging.WARNING,
        "",
        0,
        "Not Found: %s",
        ("/join/abcDEF-123",),
        None,
    )
    RedactTokens().filter(record)
    assert record.getMessage() == "Not Found: /join/[redacted]"


def test_the_gunicorn_access_log_redacts_a_join_token() -> None:
    from config.gunicorn_conf import RedactingLogger, logger_class, redact_atoms

    atoms = {"r": "GET /join/SECRET123 HTTP/1.1", "U": "/join/SECRET123", "s": 302}
    assert "SECRET123" not in str(redact_atoms(atoms))
    assert logger_class is RedactingLogger


@pytest.fixture
def limits(settings: pytest.FixtureRequest) -> None:
    settings.RATE_LIMITS = {  # type: ignore[attr-defined]
        "game_create": (3, 600),
        "import": (2, 600),
        "join": (3, 60),
        "append": (2, 60),
    }


NEW = {"preset": "classic", "seat_0": "Ann", "seat_1": "Bob", "first_dealer": "0"}


def test_one_client_cannot_create_games_without_a_pause(
    client: Client, db: None, limits: None
) -> None:
    statuses = [client.post("/games/new", NEW).status_code for _ in range(5)]
    assert statuses == [302, 302, 302, 429, 429]
    refused = client.post("/games/new", NEW)
    assert int(refused["Retry-After"]) > 0
    assert "Too many requests" in refused.content.decode()
    assert Game.objects.count() == 3
    other = Client(REMOTE_ADDR="10.0.0.2")  # another device is not held back
    assert other.post("/games/new", NEW).status_code == 302


def test_join_guesses_and_appends_are_limited_too(
    client: Client, moon_game: Game, limits: None
) -> None:
    guesses = [client.get(f"/join/{'guess':_<31}{n}").status_code for n in range(4)]
    assert guesses == [404, 404, 404, 429]  # a token's shape, no game's token
    from tests.games.test_api import HAND, send

    answers = [
        send(
            client, moon_game, moon_game.edit_token, expected_seq=n, id=f"a{n}", **HAND
        ).status_code
        for n in range(3)
    ]
    assert answers == [201, 422, 429]  # the second hand breaks the pepper round


def test_a_long_game_shows_its_newest_hands_and_links_the_rest(
    client: Client, db: None
) -> None:
    game = new_game("classic", target_score=1000)
    record_hands(game, NOW, *[(1, 3, "hearts", [2, 4])] * 60)
    join(client, game)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert page.count('<li class="hand') == 50
    assert "Show all 60 hands" in page
    everything = client.get(f"/games/{game.pk}/?hands=all").content.decode()
    assert everything.count('<li class="hand') == 60 and "Show all" not in everything
