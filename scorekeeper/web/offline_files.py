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


class _Prefixed(FileSystemStorage):
    """A folder whose files are collected under ``prefix``."""

    def __init__(self, location: Path, prefix: str) -> None:
        super().__init__(location=str(location))
        self.prefix = prefix


class OfflineFinder(BaseFinder):
    """Finds ``offline/pyodide/<file>``, ``offline/engine/<source>`` and
    ``offline/idb/umd.js``."""

    def check(self, **kwargs: Any) -> list[checks.CheckMessage]:
        built = pyodide_built()
        if all((built / name).is_file() for name in PYODIDE_FILES):
            return []
        return [
            checks.Error(
                f"The offline engine's runtime is not built in {built}.",
                hint="Run `make setup` (or: manage.py offline_build).",
                id="offline.E001",
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
