"""The production path: gunicorn, DEBUG off, the production settings, and
static files served by WhiteNoise after collectstatic. The page must be
styled and htmx must work, as on a real deployment."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Looker
from tests.production import GROUP, free_port, gunicorn, manage, production_env

pytestmark = [pytest.mark.browser, GROUP]


@pytest.fixture(scope="session")
def production(
    tmp_path_factory: pytest.TempPathFactory, collected_static: Path
) -> Iterator[tuple[str, str]]:
    """(base URL, the demo game's edit link) of a gunicorn serving the
    production settings on a database of its own."""
    env = production_env(
        workdir=tmp_path_factory.mktemp("production"),
        static_root=collected_static,
        port=free_port(),
    )
    with gunicorn(env) as base:
        link = re.findall(r"http://\S+/join/\S+", manage("demo_game", env=env))[0]
        yield base, link


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
