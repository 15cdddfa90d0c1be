"""A slow phone link for the benchmarks: a TCP proxy that forwards every
connection to one server, each direction through one shared link of a
given rate, with half the round trip added on the way (and a round trip
to connect). Chromium sends it every request (``--proxy-server``), the
service worker's and the engine worker's too, which its per-page network
throttle does not reach. Hand-written: the proxies that shape (toxiproxy,
tc netem) need a binary or root; this is a page of asyncio.

    with Shaper(upstream_port, down_bps=1_600_000, up_bps=750_000, rtt=0.150) as link:
        ... --proxy-server=http://127.0.0.1:{link.port} ...
        link.down_bytes, link.up_bytes
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from types import TracebackType

CHUNK = 16_384


class _Link:
    """One direction: bytes leave one after another at ``bps``, and arrive
    ``delay`` seconds after they left."""

    def __init__(self, bps: float, delay: float) -> None:
        self.bps, self.delay = bps, delay
        self.free_at = 0.0
        self.bytes = 0

    def arrival(self, size: int) -> float:
        start = max(time.monotonic(), self.free_at)
        self.free_at = start + size * 8 / self.bps
        self.bytes += size
        return self.free_at + self.delay


async def _carry(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    link: _Link,
    requests: list[tuple[float, bytes]] | None = None,
) -> None:
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def deliver() -> None:
        while True:
            due, data = await queue.get()
            if not data:
                break
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            writer.write(data)
            await writer.drain()
        writer.close()

    delivering = asyncio.create_task(deliver())
    try:
        while data := await reader.read(CHUNK):
            if requests is not None and data[:1].isupper():
                requests.append((time.monotonic(), data.split(b"\r\n", 1)[0]))
            queue.put_nowait((link.arrival(len(data)), data))
    except ConnectionError:
        pass
    queue.put_nowait((0.0, b""))
    with contextlib.suppress(ConnectionError):
        await delivering


class Shaper:
    def __init__(self, upstream: int, *, down_bps: float, up_bps: float, rtt: float):
        self.upstream, self.rtt = upstream, rtt
        self.down, self.up = _Link(down_bps, rtt / 2), _Link(up_bps, rtt / 2)
        self.loop = asyncio.new_event_loop()
        self.serving: asyncio.Task[None] | None = None
        self.port = 0
        self.origin = f"http://127.0.0.1:{upstream}/".encode()
        # Each request's first line as it left the phone (a chunk that
        # starts a request): what crossed the link, and when.
        self.requests: list[tuple[float, bytes]] = []

    @property
    def down_bytes(self) -> int:
        return self.down.bytes

    @property
    def up_bytes(self) -> int:
        return self.up.bytes

    async def _client(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        try:
            first = await reader.read(CHUNK)
            # Only the phone's requests to the server cross the link (not the
            # browser's own calls home, which no phone at a table makes here).
            target = first.split(b" ", 2)[1:2]
            if not target or not target[0].startswith(self.origin):
                writer.close()
                return
            await asyncio.sleep(self.rtt)  # the connection's handshake
            server_reader, server_writer = await asyncio.open_connection(
                "127.0.0.1", self.upstream
            )
            self.requests.append((time.monotonic(), first.split(b"\r\n", 1)[0]))
            await asyncio.sleep(self.up.arrival(len(first)) - time.monotonic())
            server_writer.write(first)
            await asyncio.gather(
                _carry(reader, server_writer, self.up, self.requests),
                _carry(server_reader, writer, self.down),
            )
        except (OSError, asyncio.CancelledError):  # refused, or the link closed
            writer.close()

    def __enter__(self) -> Shaper:
        started = threading.Event()

        async def serve() -> None:
            self.serving = asyncio.current_task()
            server = await asyncio.start_server(self._client, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            started.set()
            async with server:
                await server.serve_forever()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            try:
                self.loop.run_until_complete(serve())
            except asyncio.CancelledError:  # closed: so are its connections
                pending = asyncio.all_tasks(self.loop)
                for task in pending:
                    task.cancel()
                gathered = asyncio.gather(*pending, return_exceptions=True)
                self.loop.run_until_complete(gathered)

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        started.wait()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.serving is not None:
            self.loop.call_soon_threadsafe(self.serving.cancel)
        self.thread.join(timeout=5)
