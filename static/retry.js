// Saves survive a bad connection: when a save gets no answer, say so and
// send the same form again (same event id, so it is recorded once).
(function () {
  "use strict";
  var RETRY_MS = 2000;
  var pending = null;

  function banner(text) {
    var note = document.getElementById("connection");
    if (!note) return;
    note.textContent = text;
    note.hidden = !text;
  }

  // Which button sent the form ("save" or "pass"): the outbox keeps it.
  function actionOf(detail) {
    var config = detail.requestConfig || {};
    var submitter = config.triggeringEvent && config.triggeringEvent.submitter;
    if (submitter && submitter.name === "action") return submitter.value;
    return (config.parameters && config.parameters.action) || (config.formData && config.formData.get("action")) || "";
  }

  function noAnswer(event) {
    var form = event.detail.elt.closest("form#record");
    if (!form) return;
    // This phone can score offline: the hand goes into its outbox instead.
    if (window.PepperOffline && window.PepperOffline.take(form, actionOf(event.detail))) return;
    banner(navigator.onLine === false
      ? "Offline: the hand is not saved yet. It will be sent again when the connection is back."
      : "No answer from the server: the hand is not saved yet. Trying again…");
    clearTimeout(pending);
    // Sent again by the button that sent it ("Passed out" stays a pass).
    var action = actionOf(event.detail);
    var button = action && form.querySelector('button[name="action"][value="' + action + '"]');
    pending = setTimeout(function () {
      if (button && form.requestSubmit) form.requestSubmit(button); else htmx.trigger(form, "submit");
    }, RETRY_MS);
  }
  document.body.addEventListener("htmx:sendError", noAnswer);
  // No answer within the form's timeout (hx-request, 15 s) is no answer:
  // the same hand sent again later carries the same event id, so a save
  // that did reach the server is still recorded once.
  document.body.addEventListener("htmx:timeout", noAnswer);

  // A server that answered 5xx did not save it either: with offline play,
  // the hand goes into the outbox (sent again until the server takes it).
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var form = event.detail.requestConfig && event.detail.requestConfig.elt &&
      event.detail.requestConfig.elt.closest && event.detail.requestConfig.elt.closest("form#record");
    if (!form || event.detail.xhr.status < 500) return;
    if (window.PepperOffline && window.PepperOffline.take(form, actionOf(event.detail))) event.detail.shouldSwap = false;
  });

  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful || (event.detail.xhr && event.detail.xhr.status)) banner("");
  });
})();
