// The service worker: keeps what a table needs so a game page opens and
// scores with no connection. Version {{ version }}.
//
// Written by hand, not with Workbox: Workbox's precache and routes would
// replace only this file's caching half (5.4 kB, 1.9 kB gzip, comments
// included); the other half is ours whichever we choose: a form POST made
// offline goes into the phone's own outbox (idb), where the page shows it,
// holds it for the table and sends it in order (workbox-background-sync
// replays requests blindly, and Safari has no Background Sync). Measured
// (2026-11): Workbox 7.4.1's core, routing, strategies and precaching are
// 20.5 kB (7.9 kB gzip, four files), nearly twice this whole file (11.6 kB,
// 4.1 kB gzip). The bytes are small beside the engine's; the choice is a
// judgement, to weigh again if the caching half grows (expiry of old
// pages, range requests, an update broadcast).
"use strict";
var VERSION = "{{ version }}";
var SHELL = {{ shell_json|safe }};
var PAGES = "pages-" + VERSION;
var FILES = "files-" + VERSION;
var OFFLINE_URL = "/offline/";
// The page of a game started on this phone with no connection (drawn by
// the phone's engine), shown for a game page this phone has no copy of.
var STARTED_URL = "/offline/game/";
var GAME_PAGE = /^\/games\/[0-9a-f-]{36}\/$/;
// Kept when the worker installs, so that the installed app opens on this
// phone's games, and the rules read, with no connection: the start page,
// the rules pages (each preset's) and the trick page.
var START_PAGES = {{ pages_json|safe }};
// Pages kept as they were last opened on this phone: home, the new-game
// form, game pages (and their logs and rules), the rules pages, the
// players' guide (Help) with its pictures.
var KEPT = [/^\/$/, /^\/games\/new$/, /^\/games\/[0-9a-f-]{36}\/(log\.json|rules)?$/, /^\/rules\//,
            /^\/offline\//, /^\/trick$/, /^\/help\//];

// A new version installs beside the one in use and waits: the page asks
// the table ("Update now" / "Later"), so an update never reloads a page
// in the middle of a hand. The first install has nothing to wait for.
self.addEventListener("install", function (event) {
  event.waitUntil(Promise.all([
    caches.open(FILES).then(function (cache) { return cache.addAll(SHELL); }),
    caches.open(PAGES).then(function (cache) {
      return cache.addAll([OFFLINE_URL, STARTED_URL]).then(function () {
        // Each on its own: a page that fails to load is kept next time.
        return Promise.all(START_PAGES.map(function (page) { return cache.add(page).catch(function () {}); }));
      });
    })
  ]));
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
    if (response.status === 404 && request.mode === "navigate" && GAME_PAGE.test(url.pathname)) {
      return startedHere(url.pathname.split("/")[2], response);
    }
    if (!response.ok || !kept(url.pathname)) return response;
    return keepCopy(event, PAGES, url.origin + url.pathname, response);
  }).catch(function () {
    // The page's script asks the server itself (the log, the outbox).
    if (request.headers.get("X-Pepper-Live")) return Response.error();
    var url = new URL(request.url);
    var gamePage = request.mode === "navigate" && GAME_PAGE.test(url.pathname);
    return caches.open(PAGES).then(function (cache) {
      return cache.match(url.origin + url.pathname);
    }).then(function (hit) {
      if (hit) return gamePage ? markedKept(hit) : hit;
      if (gamePage) {
        return caches.match(STARTED_URL).then(function (page) { return page || caches.match(OFFLINE_URL); });
      }
      if (request.mode === "navigate") return caches.match(OFFLINE_URL);
      return Response.error();
    });
  });
}

// A game page from this phone's copy may show an older game than the one
// the phone knows (hands saved since, with no connection): it comes
// marked, and stays hidden (app.css) until offline.js has drawn what the
// phone kept, so that no one reads an old hand number or score from it.
function markedKept(page) {
  return page.text().then(function (html) {
    var headers = new Headers(page.headers);
    headers.delete("Content-Length");
    return new Response(html.replace("<html", "<html data-kept"),
      { status: page.status, statusText: page.statusText, headers: headers });
  });
}

// A hand saved before the page's scripts took over its form (a plain
// POST) while the connection is gone: kept in the phone's outbox, as the
// page keeps one, and the game page shown again (from this phone's copy)
// with the hand waiting. Online, the POST goes to the server untouched.
importScripts({{ idb_json|safe }});
var HANDS = /^\/games\/([0-9a-f-]{36})\/hands$/;
function fieldsOf(request) {
  return request.formData().then(function (form) {
    var fields = {};
    form.forEach(function (value, key) { fields[key] = String(value); });
    return fields;
  });
}
// The phone's record of ``game`` (as offline/store.js keeps it), changed
// by ``change`` and written back.
function database() {  // as offline/store.js opens it
  return idb.openDB("pepper-offline", 1, {
    upgrade: function (db) { db.createObjectStore("games", { keyPath: "game" }); }
  });
}
function changeGame(game, change) {
  return database().then(function (db) {
    return db.get("games", game).then(function (found) {
      var state = found || { game: game, items: [], raw: [], landed: {}, log: null, lastSync: null,
        serverSeq: 0, shown: null, title: "", score: "", savedAt: 0 };
      state.raw = state.raw || [];
      change(state);
      state.savedAt = Date.now();
      return db.put("games", state);
    });
  });
}
function outboxed(request, game) {
  return fieldsOf(request).then(function (fields) {
    return changeGame(game, function (state) {
      if (!state.raw.some(function (item) { return item.id === fields.event_id; })) {
        state.raw.push({ fields: fields, id: fields.event_id, number: null, summary: "" });
      }
    });
  }).then(function () {
    return Response.redirect("/games/" + game + "/", 303);
  });
}
// A new game started with no connection: the form chose its id and edit
// link, so the phone keeps the form as it was sent (the game's creation,
// first in its outbox) and opens the game's page, drawn by the phone's
// engine. The creation goes to the server first at the next sync; a
// resend of the same form opens the game it made (games/services.py).
var STARTED = /^\/games\/new$/;
// A game this phone started offline is not on the server until its page
// sends it: its page, not the server's "not found", until then.
function startedHere(game, answer) {
  return database().then(function (db) { return db.get("games", game); }).then(function (state) {
    return state && state.creation && !state.creation.refused ? caches.match(STARTED_URL) : answer;
  }).then(function (page) { return page || answer; }, function () { return answer; });
}
function started(request) {
  return fieldsOf(request).then(function (fields) {
    var game = fields.game_id;
    if (!/^[0-9a-f-]{36}$/.test(game || "")) return Response.error();
    var names = Object.keys(fields).filter(function (key) { return /^seat_\d$/.test(key) && fields[key].trim(); })
      .sort().map(function (key) { return fields[key].trim(); });
    return changeGame(game, function (state) {
      if (state.log || state.creation) return;  // sent twice: kept once
      state.creation = { fields: fields };
      state.token = fields.edit_token;
      state.title = (fields.name || "").trim() || names.join(" · ");
    }).then(function () { return Response.redirect("/games/" + game + "/", 303); });
  });
}

// A plain save the server did not take: no answer within 15 s, or a
// server fault (5xx). The hand goes into the outbox all the same (sent
// again with its event id: recorded once even if this one got through).
var NO_ANSWER_MS = 15000;
function answered(sent) {
  var late = new Promise(function (resolve, reject) {
    setTimeout(function () { reject(new Error("no answer")); }, NO_ANSWER_MS);
  });
  return Promise.race([sent, late]).then(function (response) {
    if (response.status >= 500) throw new Error("server fault " + response.status);
    return response;
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  var hands = request.method === "POST" && request.mode === "navigate" && HANDS.exec(url.pathname);
  if (hands && url.origin === self.location.origin) {
    var copy = request.clone();
    event.respondWith(answered(fetch(request)).catch(function () { return outboxed(copy, hands[1]); }));
    return;
  }
  if (request.method === "POST" && request.mode === "navigate" && STARTED.test(url.pathname) &&
      url.origin === self.location.origin) {
    var form = request.clone();
    event.respondWith(fetch(request).catch(function () { return started(form); }));
    return;
  }
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(fromFiles(event));
  } else if (request.mode === "navigate" || kept(url.pathname)) {
    event.respondWith(fromNetwork(event));
  }
});

// The page asks, once the engine has loaded, to keep what it fetched
// (Pyodide and the engine's source), so the next start needs no network;
// and, when the table taps "Update now", for this waiting version to
// take over.
self.addEventListener("message", function (event) {
  var message = event.data || {};
  if (message.type === "skip-waiting") { self.skipWaiting(); return; }
  if (message.type !== "keep") return;
  var done = caches.open(FILES).then(function (cache) {
    return Promise.all(message.urls.map(function (url) {
      return cache.match(url).then(function (hit) { return hit || cache.add(url); });
    }));
  });
  event.waitUntil(done.then(function () { event.ports[0].postMessage("kept"); },
    function (error) { event.ports[0].postMessage("failed: " + error); }));
});
