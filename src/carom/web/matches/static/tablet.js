// The referee's tablet. No inline code (the Content-Security-Policy allows none), so
// what the panel needs beyond htmx's attributes is here.
(function () {
  "use strict";

  function panel() { return document.getElementById("panel"); }

  // "seq.events" of a panel or of an update: compared as two numbers.
  function version(text) {
    var parts = String(text || "0.0").split(".");
    return [Number(parts[0]) || 0, Number(parts[1]) || 0];
  }
  function older(a, b) { return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]); }

  // Never let an older view replace a newer one: a refresh (GET) that was computed
  // before the referee's last entry arrives after it is dropped. (A table's tablet that
  // moves on to its next game gets another match's panel: that one is not older.) A
  // table's tablet, which fetches its game afresh itself, asks the same of what it fetched.
  function olderView(html) {
    var current = panel();
    if (!current) return false;
    var match = /data-match="(\d+)"/.exec(html);
    if (match && match[1] !== current.dataset.match) return false;
    var found = /data-version="([\d.]+)"/.exec(html);
    return Boolean(found) && older(version(found[1]), version(current.dataset.version));
  }
  window.caromOlderView = olderView;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    if (!config || config.verb !== "get") return;
    if (olderView(event.detail.serverResponse || "")) event.detail.shouldSwap = false;
  });

  // Another tablet (or the organiser) moved the match on: fetch the panel afresh.
  // The newest version announced is kept: an announcement that arrives while the
  // panel's own request is on its way is dropped by hx-sync, so when that request
  // settles the panel is fetched again if it is still older than the announcement
  // (otherwise it would stay one record behind until the next one).
  var announced = version("0.0");
  function catchUp() {
    var current = panel();
    var tablet = document.getElementById("tablet");
    if (!current || !tablet || !older(version(current.dataset.version), announced)) return;
    htmx.ajax("GET", tablet.dataset.panel, {source: current, target: "#panel", swap: "outerHTML"});
  }
  document.addEventListener("sse:seq", function (event) {
    if (!event.detail) return;
    var said = version(event.detail.data);
    if (older(announced, said)) announced = said;
    catchUp();
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "panel") catchUp();
  });

  // A tap while the previous entry is still on its way is not taken (hx-sync drops
  // it, so nothing is entered twice); say so clearly instead of dimming the button.
  // (An entry whose button left the page meanwhile, a table's tablet moving on, holds
  // nothing up: its answer's event no longer reaches the document.)
  var busy = null;
  var hide = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.requestConfig && event.detail.requestConfig.verb === "post") busy = event.detail.elt;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.requestConfig && event.detail.requestConfig.verb === "post") busy = null;
  });
  document.addEventListener("htmx:confirm", function (event) {
    if (!busy || !document.contains(busy) || event.detail.verb !== "post") return;
    event.preventDefault();
    var button = event.detail.elt;
    if (button && button.classList) {
      button.classList.remove("not-taken");
      void button.offsetWidth;  // restart the animation
      button.classList.add("not-taken");
    }
    var notice = document.getElementById("tap-notice");
    if (!notice) return;
    notice.hidden = false;
    if (hide) clearTimeout(hide);
    hide = setTimeout(function () { notice.hidden = true; }, 5000);
  });
})();
