// Offline play. Registers the service worker (it keeps the pages), and on
// a game page this phone may edit: an outbox in IndexedDB (each change
// with its event id and the expected_seq it was made against), the page
// redrawn by the rules engine running on the phone (offline/engine.js),
// and the outbox sent in order through the API when the connection is back.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  var registered = navigator.serviceWorker.register("/sw.js", { scope: "/" });
  var root = document.getElementById("offline");
  if (!root) { registered.catch(function () {}); return; }
  // A page opened before the worker was there is kept once it controls.
  var keptPage = navigator.serviceWorker.controller ? Promise.resolve() : new Promise(function (resolve) {
    navigator.serviceWorker.addEventListener("controllerchange", resolve);
  }).then(function () { return fetch(location.pathname, { credentials: "same-origin" }); });
  // Started once the page has loaded: its first render never waits for
  // this phone's outbox or log.
  registered.then(function () { afterLoad(start); }, function () {});
  function afterLoad(then) {
    if (document.readyState === "complete") setTimeout(then, 0);
    else window.addEventListener("load", function () { setTimeout(then, 0); });
  }
  // A reload opens this page, not the link that led here (/join/...),
  // which the phone does not keep.
  history.replaceState(history.state, "", location.href);

  var state = null;      // {game, items, landed, log, takeovers, lastSync, serverSeq}
  var ready = false;     // the engine is loaded
  var online = true;     // the server answered last time we asked
  var syncing = false;
  var disputed = null;   // the dispute on screen
  var failures = 0;
  var heldSeq = null;    // the events in this phone's copy of the log
  var view = null;       // the last page drawn by the engine
  var Offline = window.PepperOffline = {};
  // offline/draw.js, loaded by the game page after this script.
  function el(tag, attrs, children) { return PepperDraw.el(tag, attrs, children); }
  function drawChoices(form, choices) { PepperDraw.choices(form, choices); }
  function clearErrors(form) { PepperDraw.clearErrors(form); }

  // This phone's outbox and copy of the log, in IndexedDB (offline/store.js).
  function load(game) { return PepperStore.load(game); }
  function save() { return PepperStore.save(state); }

  // The server ------------------------------------------------------------
  function live(url, options) {
    options = options || {};
    options.headers = Object.assign({ "X-Pepper-Live": "1" }, options.headers || {});
    options.cache = "no-store";
    return fetch(url, options);
  }
  // Only what is new is asked for when this phone holds the log's start.
  function refreshLog() {
    var held = state.log ? JSON.parse(state.log) : null;
    return live(root.dataset.log + (held ? "?after=" + held.events.length : "")).then(function (response) {
      if (!response.ok) throw new Error("log " + response.status);
      return response.text();
    }).then(function (text) { return keepLog(held, JSON.parse(text)); });
  }
  // The log (or what is new after its first "after" events), and who
  // plays which seat from which hand.
  function keepLog(held, kept) {
    var log = kept.log || Object.assign(held, { events: held.events.slice(0, kept.after).concat(kept.events) });
    state.log = JSON.stringify(log);
    state.takeovers = JSON.stringify(kept.takeovers);
    state.serverSeq = heldSeq = log.events.length;
    state.lastSync = new Date().toISOString();
    root.dataset.seq = state.serverSeq;
    online = true;
    return save();
  }
  // What a save's or a poll's answer carries (X-Pepper-Events): the events
  // after the heldSeq this phone sent, kept with no second request. False
  // if nothing came, or it does not follow on from this phone's copy (it
  // changed since the request left): then offline.json is asked.
  function keepCarried(xhr) {
    var text = xhr.getResponseHeader("X-Pepper-Events");
    var kept = text ? JSON.parse(text) : null;
    var held = kept && state.log ? JSON.parse(state.log) : null;
    if (!held || kept.after > held.events.length) return false;
    keepLog(held, kept).catch(function () {});
    return true;
  }

  // The banner --------------------------------------------------------------
  function clock(iso) {
    return iso ? new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
  }
  function banner(text) {
    root.hidden = false;
    var line = text;
    if (!line) {
      var n = state.items.length;
      var hands = state.items.every(function (item) { return item.event.type === "hand"; });
      var what = hands ? (n === 1 ? "hand waits" : "hands wait") : (n === 1 ? "change waits" : "changes wait");
      var how = disputed ? ": the table chooses above." : (online ? ": sending…" : " (no connection).");
      line = n ? n + " " + what + " to be sent" + how
        : (ready ? "This phone is ready to score offline." : "Offline scoring is loading…");
    }
    if (state.lastSync) line += " Last sync " + clock(state.lastSync) + ".";
    document.getElementById("offline-status").textContent = line;
  }

  function draw(v) {
    view = v;
    PepperDraw.board(v);
    var hands = document.getElementById("hands");
    if (hands) hands.replaceChildren.apply(hands, v.rows.map(PepperDraw.row));
    PepperDraw.form(v);
    var chart = document.getElementById("chart");
    if (chart) chart.hidden = state.items.length > 0;  // redrawn by the server after sync
    var voided = document.getElementById("offline-voided") || root.appendChild(el("ul", { id: "offline-voided", "class": "voided" }));
    voided.replaceChildren.apply(voided, v.voided.filter(function (hand) { return hand.queued; }).map(function (hand) {
      return el("li", { text: hand.summary + ": voided on this phone by " + hand.by + (hand.reason ? " (" + hand.reason + ")" : "") + ", not sent yet." });
    }));
    banner();
  }
  // The engine's page: named as the server names it (a substitute too);
  // "decided": the log positions this phone sent or the table chose on.
  function engineView(items) {
    return PepperEngine.json("view", state.log, JSON.stringify(items), names(), decided());
  }
  function names() { return state.takeovers || "[]"; }
  function decided() {
    return JSON.stringify(Object.keys(state.landed).map(function (id) { return state.landed[id]; }));
  }
  function redraw() {
    if (!ready || !state.log) return Promise.resolve();
    return engineView(state.items).then(draw);
  }

  // Recording with no connection ------------------------------------------
  function showErrors(form, lines, rule) {
    clearErrors(form);
    var box = el("div", { "class": "error offline-error", role: "alert" }, lines.map(function (line) { return el("p", { text: line }); }));
    if (rule) box.appendChild(el("p", { "class": "rule-source", text: "Rule: " + rule }));
    var heading = form.querySelector("h2, h3, legend");
    heading.parentNode.insertBefore(box, heading.nextSibling);
  }
  function newId() {
    return (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()).replace(/-/g, "");
  }
  function expectedNext() {
    var last = state.items[state.items.length - 1];
    if (!last) return state.serverSeq;
    return last.expected_seq === null ? null : last.expected_seq + 1;
  }
  function fieldsOf(form, submitter) {
    var fields = {};
    new FormData(form).forEach(function (value, key) { fields[key] = String(value); });
    if (submitter && submitter.name) fields[submitter.name] = submitter.value;
    return fields;
  }
  // A queued hand's position in the log-to-be names it: "target_of" keeps
  // which queued event it is, so it is named right wherever it lands.
  function queuedAt(target) {
    var index = target - view.stored - 1;
    return index >= 0 && index < view.queued_ids.length ? view.queued_ids[index] : null;
  }
  function enqueue(form, event) {
    var item = { event: event, expected_seq: expectedNext(), target_of: event.target ? queuedAt(event.target) : null };
    if (!event.by) delete event.by;
    var items = state.items.concat([item]);
    return engineView(items).then(function (v) {
      if (v.refusal) { showErrors(form, [v.refusal.text], v.refusal.rule); return false; }
      state.items = items;
      return save().then(function () { draw(v); sync(); return true; });
    });
  }
  function record(form, submitter, target) {
    var fields = fieldsOf(form, submitter);
    var args = ["hand_of", JSON.stringify(fields), state.log, JSON.stringify(state.items)];
    if (target) args.push(target);
    return PepperEngine.json.apply(null, args).then(function (answer) {
      if (answer.missing) { showErrors(form, answer.missing); return false; }
      var event = target
        ? { type: "correct", target: target, hand: answer.hand, id: newId(), by: fields.by || "" }
        : Object.assign({ type: "hand", id: newId(), by: fields.by || "" }, answer.hand);
      return enqueue(form, event);
    });
  }
  function offlineNow() {
    return ready && state.log && (!online || navigator.onLine === false || state.items.length > 0 || disputed);
  }
  // A save the server did not answer goes into the outbox (retry.js asks).
  Offline.take = function (form) {
    if (!ready || !state.log || form.id !== "record") return false;
    online = false;
    record(form, form.querySelector('button[value="save"]'));
    return true;
  };

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "record" || !offlineNow()) return;
    event.preventDefault();
    event.stopPropagation();
    record(form, event.submitter);
  }, true);

  // Voids and corrections with no connection: the history's links open a
  // form in place, checked by the engine like a new hand.
  function closeEditors() {
    document.querySelectorAll(".offline-change").forEach(function (node) { node.remove(); });
  }
  function voidEditor(row, target, number) {
    var form = el("form", { "class": "offline-change", "aria-label": "Void hand " + number }, [
      el("h3", { text: "Void hand " + number }),
      el("label", { "class": "field" }, [document.createTextNode("Why? "), el("input", { type: "text", name: "reason", maxlength: "200" })]),
      el("p", { "class": "actions" }, [el("button", { "class": "button danger", type: "submit", text: "Void hand " + number }),
        document.createTextNode(" "), el("button", { "class": "button", type: "button", "data-cancel": "", text: "Cancel" })])]);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var by = (document.querySelector('#record input[name="by"]') || {}).value || "";
      enqueue(form, { type: "void", target: target, reason: form.elements.reason.value, id: newId(), by: by });
    });
    return form;
  }
  function correctEditor(row, target, number, choices) {
    var form = document.getElementById("record").cloneNode(true);
    form.removeAttribute("id");
    form.hidden = false;
    form.className = "record offline-change";
    form.setAttribute("aria-label", "Correct hand " + number);
    form.removeAttribute("hx-post");
    form.querySelectorAll("[id]").forEach(function (node) { node.removeAttribute("id"); });
    form.querySelectorAll(".error").forEach(function (node) { node.remove(); });
    form.reset();
    form.querySelectorAll(".savebar .saved, .savebar .bar-totals, .reaimed, button[value='pass']").forEach(function (node) { node.remove(); });
    var title = form.querySelector("h2");
    title.replaceWith(el("h3", { text: "Correct hand " + number }));
    form.querySelector('button[value="save"]').textContent = "Save correction";
    form.querySelector(".savebar").classList.remove("savebar");
    form.querySelector(".actions").appendChild(el("button", { "class": "button", type: "button", "data-cancel": "", text: "Cancel" }));
    drawChoices(form, choices);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      event.stopPropagation();
      record(form, event.submitter, target);
    });
    return form;
  }
  document.addEventListener("click", function (event) {
    var cancel = event.target.closest("[data-cancel]");
    if (cancel) { cancel.closest("form").remove(); return; }
    var link = event.target.closest("#hands .hand-actions a");
    if (!link || !offlineNow()) return;
    var match = link.getAttribute("href").match(/hands\/(\d+)\/(void|correct)$/);
    if (!match) return;
    event.preventDefault();
    closeEditors();
    var row = link.closest("li");
    var target = Number(match[1]);
    var number = row.querySelector(".hand-no").firstChild.textContent.trim();
    var choices = match[2] === "void" ? Promise.resolve(null)
      : PepperEngine.json("correct_choices", state.log, JSON.stringify(state.items), target);
    choices.then(function (found) {
      var editor = (match[2] === "void" ? voidEditor : correctEditor)(row, target, number, found);
      row.appendChild(editor);
      editor.querySelector("input").focus();
    });
  });

  // The live poll waits while this phone has changes to send: the page
  // shows them, and the server's answer would not.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id === "poller" && (offlineNow() || syncing)) event.preventDefault();
  });

  // Online, the page moves on by htmx: keep this phone's copy of the log
  // in step (after the answer is on screen; the page never waits for it),
  // from what the answer carries, else by asking offline.json.
  function movesLog(path) { return /\/(hands|poll|void|correct|end)\b/.test(path || ""); }
  document.body.addEventListener("htmx:configRequest", function (event) {
    if (heldSeq !== null && movesLog(event.detail.path)) event.detail.headers["X-Pepper-Have-Seq"] = String(heldSeq);
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!state || !xhr || xhr.status !== 200 || state.items.length || disputed) return;
    if (movesLog(event.detail.pathInfo && event.detail.pathInfo.requestPath) && !keepCarried(xhr)) {
      refreshLog().catch(function () {});
    }
  });

  // Sending the outbox ------------------------------------------------------
  function placedEvent(item) {
    var event = Object.assign({}, item.event);
    if (item.target_of && state.landed[item.target_of]) event.target = state.landed[item.target_of];
    return event;
  }
  function retryLater() {
    failures += 1;
    setTimeout(sync, Math.min(200 * Math.pow(2, failures), 4000));
  }
  function send(item) {
    var expected = item.expected_seq === null ? state.serverSeq : item.expected_seq;
    var body = Object.assign(placedEvent(item), { expected_seq: expected });
    return live(root.dataset.api, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + root.dataset.token },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (answer) { return { status: response.status, answer: answer }; });
    });
  }
  function sent(item, answer) {
    state.landed[item.event.id] = answer.seq;
    state.serverSeq = answer.seq;
    state.items.shift();
    failures = 0;
    return save();
  }
  function sync() {
    if (syncing || disputed || !ready || !state.log) return;
    syncing = true;
    var step = function () {
      var item = state.items[0];
      if (!item) return finish();
      return send(item).then(function (reply) {
        online = true;
        if (reply.status === 201) return sent(item, reply.answer).then(step);
        if (reply.status === 409 && item.expected_seq === null) {
          item.expected_seq = reply.answer.current_seq;  // after what is there now
          return save().then(step);
        }
        if (reply.status === 409) {
          return refreshLog().then(dispute).then(function (asked) { if (!asked) return step(); });
        }
        if (reply.status === 422) { banner("The server refused a change waiting here: " + reply.answer.error); return; }
        retryLater();
      }, function () { online = false; banner(); retryLater(); });
    };
    Promise.resolve(step()).then(function () { syncing = false; }, function () { syncing = false; retryLater(); });
  }
  function finish() {
    state.lastSync = new Date().toISOString();
    return refreshLog().then(redraw).then(function () {
      var chart = document.getElementById("chart");
      if (chart) htmx.ajax("GET", location.pathname + "chart", { target: "#chart", swap: "outerHTML" });
    });
  }

  // Two phones recorded one hand: the table keeps one ----------------------
  // Nothing another phone recorded took this change's place (what came
  // is this phone's own, or settled): it follows the log as it is now.
  function dispute() {
    return PepperEngine.json("dispute", state.log, JSON.stringify(state.items), names(), decided()).then(function (found) {
      if (found.target === null) {
        state.items[0].expected_seq = null;
        return save().then(function () { return false; });
      }
      disputed = found;
      var box = document.getElementById("dispute");
      document.getElementById("dispute-text").textContent = found.text + " Which does the table keep?";
      box.querySelector('[data-keep="ours"]').hidden = !found.can_keep_ours;
      box.hidden = false;
      banner();
      return redraw().then(function () { return true; });
    });
  }
  // What comes after the kept version follows the log as it is now, but a
  // change made against a position another phone filled is asked about too.
  function rebase(from) {
    state.items.slice(from).forEach(function (item) {
      if (item.expected_seq !== null && item.expected_seq + 1 > state.serverSeq) item.expected_seq = null;
    });
  }
  function keep(which) {
    var item = state.items[0];
    state.landed[item.event.id] = disputed.target;  // the same hand, whichever is kept
    var done = which === "theirs"
      ? Promise.resolve(state.items.shift())
      : PepperEngine.json("keep_ours", state.log, JSON.stringify(state.items), disputed.target, names()).then(function (correction) {
        state.items[0] = correction;
      });
    return done.then(function () {
      rebase(which === "theirs" ? 0 : 1);
      disputed = null;
      document.getElementById("dispute").hidden = true;
      return save();
    }).then(redraw).then(sync);
  }
  root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-keep]");
    if (button && disputed) keep(button.dataset.keep);
  });

  // Start: the outbox and the log from this phone, the engine in the
  // background once the page has loaded.
  function keepEngine() {
    return fetch(root.dataset.engine).then(function (response) { return response.json(); }).then(function (files) {
      var urls = files.runtime.concat(Object.keys(files.source).map(function (name) { return files.source[name]; }));
      return new Promise(function (resolve, reject) {
        var channel = new MessageChannel();
        channel.port1.onmessage = function (event) {
          if (event.data === "kept") resolve(); else reject(new Error(event.data));
        };
        navigator.serviceWorker.controller.postMessage({ type: "keep", urls: urls }, [channel.port2]);
      });
    });
  }
  function startEngine() {
    // Started once the service worker controls the page, so that what the
    // engine fetches (Pyodide, the engine's source) is kept too.
    return keptPage.then(function () {
      return PepperEngine.start(root.dataset.worker, root.dataset.engine);
    }).then(keepEngine).then(function () {
      ready = true;
      banner();
      if (offlineNow()) return redraw().then(sync);
    }, function (error) {
      banner("This phone cannot score offline (the engine did not load).");
      if (window.console) console.warn("offline engine:", error);
    });
  }
  function start() {
    load(root.dataset.game).then(function (found) {
      state = found;
      heldSeq = state.log ? JSON.parse(state.log).events.length : null;
      banner();
      return refreshLog().catch(function () { online = false; banner(); });
    }).then(function () { afterLoad(startEngine); });
    window.addEventListener("online", function () { online = true; sync(); });
    window.addEventListener("offline", function () { online = false; banner(); });
    setInterval(function () { if (ready && state.items.length && !syncing && !disputed) sync(); }, 5000);
  }
})();
