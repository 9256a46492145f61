/* A table's fixed tablet and screen: one live channel for the table (its address in
   data-events), and the pages move on by themselves from one game to the next.
   The screen's channel sends event "board": the board of the game now, or what is next;
   it replaces the page's board. The tablet's sends event "table": the state of the table
   ("m12.31.2": match 12 at version 31.2, or what is next); when it is not what the tablet
   shows, the tablet fetches the table's game afresh (data-now). No inline code: the
   Content-Security-Policy allows none. */
(function () {
  "use strict";
  var device = document.getElementById("table-device");
  var board = document.querySelector("#board[data-view=screen]");
  var box = device || board;
  if (!box || !window.caromLive) { return; }
  var source = window.caromLive(box.getAttribute("data-events"));
  source.addEventListener("open", function () { box.setAttribute("data-live", "1"); });

  if (!device) {
    source.addEventListener("board", function (e) { board.innerHTML = e.data; });
    return;
  }

  function shown() {
    var tablet = document.getElementById("tablet");
    var panel = document.getElementById("panel");
    if (tablet && panel) { return "m" + tablet.getAttribute("data-match") + "." + panel.getAttribute("data-version"); }
    var next = document.getElementById("table-next");
    return next ? next.getAttribute("data-state") : "";
  }

  var wanted = null;
  var loading = false;
  function refresh() {
    if (loading) { return; }
    loading = true;
    htmx.ajax("GET", device.getAttribute("data-now"), {target: "#table-now", swap: "innerHTML"})
      .then(function () {
        loading = false;
        if (wanted !== null && wanted !== shown()) { window.setTimeout(refresh, 200); }
      }, function () { loading = false; });
  }

  source.addEventListener("table", function (e) {
    wanted = String(e.data);
    if (wanted !== shown()) { refresh(); }
  });
})();
