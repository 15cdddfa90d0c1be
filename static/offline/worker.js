// The rules engine on the phone: Pyodide (served from our own static
// files) running scorekeeper/phone.py, gamelog and the rules, the same
// Python source the server runs. In a (module) worker, so the page never
// waits.
var ready = null;

function fetchText(url) {
  return fetch(url).then(function (response) {
    if (!response.ok) throw new Error(url + ": " + response.status);
    return response.text();
  });
}

function start(files) {
  var names = Object.keys(files.source);
  function fetchSource() {
    return Promise.all(names.map(function (name) {
      return fetchText(files.source[name]).then(function (text) { return [name, text]; });
    }));
  }
  return import(files.pyodide).then(function (module) {
    // Only the standard-library modules the engine imports (a zip built by
    // scorekeeper/web/offline_build.py), not Pyodide's whole library.
    var loaded = module.loadPyodide({ indexURL: files.index, stdLibURL: files.stdlib });
    // The engine's source is fetched while Pyodide loads, not after it,
    // and asked for a task after Pyodide has asked for its own files: on
    // a slow link the browser's few connections to the server go to the
    // big files first, the source's small ones beside them (asked for
    // first, they held Pyodide's start back 1.6 s on the bench's link).
    // Pyodide 314.0.7 asks for its files in loadPyodide's first steps,
    // before any task: check the order again after an upgrade
    // (SHOW_LINK=1 .venv/bin/python bench/offline.py --slow).
    var fetched = new Promise(function (resolve) { setTimeout(resolve, 0); }).then(fetchSource);
    fetched.catch(function () {});  // a failure is answered below, once
    return loaded.then(function (py) {
      return fetched.then(function (sources) {
        sources.forEach(function (pair) {
          var path = "/engine/" + pair[0];
          py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
          py.FS.writeFile(path, pair[1]);
        });
        py.runPython("import sys\nsys.path.insert(0, '/engine')\nimport scorekeeper.phone");
        return py.pyimport("scorekeeper.phone");
      });
    });
  });
}

self.onmessage = function (event) {
  var message = event.data;
  if (message.fn === "start") {
    ready = fetchText(message.args[0]).then(function (text) { return start(JSON.parse(text)); });
    ready.then(function () { self.postMessage({ id: message.id, result: "ready" }); },
      function (error) { self.postMessage({ id: message.id, error: String(error) }); });
    return;
  }
  ready.then(function (phone) {
    var result = phone[message.fn].apply(null, message.args);
    self.postMessage({ id: message.id, result: result });
  }).catch(function (error) {
    self.postMessage({ id: message.id, error: String(error) });
  });
};
