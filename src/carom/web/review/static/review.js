/* /review: one tracked stroke replayed from its samples (paths, contacts, the balls over time). */
(function () {
  "use strict";
  var section = document.getElementById("stroke");
  var svg = document.getElementById("replay-svg");
  if (!section || !svg) { return; }
  var NS = "http://www.w3.org/2000/svg";
  var COLOURS = { white: "#f8f8f2", yellow: "#f2c12e", red: "#d2232a" };
  var play = document.getElementById("replay-play");
  var range = document.getElementById("replay-time");
  var clock = document.getElementById("replay-clock");
  var slow = document.getElementById("replay-slow");
  var items = document.querySelectorAll("#replay-events li");
  var stills = Array.prototype.slice.call(document.querySelectorAll("#stills li"));
  var still = document.getElementById("still-img");
  var stillCaption = document.getElementById("still-caption");

  function showStill(t) {
    /* the video's still nearest the replay's time */
    if (!still || !stills.length) { return; }
    var best = stills[0];
    stills.forEach(function (li) {
      if (Math.abs(parseFloat(li.getAttribute("data-t")) - t) < Math.abs(parseFloat(best.getAttribute("data-t")) - t)) {
        best = li;
      }
    });
    if (still.getAttribute("src") !== best.getAttribute("data-src")) {
      still.setAttribute("src", best.getAttribute("data-src"));
      still.setAttribute("alt", best.getAttribute("data-alt"));
      stillCaption.textContent = best.getAttribute("data-caption");
    }
    stills.forEach(function (li) { li.classList.toggle("shown", li === best); });
  }

  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) { parent.appendChild(node); }
    return node;
  }

  function at(samples, t) {
    /* a ball's centre at time t: the samples interpolated, held before the first and after the last */
    if (t <= samples[0][0]) { return [samples[0][1], samples[0][2]]; }
    var n = samples.length;
    if (t >= samples[n - 1][0]) { return [samples[n - 1][1], samples[n - 1][2]]; }
    var lo = 0, hi = n - 1;
    while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (samples[mid][0] <= t) { lo = mid; } else { hi = mid; } }
    var a = samples[lo], b = samples[hi], f = (t - a[0]) / (b[0] - a[0]);
    return [a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2])];
  }

  function parse(samples) {
    /* "t x y;t x y;..." per ball */
    var out = {};
    Object.keys(samples).forEach(function (ball) {
      out[ball] = samples[ball].split(";").map(function (s) { return s.split(" ").map(Number); });
    });
    return out;
  }

  function draw(data) {
    data.samples = parse(data.samples);
    var W = data.table.width, L = data.table.length, R = data.table.ball, rail = 0.09;
    /* the table lies on its side: y along the screen, the bottom cushion at the left */
    function sx(p) { return p[1]; }
    function sy(p) { return W - p[0]; }
    svg.setAttribute("viewBox", [-rail, -rail, L + 2 * rail, W + 2 * rail].join(" "));
    el("rect", { x: -rail, y: -rail, width: L + 2 * rail, height: W + 2 * rail, rx: 0.05, "class": "rail" }, svg);
    el("rect", { x: 0, y: 0, width: L, height: W, "class": "cloth" }, svg);
    for (var i = 1; i < 8; i++) {
      el("circle", { cx: i * L / 8, cy: -rail / 2, r: 0.012, "class": "diamond" }, svg);
      el("circle", { cx: i * L / 8, cy: W + rail / 2, r: 0.012, "class": "diamond" }, svg);
    }
    for (var j = 1; j < 4; j++) {
      el("circle", { cx: -rail / 2, cy: j * W / 4, r: 0.012, "class": "diamond" }, svg);
      el("circle", { cx: L + rail / 2, cy: j * W / 4, r: 0.012, "class": "diamond" }, svg);
    }
    var names = Object.keys(data.samples);
    names.forEach(function (ball) {
      var pts = data.samples[ball].map(function (s) { var p = [s[1], s[2]]; return sx(p) + "," + sy(p); });
      el("polyline", { points: pts.join(" "), "class": "path " + ball, stroke: COLOURS[ball] }, svg);
    });
    names.forEach(function (ball) {
      var first = data.samples[ball][0];
      el("circle", { cx: sx([first[1], first[2]]), cy: sy([first[1], first[2]]), r: R, "class": "ghost " + ball,
                     stroke: COLOURS[ball] }, svg);
    });
    var marks = el("g", { "class": "contacts" }, svg);
    (data.events || []).forEach(function (e, k) {
      if (e.t === undefined || e.t === null || !data.samples[e.ball]) { return; }
      var p = at(data.samples[e.ball], e.t);
      var g = el("g", { "class": "contact " + e.kind, "data-k": k }, marks);
      if (e.kind === "ball") {
        el("circle", { cx: sx(p), cy: sy(p), r: R * 1.5, "class": "ring" }, g);
      } else {
        el("rect", { x: sx(p) - R, y: sy(p) - R, width: 2 * R, height: 2 * R, "class": "ring" }, g);
      }
      var label = el("text", { x: sx(p) + R * 1.7, y: sy(p) - R * 1.7, "class": "label" }, g);
      label.textContent = String(k + 1);
    });
    var doubts = el("g", { "class": "doubt-marks" }, svg);
    (data.marks || []).forEach(function (m) {
      var s = data.samples[m.ball];
      if (!s) { return; }
      var p = at(s, m.t === null ? s[s.length - 1][0] : m.t);
      el("circle", { cx: sx(p), cy: sy(p), r: R * 2.6, "class": "doubt-mark", "data-doubt": m.doubt }, doubts);
      var q = el("text", { x: sx(p) - R * 4.2, y: sy(p) + R * 1.1, "class": "doubt-label" }, doubts);
      q.textContent = "?" + m.doubt;
    });
    var balls = {};
    names.forEach(function (ball) {
      balls[ball] = el("circle", { r: R, "class": "ball-now " + ball, fill: COLOURS[ball] }, svg);
    });
    var end = 0;
    names.forEach(function (ball) { var s = data.samples[ball]; end = Math.max(end, s[s.length - 1][0]); });
    var tracked = end;
    var overlays = {};  /* "played" and "what-if": the simulator's paths over the tracked ones */

    function overlay(kind, text) {
      /* draw (or redraw) one set of simulated paths, dashed, with its balls on the same clock */
      var old = overlays[kind];
      if (old) { old.group.parentNode.removeChild(old.group); }
      var paths = parse(text);
      var group = el("g", { "class": "overlay " + kind, "data-kind": kind }, svg);
      var moving = {};
      Object.keys(paths).forEach(function (ball) {
        var pts = paths[ball].map(function (s) { var p = [s[1], s[2]]; return sx(p) + "," + sy(p); });
        el("polyline", { points: pts.join(" "), "class": "sim-path " + kind + " " + ball, stroke: COLOURS[ball] }, group);
      });
      Object.keys(paths).forEach(function (ball) {
        moving[ball] = el("circle", { r: R, "class": "sim-ball " + kind + " " + ball, stroke: COLOURS[ball] }, group);
      });
      overlays[kind] = { group: group, paths: paths, balls: moving };
      end = tracked;
      Object.keys(overlays).forEach(function (k) {
        Object.keys(overlays[k].paths).forEach(function (ball) {
          var s = overlays[k].paths[ball]; end = Math.max(end, s[s.length - 1][0]);
        });
      });
      stop();
      show(end);
    }
    board.overlay = overlay;

    function show(t) {
      names.forEach(function (ball) {
        var p = at(data.samples[ball], t);
        balls[ball].setAttribute("cx", sx(p));
        balls[ball].setAttribute("cy", sy(p));
      });
      Object.keys(overlays).forEach(function (k) {
        var o = overlays[k];
        Object.keys(o.paths).forEach(function (ball) {
          var p = at(o.paths[ball], t);
          o.balls[ball].setAttribute("cx", sx(p));
          o.balls[ball].setAttribute("cy", sy(p));
        });
      });
      clock.textContent = t.toFixed(2) + " s";
      showStill(t);
      range.value = String(Math.round(1000 * t / (end || 1)));
      items.forEach(function (li) {
        li.classList.toggle("past", parseFloat(li.getAttribute("data-t")) <= t);
      });
      marks.querySelectorAll(".contact").forEach(function (g) {
        var e = data.events[parseInt(g.getAttribute("data-k"), 10)];
        g.classList.toggle("past", e.t <= t);
      });
    }

    var running = null;
    function stop() {
      if (running !== null) { cancelAnimationFrame(running); running = null; }
      play.textContent = play.getAttribute("data-play") || play.textContent;
      section.setAttribute("data-playing", "false");
    }
    play.setAttribute("data-play", play.textContent);
    play.addEventListener("click", function () {
      if (running !== null) { stop(); return; }
      var from = parseFloat(range.value) / 1000 * end;
      if (from >= end) { from = 0; }
      var began = null;
      section.setAttribute("data-playing", "true");
      function frame(now) {
        if (began === null) { began = now; }
        var t = from + (now - began) / 1000 / (slow.checked ? 4 : 1);
        if (t >= end) { show(end); stop(); section.setAttribute("data-played", "true"); return; }
        show(t);
        running = requestAnimationFrame(frame);
      }
      running = requestAnimationFrame(frame);
    });
    range.addEventListener("input", function () { stop(); show(parseFloat(range.value) / 1000 * end); });
    show(end);
    section.setAttribute("data-ready", "true");
    board.waiting.forEach(function (w) { overlay(w[0], w[1]); });
    board.waiting = [];
  }

  /* the board's overlays, once the tracked stroke is drawn (asked for earlier: kept until then) */
  var board = { overlay: null, waiting: [] };
  function drawOver(kind, paths) {
    if (board.overlay) { board.overlay(kind, paths); } else { board.waiting.push([kind, paths]); }
  }

  /* "Play what was played" and "What if": the stroke read back on the server, drawn over the tracks */
  var panel = document.getElementById("fit-panel");
  if (panel) { whatWasPlayed(panel); }

  function whatWasPlayed(panel) {
    panel.hidden = false;  /* without the script, nothing to click */
    var ask = document.getElementById("fit-play");
    var result = document.getElementById("fit-result");
    var form = document.getElementById("what-if");
    var field = document.getElementById("what-if-field");
    var value = document.getElementById("what-if-value");
    var unit = document.getElementById("what-if-unit");
    var outcome = document.getElementById("what-if-result");
    var link = document.getElementById("fit-table");
    var strike = null;

    function post(url, body) {
      return fetch(url, { method: "POST", credentials: "same-origin",
                          headers: { "Content-Type": "application/json", "X-CSRF-Token": panel.getAttribute("data-csrf") },
                          body: JSON.stringify(body || {}) })
        .then(function (r) {
          return r.json().then(function (data) {
            if (!r.ok) { throw new Error(data && data.detail ? data.detail : String(r.status)); }
            return data;
          });
        });
    }
    function said(where, text) {
      var p = document.createElement("p");
      p.className = "fit-error";
      p.textContent = text;
      where.replaceChildren(p);
    }
    function chosen() {
      var option = field.options[field.selectedIndex];
      value.min = option.getAttribute("data-min");
      value.max = option.getAttribute("data-max");
      unit.textContent = option.getAttribute("data-unit");
      if (strike) { value.value = String(Math.round(strike[field.value] * 1e4) / 1e4); }
    }
    field.addEventListener("change", chosen);

    ask.addEventListener("click", function () {
      ask.disabled = true;
      result.setAttribute("aria-busy", "true");
      panel.setAttribute("data-state", "asking");
      said(result, ask.getAttribute("data-busy"));
      post(panel.getAttribute("data-fit-src")).then(function (data) {
        result.innerHTML = data.html;  /* the server's own fragment, its words escaped there */
        result.setAttribute("aria-busy", "false");
        ask.disabled = false;
        if (!data.played) { panel.setAttribute("data-state", "not-played"); return; }
        strike = data.strike;
        link.setAttribute("href", data.table);
        form.hidden = false;
        chosen();
        document.getElementById("legend-played").hidden = false;
        drawOver("played", data.paths);
        panel.setAttribute("data-state", "played");
      }).catch(function (e) {
        said(result, e.message);
        result.setAttribute("aria-busy", "false");
        ask.disabled = false;
        panel.setAttribute("data-state", "failed");
      });
    });

    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (!form.reportValidity()) { return; }
      var play = document.getElementById("what-if-play");
      play.disabled = true;
      outcome.setAttribute("aria-busy", "true");
      post(panel.getAttribute("data-what-if-src"), { field: field.value, value: parseFloat(value.value) })
        .then(function (data) {
          outcome.innerHTML = data.html;
          document.getElementById("legend-what-if").hidden = false;
          drawOver("what-if", data.paths);
          panel.setAttribute("data-what-if", field.value);
        })
        .catch(function (e) { said(outcome, e.message); })
        .then(function () { play.disabled = false; outcome.setAttribute("aria-busy", "false"); });
    });
  }

  fetch(section.getAttribute("data-src"), { credentials: "same-origin" })
    .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
    .then(draw)
    .catch(function (e) { section.setAttribute("data-error", String(e)); });
})();
