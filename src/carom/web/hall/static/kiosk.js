/* A kiosk board: no links to follow, so it moves on by itself. A cycling kiosk loads
   the next match's board after data-every seconds (the server says which one in
   data-next); a click or a key asks the browser for full screen. */
(function () {
  "use strict";
  var box = document.getElementById("kiosk");
  if (!box) { return; }
  var next = box.getAttribute("data-next");
  var every = Number(box.getAttribute("data-every") || "0");
  if (next && every > 0) {
    window.setTimeout(function () { window.location.replace(next); }, every * 1000);
  }
  function fullScreen() {
    var root = document.documentElement;
    if (!document.fullscreenElement && root.requestFullscreen) {
      root.requestFullscreen().catch(function () { /* the browser said no: stay as is */ });
    }
  }
  document.addEventListener("click", fullScreen);
  document.addEventListener("keydown", fullScreen);
})();
