"""What the race tests stand on: the app served by real server processes
(gunicorn, four sync workers, on the test's own database), submissions
sent to it at the same moment from threads, and the check that every
game's row and every night's rows are what a replay of the logs gives.

Four workers are four processes: each keeps its own copy of what it read
(the event store's parsed logs, the cache), as production's servers do,
so a decision made on a copy read before another worker committed shows
up here; threads of one process would share the copy and hide it.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.db import connection
from django.test import Client

from bench.cluster import free_port, wait_for_port
from scorekeeper.eventstore import load
from scorekeeper.gamelog import replay_log
from scorekeeper.leagues.models import Night, NightProjection, NightTally
from scorekeeper.leagues.night_rows import project_nights, stale_nights
from scorekeeper.models import Game
from scorekeeper.projections.boards import forget
from scorekeeper.projections.game_rows import summary
from tests.hardening.crawler import Form, page_forms

ROOT = Path(__file__).resolve().parents[2]
CSRF = secrets.token_hex(16)  # a browser's CSRF cookie: any 32 characters
WORKERS = 4


def database_url() -> str:
    """The test database, as a URL another process can open."""
    config = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{config['NAME']}"
    user, host, port = config["USER"], config["HOST"], config["PORT"] or 5432
    return f"postgres://{user}@{host}:{port}/{config['NAME']}"


@contextmanager
def app_servers(log: Path) -> Iterator[str]:
    """The app under gunicorn with ``WORKERS`` processes, on the test
    database (the tests' settings: no rate limits), until the block ends;
    yields its base URL."""
    port = free_port()
    env = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "SECRET_KEY": settings.SECRET_KEY,
        "DATABASE_URL": database_url(),
        "RATE_LIMIT_FILE": str(log.with_suffix(".counts.sqlite3")),
        "DB_POOL_MAX": "0",
    }
    with log.open("w") as output:
        server = subprocess.Popen(
            [str(ROOT / ".venv/bin/gunicorn"), "config.wsgi"]
            + ["-w", str(WORKERS), "-b", f"127.0.0.1:{port}", "--timeout", "120"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for_port(port, server, "gunicorn")
        base = f"http://127.0.0.1:{port}"
        _warm(base)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


def _warm(base: str) -> None:
    """Every worker answers a few pages first: a worker's first request
    loads what it keeps (templates, URLs) for a second or so, and a race
    whose requests meet a cold worker would run one after the other."""
    host, port = base.removeprefix("http://").split(":")

    def get(path: str) -> None:
        asking = http.client.HTTPConnection(host, int(port), timeout=120)
        try:
            asking.request("GET", path)
            asking.getresponse().read()
        finally:
            asking.close()

    for _ in range(3):
        threads = [
            threading.Thread(target=get, args=(path,))
            for path in ["/", "/rules/", "/games/new", "/leagues/"] * WORKERS
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()


@dataclass
class Answer:
    """A server's answer, read as the Django test client's answers are."""

    status_code: int
    content: bytes
    headers: dict[str, str]

    def __getitem__(self, name: str) -> str:
        return self.headers[name.lower()]

    def text(self) -> str:
        return self.content.decode(errors="replace")


@dataclass
class Send:
    """One submission: a form (or a JSON body) as a browser holding
    ``cookies`` posts it."""

    path: str
    data: dict[str, Any] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    json_body: object = None
    headers: dict[str, str] = field(default_factory=dict)
    htmx: bool = False


def cookies_of(client: Client) -> dict[str, str]:
    return {name: morsel.value for name, morsel in client.cookies.items()}


def post(base: str, send: Send) -> Answer:
    host, port = base.removeprefix("http://").split(":")
    jar = {**send.cookies, "csrftoken": CSRF}
    headers = {
        "Cookie": "; ".join(f"{name}={value}" for name, value in jar.items()),
        "X-CSRFToken": CSRF,
        "Origin": base,
        **send.headers,
    }
    if send.json_body is not None:
        body = json.dumps(send.json_body)
        headers["Content-Type"] = "application/json"
    else:
        body = urlencode(send.data, doseq=True)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if send.htmx:
        headers["HX-Request"] = "true"
    connection_ = http.client.HTTPConnection(host, int(port), timeout=120)
    try:
        connection_.request("POST", send.path, body.encode(), headers)
        response = connection_.getresponse()
        found = {key.lower(): value for key, value in response.getheaders()}
        return Answer(response.status, response.read(), found)
    finally:
        connection_.close()


def at_once(base: str, sends: list[Send]) -> list[Answer]:
    """Every submission sent at the same moment, each on its own connection."""
    barrier = threading.Barrier(len(sends))
    answers: list[Answer | BaseException | None] = [None] * len(sends)

    def run(index: int) -> None:
        try:
            barrier.wait()
            answers[index] = post(base, sends[index])
        except BaseException as error:  # said by the test, not lost in a thread
            answers[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(sends))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failed = [a for a in answers if not isinstance(a, Answer)]
    assert failed == [], failed
    return [a for a in answers if isinstance(a, Answer)]


def form_on(client: Client, page: str, action: str) -> dict[str, str]:
    """The fields of the form on ``page`` that posts to ``action``, as the
    page fills them in (hidden ids and keys included)."""
    html = client.get(page).content.decode()
    forms: list[Form] = page_forms(page, html)
    for form in forms:
        if form.method == "post" and form.action == action:
            return dict(form.fields)
    raise AssertionError(f"no form posting to {action} on {page}")


def assert_state_is_a_replay() -> None:
    """Every game's row is what a replay of its log gives, its events are
    numbered 1.. without a gap; every night's kept rows (of a night with
    games) are what summing its games again gives."""
    for game in Game.objects.filter(last_seq__gt=0):  # a new game has no numbers
        forget(game.pk)  # this process's copy: read the stored log
        log = load(game)
        seqs = list(game.events.order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, game.last_seq + 1)), (game.pk, seqs)
        replayed = summary(replay_log(log), game.last_seq)
        row = {key: getattr(game, key) for key in replayed}
        differ = {k: (row[k], replayed[k]) for k in replayed if row[k] != replayed[k]}
        assert differ == {}, (game.pk, "row, replay:", differ)
    played = Night.objects.filter(rounds__tables__isnull=False).distinct()
    nights = list(played.values_list("pk", flat=True))  # a night with games
    assert stale_nights(nights) == [], "a night's rows are not of its games"
    kept = _night_rows()
    project_nights(nights)
    assert _night_rows() == kept


def _night_rows() -> list[tuple[Any, ...]]:
    fields = [f.name for f in NightTally._meta.fields if f.name != "id"]
    tallies = NightTally.objects.order_by("night", "player").values_list(*fields)
    kept = NightProjection.objects.order_by("night").values_list("night", "rules")
    return [*tallies, *kept]


Check = Callable[[list[Answer]], None]
