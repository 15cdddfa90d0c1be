// Offline play. Registers the service worker (it keeps the pages), and on
// a game page this phone may edit: an outbox in IndexedDB (each change
// with its event id and the expected_seq it was made against), the page
// redrawn by the rules engine running on the phone (offline/engine.js),
// and the outbox sent in order through the API when the connection is back.
//
// Nothing saved is lost, at any moment: a Save that cannot reach the
// server (no signal, no answer, a 5xx) is written to the outbox before the
// page says anything, whether the engine is up, still loading, or never
// started (then the hand waits as entered and the server referees it).
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  // The documented kill switch (OFFLINE_OFF=1): the page removes the
  // service worker and its caches, never the hands waiting in the outbox,
  // which it still sends (with no engine: the server referees them).
  var killed = !!document.querySelector('meta[name="pepper-offline"][content="off"]');
  var registered = killed ? removed() : navigator.serviceWorker.register("/sw.js", { scope: "/" });
  registered.then(offerUpdates, function () {});
  function removed() {
    var gone = navigator.serviceWorker.getRegistrations().then(function (all) {
      return Promise.all(all.map(function (registration) { return registration.unregister(); }));
    }).then(function () {
      return window.caches && caches.keys().then(function (names) {
        return Promise.all(names.map(function (name) { return caches.delete(name); }));
      });
    });
    return gone.then(function () { throw new Error("offline play is switched off"); });
  }
  // A game page the service worker answered from this phone's copy comes
  // hidden (data-kept: its numbers may be older than what the phone knows),
  // and is shown once what the phone kept is drawn over it.
  function reveal() { delete document.documentElement.dataset.kept; }
  var root = document.getElementById("offline");
  if (!root) { reveal(); registered.catch(function () {}); return; }
  // A game this phone started with no connection: the service worker
  // shows this page (offline/game.html) for it, and the game is the
  // page's address; its log is made by the engine from the new-game form
  // kept in the outbox, and it goes to the server first at the next sync.
  var shell = root.hasAttribute("data-shell");
  if (shell) {
    var address = "/games/" + location.pathname.split("/")[2] + "/";
    root.dataset.game = address.split("/")[2];
    root.dataset.log = address + "offline.json";
    root.dataset.hands = address + "hands";
    root.dataset.api = "/api/games/" + root.dataset.game + "/events";
  }
  // A page opened before the worker was there is kept once it controls.
  var keptPage = navigator.serviceWorker.controller ? Promise.resolve() : new Promise(function (resolve) {
    navigator.serviceWorker.addEventListener("controllerchange", resolve);
  }).then(function () { return fetch(location.pathname, { credentials: "same-origin" }); });
  // The outbox and what the phone last showed are read as soon as the
  // page's scripts have run; the engine starts once the page has loaded
  // and the phone is idle, so that a phone online pays for it last.
  document.addEventListener("DOMContentLoaded", start);
  function afterLoad(then) {
    if (document.readyState === "complete") setTimeout(then, 0);
    else window.addEventListener("load", function () { setTimeout(then, 0); });
  }
  function whenIdle(then) {
    if (window.requestIdleCallback) requestIdleCallback(then, { timeout: 3000 });
    else setTimeout(then, 500);
  }
  // A reload opens this page, not the link that led here (/join/...),
  // which the phone does not keep.
  history.replaceState(history.state, "", location.href);

  // A new version of the app waits until the table says so: an update
  // never reloads a page in the middle of a hand.
  var updating = false;  // "Update now" was tapped: the page goes quiet
  function offerUpdates(registration) {
    if (!registration) return;  // a browser that runs no service worker here
    function offer() {
      if (!registration.waiting || !navigator.serviceWorker.controller) return;
      var box = document.getElementById("update") || document.body.appendChild(PepperUpdate());
      box.hidden = false;
    }
    function PepperUpdate() {
      var box = document.createElement("div");
      box.id = "update";
      box.className = "notice update";
      box.setAttribute("role", "status");
      box.innerHTML = '<p>A new version of the app is ready.</p><p class="actions">' +
        '<button class="button primary" type="button" data-update="now">Update now</button> ' +
        '<button class="button" type="button" data-update="later">Later</button></p>';
      box.addEventListener("click", function (event) {
        var button = event.target.closest("[data-update]");
        if (!button) return;
        box.hidden = true;
        if (button.dataset.update !== "now") return;
        // The browser hands over to the waiting version only once the one
        // in charge has no work in flight. The engine's worker is this
        // page's client of it: loading Pyodide through it, or asking it to
        // keep the engine's files, kept it busy (on a busy phone, for
        // longer than anyone waits: the new version never took over). So
        // the page goes quiet first: the engine stopped, no poll, no send,
        // until the new version reloads it.
        updating = true;
        ready = false;  // a Save meanwhile is kept as entered, for the new page
        if (window.PepperEngine) PepperEngine.stop();
        // Should the hand-over not come, the page is opened again all the
        // same (what was saved meanwhile is in the outbox): never stuck.
        setTimeout(function () { location.reload(); }, 15000);
        // The waiting version as the browser has it now (not as it was
        // when the question was asked).
        navigator.serviceWorker.getRegistration().then(function (now) {
          var waiting = now && now.waiting;
          if (!waiting) { location.reload(); return; }
          navigator.serviceWorker.addEventListener("controllerchange", function () { location.reload(); });
          waiting.postMessage({ type: "skip-waiting" });
        });
      });
      return box;
    }
    document.addEventListener("htmx:beforeRequest", function (event) {
      if (updating) event.preventDefault();
    });
    offer();
    registration.addEventListener("updatefound", function () {
      var installing = registration.installing;
      if (installing) installing.addEventListener("statechange", function () { if (installing.state === "installed") offer(); });
    });
  }

  var state = null;      // {game, items, raw, landed, log, takeovers, lastSync, serverSeq, shown}
  var loaded = null;     // the promise of state (ensureLoaded)
  var ready = false;     // the engine is loaded
  var engine = "loading";  // "loading", "ready", or "failed": it never started
  var replaced = false;  // this game's links were replaced: nothing more is sent
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
  // As every page writes a time of day ({{ when|clock:"time" }}): 24-hour,
  // in UTC as the game's pages write theirs, "20:05 UTC".
  function clock(iso) {
    if (!iso) return "";
    var at = new Date(iso);
    return ("0" + at.getUTCHours()).slice(-2) + ":" + ("0" + at.getUTCMinutes()).slice(-2) + " UTC";
  }
  function waiting() { return state ? state.items.length + state.raw.length : 0; }
  function pendingGame() { return !!(state && state.creation); }
  function startedLine(n) {
    if (state.creation.refused) return "";  // said where the game would be (refusedGame)
    var hands = n === 1 ? "its hand" : n ? "its " + n + " hands" : "";
    return "This game was started on this phone: it goes to the server" + (hands ? " with " + hands : "") +
      (online && navigator.onLine !== false ? ": sending…" : " when the connection is back.");
  }
  function banner(text) {
    if (!state) return;
    var line = text;
    var n = waiting();
    if (!line && pendingGame()) line = startedLine(n);
    if (!line) {
      var hands = state.items.every(function (item) { return item.event.type === "hand"; });
      var what = hands ? (n === 1 ? "hand waits" : "hands wait") : (n === 1 ? "change waits" : "changes wait");
      var how = disputed || held() ? ": the table chooses above."
        : replaced ? "."
        : (online && navigator.onLine !== false ? ": sending…" : " on this phone: sent when the connection is back.");
      var scored = state.raw.length && !ready
        ? (engine === "failed" ? " Their scores come from the server when it answers."
          : " Scored when the referee is ready.") : "";
      if (n) line = n + " " + what + " to be sent" + how + scored;
      else if (ready) line = "This phone is ready to score offline.";
      else if (engine === "failed") line = "This phone cannot score offline (its referee did not start): hands saved with no connection wait on the phone and are scored by the server when it answers.";
      else if (!online || navigator.onLine === false) line = "No connection: hands you save wait on this phone.";
      else line = "";  // online, the engine loading: nothing to say
    }
    if (line && state.lastSync) line += " Last sync " + clock(state.lastSync) + ".";
    var status = document.getElementById("offline-status");
    status.textContent = line;
    status.parentNode.hidden = !line;
    var ios = document.getElementById("offline-ios");
    root.hidden = !line && !disputed && !held() && !replaced && !(ios && !ios.hidden);
    var send = document.getElementById("offline-send");
    if (send) {
      send.hidden = !n || disputed || replaced || !!held();
      send.textContent = n + " unsent · Send now";
    }
  }

  // What the phone last showed (the server's page or the engine's), kept
  // with the outbox: a page reopened from the phone's copy, older than
  // that, is drawn as it was at once, before the engine is up.
  function pageSeq() {
    var field = document.getElementById("record-seq");
    var poller = document.getElementById("poller");
    if (field) return Number(field.value);
    var found = poller && /seq=(\d+)/.exec(poller.getAttribute("hx-get") || "");
    return found ? Number(found[1]) : 0;
  }
  // ``stored``: how many of the server's events the drawing shows (what
  // waits on the phone is drawn on top of them).
  function keepShown(stored) {
    if (!state) return;
    var board = document.getElementById("board");
    var hands = document.getElementById("hands");
    var title = document.getElementById("record-title");
    var bar = document.querySelector("#record .bar-totals");
    if (!board || !hands) return;
    state.shown = { seq: stored, expected: pageSeq(), board: board.innerHTML, hands: hands.innerHTML,
      title: title ? title.textContent : "", bar: bar ? bar.innerHTML : "" };
    state.title = document.title.replace(/ · Pepper$/, "");
    state.score = Array.prototype.map.call(board.querySelectorAll(".totals > div"), function (side) {
      return side.querySelector(".side-name").textContent.trim() + " " + side.querySelector(".side-total").textContent.trim();
    }).join(" · ");
    save().catch(function () {});
  }
  // Drawn when this page (the phone's copy) shows less than the phone knew:
  // fewer of the server's events, or the same with changes waiting here.
  function drawKept() {
    var kept = state.shown;
    var page = pageSeq();
    if (!kept || kept.seq < page || (kept.seq === page && !waiting())) return;
    document.getElementById("board").innerHTML = kept.board;
    document.getElementById("hands").innerHTML = kept.hands;
    var title = document.getElementById("record-title");
    if (title && kept.title) title.textContent = kept.title;
    var bar = document.querySelector("#record .bar-totals");  // the Save bar's totals
    if (bar && kept.bar) bar.innerHTML = kept.bar;
    aimForm(kept.expected, numberIn(kept.title));
  }
  function numberIn(text) { var found = /(\d+)/.exec(text || ""); return found ? Number(found[1]) : 1; }
  // The record form aimed at hand ``number``, after ``seq`` events.
  function aimForm(seq, number) {
    var form = document.getElementById("record");
    if (!form) return;
    form.querySelector('input[name="expected_seq"]').value = String(seq);
    form.querySelector('input[name="event_id"]').value = newId();
    var title = document.getElementById("record-title");
    if (title) title.textContent = "Record hand " + number;
  }

  function draw(v) {
    view = v;
    PepperDraw.board(v);
    var hands = document.getElementById("hands");
    if (hands) hands.replaceChildren.apply(hands, v.rows.map(PepperDraw.row));
    PepperDraw.form(v);
    var chart = document.getElementById("chart");
    if (chart) chart.hidden = waiting() > 0;  // redrawn by the server after sync
    var voided = document.getElementById("offline-voided") || root.appendChild(el("ul", { id: "offline-voided", "class": "voided" }));
    voided.replaceChildren.apply(voided, v.voided.filter(function (hand) { return hand.queued; }).map(function (hand) {
      return el("li", { text: hand.summary + ": voided on this phone by " + hand.by + (hand.reason ? " (" + hand.reason + ")" : "") + ", not sent yet." });
    }));
    var expected = document.getElementById("record-seq");
    if (expected) expected.value = String(v.seq);  // a hand kept as entered follows these
    if (shell) document.title = v.sides.map(function (side) { return side.name; }).join(" v ") + " · Pepper";
    keepShown(v.stored);
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
  function enqueue(form, event, fields) {
    var item = { event: event, expected_seq: expectedNext(), target_of: event.target ? queuedAt(event.target) : null };
    if (fields) item.fields = fields;  // put back in the form if the server refuses it
    if (!event.by) delete event.by;
    return engineView(state.items.concat([item])).then(function (v) {
      if (v.refusal) { showErrors(form, [v.refusal.text], v.refusal.rule); return false; }
      // To the outbox as it is now: an item sent meanwhile stays sent.
      state.items = state.items.concat([item]);
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
        // A hand keeps its form's event id: if the save it replaces did
        // reach the server (its answer lost), it is stored once.
        : Object.assign({ type: "hand", id: fields.event_id || newId(), by: fields.by || "" }, answer.hand);
      return enqueue(form, event, target ? null : fields).then(function (queued) {
        var id = form.querySelector('input[name="event_id"]');
        if (queued && id && !target) id.value = newId();  // the next hand's own
        return queued;
      });
    });
  }
  function unreachable() {  // a game started here: its hands always go through the outbox
    // While "Update now" hands over, a Save goes into the outbox too: the
    // page sends nothing itself then, and reloads.
    return updating || shell || !online || navigator.onLine === false || disputed;
  }
  function offlineNow() { return unreachable() || waiting() > 0; }
  // A Save goes into the outbox: refereed by the engine when it is up,
  // else as entered (the raw form), to be refereed when it is. Written
  // before the page says anything.
  // ``submitter``: the button tapped, or what retry.js says it was
  // ({name: "action", value: "pass"}): a "Passed out" stays one.
  function take(form, submitter) {
    var fields = fieldsOf(form, submitter || form.querySelector('button[value="save"]'));
    return ensureLoaded().then(function () {
      if (ready && state.log && !state.raw.length) return record(form, submitter);
      return keepRaw(form, fields);
    });
  }
  // A save the server did not answer (no connection, no answer, a 5xx)
  // goes into the outbox (retry.js asks): never lost, never "sent" unless
  // the server said so.
  Offline.take = function (form, action) {
    if (form.id !== "record") return false;
    online = false;
    take(form, action ? { name: "action", value: action } : undefined);
    return true;
  };

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "record" || !offlineNow()) return;
    event.preventDefault();
    event.stopPropagation();
    take(form, event.submitter);
  }, true);

  // A hand kept as entered: its form's fields (with its event id and the
  // log length it was made against), shown as waiting; the form moves on
  // to the next hand.
  function keepRaw(form, fields) {
    var number = numberIn((document.getElementById("record-title") || {}).textContent);
    var item = { fields: fields, id: fields.event_id, number: number, summary: worded(form, fields) };
    state.raw.push(item);
    return save().then(function () {
      var hands = document.getElementById("hands");
      if (hands) hands.insertBefore(rawRow(item), hands.firstChild);
      PepperDraw.empty(form, fields.by || "");
      aimForm(Number(fields.expected_seq) + 1, number + 1);
      PepperDraw.clearErrors(form);
      keepShown(state.shown ? state.shown.seq : Number(state.raw[0].fields.expected_seq));
      banner();
      sync();
      return true;
    });
  }
  // Hands waiting as entered, on the page: those the service worker kept
  // (a Save before this script ran) are numbered and worded here.
  function drawRaw() {
    var form = document.getElementById("record");
    var hands = document.getElementById("hands");
    var shownNumber = numberIn((document.getElementById("record-title") || {}).textContent);
    var number = shownNumber;
    var fresh = state.raw.filter(function (item) { return item.number === null; });
    fresh.forEach(function (item) {
      item.number = number++;
      item.summary = form ? worded(form, item.fields) : "";
    });
    if (fresh.length) save().catch(function () {});
    // The form past the last of them, wherever the page is older than
    // they are: a Save the service worker kept, or a page drawn from the
    // outbox's copy alone (IndexedDB lost the write that moved it on).
    var last = state.raw[state.raw.length - 1];
    if (last && last.number >= shownNumber) aimForm(Number(last.fields.expected_seq) + 1, last.number + 1);
    state.raw.forEach(function (item) {
      if (hands && !hands.querySelector('[data-raw="' + item.id + '"]')) hands.insertBefore(rawRow(item), hands.firstChild);
    });
  }
  // What fields say, in the form's own labels ("Bob · 4 · ♥ · 5").
  function worded(form, fields) {
    if (fields.action === "pass") return "passed out";
    var words = [];
    Object.keys(fields).forEach(function (name) {
      var input = form.querySelector('input[type=radio][name="' + CSS.escape(name) + '"][value="' + CSS.escape(fields[name]) + '"]');
      var label = input && input.closest("label");
      if (label) words.push(label.textContent.trim());
    });
    return words.join(" · ");
  }
  function rawRow(item) {
    return el("li", { "class": "hand queued", "data-raw": item.id }, [el("details", {}, [el("summary", {}, [
      el("span", { "class": "hand-no", text: String(item.number) }),
      el("span", { "class": "hand-what" }, [document.createTextNode(item.summary + " "),
        el("em", { "class": "badge queued", text: "not scored yet" })]),
      el("span", { "class": "hand-score", text: "" })]),
      el("p", { text: "Saved on this phone as entered; scored when the referee is ready, sent when the connection is back." })])]);
  }

  // Hands kept as entered are refereed once the engine is up: each becomes
  // an outbox event (with its form's event id: a hand that did reach the
  // server is stored once). A hand the rules refuse is held for the table.
  function absorbRaw() {
    if (!state.raw.length || held()) return Promise.resolve();
    // A hand sent as entered moved the log on: referee the next on it.
    if (rawLanded) return refreshLog().then(function () { rawLanded = false; return absorbRaw(); });
    var item = state.raw[0];
    return PepperEngine.json("hand_of", JSON.stringify(item.fields), state.log, JSON.stringify(state.items)).then(function (answer) {
      if (answer.missing) return hold(item, answer.missing.join(" "));
      var event = Object.assign({ type: "hand", id: item.id, by: item.fields.by || "" }, answer.hand);
      if (!event.by) delete event.by;
      var queued = { event: event, expected_seq: expectedNext(), target_of: null, fields: item.fields };
      return engineView(state.items.concat([queued])).then(function (v) {
        if (v.refusal) return hold(item, v.refusal.text);
        // To the outbox as it is now, by id: a hand sent meanwhile is not
        // queued again, and no other hand is taken off in its place.
        if (!state.items.some(function (kept) { return kept.event.id === item.id; })) state.items = state.items.concat([queued]);
        dropRaw(item);
        return save().then(absorbRaw);
      });
    });
  }
  // A waiting hand the rules (or the server) refused: it stays on the
  // phone, first in line, until the table puts it back in the form or
  // drops it; nothing after it is sent meanwhile.
  // What followed a dropped change follows the log as it is now.
  // A dropped change takes with it the queued changes aimed at it (a void
  // or a correction of that hand): sent on their own, their position in
  // the log would name whatever hand sits there now.
  function dropItem(item) {
    var gone = [item];
    for (var i = 0; i < gone.length; i += 1) {
      var id = gone[i].event.id;
      state.items.forEach(function (kept) {
        if (kept.target_of === id && gone.indexOf(kept) < 0) gone.push(kept);
      });
    }
    state.items = state.items.filter(function (kept) { return gone.indexOf(kept) < 0; });
    state.items.forEach(function (kept) { kept.expected_seq = null; });
  }
  function dropRaw(item) {
    state.raw = state.raw.filter(function (kept) { return kept.id !== item.id; });
  }
  // A refereed change the server refused is held the same way, first.
  function held() {
    if (!state) return null;
    if (state.items.length && state.items[0].refused) return state.items[0];
    return state.raw.length && state.raw[0].refused ? state.raw[0] : null;
  }
  function hold(item, why) {
    item.refused = why || "the server did not take it.";
    return save().then(showHeld);
  }
  function showHeld() {
    var item = held();
    var box = document.getElementById("offline-held");
    if (!box) return;
    box.hidden = !item;
    if (!item) return;
    var what = item.event ? (item.event.type === "hand" ? "A hand" : "A change") + " saved on this phone"
      : "Hand " + item.number + " (" + item.summary + "), saved on this phone,";
    document.getElementById("offline-held-text").textContent = what + " was not taken: " + item.refused;
    box.querySelector('[data-held="form"]').hidden = !item.fields;
    banner();
    box.scrollIntoView({ block: "center" });  // the question is in view when asked
  }
  root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-held]");
    var item = held();
    if (!button || !item) return;
    if (item.event) dropItem(item); else dropRaw(item);
    save().then(item.event ? redraw : null).then(function () {  // the form, redrawn, then refilled
      if (button.dataset.held === "form") refill(document.getElementById("record"), item.fields);
      var row = document.querySelector('#hands [data-raw="' + item.id + '"]');
      if (row) row.remove();
      showHeld();
      banner();
      sync();
    });
  });
  // A kept entry back in the record form, to fix and save again.
  function refill(form, fields) {
    if (!form) return;
    Object.keys(fields).forEach(function (name) {
      if (name === "csrfmiddlewaretoken" || name === "expected_seq" || name === "event_id") return;
      var radio = form.querySelector('input[type=radio][name="' + CSS.escape(name) + '"][value="' + CSS.escape(fields[name]) + '"]');
      var text = form.querySelector('input[type=text][name="' + CSS.escape(name) + '"]');
      if (radio) radio.checked = true;
      if (text) text.value = fields[name];
    });
    form.dataset.touched = "1";
    form.dataset.putBack = "1";  // a fresh form for the next hand takes it along (record.js)
    form.scrollIntoView({ block: "nearest" });
  }

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
  // shows them, and the server's answer would not. Not while the one
  // change left is held for the table (the server refused it): the table
  // decides looking at what the server has (most often the same hand,
  // recorded by another phone), and the table's panel follows the others.
  function onlyHeld() { return waiting() === 1 && !!held() && !replaced; }
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id !== "poller") return;
    if (syncing || unreachable() || (waiting() > 0 && !onlyHeld())) event.preventDefault();
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
    if (!state || !xhr || xhr.status !== 200 || (waiting() && !onlyHeld()) || disputed) return;
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
    state.items = state.items.filter(function (kept) { return kept.event.id !== item.event.id; });
    failures = 0;
    return save();
  }
  function offlineAgain() { online = false; banner(); retryLater(); }
  function gone(status) { return status === 401 || status === 403 || status === 404 || status === 410; }
  // Sent in order: the outbox's events through the API; then the hands
  // kept as entered, refereed by the engine first when it is up, else sent
  // as the form would have sent them (the server referees them like any
  // other save): a phone whose engine never starts loses nothing.
  function sync() {
    if (updating || !state || syncing || disputed || replaced || held() || !(waiting() || pendingGame())) return;
    syncing = true;
    inTurn(step).then(function () { syncing = false; banner(); },
      function (error) {
        syncing = false;
        if (window.console) console.warn("offline sync:", error);
        retryLater();
      });
  }
  // Every change to the outbox that waits on the server or the engine
  // runs in turn, never two at once: each finds the outbox as the one
  // before left it.
  var turn = Promise.resolve();
  function inTurn(work) {
    var done = turn.then(work);
    turn = done.catch(function () {});
    return done;
  }
  function step() {
    if (pendingGame()) return state.creation.refused ? null : sendCreation();
    var item = state.items[0];
    if (item) return sendItem(item);
    if (!state.raw.length || held()) return finish();
    if (ready) return absorbRaw().then(function () { return held() ? null : step(); });
    // No referee on the phone yet (loading, or it never started): the
    // server referees them, as entered, as soon as it answers.
    return sendRaw(state.raw[0]);
  }
  function sendItem(item) {
    return send(item).then(function (reply) {
      online = true;
      if (reply.status === 201) return sent(item, reply.answer).then(step);
      if (gone(reply.status)) return linksReplaced();
      if (reply.status === 409 && item.expected_seq === null) {
        item.expected_seq = reply.answer.current_seq;  // after what is there now
        return save().then(step);
      }
      if (reply.status === 409 && engine === "failed") return hold(item, reply.answer.error);
      if (reply.status === 409) {
        if (!ready) return null;  // the table is asked once the engine is up
        return refreshLog().then(dispute).then(function (asked) { if (!asked) return step(); });
      }
      if (reply.status === 422) return hold(item, reply.answer.error);
      retryLater();
    }, offlineAgain);
  }
  // The game this phone started, sent as its form would have sent it: a
  // resend of the same form (its answer lost) opens the game it made.
  function csrfCookie() {
    var found = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
    return found ? found[1] : "";
  }
  // A form kept in the outbox is sent with this browser's CSRF cookie as
  // it is now, not the token the page had when the form was filled: a
  // page kept offline for days, or a cookie renewed since, would
  // otherwise be refused (Django reads the form's own token first).
  function postForm(url, fields, headers) {
    var body = new URLSearchParams(fields);
    var token = csrfCookie() || fields.csrfmiddlewaretoken || "";
    body.delete("csrfmiddlewaretoken");
    return live(url, { method: "POST", headers: Object.assign({ "X-CSRFToken": token }, headers || {}), body: body });
  }
  // Django's "page out of date" (templates/403_csrf.html) is not a link
  // that was replaced: a page read anew renews the cookie, and the form
  // is sent again later.
  function csrfRefused(response) {
    if (response.status !== 403) return Promise.resolve(false);
    return response.clone().text().then(function (html) {
      if (html.indexOf('id="csrf-refused"') < 0) return false;
      return live(location.pathname).then(function () { retryLater(); return true; }, function () { retryLater(); return true; });
    });
  }
  function sendCreation() {
    var fields = state.creation.fields;
    return postForm("/games/new", fields).then(function (response) {
      return csrfRefused(response).then(function (refused) { return refused ? null : created(response); });
    }, offlineAgain);
  }
  function created(response) {
    online = true;
    var landed = new URL(response.url || location.href).pathname === "/games/" + state.game + "/";
    if (response.ok && landed) {
      state.creation = null;
      return save().then(step);
    }
    if (response.status === 422) {
      return response.text().then(function (html) {
        state.creation.refused = serverWords(html);
        return save().then(refusedGame);
      });
    }
    retryLater();
  }
  var rawLanded = false;  // a hand sent as entered: the page is the server's to draw
  function sendRaw(item) {
    return postForm(root.dataset.hands, item.fields, { "HX-Request": "true" }).then(function (response) {
      return csrfRefused(response).then(function (refused) { return refused ? null : rawAnswered(item, response); });
    }, offlineAgain);
  }
  function rawAnswered(item, response) {
    online = true;
    if (response.ok) {
      dropRaw(item);
      rawLanded = true;
      return save().then(step);
    }
    if (gone(response.status)) return linksReplaced();
    if (response.status === 409 || response.status === 422) {
      return response.text().then(function (html) { return hold(item, serverWords(html)); });
    }
    retryLater();
  }
  // What the server's answer says to the player (its refusal or conflict).
  function serverWords(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var said = ["#live-note", "#record-errors .error", "#record .error", "[role=alert]"].map(function (where) {
      var found = page.querySelector(where);
      return found ? found.textContent.replace(/\s+/g, " ").trim() : "";
    }).filter(Boolean);
    return said[0] || "the server did not take it.";
  }
  function finish() {
    state.lastSync = new Date().toISOString();
    if (shell) {  // the server has the game and its hands: its page, with its links
      var started = document.getElementById("record");
      try { sessionStorage.setItem("pepper-landed", state.game); } catch (error) { /* the links stay one tap away */ }
      if (!started.dataset.touched) { location.reload(); return null; }
      return save().then(function () { banner("This game and its hands are on the server: reload the page for its links."); });
    }
    if (rawLanded && !ready) {  // the server scored them: its page shows it
      rawLanded = false;
      var form = document.getElementById("record");
      if (!form || !form.dataset.touched) { location.reload(); return null; }
      return save().then(function () { banner("Every hand waiting here was sent: reload the page for the scores."); });
    }
    return refreshLog().then(redraw).then(function () {
      var chart = document.getElementById("chart");
      if (chart) htmx.ajax("GET", location.pathname + "chart", { target: "#chart", swap: "outerHTML" });
    });
  }
  // The game's links were replaced: this phone may no longer send to it.
  // What waits here stays here, said so, with a way to copy it out.
  function linksReplaced() {
    replaced = true;
    var box = document.getElementById("offline-replaced");
    var waitingNow = state.raw.map(function (item) { return { hand: item.number, entered: item.summary, fields: item.fields }; })
      .concat(state.items.map(function (item) { return item.event; }));
    document.getElementById("offline-replaced-text").textContent = "This game's links were replaced: the " + waiting() +
      " change" + (waiting() === 1 ? "" : "s") + " waiting on this phone were not sent. Ask the table for the new link; copy them to enter them again there.";
    document.getElementById("offline-replaced-copy").value = JSON.stringify(waitingNow, null, 1);
    box.hidden = false;
    banner();
    box.scrollIntoView({ block: "center" });
    return save();
  }
  root.addEventListener("click", function (event) {
    if (!event.target.closest("[data-copy-waiting]")) return;
    var text = document.getElementById("offline-replaced-copy");
    text.select();
    if (navigator.clipboard) navigator.clipboard.writeText(text.value).catch(function () {});
  });
  root.addEventListener("click", function (event) {
    if (event.target.closest("#offline-send")) { online = true; failures = 0; sync(); }
  });

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
      box.scrollIntoView({ block: "center" });  // the question is in view when asked
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
    if (updating) return Promise.resolve();  // the new version keeps its own
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
    }).then(function () {
      ready = true;
      engine = "ready";
      banner();
      if (shell) return openStarted().then(redraw).then(sync);
      keepEngine().catch(function (error) {  // it runs; the next start needs the network
        if (window.console) console.warn("offline engine not kept:", error);
      });
      // Drawn over the server's page only when this phone has changes of
      // its own to show (a form being filled in is left alone).
      if (waiting()) return inTurn(function () { return absorbRaw().then(redraw).then(showHeld); }).then(sync);
    }, function (error) {
      // An old phone, too little memory, no workers: the hands entered
      // still wait as entered, and the server referees them.
      engine = "failed";
      banner();
      if (shell && !state.log && state.creation) {
        document.getElementById("offline-game-note").textContent = "This phone cannot open a game it started " +
          "with no connection (its referee is not on the phone): the game is kept, and opens when the connection is back.";
        document.querySelector(".history").hidden = true;
      }
      if (window.console) console.warn("offline engine:", error);
      sync();
    });
  }
  // The log of a game started here, made by the engine from its form: what
  // the server will hold once it has the game (no events yet).
  function openStarted() {
    if (state.log || !state.creation) return Promise.resolve();
    return PepperEngine.json("new_game", JSON.stringify(state.creation.fields)).then(function (answer) {
      if (answer.refusal) state.creation.refused = answer.refusal;
      else state.log = JSON.stringify(answer.log);
      return save().then(function () { refusedGame(); banner(); });
    });
  }
  // A game the rules (or the server) would not start: said in their words,
  // with the way back to the form; no longer listed as this phone's game.
  function refusedGame() {
    if (!shell || !state.creation || !state.creation.refused) return;
    var note = document.getElementById("offline-game-note");
    note.replaceChildren(document.createTextNode("This game cannot start: " + state.creation.refused + " "),
      el("a", { href: "/games/new", text: "Back to the new-game form" }));
    note.setAttribute("role", "alert");
    note.className = "error";
    document.querySelector(".history").hidden = true;  // no game: no hands
    state.title = "";
    save().catch(function () {});
  }
  // A game page this phone has no copy of, and did not start.
  function unknownGame() {
    document.getElementById("offline-game-note").textContent =
      "No connection: this game was not opened on this phone yet. Open it again when the connection is back.";
    document.querySelector(".history").hidden = true;
  }
  function ensureLoaded() {
    if (!loaded) {
      loaded = load(root.dataset.game).then(function (found) {
        state = found;
        if (shell) root.dataset.token = state.token || "";
        if (shell && !state.log && !state.creation) { unknownGame(); return state; }
        refusedGame();
        heldSeq = state.log ? JSON.parse(state.log).events.length : null;
        drawKept();
        drawRaw();
        if (waiting()) state.title = document.title.replace(/ · Pepper$/, "");
        else keepShown(pageSeq());  // listed on the start page, as it stands
        showHeld();
        banner();
        return state;
      });
      loaded.then(reveal, reveal);
    }
    return loaded;
  }
  // The server's page of a game this phone started offline, just landed:
  // its links shown, as a game started online shows them to its maker.
  function showLanded() {
    var share = document.querySelector("details.share");
    var landed = null;
    try { landed = sessionStorage.getItem("pepper-landed"); } catch (error) { return; }
    if (shell || !share || landed !== root.dataset.game) return;
    sessionStorage.removeItem("pepper-landed");
    share.open = true;
    var note = document.getElementById("record-note");
    note.textContent = "This game, started on this phone, is on the server with its hands: share it from its links below.";
    note.hidden = false;
  }
  function start() {
    showLanded();
    var unknown = false;  // a game page this phone has no copy of: nothing to draw or send
    ensureLoaded().then(function () {
      unknown = shell && !state.log && !state.creation;
      if (unknown || pendingGame()) return null;  // the server has no such game yet
      return refreshLog().catch(function () { online = false; banner(); });
    }).then(function () {
      if (unknown) { state = null; return; }
      sync();
      registered.then(function () { afterLoad(function () { whenIdle(startEngine); }); }, function () {
        engine = "failed";  // no service worker here: no engine either
        banner();
        sync();
      });
    });
    window.addEventListener("online", function () { online = true; failures = 0; sync(); });
    window.addEventListener("offline", function () { online = false; banner(); });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") sync();
    });
    // What the server's answers draw is kept too (a reopened page starts
    // from it), unless this phone's own changes are drawn over it.
    document.body.addEventListener("htmx:afterSettle", function () {
      if (state && !waiting()) keepShown(pageSeq());
    });
    setInterval(function () { if (waiting() && !syncing && !disputed) sync(); }, 5000);
    addHomeScreenHint();
  }
  // Safari on an iPhone installs no app by itself: say how, once. On an
  // iPad (iPadOS 13+) it sends a Mac's user agent: touch tells them apart.
  function addHomeScreenHint() {
    var agent = navigator.userAgent;
    var ipad = /Macintosh/.test(agent) && navigator.maxTouchPoints > 1;
    var ios = (/iPhone|iPad|iPod/.test(agent) || ipad) && !navigator.standalone;
    var hint = document.getElementById("offline-ios");
    if (!hint || !ios || localStorage.getItem("pepper-ios-hint")) return;
    hint.hidden = false;
    root.hidden = false;
    localStorage.setItem("pepper-ios-hint", "shown");
  }
})();
