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
  // The record form's choices of a game this phone started offline (the
  // server's page writes them with _hand_choices.html; drawn here once,
  // in the same markup): the bidder and bid groups are filled by
  // drawChoices for each hand.
  function group(legend, classes, name, options) {
    return el("fieldset", { "class": "choices" + (classes ? " " + classes : "") }, [el("legend", { text: legend })]
      .concat(options.map(function (option) {
        var input = el("input", { type: "radio", name: name, value: option[0] });
        if (option[2]) input.setAttribute("aria-label", option[2]);
        return el("label", { "class": "choice" + (option[3] ? " " + option[3] : "") }, [input,
          el("span", option[2] ? { "aria-hidden": "true", text: option[1] } : { text: option[1] })]);
      })));
  }
  function counts(last) {
    var found = [];
    for (var n = 0; n <= last; n += 1) found.push([String(n), String(n)]);
    return found;
  }
  function drawFields(form, choices) {
    var box = form.querySelector("#hand-choices");
    if (!box || box.querySelector("fieldset")) return;
    var parts = [group("Bidder", "", "bidder", []), group("Bid", "", "bid", []),
      group("Trump", "trumps", "trump", choices.trumps.map(function (t) { return [t[0], t[1], t[2], "suit-" + t[0]]; }))];
    if (choices.negotiation) {
      var outcome = group("Outcome", "outcome", "outcome", [["played", "Played", "", "outcome-played"],
        ["conceded", "Conceded (thrown in)", "", "outcome-conceded"]]);
      outcome.querySelector('input[value="played"]').setAttribute("checked", "");  // as the server's form starts
      outcome.appendChild(el("p", { "class": "hint clubs-note", text: "With clubs trump the hand must be played." }));
      parts.push(outcome);
    }
    if (choices.per_player.length) {
      parts.push(el("div", { "class": "played-only per-player", "data-total": String(choices.tricks) },
        [el("p", { "class": "hint", text: "Tricks each player took (of " + choices.tricks + "): tap all but one, the last is filled in." })]
          .concat(choices.per_player.map(function (player) {
            return group(player[1] + " took", "", player[0], counts(choices.tricks));
          }))));
    } else {
      parts.push(group("Tricks the bidding side took (of " + choices.tricks + ")", "played-only", "taken", counts(choices.tricks)));
    }
    if (choices.negotiation) {
      parts.push(group("Free tricks granted to the defenders", "conceded-only", "free_tricks",
        counts(choices.most_free).map(function (n) { return n.concat(["", "free-" + n[0]]); })));
    }
    if (choices.has_auction) {
      parts.push(el("details", { "class": "auction" }, [el("summary", { text: "The auction (optional)" }),
        el("label", { "class": "field" }, [document.createTextNode("The calls in order, from the first bidder "),
          el("input", { type: "text", name: "auction", maxlength: "200", autocomplete: "off" })])]));
    }
    box.replaceChildren.apply(box, parts);
  }
  function drawForm(v) {
    var form = document.getElementById("record");
    if (!form) return;
    if (v.finished || !v.form) { form.hidden = true; return; }
    form.hidden = false;
    drawFields(form, v.form);
    var title = form.querySelector("h2");
    // A form someone is filling in for this very hand is left as it is.
    if (form.dataset.touched && title.textContent === "Record hand " + v.form.number) return;
    var by = form.querySelector('input[name="by"]');  // who enters stays, as online
    emptyForm(form, by ? by.value : "");
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
  // The form for the next hand: as the page drew it (an entry carried
  // into it by record.js gives its inputs' defaults back first), untouched,
  // who enters kept; its auction line emptied (its calls came with the
  // page or the panel as its value: a reset would bring the last hand's
  // back) and open to the panel's calls again.
  function emptyForm(form, by) {
    form.querySelectorAll("[data-page-checked]").forEach(function (input) {
      if (input.dataset.pageChecked === "1") input.setAttribute("checked", ""); else input.removeAttribute("checked");
      delete input.dataset.pageChecked;
    });
    form.querySelectorAll("[data-page-value]").forEach(function (input) {
      input.setAttribute("value", input.dataset.pageValue);
      delete input.dataset.pageValue;
    });
    form.reset();
    delete form.dataset.touched;
    delete form.dataset.putBack;
    var field = form.querySelector('input[name="by"]');
    if (field) field.value = by;
    var auction = form.querySelector('input[name="auction"]');
    if (auction) { auction.value = ""; delete auction.dataset.typed; }
  }
  function clearErrors(form) {
    form.querySelectorAll(".offline-error").forEach(function (node) { node.remove(); });
  }

  window.PepperDraw = {
    el: el, board: drawBoard, row: drawRow, choices: drawChoices, form: drawForm, empty: emptyForm, clearErrors: clearErrors
  };
})();
