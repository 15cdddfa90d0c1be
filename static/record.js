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
  // A save's answer swaps in fresh choices around the form it keeps: the
  // form is untouched again (the server says so with this event).
  document.body.addEventListener("pepper-saved", function (event) {
    var form = recordForm(event.target);
    if (!form) return;
    delete form.dataset.touched;
    delete form.dataset.putBack;
    stashed = null;  // this phone saved: an entry kept aside is old news
    if (window.PepperDraw) PepperDraw.clearErrors(form);  // an offline refusal's
  });

  // The poll says whether this page's form may be replaced by a fresh one
  // (untouched) or only re-aimed at the next hand (touched).
  document.body.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.elt.id !== "poller") return;
    var form = document.getElementById("record");
    if (form && form.tagName === "FORM") {
      event.detail.parameters.form = form.dataset.touched ? "touched" : "untouched";
    }
  });

  // Another phone saved while this one's form was touched: at a table both
  // phones enter the same hand, so the poll's fresh form for the next hand
  // replaces it (a stale entry would be one tap from a phantom hand). What
  // was entered is kept aside, and "That was a different hand: keep my
  // entry" carries it into the new form wherever the new hand allows it
  // (the trump, the tricks, a typed name). What the rules forced (a pepper
  // round's bidder and bid) is not an entry: it is the new hand's own.
  var stashed = null;  // the replaced form, as it stood

  function forcedNames(form) {
    var names = {};
    form.querySelectorAll("[data-forced] input").forEach(function (input) {
      names[input.name] = true;
    });
    return names;
  }

  // A carried entry is written into the inputs' attributes too; what the
  // page had is remembered, so that a form emptied for the next hand
  // (PepperDraw.empty, after a hand saved offline) comes back as the page
  // drew it, not with the carried entry one tap from a phantom hand.
  function setDefault(input, on) {
    if (input.dataset.pageChecked === undefined) input.dataset.pageChecked = input.hasAttribute("checked") ? "1" : "0";
    if (on) input.setAttribute("checked", ""); else input.removeAttribute("checked");
  }

  function carryEntry(old, fresh) {
    var forced = Object.assign(forcedNames(old), forcedNames(fresh));
    old.querySelectorAll("input[type=radio]:checked").forEach(function (chosen) {
      if (forced[chosen.name]) return;
      var group = fresh.querySelectorAll('input[type=radio][name="' + CSS.escape(chosen.name) + '"]');
      var same = Array.prototype.find.call(group, function (input) { return input.value === chosen.value; });
      if (!same) return;  // not offered for the new hand
      group.forEach(function (input) { input.checked = false; setDefault(input, false); });
      same.checked = true;
      setDefault(same, true);
    });
    old.querySelectorAll("input[type=text]").forEach(function (typed) {
      var field = fresh.querySelector('input[type=text][name="' + CSS.escape(typed.name) + '"]');
      if (!field || !typed.value) return;
      field.value = typed.value;
      if (field.dataset.pageValue === undefined) field.dataset.pageValue = field.getAttribute("value") || "";
      field.setAttribute("value", typed.value);
      delete field.dataset.remembered;  // typed here: never replaced by a kept name
    });
    var details = old.querySelector("details.auction[open]");
    var auction = fresh.querySelector("details.auction");
    if (details && auction) auction.open = true;
    fresh.dataset.touched = "1";
    // A carried choice the new bid hides (a free trick it does not allow)
    // is cleared as a tap on the bid would clear it.
    var bid = fresh.querySelector("input[name=bid]:checked");
    if (bid) bid.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // The note by the fresh form's Save bar, once the entry is in it.
  function entryBack(note, form) {
    if (note) note.textContent = "Your entry is back, now for " + form.querySelector("h2").textContent.replace(/^Record /, "") + ".";
  }

  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    var old = event.detail.target;
    if (!old || old.id !== "record" || old.tagName !== "FORM" || !old.dataset.touched) return;
    stashed = old.cloneNode(true);  // a clone keeps what was checked and typed
  });
  // An entry the table put back in the form (a waiting hand the server
  // refused) was put there to be fixed and saved again: a fresh form for
  // the next hand takes it at once, with no question asked.
  document.body.addEventListener("htmx:oobAfterSwap", function () {
    var form = document.getElementById("record");
    if (!stashed || !stashed.dataset.putBack || !form || form === stashed) return;
    carryEntry(stashed, form);
    form.dataset.putBack = "1";
    stashed = null;
    entryBack(document.querySelector(".reaimed"), form);
  });

  document.body.addEventListener("click", function (event) {
    var keep = event.target.closest && event.target.closest("[data-keep-entry]");
    var form = document.getElementById("record");
    if (!keep || !form) return;
    if (stashed) carryEntry(stashed, form);
    stashed = null;
    entryBack(keep.closest(".reaimed"), form);
    var first = form.querySelector("input:checked, input[type=radio]");
    if (first) first.focus({ preventScroll: true });
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

// Three players, each for himself: once every count but one is tapped,
// the last is what is left of the hand's tricks (the server does the same).
(function () {
  "use strict";
  document.body.addEventListener("change", function (event) {
    var box = event.target.closest && event.target.closest(".per-player");
    if (!box) return;
    var total = Number(box.dataset.total);
    var groups = Array.prototype.slice.call(box.querySelectorAll("fieldset"));
    var open = groups.filter(function (group) { return !group.querySelector("input:checked"); });
    if (open.length !== 1) return;
    var used = groups.reduce(function (sum, group) {
      var checked = group.querySelector("input:checked");
      return sum + (checked ? Number(checked.value) : 0);
    }, 0);
    var last = open[0].querySelector('input[value="' + (total - used) + '"]');
    if (last) last.checked = true;
  });
})();

// A bid that allows fewer free tricks hides the larger choices: clear a
// hidden choice, so that nothing invisible is sent.
(function () {
  "use strict";
  document.body.addEventListener("change", function (event) {
    var input = event.target;
    var form = input.form;
    if (!form || form.id !== "record" || (input.name !== "bid" && input.name !== "trump")) return;
    form.querySelectorAll("input[name=free_tricks]:checked, input[name=outcome][value=conceded]:checked")
      .forEach(function (chosen) {
        if (chosen.closest("label").offsetParent === null) {
          chosen.checked = false;
          if (chosen.name === "outcome") {
            var played = form.querySelector("input[name=outcome][value=played]");
            if (played) played.checked = true;
          }
        }
      });
  });
})();

// "Copy the log": the game's log to the clipboard, for a chat or an e-mail.
(function () {
  "use strict";
  function reveal(root) {
    (root.querySelectorAll ? root.querySelectorAll("[data-copy]") : []).forEach(function (button) {
      if (navigator.clipboard) button.hidden = false;
    });
  }
  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.body.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    fetch(button.dataset.copy, { credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (text) { return navigator.clipboard.writeText(text); })
      .then(function () { button.textContent = "Copied"; })
      .catch(function () { button.textContent = "Could not copy: use Download"; });
  });
})();

// The home page offers the house's last rules when this browser kept them
// (/games/new saves them on every start).
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var link = document.getElementById("same-rules");
    try {
      var sets = JSON.parse(localStorage.getItem("pepper-rule-sets") || "{}");
      if (link && sets["Same rules as last time"]) link.hidden = false;
    } catch (e) { /* no storage: no link */ }
  });
})();
