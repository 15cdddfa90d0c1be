// The TV's standings run past like credits when they do not fit beside
// the tables: a second copy of the rows follows the first (hidden from
// screen readers), and the list moves up by one copy, then starts again
// without a seam. A poll that brings new standings keeps the place in
// the loop. With prefers-reduced-motion nothing moves: the rows that fit
// show, and the rest take their turn a page at a time. Without
// JavaScript the standings are a box of their own (and the page reloads
// itself every 30 s). A link replaced or revoked turns the screen to
// "Nothing here" at its next poll.
(function () {
  "use strict";
  var PIXELS_A_SECOND = 24; // about one row a second at 720 px
  var PAGE_SECONDS = 8;
  var started = Date.now();
  var turn = 0;
  var still = window.matchMedia("(prefers-reduced-motion: reduce)");

  function rowsOf(body) {
    Array.prototype.slice.call(body.querySelectorAll("[data-copy]")).forEach(function (row) {
      row.remove();
    });
    var rows = Array.prototype.slice.call(body.children);
    rows.forEach(function (row) { row.hidden = false; });
    body.classList.remove("scrolling");
    return rows;
  }

  function roll(body, rows, height) {
    rows.forEach(function (row) {
      var copy = row.cloneNode(true);
      copy.setAttribute("data-copy", "");
      copy.setAttribute("aria-hidden", "true");
      body.appendChild(copy);
    });
    var seconds = Math.max(10, height / PIXELS_A_SECOND);
    body.style.setProperty("--scroll-seconds", seconds + "s");
    // Where the loop would be had it never stopped: a poll's new rows
    // take up the same place.
    body.style.animationDelay = -(((Date.now() - started) / 1000) % seconds) + "s";
    body.classList.add("scrolling");
  }

  function page(body, rows, room) {
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
    var shown = turn % pages.length;
    pages.forEach(function (group, index) {
      group.forEach(function (row) { row.hidden = index !== shown; });
    });
    var note = document.querySelector('[data-page-note="' + body.id + '"]');
    if (note) note.textContent = pages.length > 1 ? "page " + (shown + 1) + " of " + pages.length : "";
  }

  function fit() {
    document.documentElement.classList.add("tv-js");
    document.querySelectorAll("[data-scroll]").forEach(function (body) {
      var box = body.closest(".tv-standings-window");
      var rows = rowsOf(body);
      if (!box) return;
      var head = body.parentNode.tHead;
      var room = box.clientHeight - (head ? head.getBoundingClientRect().height : 0);
      var height = body.getBoundingClientRect().height;
      if (height <= room + 1) return;
      if (still.matches) page(body, rows, room);
      else roll(body, rows, height);
    });
  }

  var pending = false;
  function soon() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () { pending = false; fit(); });
  }

  document.addEventListener("DOMContentLoaded", fit);
  window.addEventListener("resize", soon);
  if (still.addEventListener) still.addEventListener("change", soon);
  ["htmx:afterSettle", "htmx:oobAfterSwap"].forEach(function (name) {
    document.body.addEventListener(name, soon);
  });
  // A TV link replaced or revoked answers 404: the screen shows so at
  // once, rather than the last tables it had, frozen.
  document.body.addEventListener("htmx:responseError", function (event) {
    if (event.detail.xhr && event.detail.xhr.status === 404) window.location.reload();
  });
  window.setInterval(function () {
    if (!still.matches) return;
    turn += 1;
    fit();
  }, PAGE_SECONDS * 1000);
})();
