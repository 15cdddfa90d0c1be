// This phone's outbox and its copy of each game's log, kept in IndexedDB
// (through idb, a small well-kept wrapper of its requests: offline/idb)
// so that they survive a closed browser: one record per game.
//
// Safari drops the IndexedDB connection of a page left in the background
// and answers the next request on it with an error: the connection is
// opened again when the page shows again (pageshow, visibilitychange) and
// after a failed request (once). Each game's outbox is also copied to
// localStorage, and read back if IndexedDB lost a write.
(function () {
  "use strict";
  var opened = null;
  var persisted = false;

  function database() {
    if (!opened) {
      opened = idb.openDB("pepper-offline", 1, {
        upgrade: function (db) { db.createObjectStore("games", { keyPath: "game" }); },
        terminated: function () { opened = null; }  // the browser closed it
      });
      opened.catch(function () { opened = null; });
    }
    return opened;
  }
  function fresh() {
    var old = opened;
    opened = null;
    if (old) old.then(function (db) { db.close(); }, function () {});
  }
  // A request on a connection the browser dropped fails once: open again.
  function twice(work) {
    return database().then(work).catch(function () { fresh(); return database().then(work); });
  }
  window.addEventListener("pageshow", function (event) { if (event.persisted) fresh(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") fresh();
  });

  function blank(game) {
    return { game: game, items: [], raw: [], landed: {}, log: null, lastSync: null, serverSeq: 0,
      shown: null, title: "", score: "", savedAt: 0 };
  }
  // The outbox's copy: what must never be lost, small.
  function copyKey(game) { return "pepper-outbox:" + game; }
  function copyOf(state) {
    return JSON.stringify({ items: state.items, raw: state.raw, landed: state.landed,
      serverSeq: state.serverSeq, savedAt: state.savedAt, creation: state.creation || null,
      token: state.token || "" });
  }
  function readCopy(game) {
    try { return JSON.parse(localStorage.getItem(copyKey(game)) || "null"); } catch (error) { return null; }
  }
  function writeCopy(state) {
    try { localStorage.setItem(copyKey(state.game), copyOf(state)); return true; } catch (error) { return false; }  // full
  }

  function load(game) {
    var copy = readCopy(game);
    return twice(function (db) { return db.get("games", game); }).catch(function () {
      return null;  // IndexedDB is gone for now: the copy serves
    }).then(function (found) {
      var state = Object.assign(blank(game), found || {});
      if (!state.raw) state.raw = [];
      if (copy && copy.savedAt > state.savedAt) Object.assign(state, copy);  // a write IndexedDB lost
      return state;
    });
  }
  // Kept once either holds it: IndexedDB, or the outbox's copy when
  // IndexedDB failed twice (the copy is read back at the next load), so
  // that the page goes on to say the hand is kept, as it is.
  function save(state) {
    state.savedAt = Date.now();
    var copied = writeCopy(state);  // first: it is synchronous, and survives a dead connection
    if (!persisted && navigator.storage && navigator.storage.persist) {
      persisted = true;
      navigator.storage.persist().catch(function () {});  // never evicted, if the browser agrees
    }
    var written = twice(function (db) { return db.put("games", state); });
    return copied ? written.catch(function (error) { if (window.console) console.warn("offline store:", error); }) : written;
  }
  // Every game this phone keeps (for the start page), newest first.
  function all() {
    return twice(function (db) { return db.getAll("games"); }).then(function (games) {
      return games.sort(function (a, b) { return (b.savedAt || 0) - (a.savedAt || 0); });
    });
  }
  window.PepperStore = { load: load, save: save, all: all };
})();
