// The director's console: the correction period's countdown beside its end time (the page says the time without it).
(function () {
  "use strict";
  var clocks = document.querySelectorAll("time[data-countdown]");
  function tick() {
    clocks.forEach(function (el) {
      var left = Math.round((Date.parse(el.getAttribute("datetime")) - Date.now()) / 1000);
      var out = el.parentNode.querySelector(".countdown");
      if (!out) { return; }
      if (left <= 0) { out.textContent = "the correction period is over"; return; }
      var m = Math.floor(left / 60), s = left % 60;
      out.textContent = m + " min " + (s < 10 ? "0" : "") + s + " s left";
    });
  }
  tick();
  setInterval(tick, 1000);
})();
