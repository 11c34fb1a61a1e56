// The director's console's live pages: the element #live is fetched again (its data-part address) each time the
// event file changes, by long polling: the server answers once the file's generation is past the one the page
// shows. The focused link keeps its focus across the swap. Without this script the page is a plain page.
(function () {
  "use strict";
  var live = document.getElementById("live");
  var state = document.getElementById("live-state");
  if (!live || !window.fetch) return;
  var generation = live.dataset.generation;
  // The page's own words for it, in its language (console_layout.html).
  var said = {open: document.body.dataset.saidLive, lost: document.body.dataset.saidLost};

  function say(text, how) {
    document.body.dataset.live = how;
    if (state) state.textContent = text;
  }

  function follow() {
    var url = live.dataset.part + "&since=" + encodeURIComponent(generation);
    fetch(url, {cache: "no-store", credentials: "same-origin", redirect: "manual"}).then(function (r) {
      if (!r.ok) throw new Error("status " + r.status);
      var now = r.headers.get("X-Generation");
      return r.text().then(function (html) { return [now, html]; });
    }).then(function (got) {
      if (got[0] !== generation) {
        var focused = document.activeElement && document.activeElement.id;
        live.innerHTML = got[1];
        generation = got[0];
        if (focused) {
          var again = document.getElementById(focused);
          if (again) again.focus();
        }
        document.body.dataset.updated = String(Date.now());
      }
      say(said.open, "open");
      follow();
    }).catch(function () {
      // Logged out, or the server is gone: say so, and try again a little later.
      say(said.lost, "lost");
      setTimeout(follow, 2000);
    });
  }
  say(said.open, "open");
  follow();
})();
