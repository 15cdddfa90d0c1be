"""A league Tuesday at scale: many clubs' nights at once, through nginx.

100 nights under way at once (a club each: its own league, season and
night of 4 tables), 400 tables in all. Each table's phone polls every
1.5 s and saves a hand every 20 s; each night's desk and TV poll every
3 s (as their pages do); 500 people reload a season's public standings,
each every 30 s. Every client starts at a random moment of its period,
runs for ``SECONDS``, and comes from an address of its own (127.x.y.z:
the rate limits count per address, as behind a real load balancer).
The first ``WARMUP`` seconds (desks and TVs opening their pages, every
client's first request) are not counted.

Two set-ups, side by side, with the same 4 gunicorn workers in all
(of ``SCALE_THREADS`` threads each, default 4: a worker waiting on
PostgreSQL answers another request meanwhile): two servers of 2 workers
on PostgreSQL and Redis behind nginx, and one server of 4 workers on
PostgreSQL without Redis (each process's own cache, this machine's
counts file) behind the same nginx. Printed: the
requests a second, p50 and p99 of each kind of request as the client saw
it (through nginx), and every error (a status the page would not expect,
or no answer). The load generator is one Python process on the same
machine: its own delays are in the figures.

    make bench-scale   (or: .venv/bin/python bench/scale.py [SECONDS])
    SCALE_NIGHTS=25 make bench-scale     a quarter of it (5 readers a night)
    SCALE_ONLY=redis make bench-scale    one set-up ("redis" or "alone")

Below the table: the CPU each part used over the counted seconds, in
cores (the load generator, the app servers, nginx, PostgreSQL's backends
of the bench's database, Redis, and "other": the rest of the machine).

Needs PostgreSQL (PG_SERVER, default postgres://postgres@127.0.0.1:5432),
redis-server and nginx; without them it says what is missing and stops.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import secrets
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import Cluster, missing  # noqa: E402
from bench.cpu import Groups, reading, used  # noqa: E402

NIGHTS = int(os.environ.get("SCALE_NIGHTS", 100))  # fewer: a smaller Tuesday
TABLES = 4
READERS = 5 * NIGHTS
POLL_EVERY = 1.5
SAVE_EVERY = 20.0
SCREEN_EVERY = 3.0
READ_EVERY = 30.0
WARMUP = 20.0  # every client starts in it (desks and TVs load their pages)
SECONDS = int(sys.argv[1]) if len(sys.argv) > 1 else 60
CSRF = secrets.token_hex(16)
DATABASE = f"pepper_scale_{os.getpid()}"
THREADS = int(os.environ.get("SCALE_THREADS", 4))  # each worker's (WEB_THREADS)
ONLY = os.environ.get("SCALE_ONLY", "")  # "redis" or "alone": one set-up
OK = {
    "poll": {200, 204},
    "save": {200},
    "desk": {200, 204},
    "tv": {200, 204},
    "public": {200},
}


@dataclass
class Tally:
    """What the clients saw from ``since`` on (before it: the warm-up)."""

    since: float = 0.0
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    cpu: dict[str, float] = field(default_factory=dict)  # seconds, counted part


class Connection:
    """One client's keep-alive HTTP/1.1 connection to nginx."""

    def __init__(self, port: int, source: str) -> None:
        self.port, self.source = port, source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, str]:
        for attempt in range(2):  # a kept connection nginx has closed: once more
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(self.source, 0)
                )
            try:
                return await self._exchange(method, path, headers, body)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _exchange(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, str]:
        assert self.reader is not None and self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        found = {}
        for line in header_lines:
            if ":" in line:
                name, _, value = line.partition(":")
                found[name.strip().lower()] = value.strip()
        if found.get("transfer-encoding") == "chunked":
            parts = []
            while True:
                size = int((await self.reader.readline()).strip(), 16)
                parts.append(await self.reader.readexactly(size + 2))
                if size == 0:
                    break
            text = b"".join(parts).decode(errors="replace")
        else:
            length = int(found.get("content-length", 0))
            text = (await self.reader.readexactly(length)).decode(errors="replace")
        if found.get("connection", "").lower() == "close":
            self.close()
        return status, text

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def timed(
    tally: Tally,
    kind: str,
    connection: Connection,
    method: str,
    path: str,
    headers: dict[str, str],
    body: bytes = b"",
) -> tuple[int, str]:
    start = time.perf_counter()
    counted = time.monotonic() >= tally.since
    try:
        status, text = await asyncio.wait_for(
            connection.request(method, path, headers, body), timeout=30
        )
    except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError) as error:
        connection.close()
        if counted:
            tally.errors[kind].append(f"{error.__class__.__name__}: {error}")
        return 0, ""
    if counted:
        tally.times[kind].append(time.perf_counter() - start)
        if status not in OK[kind]:
            tally.errors[kind].append(f"{status} on {path[:40]}")
    return status, text


def address(number: int) -> str:
    """A client's own address (Linux answers on all of 127.0.0.0/8)."""
    return f"127.1.{number // 250}.{1 + number % 250}"


async def phone(
    tally: Tally, port: int, number: int, table: dict[str, str], until: float
) -> None:
    connection = Connection(port, address(number))
    cookie = f"sessionid={table['cookie']}; csrftoken={CSRF}"
    game = table["game"]
    seq = 0
    htmx = {"Cookie": cookie, "HX-Request": "true"}
    next_save = time.monotonic() + random.uniform(0, SAVE_EVERY)
    await asyncio.sleep(random.uniform(0, POLL_EVERY))
    while time.monotonic() < until:
        started = time.monotonic()
        if started >= next_save:
            form = (
                f"expected_seq={seq}&event_id=scale-{number}-{seq}&action=save"
                f"&bidder={seq % 4}&bid=1&trump=hearts&outcome=played&taken=3"
            )
            status, _ = await timed(
                tally,
                "save",
                connection,
                "POST",
                f"/games/{game}/hands",
                {
                    **htmx,
                    "X-CSRFToken": CSRF,
                    "Content-Type": "application/x-www-form-urlencoded",
                },
                form.encode(),
            )
            if status == 200:
                seq += 1
            next_save += SAVE_EVERY
        else:
            await timed(
                tally,
                "poll",
                connection,
                "GET",
                f"/games/{game}/poll?seq={seq}&form=untouched",
                htmx,
            )
        await asyncio.sleep(max(0.0, POLL_EVERY - (time.monotonic() - started)))
    connection.close()


def held(page: str, poller: str) -> dict[str, str]:
    """What a desk's or TV's poll sends: its hidden versions and ``v``."""
    found = dict(re.findall(r'class="poll-state" name="(\w+)" value="([^"]*)"', page))
    version = re.search(rf'id="{poller}" hx-get="[^"]*\?v=([^"]+)"', page)
    if version is not None:
        found["v"] = version.group(1)
    return found


async def screen(
    tally: Tally, port: int, number: int, night: dict[str, Any], kind: str, until: float
) -> None:
    connection = Connection(port, address(number))
    headers = {"Cookie": f"sessionid={night['organizer']}"}
    path = f"/nights/{night['night']}/{kind}"
    poller = "desk-poll" if kind == "desk" else "tv-poll"
    await asyncio.sleep(random.uniform(0, WARMUP))  # opened during the warm-up
    status, page = await timed(tally, kind, connection, "GET", path, headers)
    state = held(page, poller)
    while time.monotonic() < until:
        started = time.monotonic()
        query = "&".join(f"{k}={v}" for k, v in state.items())
        status, answer = await timed(
            tally,
            kind,
            connection,
            "GET",
            f"{path}?{query}",
            {**headers, "HX-Request": "true"},
        )
        if status == 200:
            state |= held(answer, poller)
        await asyncio.sleep(max(0.0, SCREEN_EVERY - (time.monotonic() - started)))
    connection.close()


async def reader(
    tally: Tally, port: int, number: int, token: str, until: float
) -> None:
    connection = Connection(port, address(number))
    await asyncio.sleep(random.uniform(0, READ_EVERY))
    while time.monotonic() < until:
        started = time.monotonic()
        await timed(tally, "public", connection, "GET", f"/standings/{token}", {})
        await asyncio.sleep(max(0.0, READ_EVERY - (time.monotonic() - started)))
    connection.close()


async def tuesday(
    port: int, nights: list[dict[str, Any]], seconds: int, groups: Groups
) -> Tally:
    tally = Tally(since=time.monotonic() + WARMUP)
    until = tally.since + seconds
    clients = [watch(tally, until, groups)]
    number = 0
    for night in nights:
        for table in night["tables"]:
            clients.append(phone(tally, port, number, table, until))
            number += 1
        for kind in ("desk", "tv"):
            clients.append(screen(tally, port, number, night, kind, until))
            number += 1
    for n in range(READERS):
        token = nights[n % len(nights)]["public"]
        clients.append(reader(tally, port, number, token, until))
        number += 1
    await asyncio.gather(*clients)
    return tally


async def watch(tally: Tally, until: float, groups: Groups) -> None:
    """Each process group's CPU seconds over the counted part."""
    await asyncio.sleep(tally.since - time.monotonic())
    before = reading(groups)
    await asyncio.sleep(until - time.monotonic())
    tally.cpu = used(before, reading(groups))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(label: str, cluster: Cluster) -> tuple[str, Tally]:
    started = time.monotonic()
    nights = cluster.seed(NIGHTS, TABLES)
    print(f"  {label}: {NIGHTS} nights seeded in {time.monotonic() - started:.0f} s")
    groups: Groups = {
        "load generator": (lambda: [os.getpid()], False),
        "app servers": (cluster.server_pids, True),
        "task worker": (cluster.worker.pids, False),
        "nginx": (cluster.balancer.pids, True),
        "PostgreSQL": (cluster.backend_pids, False),
        "Redis": (cluster.redis_pids, False),
    }
    tally = asyncio.run(tuesday(cluster.balancer.port, nights, SECONDS, groups))
    return label, tally


def report(results: list[tuple[str, Tally]]) -> None:
    ms = 1000
    print(
        f"\nA league Tuesday: {NIGHTS} nights, {NIGHTS * TABLES} tables, "
        f"{READERS} public readers, {SECONDS} s each (times through nginx, ms)"
    )
    head = f"  {'request':8}"
    for label, _ in results:
        head += f" | {label:^33}"
    print(head)
    sub = f"  {'':8}" + " | {:>7} {:>7} {:>7} {:>8}".format(
        "req/s", "p50", "p99", "errors"
    ) * len(results)
    print(sub)
    for kind in OK:
        line = f"  {kind:8}"
        for _, tally in results:
            times = tally.times[kind]
            if times:
                line += (
                    f" | {len(times) / SECONDS:7.1f} "
                    f"{ms * statistics.median(times):7.1f} "
                    f"{ms * percentile(times, 0.99):7.1f} "
                    f"{len(tally.errors[kind]):8d}"
                )
            else:
                line += f" | {'-':>7} {'-':>7} {'-':>7} {len(tally.errors[kind]):8d}"
        print(line)
    line = f"  {'all':8}"
    for _, tally in results:
        count = sum(len(t) for t in tally.times.values())
        errors = sum(len(e) for e in tally.errors.values())
        line += f" | {count / SECONDS:7.1f} {'':7} {'':7} {errors:8d}"
    print(line)
    for label, tally in results:
        cores = ", ".join(
            f"{name} {seconds / SECONDS:.2f}" for name, seconds in tally.cpu.items()
        )
        print(f"  {label}: CPU in cores (of 2): {cores}")
    for label, tally in results:
        for kind, found in tally.errors.items():
            if found:
                common = Counter(found).most_common(3)
                print(f"  {label}, {kind}: {len(found)} errors: {common}")
    print(
        "  targets: no errors, save p99 < 150 ms, poll p99 < 50 ms "
        "(the machine's 2 cores run the servers, PostgreSQL, Redis, nginx "
        "and this load generator)"
    )


def main() -> None:
    lacking = missing()
    if lacking:
        print(f"bench/scale.py skipped: it needs {', '.join(lacking)}")
        return
    results = []
    shape: dict[str, Any] = {
        "database": DATABASE,
        "extra_env": {"WEB_THREADS": str(THREADS)},
    }
    if ONLY in ("", "redis"):
        with Cluster(2, redis=True, workers=2, **shape) as cluster:
            results.append(run("2 servers x 2 workers + Redis", cluster))
    if ONLY in ("", "alone"):
        with Cluster(1, redis=False, workers=4, **shape) as cluster:
            results.append(run("1 server x 4 workers, no Redis", cluster))
    report(results)


if __name__ == "__main__":
    main()
