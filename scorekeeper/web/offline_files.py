"""The files a phone needs to score with no connection, served as static
files (collected, compressed and cached by WhiteNoise like any other):
the pinned Pyodide runtime (npm, locked by package-lock.json) as `make
setup` builds it into ``build/offline/pyodide`` (scorekeeper/web/
offline_build.py: its standard library cut down to what the engine
imports, brotli copies beside), and the engine's own Python source, read
from the source tree itself, so the phone runs exactly the code the
server runs.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.finders import BaseFinder
from django.core import checks
from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage

from scorekeeper.web.offline_build import BuiltCopies, pyodide_built

PYODIDE_PREFIX = "offline/pyodide"
ENGINE_PREFIX = "offline/engine"
# idb (npm, locked): IndexedDB's requests as promises, for the phone's store.
IDB_PREFIX = "offline/idb"
IDB_FILES = ("umd.js",)
# The runtime and what it loads at start; nothing else of the package.
PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    # Named at the end of the scripts: collectstatic's manifest must find them.
    "pyodide.js.map",
    "pyodide.mjs.map",
)
# The engine the phone runs: the rules and the log core's pure modules
# (tests/test_layout.py checks that they import nothing else).
ENGINE_FILES = (
    "scorekeeper/__init__.py",
    *sorted(
        f"scorekeeper/rules/{path.name}"
        for path in (Path(__file__).resolve().parents[1] / "rules").glob("*.py")
    ),
    "scorekeeper/gamelog.py",
    "scorekeeper/score_document.py",
    "scorekeeper/refusals.py",
    "scorekeeper/tablewords.py",
    "scorekeeper/record_form.py",
    "scorekeeper/disputes.py",
    "scorekeeper/house_rules.py",  # a new game started offline
    "scorekeeper/phone.py",
)


def _roots() -> dict[str, tuple[Path, tuple[str, ...]]]:
    base = Path(settings.BASE_DIR)
    return {
        PYODIDE_PREFIX: (pyodide_built(), PYODIDE_FILES),
        ENGINE_PREFIX: (base, ENGINE_FILES),
        IDB_PREFIX: (base / "node_modules" / "idb" / "build", IDB_FILES),
    }


# Why offline play is off on a server set up without Node.js: said on the
# home page and by `manage.py check` (the hint is for whoever set it up).
UNBUILT = (
    "the phone's rules engine (Pyodide, installed with Node.js's npm) is not installed"
)
UNBUILT_HINT = (
    "Install Node.js (npm) and run `make setup` (or: npm ci && "
    "manage.py offline_build); until then games score online only."
)


@functools.cache
def offline_missing() -> str:
    """Why this server cannot offer offline play ("" when it can): the
    engine's runtime and the phone's store library are files `make setup`
    installs with npm, absent on a machine with Python alone. Looked at
    once per process (a build is picked up at the next start)."""
    for root, names in _roots().values():
        if not all((root / name).is_file() for name in names):
            return UNBUILT
    return ""


class _Prefixed(FileSystemStorage):
    """A folder whose files are collected under ``prefix``."""

    def __init__(self, location: Path, prefix: str) -> None:
        super().__init__(location=str(location))
        self.prefix = prefix


class OfflineFinder(BaseFinder):
    """Finds ``offline/pyodide/<file>``, ``offline/engine/<source>`` and
    ``offline/idb/umd.js``."""

    def check(self, **kwargs: Any) -> list[checks.CheckMessage]:
        """A warning, not an error: the app runs without the runtime (a
        machine with Python alone), with offline play off."""
        offline_missing.cache_clear()
        if not offline_missing():
            return []
        return [
            checks.Warning(
                f"Offline play is off: {UNBUILT} ({pyodide_built()}).",
                hint=UNBUILT_HINT,
                id="offline.W001",
            )
        ]

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> Any:
        for prefix, (root, names) in _roots().items():
            name = path.removeprefix(prefix + "/")
            if name != path and name in names and (root / name).is_file():
                found = str(root / name)
                return [found] if find_all else found
        return []  # nothing here (Django takes a list for "not found")

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        # Served where they are (the tests: WhiteNoise reading the finders),
        # the brotli and gzip copies beside the runtime are listed too, as
        # WhiteNoise finds a file's compressed copies only among those
        # listed; collectstatic is not given them (it compresses its own).
        served_here = getattr(settings, "WHITENOISE_USE_FINDERS", False)
        copies = (".br", ".gz") if served_here else ()
        for prefix, (root, names) in _roots().items():
            storage = _Prefixed(root, prefix)
            for name in names:
                for found in (name, *(name + suffix for suffix in copies)):
                    if (root / found).is_file():
                        yield found, storage


class CollectedStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    """WhiteNoise's storage (hashed names, brotli and gzip copies), taking
    the engine runtime's brotli copies from the build."""

    def create_compressor(self, **kwargs: Any) -> BuiltCopies:
        return BuiltCopies(**kwargs)
