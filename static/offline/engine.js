// The page's side of the engine worker: call a function of
// scorekeeper/phone.py by name, get its JSON answer back.
(function () {
  "use strict";
  var worker = null;
  var waiting = {};
  var next = 0;

  function call(fn) {
    var args = Array.prototype.slice.call(arguments, 1);
    return new Promise(function (resolve, reject) {
      next += 1;
      waiting[next] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: next, fn: fn, args: args });
    });
  }

  function start(workerUrl, filesUrl) {
    worker = new Worker(workerUrl, { type: "module" });
    worker.onmessage = function (event) {
      var answer = event.data;
      var promise = waiting[answer.id];
      delete waiting[answer.id];
      if (answer.error) promise.reject(new Error(answer.error));
      else promise.resolve(answer.result);
    };
    return call("start", filesUrl);
  }

  function json(fn) {
    return call.apply(null, arguments).then(function (text) { return JSON.parse(text); });
  }

  // Before an update takes over: a worker fetching or running keeps the
  // service worker in charge busy, so the new version could not take over.
  function stop() {
    if (worker) worker.terminate();
    worker = null;
  }

  window.PepperEngine = { start: start, call: call, json: json, stop: stop };
})();
