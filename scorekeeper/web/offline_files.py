"""The files a phone needs to score with no connection, served as static
files (collected, compressed and cached by WhiteNoise like any other):
the pinned Pyodide runtime from ``node_modules/pyodide`` (npm, locked by
package-lock.json) and the engine's own Python source, read from the
source tree itself, so the phone runs exactly the code the server runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

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
    "scorekeeper/disputes.py",
    "scorekeeper/house_rules.py",  # a new game started offline
    "scorekeeper/phone.py",
)


def _roots() -> dict[str, tuple[Path, tuple[str, ...]]]:
    base = Path(settings.BASE_DIR)
    return {
        PYODIDE_PREFIX: (base / "node_modules" / "pyodide", PYODIDE_FILES),
        ENGINE_PREFIX: (base, ENGINE_FILES),
        IDB_PREFIX: (base / "node_modules" / "idb" / "build", IDB_FILES),
    }


class _Prefixed(FileSystemStorage):
    """A folder whose files are collected under ``prefix``."""

    def __init__(self, location: Path, prefix: str) -> None:
        super().__init__(location=str(location))
        self.prefix = prefix


class OfflineFinder(BaseFinder):
    """Finds ``offline/pyodide/<file>``, ``offline/engine/<source>`` and
    ``offline/idb/umd.js``."""

    def check(self, **kwargs: Any) -> list[Any]:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> Any:
        for prefix, (root, names) in _roots().items():
            name = path.removeprefix(prefix + "/")
            if name != path and name in names and (root / name).is_file():
                found = str(root / name)
                return [found] if find_all else found
        return []  # nothing here (Django takes a list for "not found")

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        for prefix, (root, names) in _roots().items():
            storage = _Prefixed(root, prefix)
            for name in names:
                if (root / name).is_file():
                    yield name, storage
