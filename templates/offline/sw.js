// The service worker: keeps what a table needs so a game page opens and
// scores with no connection. Version {{ version }}.
"use strict";
var VERSION = "{{ version }}";
var SHELL = {{ shell_json|safe }};
var PAGES = "pages-" + VERSION;
var FILES = "files-" + VERSION;
var OFFLINE_URL = "/offline/";
// Pages kept as they were last opened on this phone: home, game pages
// (and their logs and rules), the rules pages.
var KEPT = [/^\/$/, /^\/games\/[0-9a-f-]{36}\/(log\.json|rules)?$/, /^\/rules\//,
            /^\/offline\//];

self.addEventListener("install", function (event) {
  event.waitUntil(Promise.all([
    caches.open(FILES).then(function (cache) { return cache.addAll(SHELL); }),
    caches.open(PAGES).then(function (cache) { return cache.add(OFFLINE_URL); })
  ]).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name !== PAGES && name !== FILES && name.indexOf("pages-") === 0;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () {
    // A page's request starts while this worker starts up, not after.
    return self.registration.navigationPreload && self.registration.navigationPreload.enable();
  }).then(function () { return self.clients.claim(); }));
});

function kept(path) {
  return KEPT.some(function (pattern) { return pattern.test(path); });
}

// What is kept is written while the page already reads the answer: the
// page never waits for the phone's cache.
function keepCopy(event, name, key, response) {
  var copy = response.clone();
  event.waitUntil(caches.open(name).then(function (cache) { return cache.put(key, copy); }));
  return response;
}

// Static files: from the cache first (their names change with their content).
function fromFiles(event) {
  var request = event.request;
  return caches.match(request).then(function (hit) {
    return hit || fetch(request).then(function (response) {
      return response.ok ? keepCopy(event, FILES, request, response) : response;
    });
  });
}

// Pages: the network first; what it answers is kept; with no answer, the
// kept copy, else the "No connection" page.
function fromNetwork(event) {
  var request = event.request;
  var preloaded = request.mode === "navigate" && event.preloadResponse || Promise.resolve();
  return preloaded.then(function (early) { return early || fetch(request); }).then(function (response) {
    var url = new URL(response.url || request.url);
    if (!response.ok || !kept(url.pathname)) return response;
    return keepCopy(event, PAGES, url.origin + url.pathname, response);
  }).catch(function () {
    // The page's script asks the server itself (the log, the outbox).
    if (request.headers.get("X-Pepper-Live")) return Response.error();
    var url = new URL(request.url);
    return caches.open(PAGES).then(function (cache) {
      return cache.match(url.origin + url.pathname);
    }).then(function (hit) {
      if (hit) return hit;
      if (request.mode === "navigate") return caches.match(OFFLINE_URL);
      return Response.error();
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(fromFiles(event));
  } else if (request.mode === "navigate" || kept(url.pathname)) {
    event.respondWith(fromNetwork(event));
  }
});

// The page asks, once the engine has loaded, to keep what it fetched
// (Pyodide and the engine's source), so the next start needs no network.
self.addEventListener("message", function (event) {
  var message = event.data || {};
  if (message.type !== "keep") return;
  var done = caches.open(FILES).then(function (cache) {
    return Promise.all(message.urls.map(function (url) {
      return cache.match(url).then(function (hit) { return hit || cache.add(url); });
    }));
  });
  event.waitUntil(done.then(function () { event.ports[0].postMessage("kept"); },
    function (error) { event.ports[0].postMessage("failed: " + error); }));
});
