/* A table's fixed tablet and screen: one live channel for the table (its address in
   data-events), and the pages move on by themselves from one game to the next.
   The screen's channel sends event "board": the board of the game now, or what is next;
   it replaces the page's board. The tablet's sends event "table": the state of the table
   ("m12.31.2": match 12 at version 31.2, or what is next); when it is still not what the
   tablet shows a moment later, the tablet fetches the table's game afresh (data-now). No inline code: the
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

  // The tablet's own entry changes the match's version too: its event may come before
  // the entry's answer is on the page. So look again a moment later, and only while no
  // entry is on its way, and fetch the table afresh only if it still differs (a page
  // replaced under a finger loses the tap).
  var wanted = null;
  var loading = false;
  var timer = null;
  function busy() { return document.querySelector("#table-now .htmx-request") !== null; }
  function check() {
    timer = null;
    if (wanted === null || wanted === shown()) { return; }
    if (loading || busy()) { later(); return; }
    loading = true;
    window.fetch(device.getAttribute("data-now"), {credentials: "same-origin", headers: {"HX-Request": "true"}})
      .then(function (answer) {
        if (answer.status === 403) { window.location.reload(); }  // no longer paired: say so
        return answer.ok ? answer.text() : null;
      })
      .then(function (html) { if (html !== null) { swap(html); } })
      .catch(function (error) { if (window.console) { window.console.error(String(error)); } })
      .then(function () { loading = false; later(); });
  }
  // An entry sent while the table was being fetched afresh keeps the page it is answered
  // on; the next look fetches again. Nor does a game fetched before the tablet's own last
  // entry was answered put its older panel back (the next tap would then follow a record
  // that is no longer the last, and be refused as if another tablet had entered one).
  function swap(html) {
    if (busy() || (window.caromOlderView && window.caromOlderView(html))) { return; }
    htmx.swap("#table-now", html, {swapStyle: "innerHTML"});
  }
  function later() { if (timer === null) { timer = window.setTimeout(check, 250); } }

  source.addEventListener("table", function (e) {
    wanted = String(e.data);
    later();
  });
})();
