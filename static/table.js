// The table's live auction with no signal: it falls back to the one-phone
// record form below it, and nothing entered is lost. The panel says so
// and hides its call buttons; the form's auction line (the calls so far,
// kept there as they are made) opens, with a call or trump this phone
// tapped that reached no server added to it. The hand saved there waits
// on the phone (offline.js) like any other. The panel's next answer from
// the server brings the live auction back.
(function () {
  "use strict";

  function panel() { return document.getElementById("table"); }
  function line() { return document.getElementById("record-auction"); }

  // A call (its words, as the auction line takes them) or a trump tapped
  // on this phone that the server never heard: kept in the form.
  function keepTap(button) {
    var form = document.getElementById("record");
    if (!form || !button) return;
    if (button.name === "trump") {
      var trump = form.querySelector('input[name=trump][value="' + CSS.escape(button.value) + '"]');
      if (trump) trump.click();
      return;
    }
    var field = line();
    if (!field || button.name !== "call") return;
    var calls = field.value.replace(/[\s,]+$/, "");
    field.value = (calls ? calls + ", " : "") + button.textContent.trim();
    field.dataset.typed = "1";  // this phone's entry: no answer replaces it
  }

  function noSignal() {
    var table = panel();
    if (!table || !document.getElementById("record")) return;  // a read-only page
    // Only a table bidding on its phones falls back: one that records on
    // one phone has its form as it was (its auction line stays as the
    // player left it, open or closed).
    if (!table.querySelector(".auction-live")) return;
    table.dataset.noSignal = "1";
    var note = table.querySelector(".no-signal");
    if (note) note.hidden = false;
    var field = line();
    var details = field && field.closest("details");
    if (details) details.open = true;
  }

  function signalBack() {
    var table = panel();
    if (!table || !table.dataset.noSignal) return;
    delete table.dataset.noSignal;
    var note = table.querySelector(".no-signal");
    if (note) note.hidden = true;
  }

  function fromPanel(event) {  // the panel's taps, or the poll that serves it
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id === "poller") return panel();
    return elt && elt.closest ? elt.closest("#table") : null;
  }

  function unanswered(event) {
    if (!fromPanel(event)) return;
    var config = event.detail.requestConfig || {};
    var tapped = config.triggeringEvent && config.triggeringEvent.submitter;
    keepTap(tapped && tapped.closest(".call-form") ? tapped : null);
    noSignal();
  }
  document.body.addEventListener("htmx:sendError", unanswered);
  document.body.addEventListener("htmx:timeout", unanswered);
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (fromPanel(event) && event.detail.xhr && event.detail.xhr.status) signalBack();
  });
  window.addEventListener("offline", noSignal);

  // The page's one poll asks after the table too: the version shown, the
  // hand it was drawn for (a hand saved on this phone moves the page's
  // seq on, not the panel's) and whether the form was filled from a
  // settled auction, as the panel on screen says, whoever swapped it in
  // (the poll, or this phone's tap).
  document.body.addEventListener("htmx:configRequest", function (event) {
    var table = panel();
    if (event.detail.elt.id !== "poller" || !table || table.dataset.version === undefined) return;
    event.detail.parameters.v = table.dataset.version;
    event.detail.parameters.table_seq = table.dataset.seq;  // a hand saved here moves it on
    event.detail.parameters.filled = table.dataset.filled;
  });
  if (navigator.onLine === false) noSignal();

  // The calls so far come with the panel's answers into the form's auction
  // line; not over what was typed or tapped here with no signal, nor into
  // a form already aimed at a later hand (one saved here, not yet sent).
  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    var field = event.detail.target;
    if (!field || field.id !== "record-auction") return;
    var fresh = event.detail.fragment.firstElementChild;
    var aimed = document.getElementById("record-seq");
    var elsewhere = aimed && fresh && fresh.dataset.seq !== undefined && fresh.dataset.seq !== aimed.value;
    if (field.dataset.typed || elsewhere) event.detail.shouldSwap = false;
  });
  document.body.addEventListener("input", function (event) {
    if (event.target.id === "record-auction") event.target.dataset.typed = "1";
  });
})();
