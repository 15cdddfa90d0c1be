// /games/new: "Who deals first?" lists the players as they are typed; the
// house rules start as the chosen preset has them; a house can keep named
// rule sets in this browser and start the next game from one.
(function () {
  "use strict";
  var SETS = "pepper-rule-sets";

  function refreshDealer() {
    var select = document.getElementById("first-dealer");
    if (!select) return;
    var typed = false;
    Array.prototype.forEach.call(select.options, function (option) {
      var field = document.querySelector('input[name="seat_' + option.value + '"]');
      var name = field ? field.value.trim() : "";
      typed = typed || !!name;
      option.textContent = name || "Player " + (Number(option.value) + 1);
      option.dataset.named = name ? "1" : "";
    });
    Array.prototype.forEach.call(select.options, function (option) {
      option.hidden = typed && !option.dataset.named;
    });
    if (select.selectedOptions[0] && select.selectedOptions[0].hidden) select.value = "0";
  }

  function preset() {
    var chosen = document.querySelector("input[name=preset]:checked");
    return chosen ? chosen.value : "classic";
  }

  // Fill each house setting the player has not changed with the preset's value.
  function players() {
    var named = Array.prototype.filter.call(
      document.querySelectorAll("input[name^=seat_]"), function (f) { return f.value.trim(); });
    return String(named.length || 4);
  }

  function fillPreset() {
    var name = preset();
    var count = players();
    document.querySelectorAll("[data-presets]").forEach(function (field) {
      if (field.dataset.changed) return;
      var bySeats = JSON.parse(field.dataset.presets)[name] || {};
      var value = bySeats[count];
      if (value === undefined) value = bySeats[Object.keys(bySeats)[0]];
      field.value = value === undefined ? "" : value;
    });
    document.querySelectorAll("#house-minimum_bid option[data-owners]").forEach(function (option) {
      option.hidden = option.dataset.owners.split(" ").indexOf(name) < 0;
    });
  }

  function savedSets() {
    try { return JSON.parse(localStorage.getItem(SETS) || "{}"); } catch (e) { return {}; }
  }

  function offerSets() {
    var sets = savedSets();
    var select = document.getElementById("rule-set");
    if (!select || !window.localStorage) return;
    document.querySelectorAll(".rule-sets").forEach(function (box) { box.hidden = false; });
    Object.keys(sets).forEach(function (name) {
      var option = document.createElement("option");
      option.value = option.textContent = name;
      select.appendChild(option);
    });
    var wanted = new URLSearchParams(location.search).get("rules");
    if (wanted && sets[wanted]) { select.value = wanted; useSet(sets[wanted]); }
  }

  function useSet(set) {
    var radio = document.querySelector('input[name=preset][value="' + set.preset + '"]');
    if (radio) radio.checked = true;
    fillPreset();
    Object.keys(set.rules).forEach(function (key) {
      var field = document.querySelector('[name="' + key + '"][data-presets]');
      if (field) { field.value = set.rules[key]; field.dataset.changed = "1"; }
    });
    var house = document.querySelector("details.house-rules");
    if (house) house.open = true;
  }

  function keepSet(form) {
    var rules = {};
    form.querySelectorAll("[data-presets]").forEach(function (field) {
      rules[field.name] = field.value;
    });
    var sets = savedSets();
    var set = { preset: preset(), rules: rules };
    sets["Same rules as last time"] = set;
    var named = document.getElementById("rule-set-name");
    if (named && named.value.trim()) sets[named.value.trim()] = set;
    try { localStorage.setItem(SETS, JSON.stringify(sets)); } catch (e) { /* full: keep going */ }
  }

  document.addEventListener("input", function (event) {
    if (/^seat_\d$/.test(event.target.name || "")) { refreshDealer(); fillPreset(); }
    if (event.target.dataset && event.target.dataset.presets) event.target.dataset.changed = "1";
  });
  document.addEventListener("change", function (event) {
    if (event.target.name === "preset") fillPreset();
    if (event.target.dataset && event.target.dataset.presets) event.target.dataset.changed = "1";
    if (event.target.id === "rule-set" && event.target.value) {
      useSet(savedSets()[event.target.value]);
    }
  });
  document.addEventListener("submit", function (event) {
    if (event.target.querySelector("[data-presets]")) keepSet(event.target);
  });
  // The game's id and edit link, chosen here: this page may be the
  // phone's kept copy (opened with no connection), whose choice another
  // game has taken. Chosen once per page, so the form sent twice still
  // names one game.
  function chooseKeys() {
    var id = document.querySelector('input[name="game_id"]');
    var token = document.querySelector('input[name="edit_token"]');
    if (!id || !token || !window.crypto || !crypto.randomUUID) return;
    var bytes = crypto.getRandomValues(new Uint8Array(24));
    id.value = crypto.randomUUID();
    token.value = btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  }

  // With no connection the game starts on this phone (the service worker
  // keeps the form as sent): said before the table fills it in.
  function sayConnection() {
    var note = document.getElementById("new-game-offline");
    if (note) note.hidden = navigator.onLine !== false;
  }
  window.addEventListener("online", sayConnection);
  window.addEventListener("offline", sayConnection);

  document.addEventListener("DOMContentLoaded", function () {
    chooseKeys();
    sayConnection();
    refreshDealer();
    document.querySelectorAll("[data-presets]").forEach(function (field) {
      if (field.value) field.dataset.changed = "1";  // kept from a refused form
    });
    fillPreset();
    offerSets();
  });
})();
