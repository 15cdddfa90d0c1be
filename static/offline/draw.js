// Drawing a game page from the phone engine's answer (scorekeeper/phone.py's
// view): the same markup the server's templates write, so a page looks the
// same whoever drew it.
(function () {
  "use strict";
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  function drawBoard(v) {
    var board = document.getElementById("board");
    if (!board) return;
    var sides = el("section", { "class": "totals", "aria-label": "Score" }, v.sides.map(function (side) {
      var progress = el("progress", { max: side.target, value: side.progress, "aria-label": side.label });
      return el("div", { "class": side.classes }, [
        el("span", { "class": "side-name", text: side.name }),
        el("span", { "class": "side-total", text: side.shown }), progress]);
    }));
    board.replaceChildren(sides);
    if (v.finished) board.appendChild(el("p", { "class": "winner", role: "status", text: v.status_line }));
    else {
      board.appendChild(el("p", { "class": "turn", text: v.turn_line }));
      if (v.forced_line) board.appendChild(el("p", { "class": "forced", text: v.forced_line }));
    }
  }
  function drawRow(row) {
    var number = el("span", { "class": "hand-no", text: String(row.number) });
    if (row.pepper) {
      number.appendChild(el("span", { "class": "pepper-mark", "aria-hidden": "true", text: "P" }));
      number.appendChild(el("span", { "class": "visually-hidden", text: " (pepper round)" }));
    }
    var what = el("span", { "class": "hand-what", text: row.summary });
    if (row.changes.length) { what.appendChild(document.createTextNode(" ")); what.appendChild(el("em", { "class": "badge", text: "corrected" })); }
    if (row.queued) { what.appendChild(document.createTextNode(" ")); what.appendChild(el("em", { "class": "badge queued", text: "not sent yet" })); }
    if (row.rival) { what.appendChild(document.createTextNode(" ")); what.appendChild(el("em", { "class": "badge queued", text: "two versions" })); }
    var url = location.pathname;
    var details = el("details", {}, [
      el("summary", {}, [number, what, el("span", { "class": "hand-score", text: row.totals })]),
      el("p", { text: row.dealer + " dealt" + (row.pepper ? " (pepper round)" : "") + ". Points: " + row.points + "." }),
      row.auction ? el("p", { text: "Auction: " + row.auction + "." }) : null,
      el("p", { "class": "explanation", text: row.explanation })
    ].concat(row.changes.map(function (change) {
      return el("p", { "class": "change", text: "Corrected by " + change.by + (change.at ? " at " + change.at : "") + (change.note ? ": " + change.note : "") + "." });
    })).concat([el("p", { "class": "hand-actions" }, [
      el("a", { href: url + "hands/" + row.target + "/correct", text: "Correct" }), document.createTextNode(" "),
      el("a", { href: url + "hands/" + row.target + "/void", text: "Void" })])]));
    // Another phone recorded this hand first: this phone's version is
    // shown on the same hand, not as a hand after it, until the table chooses.
    var rival = row.rival && el("p", { "class": "rival", text: "This phone has hand " + row.number + " as " + row.rival + " (not sent: the table chooses)." });
    return el("li", { "class": "hand" + (row.pepper ? " pepper" : "") + (row.queued || row.rival ? " queued" : ""), "data-target": row.target }, [details, rival]);
  }
  function drawChoices(form, choices) {
    var groups = form.querySelectorAll("fieldset.choices");
    [["bidder", choices.bidders], ["bid", choices.bids]].forEach(function (pair, index) {
      var fieldset = groups[index];
      fieldset.querySelectorAll("label").forEach(function (label) { label.remove(); });
      if (choices.forced) fieldset.setAttribute("data-forced", ""); else fieldset.removeAttribute("data-forced");
      pair[1].forEach(function (option) {
        var input = el("input", { type: "radio", name: pair[0], value: option[0] });
        if (pair[0] === "bid") input.setAttribute("data-max-free", option[2]);
        if (choices.forced) input.checked = true;
        fieldset.appendChild(el("label", { "class": "choice" }, [input, el("span", { text: option[1] })]));
      });
    });
  }
  function drawForm(v) {
    var form = document.getElementById("record");
    if (!form) return;
    if (v.finished || !v.form) { form.hidden = true; return; }
    form.hidden = false;
    var title = form.querySelector("h2");
    // A form someone is filling in for this very hand is left as it is.
    if (form.dataset.touched && title.textContent === "Record hand " + v.form.number) return;
    var by = form.querySelector('input[name="by"]');  // who enters stays, as online
    var entering = by ? by.value : "";
    form.reset();
    if (by) by.value = entering;
    clearErrors(form);
    form.querySelector("h2").textContent = "Record hand " + v.form.number;
    drawChoices(form, v.form);
    var pass = form.querySelector('button[value="pass"]');
    if (pass) pass.hidden = !v.form.can_pass;
    var totals = form.querySelector(".bar-totals");
    if (totals) {
      totals.replaceChildren();
      v.sides.forEach(function (side, index) {
        if (index) totals.appendChild(document.createTextNode(" · "));
        totals.appendChild(document.createTextNode(side.name + " "));
        totals.appendChild(el("strong", { text: side.shown }));
      });
    }
    var saved = form.querySelector(".saved");
    if (saved) saved.remove();
  }
  function clearErrors(form) {
    form.querySelectorAll(".offline-error").forEach(function (node) { node.remove(); });
  }

  window.PepperDraw = {
    el: el, board: drawBoard, row: drawRow, choices: drawChoices, form: drawForm, clearErrors: clearErrors
  };
})();
