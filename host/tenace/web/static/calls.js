// The director's console: a tone when a table calls the director (a call not on the page before), which the
// director can switch off (the choice kept in this browser), and the round clock's minutes counted down between
// two renders of the live part. Without this script the page still shows every call and the clock's end time.
(function () {
  "use strict";
  var live = document.getElementById("live");
  var box = document.getElementById("call-sound");
  if (!live) return;
  var KEY = "tenace-call-sound";
  var seen = {};
  var audio = null;
  if (box) {
    box.checked = window.localStorage.getItem(KEY) !== "off";
    box.addEventListener("change", function () { window.localStorage.setItem(KEY, box.checked ? "on" : "off"); });
    document.getElementById("call-sound-line").hidden = false;
  }

  function tone() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context || (box && !box.checked)) return;
    try {
      audio = audio || new Context();
      [0, 0.35].forEach(function (at) {  // two short beeps
        var osc = audio.createOscillator(), gain = audio.createGain();
        osc.frequency.value = 880;
        gain.gain.value = 0.2;
        osc.connect(gain);
        gain.connect(audio.destination);
        osc.start(audio.currentTime + at);
        osc.stop(audio.currentTime + at + 0.2);
      });
      document.body.dataset.toned = String(Date.now());  // (for the tests: the tone was asked for)
    } catch (e) { /* no sound on this browser: the page still shows the call */ }
  }

  function look(first) {
    var fresh = false;
    live.querySelectorAll("[data-call]").forEach(function (el) {
      var id = el.getAttribute("data-call");
      if (!seen[id]) { seen[id] = true; fresh = true; }
    });
    if (fresh && !first) tone();
  }

  function tick() {
    live.querySelectorAll("[data-ends]").forEach(function (el) {
      var left = Math.ceil((Date.parse(el.getAttribute("data-ends")) - Date.now()) / 60000);
      var b = el.querySelector("bdi") || el.querySelector("b");
      if (b && left >= 0) b.textContent = String(left);
    });
  }

  look(true);
  new MutationObserver(function () { look(false); tick(); }).observe(live, {childList: true});
  setInterval(tick, 10000);
})();
