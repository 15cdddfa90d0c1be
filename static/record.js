// The record form on a shared table: it follows the game when nobody has
// touched it, and "entered by" is remembered per game in this browser.
(function () {
  "use strict";

  function recordForm(node) {
    return node && node.closest ? node.closest("form#record") : null;
  }

  function markTouched(event) {
    var form = recordForm(event.target);
    if (form) form.dataset.touched = "1";
  }
  document.body.addEventListener("input", markTouched);
  document.body.addEventListener("change", markTouched);

  // The poll says whether this page's form may be replaced by a fresh one
  // (untouched) or only re-aimed at the next hand (touched).
  document.body.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.elt.id !== "poller") return;
    var form = document.getElementById("record");
    if (form && form.tagName === "FORM") {
      event.detail.parameters.form = form.dataset.touched ? "touched" : "untouched";
    }
  });

  // Every page of a game lives under /games/<id>/.
  function byKey() {
    return "pepper-by:" + window.location.pathname.split("/")[2];
  }

  function fillBy(root) {
    var fields = root.querySelectorAll ? root.querySelectorAll("input[name=by]") : [];
    var kept = window.localStorage && localStorage.getItem(byKey());
    fields.forEach(function (field) {
      // This game's own name wins over the browser-wide one the server
      // filled in; never over what a player typed.
      if (kept && (!field.value || field.dataset.remembered)) field.value = kept;
    });
  }

  document.body.addEventListener("submit", function (event) {
    var form = event.target;
    var field = form.querySelector && form.querySelector("input[name=by]");
    if (field && field.value && window.localStorage) {
      localStorage.setItem(byKey(), field.value);
    }
  }, true);

  document.addEventListener("DOMContentLoaded", function () { fillBy(document); });
  document.body.addEventListener("htmx:load", function (event) { fillBy(event.detail.elt); });
})();
