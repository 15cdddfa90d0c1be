"""The phone's engine runtime as it is served, built once by `make setup`
(``manage.py offline_build``) into ``build/offline/pyodide/`` (generated,
not committed): Pyodide's files from ``node_modules/pyodide`` (npm,
locked), its standard library cut down to the modules the engine imports
(``offline_stdlib.txt``), and each file's brotli and gzip copies beside
it, made by WhiteNoise's own compressor, so that a server reading the
files where they are (the tests' live server) sends them compressed as
production's collected files are.

The standard library is sent compiled (``.pyc`` only, made by Pyodide's
own Python in Node: offline_compile.mjs says why and how). The zip is
stored uncompressed, so that brotli compresses across its files (0.58 MB,
where deflate inside the zip gives more).
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings
from whitenoise.compress import Compressor

STDLIB = "python_stdlib.zip"
KEPT_LIST = Path(__file__).resolve().parent / "offline_stdlib.txt"
PROBE = Path(__file__).resolve().parent / "offline_probe.mjs"
COMPILE = Path(__file__).resolve().parent / "offline_compile.mjs"


def pyodide_source() -> Path:
    return Path(settings.BASE_DIR) / "node_modules" / "pyodide"


def pyodide_built() -> Path:
    return Path(settings.BASE_DIR) / "build" / "offline" / "pyodide"


def kept_modules() -> list[str]:
    lines = KEPT_LIST.read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and line[0] != "#"]


def _entry(module: str, names: set[str]) -> str:
    path = module.replace(".", "/")
    for candidate in (f"{path}.py", f"{path}/__init__.py"):
        if candidate in names:
            return candidate
    raise ValueError(f"{module} is not in Pyodide's standard library")


def reduced_stdlib(whole: Path, target: Path, modules: Iterable[str]) -> None:
    """Writes to ``target`` the entries of the zip ``whole`` that hold
    ``modules``, stored, in a fixed order and with their own dates, so that
    the same modules give the same bytes (and the same hashed name)."""
    with zipfile.ZipFile(whole) as source:
        names = set(source.namelist())
        entries = sorted({_entry(module, names) for module in modules})
        with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as reduced:
            for name in entries:
                info = source.getinfo(name)
                kept = zipfile.ZipInfo(name, date_time=info.date_time)
                reduced.writestr(kept, source.read(name))


def compiled_stdlib(source: Path, target: Path) -> None:
    """Writes to ``target`` the zip ``source`` with each module compiled
    for the phone's Python (offline_compile.mjs), in the same order."""
    subprocess.run(  # its error, Python's own words, goes to our stderr
        ["node", str(COMPILE), str(pyodide_source()), str(source), str(target)],
        check=True,
    )


def offline_build(*, files: Iterable[str]) -> Path:
    """Builds ``files`` (Pyodide's, by name) into ``pyodide_built()``."""
    source, built = pyodide_source(), pyodide_built()
    if built.exists():
        shutil.rmtree(built)
    built.mkdir(parents=True)
    compressor = Compressor(
        extensions=getattr(settings, "WHITENOISE_SKIP_COMPRESS_EXTENSIONS", None),
        quiet=True,
    )
    for name in files:
        if name == STDLIB:
            with tempfile.TemporaryDirectory() as work:  # nothing left if it fails
                reduced = Path(work) / STDLIB
                reduced_stdlib(source / STDLIB, reduced, kept_modules())
                compiled_stdlib(reduced, built / STDLIB)
        else:
            shutil.copyfile(source / name, built / name)
        if compressor.should_compress(name):
            list(compressor.compress(str(built / name)))
    return built


@functools.cache
def _built_by_content() -> dict[bytes, Path]:
    built = pyodide_built()
    files = [path for path in built.glob("*") if path.suffix not in (".br", ".gz")]
    return {hashlib.sha256(path.read_bytes()).digest(): path for path in files}


class BuiltCopies(Compressor):  # type: ignore[misc]  # (whitenoise is untyped)
    """WhiteNoise's compressor, which for a file of the built runtime hands
    back the build's own brotli copy: the same bytes give the same copy,
    and brotli at its best takes half a minute on the wasm alone, at every
    collectstatic (``make run``) otherwise."""

    def compress_brotli(self, data: bytes) -> bytes:
        found = _built_by_content().get(hashlib.sha256(data).digest())
        copy = found and found.with_name(found.name + ".br")
        if copy and copy.is_file():
            return copy.read_bytes()
        compressed: bytes = super().compress_brotli(data)
        return compressed


def imported_under_pyodide(stdlib: Path, logs: list[str], work: Path) -> list[str]:
    """The standard-library modules (from the zip ``stdlib``) that Pyodide
    and the engine import while the engine shows and scores ``logs``, as
    Node runs them (offline_probe.mjs)."""
    logs_file = work / "logs.json"
    logs_file.write_text(json.dumps(logs))
    found = subprocess.run(
        ["node", str(PROBE), str(pyodide_source()), str(stdlib)]
        + [str(settings.BASE_DIR), str(logs_file)],
        capture_output=True,
        text=True,
        check=True,
    )
    modules: list[str] = json.loads(found.stdout)
    return modules
