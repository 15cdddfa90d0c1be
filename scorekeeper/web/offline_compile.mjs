// Compiles the reduced standard library (a zip of .py files) into the zip
// the phone is sent (.pyc files only), with Pyodide's own Python in Node:
// the bytecode must be the phone's Python's, not the server's.
//
//   node offline_compile.mjs <pyodide dir> <source zip> <target zip>
//
// Why: without .pyc, Pyodide compiles every module it imports at start
// from source, on every start (a zip cannot keep a cache): Node's
// loadPyodide took 2.0 s of CPU here on the source, 0.8 s on this zip
// (2026-11-27, medians of three). Compiled
// with docstrings and asserts left out (-OO) and without column positions
// in the line tables (PYTHONNODEBUGRANGES: tracebacks keep their file and
// line, not the ^^^ marks): so compiled it is 0.58 MB with brotli, the
// source 0.50 MB; with both kept it would be 0.91 MB, over the 4 MB budget.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pyodideDir, source, target] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);

try {
  const py = await loadPyodide({
    indexURL: pyodideDir + "/",
    env: { PYTHONNODEBUGRANGES: "1" },
  });
  py.FS.writeFile("/source.zip", readFileSync(source));
  py.runPython(`
import importlib.util
import marshal
import sys
import zipfile

# Each module's file name as the phone's Python names it (its tracebacks).
home = next(path for path in sys.path if path.endswith(".zip"))
with zipfile.ZipFile("/source.zip") as found, zipfile.ZipFile(
    "/target.zip", "w", zipfile.ZIP_STORED
) as kept:
    for info in found.infolist():
        data = found.read(info.filename)
        name = info.filename
        if name.endswith(".py"):
            code = compile(data, f"{home}/{name}", "exec", dont_inherit=True, optimize=2)
            # A .pyc header (PEP 552): magic, flags 0 (by date), date 0,
            # size 0: checked against a source only where there is one.
            data = importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code)
            name += "c"
        kept.writestr(zipfile.ZipInfo(name, date_time=info.date_time), data)
`);
  writeFileSync(target, py.FS.readFile("/target.zip"));
} catch (error) {
  process.stderr.write(String(error.message || error) + "\n");
  process.exit(1);
}
