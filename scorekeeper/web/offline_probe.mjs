// Runs the phone's engine under Pyodide in Node, as the phone's worker
// does, and prints (JSON) the standard-library modules it imported from
// the zip it was given: what `manage.py offline_build --measure` lists,
// and what the tests check the reduced zip against.
//
//   node offline_probe.mjs <pyodide dir> <stdlib zip> <source root> <logs.json>
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pyodideDir, stdlib, sourceRoot, logsFile] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);

function fail(error) {  // Python's own words, not Node's dump of the minified runtime
  process.stderr.write(String(error.message || error) + "\n");
  process.exit(1);
}

try {
  const py = await loadPyodide({ indexURL: pyodideDir + "/", stdLibURL: stdlib });
  py.FS.mkdirTree("/engine");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: sourceRoot }, "/engine");
  py.globals.set("logs", JSON.parse(readFileSync(logsFile, "utf8")));
  // Every log through the functions the page calls most...
  py.runPython(`
import sys
sys.path.insert(0, "/engine")
from scorekeeper import phone
for text in logs:
    phone.view(text, "[]")
    phone.score(text)
`);
  // ...and a refusal crossing to the page, worded as the worker words it.
  try {
    py.runPython("phone.view('not a log', '[]')");
  } catch (error) {
    String(error);
  }
  const found = py.runPython(`
import json
json.dumps(sorted(
    name for name, module in list(sys.modules.items())
    if ".zip/" in (getattr(getattr(module, "__spec__", None), "origin", None) or "")
))
`);
  process.stdout.write(found + "\n");
} catch (error) {
  fail(error);
}
