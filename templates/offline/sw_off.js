// The kill switch (OFFLINE_OFF=1): this worker replaces the app's at the
// next page open, deletes every cache it kept and removes itself; pages
// then load from the network only. The hands waiting in a phone's outbox
// live in IndexedDB, not in these caches: they stay, and the page sends
// them. Version {{ version }}.
"use strict";
self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.registration.unregister(); }).then(function () {
    return self.clients.matchAll({ type: "window" });
  }).then(function (windows) {
    windows.forEach(function (client) { client.navigate(client.url); });
  }));
});
