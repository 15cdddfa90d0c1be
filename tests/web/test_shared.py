"""The cache and the rate-limit counts in Redis (REDIS_URL), and a night
that goes on when Redis stops: against a Redis of the test's own (a free
port, nothing on disk), started and stopped here; never the machine's."""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client, override_settings
from redis.connection import Connection

from bench.cluster import RedisServer
from scorekeeper.models import Game
from scorekeeper.web.rate_counts import counts
from scorekeeper.web.shared import SharedCache
from tests.conftest import join
from tests.records import new_game

pytestmark = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="redis-server is not installed"
)


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


def shared_settings(redis: RedisServer, tmp_path: Path) -> dict[str, Any]:
    """What config.settings makes of REDIS_URL."""
    return {
        "CACHES": {
            "default": {
                "BACKEND": "scorekeeper.web.shared.SharedCache",
                "LOCATION": redis.url,
                "KEY_PREFIX": "pepper",
            }
        },
        "RATE_LIMIT_STORE": {
            "BACKEND": "scorekeeper.web.shared.RedisCounts",
            "LOCATION": redis.url,
            "OPTIONS": {"fallback": str(tmp_path / "counts.sqlite3")},
        },
    }


def said(caplog: pytest.LogCaptureFixture, words: str) -> int:
    return sum(words in record.getMessage() for record in caplog.records)


def test_two_servers_caches_are_one_and_a_gone_redis_is_a_miss_said_once(
    redis: RedisServer,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    caplog.set_level(logging.WARNING, logger="scorekeeper.web.shared")
    params = {"KEY_PREFIX": "pepper"}
    server_a, server_b = SharedCache(redis.url, params), SharedCache(redis.url, params)
    server_a.set("season:1", {"rows": [1, 2]}, timeout=None)
    assert server_b.get("season:1") == {"rows": [1, 2]}

    redis.stop()
    # No waiting on a dead Redis: counted in connections tried, not timed
    # (a busy machine must not fail it). The first command finds it gone
    # (its retry tries one new connection); the rest do not ask it again.
    tried: list[object] = []
    connect = Connection.connect

    def counted(self: Connection) -> None:
        tried.append(self)
        connect(self)  # type: ignore[no-untyped-call]

    monkeypatch.setattr(Connection, "connect", counted)
    # However long the loop takes here, it is within one retry interval.
    monkeypatch.setattr("scorekeeper.web.shared.RETRY_SECONDS", 3600.0)
    for _ in range(200):  # 200 requests' reads and writes
        assert server_b.get("season:1") is None
        server_b.set("season:1", {"rows": []}, timeout=None)
        assert server_b.get_many(["season:1", "night:2"]) == {}
    assert 1 <= len(tried) <= 2
    monkeypatch.undo()
    assert said(caplog, "Redis is not answering") == 1  # once, not 600 times

    redis.start()  # the same port, empty
    time.sleep(2.1)  # a worker asks again after RETRY_SECONDS
    server_b.set("season:1", {"rows": [3]}, timeout=None)
    assert server_b.get("season:1") == {"rows": [3]}
    assert said(caplog, "Redis answers again") == 1


def test_a_limit_counts_on_both_servers_then_on_each_when_redis_goes(
    redis: RedisServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from scorekeeper.web.shared import RedisCounts

    caplog.set_level(logging.WARNING, logger="scorekeeper.web.shared")
    server_a = RedisCounts(redis.url, fallback=str(tmp_path / "a.sqlite3"))
    server_b = RedisCounts(redis.url, fallback=str(tmp_path / "b.sqlite3"))
    window = int(time.time()) // 60 * 60
    answers = [
        (server_a if n % 2 else server_b).hit("join:10.0.0.7", window, 60)
        for n in range(6)
    ]
    assert answers == [1, 2, 3, 4, 5, 6]  # one count, whichever server asks
    assert server_a.hit("join:10.0.0.8", window, 60) == 1  # another client

    redis.stop()
    alone = [server_a.hit("join:10.0.0.7", window, 60) for _ in range(3)]
    assert alone == [1, 2, 3]  # the server's own count now
    assert server_b.hit("join:10.0.0.7", window, 60) == 1
    assert said(caplog, "Redis is not answering (rate limits)") == 2  # each once


@pytest.mark.django_db
def test_a_night_goes_on_when_redis_stops(
    redis: RedisServer,
    tmp_path: Path,
    client: Client,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Hands saved, polls and pages answered with Redis there, gone and
    back; the limit on saves holds throughout (per server while it is
    gone); the log says so once."""
    caplog.set_level(logging.WARNING, logger="scorekeeper.web.shared")
    limits = {"append": (12, 3600)}
    with override_settings(**shared_settings(redis, tmp_path), RATE_LIMITS=limits):
        counts().clear()
        game = new_game("classic", target_score=5000)
        join(client, game)
        assert client.get(f"/games/{game.pk}/").status_code == 200
        statuses = [save(client, game, seq) for seq in range(4)]
        assert caches["default"].get_many([]) == {}
        assert any(key.startswith(b"pepper:") for key in _keys(redis))  # cached

        redis.stop()
        statuses += [save(client, game, seq) for seq in range(4, 8)]
        for seen in (0, 8):
            poll = client.get(f"/games/{game.pk}/poll", {"seq": seen})
            assert poll.status_code == (200 if seen < 8 else 204)
        page = client.get(f"/games/{game.pk}/")
        assert page.status_code == 200
        game.refresh_from_db()
        assert game.last_seq == 8  # every save stored
        # The server counts on its own now (4 in Redis before it went are
        # forgotten): 12 in its file before it refuses.
        statuses += [save(client, game, seq) for seq in range(8, 18)]
        assert statuses == [200] * 16 + [429] * 2
        assert said(caplog, "Redis is not answering (cache)") == 1
        assert said(caplog, "Redis is not answering (rate limits)") == 1
        counts().clear()


def save(client: Client, game: Game, seq: int) -> int:
    """A hand saved as the phone saves it: the bidder bids one and makes it."""
    response = client.post(
        f"/games/{game.pk}/hands",
        {
            "expected_seq": seq,
            "event_id": f"hand-{seq}",
            "action": "save",
            "bidder": seq % 4,
            "bid": "1",
            "trump": "hearts",
            "outcome": "played",
            "taken": 3,
        },
        headers={"HX-Request": "true"},
    )
    return response.status_code


def _keys(redis: RedisServer) -> list[bytes]:
    from redis import Redis

    client = Redis.from_url(redis.url)
    try:
        return list(client.scan_iter(count=1000))
    finally:
        client.close()


def _settings(**env: str) -> dict[str, Any]:
    """What config.settings makes of this environment."""
    import json
    import os
    import subprocess
    import sys

    code = (
        "import json, config.settings as s; print(json.dumps({'cache': "
        "s.CACHES['default']['BACKEND'], 'counts': s.RATE_LIMIT_STORE, "
        "'db': s.DATABASES['default'].get('OPTIONS', {}).get('pool'), "
        "'age': s.DATABASES['default'].get('CONN_MAX_AGE')}))"
    )
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**keep, "SECRET_KEY": "x" * 50, **env},
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def test_without_redis_url_the_settings_are_one_servers() -> None:
    found = _settings()
    assert found["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert found["counts"]["BACKEND"] == "scorekeeper.web.rate_counts.FileCounts"
    assert found["db"] is None  # SQLite


def test_redis_url_shares_the_cache_and_the_counts_and_postgres_is_pooled() -> None:
    found = _settings(
        REDIS_URL="redis://127.0.0.1:6390/5",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/x",
        DB_POOL_MAX="6",
    )
    assert found["cache"] == "scorekeeper.web.shared.SharedCache"
    assert found["counts"]["BACKEND"] == "scorekeeper.web.shared.RedisCounts"
    assert found["counts"]["LOCATION"] == "redis://127.0.0.1:6390/5"
    assert found["db"] == {"min_size": 1, "max_size": 6, "timeout": 10.0}
    assert found["age"] == 0  # the pool keeps the connections
    unpooled = _settings(
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/x", DB_POOL_MAX="0"
    )
    assert unpooled["db"] is None and unpooled["age"] == 60
