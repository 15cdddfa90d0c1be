from __future__ import annotations

import os
from collections import defaultdict
from datetime import datetime
from pathlib import Path

import pytest
from _pytest.terminal import TerminalReporter
from django.core.cache import cache
from django.test import Client

import tests.hypothesis_profiles  # noqa: F401  (loads the profile first)
from scorekeeper.models import Game
from scorekeeper.web.offline_files import UNBUILT_HINT, offline_missing
from scorekeeper.web.rate_counts import counts
from tests.production import collect_static
from tests.records import NOW, new_game

TESTS = Path(__file__).resolve().parent
# Fixtures that open the test database: a test that uses none of them
# (nor the django_db mark) cannot touch it, so one database run suffices.
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences"}
# The tests of offline play: they need the phone's engine, which `make
# setup` installs only where Node.js (npm) is: the engine's build, and the
# browser tests of a phone with no signal (the offline mark adds others).
OFFLINE_FOLDER = TESTS / "offline"
OFFLINE_BROWSER_FILES = "test_offline"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="run only the tests whose outcome depends on the database "
        "(.ci/run's PostgreSQL pass): not the pure and not the browser tests, "
        "which the SQLite pass has run once already",
    )
    parser.addoption(
        "--times-by-folder",
        action="store_true",
        help="print the tests' time summed by folder (make test-times)",
    )


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    for item in items:
        if item.path.is_relative_to(TESTS / "e2e"):
            item.add_marker(pytest.mark.browser)
        if item.path.is_relative_to(OFFLINE_FOLDER) or (
            item.path.is_relative_to(TESTS / "e2e")
            and item.path.name.startswith(OFFLINE_BROWSER_FILES)
        ):
            item.add_marker(pytest.mark.offline)
    _skip_offline_tests_without_the_engine(items)
    if not config.getoption("--database-tests-only"):
        return
    kept = [item for item in items if _depends_on_the_database(item)]
    config.hook.pytest_deselected(items=[i for i in items if i not in kept])
    items[:] = kept


def _skip_offline_tests_without_the_engine(items: list[pytest.Item]) -> None:
    """On a machine set up without Node.js the offline tests are skipped,
    saying why, unless OFFLINE_TESTS=required (CI), where they fail."""
    missing = offline_missing()
    offline = [item for item in items if item.get_closest_marker("offline")]
    if not missing or not offline:
        return
    if os.environ.get("OFFLINE_TESTS") == "required":
        raise pytest.UsageError(
            f"offline tests are required but {missing}. {UNBUILT_HINT}"
        )
    skip = pytest.mark.skip(reason=f"offline play is off: {missing}. {UNBUILT_HINT}")
    for item in offline:
        item.add_marker(skip)


def _depends_on_the_database(item: pytest.Item) -> bool:
    """A test that opens the database (or several servers on PostgreSQL),
    and is not a browser test: a browser test's database work is the
    same services' work the database tests run on both databases."""
    if item.get_closest_marker("browser"):
        return False
    if item.get_closest_marker("servers"):
        return True
    uses = set(getattr(item, "fixturenames", ()))
    return bool(item.get_closest_marker("django_db")) or bool(uses & DATABASE_FIXTURES)


def pytest_terminal_summary(
    terminalreporter: TerminalReporter, config: pytest.Config
) -> None:
    if not config.getoption("--times-by-folder"):
        return
    spent: dict[str, float] = defaultdict(float)
    counted: dict[str, int] = defaultdict(int)
    for reports in terminalreporter.stats.values():
        for report in reports:
            if isinstance(report, pytest.TestReport):
                folder = report.nodeid.split("::")[0].rsplit("/", 1)[0]
                spent[folder] += report.duration
                counted[folder] += report.when == "call"
    terminalreporter.write_sep("=", "time by folder (setup + call + teardown)")
    for folder, seconds in sorted(spent.items(), key=lambda kv: -kv[1]):
        terminalreporter.write_line(
            f"{seconds:8.1f} s  {counted[folder]:5d} tests  {folder}"
        )
    terminalreporter.write_line(f"{sum(spent.values()):8.1f} s  in all (every worker)")


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """collectstatic's output, gathered once per test process for the tests
    that serve the production settings (tests/production.py)."""
    return collect_static(tmp_path_factory.mktemp("collected"))


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Each test starts with an empty cache: the test database reuses ids,
    so a cached night of an earlier test could match a key of this one;
    and with no rate-limit counts."""
    cache.clear()
    counts().clear()


@pytest.fixture
def now() -> datetime:
    return NOW


def join(client: Client, game: Game, token: str | None = None) -> None:
    """The test client opens the game's edit link (or the token given)."""
    client.get(f"/join/{token or game.edit_token}")


@pytest.fixture
def moon_game(db: None, client: Client) -> Game:
    """Ann, Bob, Cat and Dan start a moon-42 game; Ann deals first; the
    test client holds its edit link."""
    game = new_game("moon-42")
    join(client, game)
    return game
