"""Issue 24, item 10: the rate limits count per server, not per worker. Two
processes (two gunicorn workers, or two plain processes) together reach a
limit once; the store's one atomic upsert counts every hit once. Item 15
end to end: gunicorn's access log holds no token."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.models import new_token
from scorekeeper.web.rate_counts import FileCounts
from tests.production import GROUP, free_port, gunicorn, production_env

ROOT = Path(__file__).resolve().parents[2]


def test_a_window_counts_up_and_a_new_window_starts_again(tmp_path: Path) -> None:
    store = FileCounts(tmp_path / "counts.sqlite3")
    assert [store.hit("login:10.0.0.1", 600) for _ in range(3)] == [1, 2, 3]
    assert store.hit("login:10.0.0.2", 600) == 1  # another client
    assert store.hit("login:10.0.0.1", 1200) == 1  # the next window
    store.clear()
    assert store.hit("login:10.0.0.1", 1200) == 1


# Counts 15 sign-in attempts of one client against a limit of 20, in a
# process of its own; prints how many were let through.
_ATTEMPTS = """
import sys, django
django.setup()
from django.conf import settings
from django.test import RequestFactory
from scorekeeper.web.limits import retry_after
settings.RATE_LIMITS = {"login": (20, 3600)}
request = RequestFactory().post("/accounts/login", REMOTE_ADDR="10.9.8.7")
sys.stdin.readline()  # start together
print(sum(retry_after(request, "login") is None for _ in range(15)))
"""


def test_two_processes_together_reach_the_limit_once(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "RATE_LIMIT_FILE": str(tmp_path / "counts.sqlite3"),
    }
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", _ATTEMPTS],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    time.sleep(3)  # both set up, waiting on stdin
    allowed = [int(worker.communicate("go\n", timeout=60)[0]) for worker in workers]
    assert sum(allowed) == 20  # per process: 15 + 15


@pytest.fixture(scope="session")
def server(
    tmp_path_factory: pytest.TempPathFactory, collected_static: Path
) -> Iterator[tuple[str, Path, Path]]:
    """(base URL, its log file, its counts file) of a gunicorn with two
    workers serving the production settings, rate limits as shipped, on a
    database of its own."""
    workdir = tmp_path_factory.mktemp("rate-counts")
    env = production_env(
        workdir=workdir, static_root=collected_static, port=free_port()
    )
    env.update(RATE_LIMIT_FILE=str(workdir / "counts.sqlite3"), WEB_CONCURRENCY="2")
    log = workdir / "gunicorn.log"
    with gunicorn(env, log=log) as base:
        yield base, log, workdir / "counts.sqlite3"


@pytest.fixture
def gunicorn_served(server: tuple[str, Path, Path]) -> tuple[str, Path]:
    """The shared server, its counts emptied: each test starts below every
    limit, whatever ran before it."""
    base, log, counted = server
    FileCounts(counted).clear()
    return base, log


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


@GROUP
def test_two_gunicorn_workers_share_one_count(
    gunicorn_served: tuple[str, Path],
) -> None:
    """60 link guesses from one address, 8 at a time so that both workers
    answer some: the join limit (30 a minute) lets exactly 30 through."""
    base, _ = gunicorn_served
    answers: list[int] = []
    lock = threading.Lock()

    def guess(count: int) -> None:
        for _ in range(count):
            status = _status(f"{base}/join/{new_token()}")
            with lock:
                answers.append(status)

    threads = [
        threading.Thread(target=guess, args=(8 if n < 4 else 7,)) for n in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Counter(answers) == {404: 30, 429: 30}


@GROUP
def test_the_access_log_holds_no_token(gunicorn_served: tuple[str, Path]) -> None:
    base, log = gunicorn_served
    before = log.stat().st_size  # the session's server: earlier tests logged too
    tokens = [new_token() for _ in range(4)]
    _status(f"{base}/join/{tokens[0]}")
    _status(f"{base}/invite/{tokens[1]}")  # to sign in, with ?next=/invite/...
    _status(f"{base}/standings/{tokens[2]}")
    _status(f"{base}/accounts/login?next=%2Fstandings%2F{tokens[3]}")
    time.sleep(0.5)  # the log written
    with log.open("rb") as whole:
        whole.seek(before)
        written = whole.read().decode()
    assert written.count("[redacted]") >= 4
    assert not any(token in written for token in tokens)
