// The start page's list, from this phone's own store: every game it keeps
// (opened here, or reached by a table's link or QR code) with its score and
// what waits to be sent, each opening with no connection. A game the
// server's list names already gets its "waiting" line; one it does not
// (this page kept from before, or another browser's session) is added.
(function () {
  "use strict";
  if (!window.PepperStore || !window.indexedDB) return;
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text) node.textContent = text;
    return node;
  }
  function waitingLine(state) {
    var n = (state.items || []).length + (state.raw || []).length;
    return n ? n + (n === 1 ? " change waits" : " changes wait") + " on this phone to be sent" : "";
  }
  function card(state) {
    var link = el("a", { href: "/games/" + state.game + "/" });
    link.appendChild(el("span", { "class": "game-title" }, state.title || "A game"));
    if (state.score) link.appendChild(el("span", { "class": "game-meta game-score" }, state.score));
    var waits = waitingLine(state);
    if (waits) link.appendChild(el("span", { "class": "game-meta waiting" }, waits));
    var item = el("li", { "data-phone-game": state.game });
    item.appendChild(link);
    return item;
  }
  document.addEventListener("DOMContentLoaded", function () {
    var section = document.getElementById("phone-games");
    if (!section) return;
    PepperStore.all().then(function (games) {
      var list = section.querySelector("ul.games") || section.appendChild(el("ul", { "class": "games" }));
      games.filter(function (state) { return state.title; }).forEach(function (state) {
        var shown = list.querySelector('a[href="/games/' + state.game + '/"]');
        if (!shown) { list.appendChild(card(state)); return; }
        var waits = waitingLine(state);
        if (waits) shown.appendChild(el("span", { "class": "game-meta waiting" }, waits));
      });
      var none = section.querySelector(".no-games");
      if (none && list.children.length) none.hidden = true;
    }).catch(function () {});
  });
})();
