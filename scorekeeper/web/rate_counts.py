"""Rate-limit counters that every worker of one server shares.

Counting goes through one small interface (``Counts``): ``hit`` adds one
to a key's count in the current window and answers the count so far. The
default store, ``FileCounts``, is a small SQLite file beside the app that
every worker process opens: one atomic upsert a hit, with durability off
(a crash may lose a window's counts, which only forgives a few requests).
It needs no server and works whatever the app's database is (SQLite or
PostgreSQL). A store shared by several servers (Redis) is one more class
with the same two methods, named in ``settings.RATE_LIMIT_STORE``:
``scorekeeper.web.shared.RedisCounts`` (settings: ``REDIS_URL``).
"""

from __future__ import annotations

import os
import random
import sqlite3
import threading
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.utils.module_loading import import_string


class Counts(Protocol):
    def hit(self, key: str, window_start: int, window: int = ...) -> int:
        """Count one request under ``key`` in the window of ``window``
        seconds that started at ``window_start``; the window's count, this
        one included."""
        ...

    def clear(self) -> None:
        """Forget every count (tests)."""
        ...


# One statement, atomic in SQLite: a new key starts at 1, a key of an
# earlier window starts again at 1, otherwise its count goes up by one.
_HIT = """
INSERT INTO hits (key, started, count) VALUES (?, ?, 1)
ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN hits.started = excluded.started THEN hits.count + 1 ELSE 1 END,
    started = excluded.started
RETURNING count
"""
_PRUNE_EVERY = 1000  # about one hit in this many drops the finished windows
_LONGEST_WINDOW = 24 * 3600


class FileCounts:
    """Counts in a SQLite file shared by the processes of one machine."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._local = threading.local()  # a connection per thread and process

    def _connection(self) -> sqlite3.Connection:
        held: tuple[int, sqlite3.Connection] | None = getattr(self._local, "held", None)
        if held is not None and held[0] == os.getpid():
            return held[1]
        # A fresh one after a fork (gunicorn's workers): never a parent's.
        connection = sqlite3.connect(self.path, timeout=5, isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=OFF")  # counts need no fsync
        connection.execute(
            "CREATE TABLE IF NOT EXISTS hits (key TEXT PRIMARY KEY,"
            " started INTEGER NOT NULL, count INTEGER NOT NULL) WITHOUT ROWID"
        )
        self._local.held = (os.getpid(), connection)
        return connection

    def hit(self, key: str, window_start: int, window: int = _LONGEST_WINDOW) -> int:
        connection = self._connection()
        (count,) = connection.execute(_HIT, (key, window_start)).fetchone()
        if random.randrange(_PRUNE_EVERY) == 0:
            old = window_start - _LONGEST_WINDOW
            connection.execute("DELETE FROM hits WHERE started < ?", (old,))
        return int(count)

    def clear(self) -> None:
        self._connection().execute("DELETE FROM hits")


@cache
def _store(backend: str, location: str, options: tuple[tuple[str, str], ...]) -> Counts:
    store: Counts = import_string(backend)(location, **dict(options))
    return store


def counts() -> Counts:
    """The configured store (``settings.RATE_LIMIT_STORE``: BACKEND,
    LOCATION and its OPTIONS), one per process."""
    chosen: dict[str, Any] = settings.RATE_LIMIT_STORE
    options = tuple(sorted(chosen.get("OPTIONS", {}).items()))
    return _store(chosen["BACKEND"], chosen["LOCATION"], options)
