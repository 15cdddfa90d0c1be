// The TV pages through what does not fit on the screen: the tables and
// the standings, each its own pages, turning every few seconds. Without
// JavaScript every row shows (and the page reloads itself every 30 s).
(function () {
  "use strict";
  var SECONDS = 8;
  var turn = 0;

  // Each list's pages: the rows that fit between its top and the
  // bottom of the screen, measured with every row shown.
  function pagesOf(list) {
    var rows = Array.prototype.slice.call(list.children);
    rows.forEach(function (row) { row.hidden = false; });
    var room = window.innerHeight - list.getBoundingClientRect().top - 8;
    var pages = [[]], used = 0;
    rows.forEach(function (row) {
      var height = row.getBoundingClientRect().height;
      if (used + height > room && pages[pages.length - 1].length) {
        pages.push([]);
        used = 0;
      }
      pages[pages.length - 1].push(row);
      used += height;
    });
    return pages;
  }

  function show() {
    document.querySelectorAll("[data-pages]").forEach(function (list) {
      var pages = pagesOf(list);
      var page = turn % pages.length;
      pages.forEach(function (rows, index) {
        rows.forEach(function (row) { row.hidden = index !== page; });
      });
      var note = document.querySelector('[data-page-note="' + list.id + '"]');
      if (note) note.textContent = pages.length > 1 ? "page " + (page + 1) + " of " + pages.length : "";
    });
  }

  var pending = false;
  function soon() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () { pending = false; show(); });
  }

  document.addEventListener("DOMContentLoaded", show);
  window.addEventListener("resize", soon);
  ["htmx:afterSettle", "htmx:oobAfterSwap"].forEach(function (name) {
    document.body.addEventListener(name, soon);
  });
  window.setInterval(function () { turn += 1; show(); }, SECONDS * 1000);
})();
