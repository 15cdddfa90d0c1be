"""What the offline tests share: a test server that can be stopped and
started again on its port (so a service worker cannot reach it either),
phones that allow service workers, and the page read as a player reads it."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connections
from django.test.testcases import LiveServerThread
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import PHONE

READY = "ready to score offline"
ENGINE_LOADS = 90_000  # ms: Pyodide on a loaded 2-core machine
SYNCED = 60_000  # ms: what waits on a phone reaches the server
LOOKS = 250  # ms between two looks of ``until``


class _Closing(ThreadedWSGIServer):
    """Closes its kept-alive connections too when stopped: a stopped
    server must answer nothing, not even on a connection already open."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_reuse_address"] = True  # started again on its port
        super().__init__(*args, **kwargs)
        self.open: set[socket.socket] = set()

    def process_request(self, request: Any, client_address: Any) -> None:
        self.open.add(request)
        super().process_request(request, client_address)

    def close_all(self) -> None:
        for sock in list(self.open):
            try:
                sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            except OSError:
                pass


class _Thread(LiveServerThread):
    server_class = _Closing


class Server:
    """A live server on one port that a test may stop and start again."""

    def __init__(self) -> None:
        self.port = 0
        self.thread: LiveServerThread | None = None
        self.start()

    def start(self) -> None:
        memory = {
            conn.alias: conn
            for conn in connections.all()
            if conn.vendor == "sqlite" and conn.is_in_memory_db()  # type: ignore[attr-defined]
        }
        for conn in memory.values():
            conn.inc_thread_sharing()
        thread = _Thread(
            "localhost", StaticFilesHandler, connections_override=memory, port=self.port
        )
        thread.daemon = True
        thread.start()
        thread.is_ready.wait()
        if thread.error:
            raise thread.error
        self.port = thread.port
        self.thread = thread

    def stop(self) -> None:
        assert self.thread is not None
        httpd: _Closing = self.thread.httpd  # type: ignore[assignment]
        self.thread.terminate()
        httpd.close_all()
        self.thread = None

    @property
    def url(self) -> str:
        return f"http://localhost:{self.port}"


@pytest.fixture
def server() -> Iterator[Server]:
    running = Server()
    yield running
    if running.thread is not None:
        running.stop()


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Phones that keep pages with a service worker, closed after the test."""
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


def new_phone(
    browser: Browser, phones: list[BrowserContext], **options: Any
) -> BrowserContext:
    """A 360 px phone; ``options``: the context's others (its user agent...)."""
    context = browser.new_context(
        viewport={"width": PHONE["width"], "height": PHONE["height"]},
        device_scale_factor=1,
        service_workers="allow",
        **options,
    )
    phones.append(context)
    return context


def open_ready(page: Page, url: str) -> None:
    """Open a game page and wait until the phone can score offline."""
    page.goto(url)
    expect(page.locator("#offline-status")).to_contain_text(READY, timeout=ENGINE_LOADS)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def ready_phone(browser: Browser, phones: list[BrowserContext], url: str) -> Page:
    """A new phone with ``url`` open, ready to score offline."""
    page = new_phone(browser, phones).new_page()
    open_ready(page, url)
    return page


def offline_phone(browser: Browser, phones: list[BrowserContext], url: str) -> Page:
    """A ready phone that has just lost its connection."""
    page = ready_phone(browser, phones, url)
    page.context.set_offline(True)
    return page


def shown(page: Page) -> dict[str, Any]:
    """What the game page says: totals, turn, and each hand's row (summary,
    totals, explanation), newest first."""
    found: dict[str, Any] = page.evaluate(
        """() => ({
            totals: [...document.querySelectorAll('#board .side-total')].map(e => e.textContent.trim()),
            turn: (document.querySelector('#board .turn, #board .winner') || {}).textContent || '',
            forced: (document.querySelector('#board .forced') || {}).textContent || '',
            rows: [...document.querySelectorAll('#hands > li')].map(li => ({
                summary: li.querySelector('.hand-what').firstChild.textContent.trim(),
                totals: li.querySelector('.hand-score').textContent.trim(),
                explanation: li.querySelector('.explanation').textContent.trim(),
                points: li.querySelector('details > p').textContent.trim(),
            })),
        })"""
    )
    found["turn"] = " ".join(str(found["turn"]).split())
    return found


def log_of(page: Page, server: Server, game_id: object) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads(
        page.context.request.get(f"{server.url}/games/{game_id}/log.json").text()
    )["events"]
    return events


def until(
    check: Callable[[], bool],
    never: str,
    *,
    page: Page | None = None,
    timeout: int = SYNCED,
) -> None:
    """Wait for ``check`` to hold (what the server or a phone's store holds,
    which no page shows), looking every 250 ms for ``timeout`` ms; else
    fail saying what ``never`` happened. A ``page`` given goes on handling
    its events meanwhile."""
    for _ in range(timeout // LOOKS):
        if check():
            return
        if page is None:
            time.sleep(LOOKS / 1000)
        else:
            page.wait_for_timeout(LOOKS)
    if not check():
        pytest.fail(f"{never} in {timeout // 1000} s")
