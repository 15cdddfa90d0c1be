"""Real-browser tests: Debian's Chromium, driven by Playwright, on a phone.

Skipped when /usr/bin/chromium is missing, unless BROWSER_TESTS=required
(CI sets it, after installing chromium), in which case they fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from scorekeeper.models import Game
from tests.records import new_game

# Debian's headless shell (package chromium-headless-shell: the same engine
# without the full browser around it, what Playwright itself runs headless)
# where it is installed, else Debian's Chromium; PEPPER_CHROMIUM names
# another. The shell took 24% less of the machine's CPU on the same 8
# browser tests, side by side (docs/benchmarks.md, the tests' time).
CHROMIUM = next(
    (
        path
        for path in (
            Path(os.environ.get("PEPPER_CHROMIUM") or "/nonexistent"),
            Path("/usr/bin/chromium-headless-shell"),
        )
        if path.is_file()
    ),
    Path("/usr/bin/chromium"),
)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"
# The guides' screenshots: rewritten in docs/ only when asked (UPDATE_DOCS=1),
# so that a test run leaves the tree as it found it.
DOCS = (
    Path(__file__).resolve().parents[2] / "docs"
    if os.environ.get("UPDATE_DOCS")
    else SCREENSHOTS
)
PHONE = {"width": 360, "height": 740}
# How long a test waits for what another phone, a poll or the server will
# show (ms). Generous on purpose: a test says *that* it arrives; how fast
# is for `make bench` (a busy machine must not fail the suite).
LIVE = 30_000
expect.set_options(timeout=15_000)

# Playwright's sync API runs an event loop in the test's thread; the ORM
# calls the tests make there are still plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    if os.environ.get("BROWSER_TESTS") == "required":
        raise pytest.UsageError(f"browser tests are required but {CHROMIUM} is missing")
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is not installed")
    for item in items:
        if "e2e" in item.nodeid:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    return {
        "executable_path": str(CHROMIUM),
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args() -> dict[str, Any]:
    # Service workers only where a test asks for them (tests/e2e/offline.py):
    # a worker keeping pages would make the other tests depend on its cache.
    return {"viewport": PHONE, "device_scale_factor": 1, "service_workers": "block"}


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """The tables' phones (and a TV), closed after the test: a page left
    open would go on polling the live server while later tests run."""
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


@pytest.fixture
def console_errors(page: Page) -> Iterator[list[str]]:
    """Every console error and uncaught page error; the test asserts none."""
    errors: list[str] = []
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if message.type == "error" else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield errors


class Looker:
    """Screenshots kept as artifacts, and axe-core's verdict on the page."""

    def __init__(self, page: Page, name: str, width: int = PHONE["width"]) -> None:
        self.page, self.name, self.count, self.width = page, name, 0, width
        self.axe = Axe()

    def look(self, label: str) -> None:
        self.count += 1
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{self.name}-{self.count:02d}-{label}.png"
        # A swap still on its way would be looked at half done.
        expect(self.page.locator(".htmx-request")).to_have_count(0)
        self.page.screenshot(path=str(path), full_page=True)
        results = self.axe.run(self.page)
        assert results.violations_count == 0, results.generate_report()
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= self.width, (
            f"{label}: the page scrolls sideways ({width}px): {self._wide()}"
        )

    def _wide(self) -> list[str]:
        """The elements past the page's right edge (to say which)."""
        found: list[str] = self.page.evaluate(
            """width => [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > width)
                .slice(0, 5)
                .map(e => `${e.tagName}.${e.className} ${e.getBoundingClientRect().right}`)""",
            self.width,
        )
        return found


@pytest.fixture
def looker(page: Page, request: pytest.FixtureRequest) -> Looker:
    return Looker(page, request.node.name)


def fill_hand(
    form: Locator,
    *,
    bidder: str | None = None,
    bid: str | None = None,
    trump: str,
    taken: str | None = None,
    free: str | None = None,
) -> None:
    """Fill the record form as a player taps it (not saved yet)."""
    if bidder:
        form.get_by_role("group", name="Bidder", exact=True).get_by_label(
            bidder, exact=True
        ).check()
    if bid:
        form.get_by_role("group", name="Bid", exact=True).get_by_label(
            bid, exact=True
        ).check()
    form.get_by_role("radio", name=trump.replace("-", " "), exact=True).check()
    if free is not None:
        form.get_by_role("group", name="Outcome").get_by_label("Conceded").check()
        form.get_by_role(
            "group", name="Free tricks granted to the defenders"
        ).get_by_label(free, exact=True).check()
    else:
        form.get_by_role(
            "group", name="Tricks the bidding side took (of 6)"
        ).get_by_label(taken or "", exact=True).check()


def classic_game() -> Game:
    """A four-player classic game, Ann dealing first, started now."""
    return new_game(now=timezone.now())


# The offline tests' fixtures: a server that stops, phones with a service worker.
from tests.e2e.offline import phones, server  # noqa: E402, F401
