"""The engine's runtime as the phone is sent it (scorekeeper/web/
offline_build.py): a standard library holding only the modules the engine
imports under Pyodide, and every file served brotli-compressed."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import brotli
import pytest
from django.test import Client

from scorekeeper.web.offline_build import (
    STDLIB,
    BuiltCopies,
    compiled_stdlib,
    imported_under_pyodide,
    kept_modules,
    pyodide_built,
    pyodide_source,
    reduced_stdlib,
)
from scorekeeper.web.offline_files import OfflineFinder

CONTRACT = Path(__file__).resolve().parents[1] / "data" / "contract"
LOGS = [path.read_text() for path in sorted(CONTRACT.glob("*.log.json"))]


def modules_in(zip_path: Path) -> set[str]:
    with zipfile.ZipFile(zip_path) as found:
        return {
            name.removesuffix(".pyc")
            .removesuffix(".py")
            .removesuffix("/__init__")
            .replace("/", ".")
            for name in found.namelist()
        }


def test_the_reduced_standard_library_holds_the_kept_modules_and_no_other(
    tmp_path: Path,
) -> None:
    target = tmp_path / STDLIB
    reduced_stdlib(pyodide_source() / STDLIB, target, kept_modules())
    assert modules_in(target) == set(kept_modules())
    assert modules_in(target) < modules_in(pyodide_source() / STDLIB)


def test_the_same_modules_make_the_same_zip(tmp_path: Path) -> None:
    """Its hashed name (and the service worker's version) changes only
    when what it holds does."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for folder in ("a", "b"):
        reduced_stdlib(
            pyodide_source() / STDLIB, tmp_path / folder / STDLIB, kept_modules()
        )
    assert (tmp_path / "a" / STDLIB).read_bytes() == (
        tmp_path / "b" / STDLIB
    ).read_bytes()


def test_the_phone_is_sent_the_kept_modules_compiled_and_no_source() -> None:
    """Pyodide would otherwise compile each module from source at every
    start (that Pyodide runs the engine on them is tested below)."""
    built = pyodide_built() / STDLIB
    assert modules_in(built) == set(kept_modules())
    with zipfile.ZipFile(built) as found:
        assert all(name.endswith(".pyc") for name in found.namelist())


def test_the_same_source_compiles_to_the_same_zip(tmp_path: Path) -> None:
    """Its hashed name (and the service worker's version) changes only
    when what it holds does: the build's own zip is made again, byte for
    byte, from the kept modules."""
    source = tmp_path / "source.zip"
    reduced_stdlib(pyodide_source() / STDLIB, source, kept_modules())
    compiled_stdlib(source, tmp_path / "again.zip")
    again = (tmp_path / "again.zip").read_bytes()
    assert again == (pyodide_built() / STDLIB).read_bytes()


# Under Pyodide in Node, from the compiled zip: where a module's code says
# it comes from (its tracebacks' file), its docstring, and its line table.
COMPILED = """
import { pathToFileURL } from "node:url";
const [dir, stdlib] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(dir + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: dir + "/", stdLibURL: stdlib });
process.stdout.write(py.runPython(`
import fractions, json
code = fractions.Fraction.limit_denominator.__code__
json.dumps({
    "file": code.co_filename,
    "doc": fractions.Fraction.limit_denominator.__doc__,
    "lines": sorted({line for _, _, line in code.co_lines() if line})[:1],
    "columns": sorted({c for _, _, c, _ in code.co_positions() if c is not None}),
})
`));
"""


def test_the_compiled_modules_keep_file_and_line_not_docstrings_or_columns() -> None:
    found = subprocess.run(
        ["node", "--input-type=module", "-e", COMPILED]
        + [str(pyodide_source()), str(pyodide_built() / STDLIB)],
        capture_output=True,
        text=True,
        check=True,
    )
    compiled = json.loads(found.stdout)
    assert compiled["file"].startswith("/lib/python3")
    assert compiled["file"].endswith(".zip/fractions.py")
    assert compiled["lines"] and compiled["lines"][0] > 1  # tracebacks' lines
    assert compiled["doc"] is None and compiled["columns"] == []


def test_a_module_not_in_the_standard_library_is_refused(tmp_path: Path) -> None:
    with pytest.raises(
        ValueError, match="leftpad is not in Pyodide's standard library"
    ):
        reduced_stdlib(
            pyodide_source() / STDLIB, tmp_path / STDLIB, ["json", "leftpad"]
        )


def test_the_engine_runs_under_pyodide_on_the_built_standard_library(
    tmp_path: Path,
) -> None:
    """Pyodide starts on the zip the phone is sent, the engine imports and
    shows and scores every example game; all it imported was kept."""
    imported = imported_under_pyodide(pyodide_built() / STDLIB, LOGS, tmp_path)
    assert "fractions" in imported  # the engine's own, beyond Pyodide's start
    assert set(imported) <= set(kept_modules())


def test_the_engine_fails_on_a_standard_library_missing_one_of_its_modules(
    tmp_path: Path,
) -> None:
    """The check above can fail: the engine needs fractions (scores)."""
    short = [module for module in kept_modules() if module != "fractions"]
    reduced_stdlib(pyodide_source() / STDLIB, tmp_path / STDLIB, short)
    with pytest.raises(subprocess.CalledProcessError) as failed:
        imported_under_pyodide(tmp_path / STDLIB, LOGS, tmp_path)
    assert "No module named 'fractions'" in failed.value.stderr


@pytest.mark.parametrize("name", ["pyodide.asm.wasm", "pyodide.asm.mjs", STDLIB])
def test_the_runtime_is_served_brotli_compressed(client: Client, name: str) -> None:
    response = client.get(
        f"/static/offline/pyodide/{name}", HTTP_ACCEPT_ENCODING="gzip, deflate, br"
    )
    assert response.status_code == 200
    assert response["Content-Encoding"] == "br"
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    assert len(body) < (pyodide_built() / name).stat().st_size


def test_a_browser_without_brotli_is_sent_gzip(client: Client) -> None:
    response = client.get(
        f"/static/offline/pyodide/{STDLIB}", HTTP_ACCEPT_ENCODING="gzip"
    )
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"


def test_the_phone_loads_the_built_standard_library_and_the_worker_keeps_it(
    client: Client,
) -> None:
    files = json.loads(client.get("/offline/engine.json").content)
    assert files["stdlib"].endswith(f"offline/pyodide/{STDLIB}")
    assert files["stdlib"] in files["runtime"]


def test_an_unbuilt_runtime_is_named_with_the_way_to_build_it(
    settings: Any, tmp_path: Path
) -> None:
    """A warning, not an error: a server set up without Node.js runs,
    with offline play off."""
    settings.BASE_DIR = tmp_path
    [warning] = OfflineFinder().check()
    assert warning.id == "offline.W001"
    assert "make setup" in str(warning.hint) and "Node.js" in str(warning.hint)
    settings.BASE_DIR = Path(__file__).resolve().parents[2]
    assert OfflineFinder().check() == []


def test_collecting_takes_the_runtimes_brotli_copy_from_the_build() -> None:
    """collectstatic (make run) reuses the build's copy of the wasm, which
    decompresses to the wasm itself; any other file is compressed anew."""
    wasm = (pyodide_built() / "pyodide.asm.wasm").read_bytes()
    copy = BuiltCopies().compress_brotli(wasm)
    assert copy == (pyodide_built() / "pyodide.asm.wasm.br").read_bytes()
    assert brotli.decompress(copy) == wasm
    other = b"not the runtime " * 100
    assert brotli.decompress(BuiltCopies().compress_brotli(other)) == other
