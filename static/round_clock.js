// The round clock on the desk and the TV: beside the round's end time
// ("Round 2 ends 20:45", the server's words, all a page without
// JavaScript shows), the time left, "12:34 left", counted each second.
// The server says how many seconds were left when it drew the page
// (data-left), so a phone's or TV's own clock being off does not matter.
(function () {
  "use strict";
  var seen = new WeakMap();
  function words(left) {
    if (left <= 0) return " · time is up";
    var minutes = Math.floor(left / 60), seconds = left % 60;
    return " · " + minutes + ":" + (seconds < 10 ? "0" : "") + seconds + " left";
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-left]").forEach(function (clock) {
      if (!seen.has(clock)) seen.set(clock, now);
      var gone = Math.floor((now - seen.get(clock)) / 1000);
      var text = words(Number(clock.dataset.left) - gone);
      if (clock.textContent !== text) clock.textContent = text;
    });
  }
  tick();
  setInterval(tick, 1000);
})();
