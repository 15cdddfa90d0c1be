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
  }).then(function () { return self.clients.claim(); }));
});

function kept(path) {
  return KEPT.some(function (pattern) { return pattern.test(path); });
}

// Static files: from the cache first (their names change with their content).
function fromFiles(request) {
  return caches.match(request).then(function (hit) {
    return hit || fetch(request).then(function (response) {
      if (!response.ok) return response;
      var copy = response.clone();
      return caches.open(FILES).then(function (cache) { return cache.put(request, copy); })
        .then(function () { return response; });
    });
  });
}

// Pages: the network first; what it answers is kept; with no answer, the
// kept copy, else the "No connection" page.
function fromNetwork(request) {
  return fetch(request).then(function (response) {
    var path = new URL(response.url || request.url).pathname;
    if (!response.ok || !kept(path)) return response;
    var copy = response.clone();
    return caches.open(PAGES).then(function (cache) {
      return cache.put(new URL(response.url || request.url).origin + path, copy);
    }).then(function () { return response; });
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
    event.respondWith(fromFiles(request));
  } else if (request.mode === "navigate" || kept(url.pathname)) {
    event.respondWith(fromNetwork(request));
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
