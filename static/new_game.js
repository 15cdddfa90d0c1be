// "Who deals first?" lists the players as they are typed, and only them.
(function () {
  "use strict";
  function refresh() {
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
  document.addEventListener("input", function (event) {
    if (/^seat_\d$/.test(event.target.name || "")) refresh();
  });
  document.addEventListener("DOMContentLoaded", refresh);
})();
