"""The production path: gunicorn, DEBUG off, the production settings, and
static files served by WhiteNoise after collectstatic. The page must be
styled and htmx must work, as on a real deployment."""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Looker

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def production(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(base URL, the demo game's edit link) of a gunicorn serving the
    production settings on a database of its own."""
    port = _free_port()
    env = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "0",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'production.sqlite3'}",
        "STATIC_ROOT": str(tmp_path / "static"),
        "PORT": str(port),
    }

    def manage(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        return done.stdout

    manage("migrate", "--noinput", "-v0")
    manage("collectstatic", "--noinput", "-v0")
    link = re.findall(r"http://\S+/join/\S+", manage("demo_game"))[0]
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "-c",
            "python:config.gunicorn_conf",
            "config.wsgi",
        ],
        cwd=ROOT,
        env=env,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", link
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_gunicorn_with_debug_off_serves_styles_and_htmx(
    page: Page, production: tuple[str, str], looker: Looker, console_errors: list[str]
) -> None:
    base, link = production
    page.goto(link)
    expect(page.locator(".side-total").first).to_be_visible()
    css = page.evaluate("[...document.styleSheets].map(s => s.href).join(' ')")
    assert re.search(r"/static/app\.[0-9a-f]{12}\.css", css), css  # hashed name
    background = page.evaluate(
        "getComputedStyle(document.querySelector('.top')).backgroundColor"
    )
    assert background not in ("", "rgba(0, 0, 0, 0)")  # app.css applied
    assert page.evaluate("typeof htmx") == "object"
    looker.look("production-game")
    page.goto(f"{base}/trick")
    page.get_by_role("button", name="A♥", exact=True).click()
    expect(page.locator(".trick li")).to_have_count(1)
    assert page.url == f"{base}/trick"  # swapped in place by htmx, no navigation
    missing = page.goto(f"{base}/join/no-such-link")
    assert missing is not None and missing.status == 404
    expect(page.get_by_role("heading", name="Nothing here")).to_be_visible()
    assert console_errors == [] or all("404" in error for error in console_errors)


@pytest.mark.offline
def test_the_offline_runtime_is_served_brotli_compressed(
    production: tuple[str, str],
) -> None:
    """What a phone fetches to score offline goes out as collectstatic
    compressed it (issue 32: brotli, the standard library included)."""
    base, _ = production
    with urllib.request.urlopen(f"{base}/offline/engine.json") as answer:
        files = json.load(answer)
    for url in (files["stdlib"], files["index"] + "pyodide.asm.wasm"):
        asked = urllib.request.Request(
            base + url, headers={"Accept-Encoding": "br, gzip"}
        )
        with urllib.request.urlopen(asked) as answer:
            assert answer.headers["Content-Encoding"] == "br", url
