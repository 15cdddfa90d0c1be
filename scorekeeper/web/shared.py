"""What several app servers share when ``REDIS_URL`` is set: the cache
(Django's own ``RedisCache``) and the rate-limit counts (``RedisCounts``).

Redis is a help, never a need. When it stops answering, every cache read
is a miss and every write is dropped (the pages compute what they would
have read: the cached entries are projections of the database), and the
rate limits count on each server's own file (``FileCounts``) until it
answers again. A worker says so in the log once when Redis goes, and
once when it is back, not once a request; while it is gone, a worker
asks it again at most every ``RETRY_SECONDS`` (a refused connection
costs well under a millisecond on the same network; a host that does not
answer at all costs the short connect timeout below).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis import Redis, RedisError
from redis.backoff import NoBackoff
from redis.retry import Retry

from scorekeeper.web.rate_counts import FileCounts

logger = logging.getLogger(__name__)

T = TypeVar("T")
RETRY_SECONDS = 2.0

# A cache that answers slowly is worse than none: a request waits at most
# this long for Redis. A failed command is tried once more on a new
# connection, at once: after Redis restarts, every pooled connection is
# dead, and without it each worker's first command would fail and send
# its next two seconds of counts to the server's own file.
CONNECTION_OPTIONS: dict[str, Any] = {
    "socket_connect_timeout": 0.25,
    "socket_timeout": 0.5,
    "retry": Retry(NoBackoff(), 1),
    "health_check_interval": 30,
}


class Outage:
    """Whether Redis answers, as one worker process last found it; logs
    the change (gone, back) once."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.down_since: float | None = None
        self._lock = threading.Lock()

    def skipping(self) -> bool:
        """True while Redis failed less than ``RETRY_SECONDS`` ago."""
        since = self.down_since
        return since is not None and time.monotonic() - since < RETRY_SECONDS

    def failed(self, error: Exception) -> None:
        with self._lock:
            first = self.down_since is None
            self.down_since = time.monotonic()
        if first:
            logger.warning(
                "Redis is not answering (%s): %s; carrying on without it "
                "until it answers again",
                self.what,
                error,
            )

    def answered(self) -> None:
        if self.down_since is None:
            return
        with self._lock:
            was_down = self.down_since is not None
            self.down_since = None
        if was_down:
            logger.warning("Redis answers again (%s)", self.what)

    def call(self, action: Callable[[], T], fallback: Callable[[], T]) -> T:
        """``action`` against Redis, or ``fallback`` while it is gone."""
        if self.skipping():
            return fallback()
        try:
            result = action()
        except RedisError as error:
            self.failed(error)
            return fallback()
        self.answered()
        return result


def _forgiving(name: str, fallback: Callable[..., Any]) -> Callable[..., Any]:
    """Django's Redis client's method ``name``, answering ``fallback`` (of
    the same arguments) while Redis is gone."""
    method = getattr(RedisCacheClient, name)

    def forgiving(self: _ForgivingClient, *args: Any) -> Any:
        return self.outage.call(lambda: method(self, *args), lambda: fallback(*args))

    return forgiving


def _no(*args: Any) -> bool:
    return False


def _nothing(*args: Any) -> None:
    return None


class _ForgivingClient(RedisCacheClient):
    """Django's Redis cache client; a Redis fault is a miss (reads) or
    nothing done (writes)."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **{**CONNECTION_OPTIONS, **options})
        self.outage = Outage("cache")

    get = _forgiving("get", lambda key, default: default)
    get_many = _forgiving("get_many", lambda keys: {})
    has_key = _forgiving("has_key", _no)
    add = _forgiving("add", _no)
    touch = _forgiving("touch", _no)
    delete = _forgiving("delete", _no)
    clear = _forgiving("clear", _no)
    set = _forgiving("set", _nothing)
    set_many = _forgiving("set_many", _nothing)
    delete_many = _forgiving("delete_many", _nothing)
    # incr is left to fail: a caller that counts on it must know (the app
    # counts its rate limits in RedisCounts, not through the cache).


class SharedCache(RedisCache):
    """``RedisCache`` that carries on as a cache of misses while Redis is
    gone (settings: ``REDIS_URL``)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ForgivingClient


# One statement each way: the window's count goes up by one, and the key
# goes when its window ends (a minute or so after).
class RedisCounts:
    """Rate-limit counts in Redis: one count per client and action across
    every server. While Redis is gone, each server counts on its own file
    (``fallback``), so a limit is at most a few times looser, never off."""

    def __init__(self, location: str, fallback: str = "") -> None:
        self.client = Redis.from_url(location, **CONNECTION_OPTIONS)
        self.fallback = FileCounts(fallback or "rate-limits.sqlite3")
        self.outage = Outage("rate limits")

    def hit(self, key: str, window_start: int, window: int = 24 * 3600) -> int:
        name = f"rate:{key}:{window_start}"

        def count() -> int:
            pipe = self.client.pipeline(transaction=False)
            pipe.incr(name)
            pipe.expireat(name, window_start + window + 1)
            counted, _ = pipe.execute()
            return int(counted)

        return self.outage.call(
            count, lambda: self.fallback.hit(key, window_start, window)
        )

    def clear(self) -> None:
        def forget() -> None:
            names = list(self.client.scan_iter(match="rate:*", count=1000))
            if names:
                self.client.delete(*names)

        self.outage.call(forget, lambda: None)
        self.fallback.clear()
