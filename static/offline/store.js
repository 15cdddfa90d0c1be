// This phone's outbox and its copy of each game's log, kept in IndexedDB
// so that they survive a closed browser: one record per game.
(function () {
  "use strict";
  function database() {
    return new Promise(function (resolve, reject) {
      var open = indexedDB.open("pepper-offline", 1);
      open.onupgradeneeded = function () { open.result.createObjectStore("games", { keyPath: "game" }); };
      open.onsuccess = function () { resolve(open.result); };
      open.onerror = function () { reject(open.error); };
    });
  }
  function load(game) {
    return database().then(function (db) {
      return new Promise(function (resolve) {
        var get = db.transaction("games").objectStore("games").get(game);
        get.onsuccess = function () {
          resolve(get.result || { game: game, items: [], landed: {}, log: null, lastSync: null, serverSeq: 0 });
        };
      });
    });
  }
  function save(state) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction("games", "readwrite");
        tx.objectStore("games").put(state);
        tx.oncomplete = resolve;
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }
  window.PepperStore = { load: load, save: save };
})();
