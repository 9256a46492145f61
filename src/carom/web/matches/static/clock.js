// The shot clock (docs/clock.md, rules T1-T3) on the referee's tablet and the audience
// board. The page holds one element with data-clock; its data-key changes with every
// stroke, so a new key starts the count afresh, and data-taken turning to 1 (a time-out,
// T2) extends the stroke under way. The board only shows the count; the tablet, at zero,
// takes a time-out while the striker has one (T2) or records the foul (T3), by clicking
// the panel's own buttons: the records go through the tablet's ordinary request.
// data-paused is the referee's pause as the server keeps it (a match event, so that every
// tablet and board of the match stops and goes on together); this page follows it.
(function () {
  "use strict";

  var clock = {key: null, deadline: 0, extended: false, paused: null, fired: false};

  function element() { return document.querySelector("[data-clock]"); }
  function seconds(node, name) { return Number(node.dataset[name]) || 0; }

  function sync(node, now) {
    if (node.dataset.key !== clock.key) {
      clock.key = node.dataset.key;
      clock.deadline = now + seconds(node, "stroke") * 1000;
      clock.extended = false;
      clock.fired = false;
      clock.paused = null;
    }
    var paused = node.dataset.paused === "1";
    if (paused && clock.paused === null) clock.paused = now;
    if (!paused && clock.paused !== null) {
      clock.deadline += now - clock.paused;
      clock.paused = null;
    }
    if (node.dataset.taken === "1" && !clock.extended) {
      clock.extended = true;
      clock.fired = false;
      clock.deadline = Math.max(clock.deadline, clock.paused === null ? now : clock.paused) +
        seconds(node, "timeout") * 1000;
    }
  }

  function expire() {
    var timeout = document.getElementById("btn-timeout");
    if (timeout && !timeout.disabled) { timeout.click(); return; }  // T2: taken for him
    var expired = document.getElementById("btn-expired");
    if (expired) expired.click();  // T3: a foul
  }

  function tick() {
    var node = element();
    if (!node) { clock.key = null; return; }
    var now = Date.now();
    sync(node, now);
    var at = clock.paused === null ? now : clock.paused;
    var left = Math.max(0, Math.ceil((clock.deadline - at) / 1000));
    var out = node.querySelector(".clock-seconds");
    if (out && out.textContent !== String(left)) out.textContent = String(left);
    node.classList.toggle("warning", left > 0 && left <= seconds(node, "warning"));
    node.classList.toggle("expired", left === 0);
    node.classList.toggle("paused", clock.paused !== null);
    if (left === 0 && !clock.fired && clock.paused === null && node.dataset.role === "referee") {
      clock.fired = true;
      expire();
    }
  }

  document.addEventListener("htmx:afterSwap", tick);
  document.addEventListener("htmx:sseMessage", tick);
  document.addEventListener("DOMContentLoaded", tick);
  setInterval(tick, 200);
})();
