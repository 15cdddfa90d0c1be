"""Builds the phone's engine runtime into build/offline/pyodide/ (run by
`make setup`); with --measure, prints instead the standard-library modules
the engine imports under Pyodide while it shows and scores the game logs
given, for offline_stdlib.txt after a Pyodide upgrade:

    manage.py offline_build --measure tests/data/contract/*.log.json
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.web.offline_build import (
    STDLIB,
    imported_under_pyodide,
    offline_build,
    pyodide_source,
)
from scorekeeper.web.offline_files import PYODIDE_FILES


class Command(BaseCommand):
    help = "Build the offline engine's runtime (Pyodide, a reduced standard library)."
    # The static files' check asks for this very build.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--measure", nargs="+", metavar="LOG", type=Path)

    def handle(self, *args: Any, measure: list[Path] | None, **options: Any) -> None:
        if measure is None:
            built = offline_build(files=PYODIDE_FILES)
            self.stdout.write(f"offline engine built in {built}")
            return
        logs = [path.read_text() for path in measure]
        with tempfile.TemporaryDirectory() as work:
            found = imported_under_pyodide(pyodide_source() / STDLIB, logs, Path(work))
        self.stdout.write("\n".join(found))
