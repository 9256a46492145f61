/* The training table (/table): place the balls, aim, play on the server's simulator,
   watch the stroke in real time, read the ruling; ask for suggestions; share the address.
   Plain JS and SVG, pointer events (mouse, pen and touch). docs/table.md */
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var BALLS = ["white", "yellow", "red"];
  var COLOURS = { white: "#ffffff", yellow: "#f2c12e", red: "#d2232a" };
  var cfg, geo, words, svg, layer, balls = {}, pos = {}, overlay = {}, state;

  function $(id) { return document.getElementById(id); }
  function fmt(v, digits) { return v.toFixed(digits).replace(".", words.decimal); }
  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, k) { return values[k] === undefined ? "" : values[k]; });
  }

  /* table metres <-> drawing millimetres (carom.notation.svg: y points down the picture) */
  function toDrawing(p) { return [geo.rail + p[0] * geo.mm, geo.rail + (geo.length - p[1]) * geo.mm]; }
  function toTable(d) { return [(d[0] - geo.rail) / geo.mm, geo.length - (d[1] - geo.rail) / geo.mm]; }
  function pointerTable(ev) {
    var m = layer.getScreenCTM().inverse();
    var p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m);
    return toTable([p.x, p.y]);
  }
  function el(name, attrs, parent) {
    var e = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(e);
    return e;
  }

  /* a ball drawn at p (an attribute set to the value it has would still cost a repaint) */
  function place(ball, p) {
    pos[ball] = [p[0], p[1]];
    var d = toDrawing(p), e = balls[ball], x = d[0].toFixed(1), y = d[1].toFixed(1);
    if (e.getAttribute("cx") !== x) e.setAttribute("cx", x);
    if (e.getAttribute("cy") !== y) e.setAttribute("cy", y);
  }

  /* a ball moved to p: inside the cushions, pushing no other ball (else where it was) */
  function legal(ball, p) {
    var r = geo.radius;
    var q = [Math.min(Math.max(p[0], r), geo.width - r), Math.min(Math.max(p[1], r), geo.length - r)];
    for (var i = 0; i < BALLS.length; i++) {
      var other = BALLS[i];
      if (other === ball) continue;
      var dx = q[0] - pos[other][0], dy = q[1] - pos[other][1], d = Math.hypot(dx, dy);
      if (d < 2 * r + 1e-4) {  /* slide along the other ball: just touching it */
        if (d < 1e-9) { dx = 1; dy = 0; d = 1; }
        q = [pos[other][0] + dx / d * (2 * r + 2e-4), pos[other][1] + dy / d * (2 * r + 2e-4)];
      }
    }
    var inside = q[0] >= r && q[0] <= geo.width - r && q[1] >= r && q[1] <= geo.length - r;
    for (var j = 0; j < BALLS.length; j++) {
      var o = BALLS[j];
      if (o !== ball && Math.hypot(q[0] - pos[o][0], q[1] - pos[o][1]) < 2 * r) inside = false;
    }
    return inside ? q : null;
  }

  function cue() { return $("cue-ball").value; }
  /* the stroke: the state holds it exactly (a shared address or a suggestion may be finer
     than the sliders' steps); a slider moved sets its part */
  function strike() {
    return { ball: cue(), speed: state.speed, direction: state.direction,
             side: state.side, height: state.height, elevation: state.elevation };
  }
  function fromSliders(ev) {
    var id = ev.target.id;
    state[id] = +ev.target.value;
    remember();
  }

  /* the aim: a line from the cue ball in the stroke's direction */
  function drawAim() {
    var p = pos[cue()], a = state.direction * Math.PI / 180;
    var len = 0.35 + 0.12 * state.speed;
    var q = [p[0] + Math.cos(a) * len, p[1] + Math.sin(a) * len];
    var d0 = toDrawing(p), d1 = toDrawing(q);
    overlay.aim.setAttribute("x1", d0[0]); overlay.aim.setAttribute("y1", d0[1]);
    overlay.aim.setAttribute("x2", d1[0]); overlay.aim.setAttribute("y2", d1[1]);
    var back = [p[0] - Math.cos(a) * 0.08, p[1] - Math.sin(a) * 0.08], far = [p[0] - Math.cos(a) * 0.9, p[1] - Math.sin(a) * 0.9];
    var c0 = toDrawing(back), c1 = toDrawing(far);
    overlay.cue.setAttribute("x1", c0[0]); overlay.cue.setAttribute("y1", c0[1]);
    overlay.cue.setAttribute("x2", c1[0]); overlay.cue.setAttribute("y2", c1[1]);
  }

  function showValues() {
    $("speed-out").textContent = fmt(state.speed, 2);
    $("direction-out").textContent = fmt(state.direction, 2);
    $("elevation-out").textContent = fmt(state.elevation, 1);
    $("tip-dot").setAttribute("cx", (state.side * 50).toFixed(1));
    $("tip-dot").setAttribute("cy", (-state.height * 50).toFixed(1));
    $("tip-out").textContent = fill("%(s)s R, %(h)s R", { s: fmt(state.side, 2), h: fmt(state.height, 2) });
    drawAim();
  }

  /* the address holds the position and the stroke */
  function address() {
    var s = strike(), q = new URLSearchParams();
    q.set("d", cfg.discipline); q.set("t", cfg.table); q.set("b", s.ball);
    q.set("w", pos.white.map(function (v) { return v.toFixed(4); }).join(","));
    q.set("y", pos.yellow.map(function (v) { return v.toFixed(4); }).join(","));
    q.set("r", pos.red.map(function (v) { return v.toFixed(4); }).join(","));
    q.set("s", String(s.speed)); q.set("a", String(s.direction));
    q.set("sd", String(s.side)); q.set("h", String(s.height)); q.set("e", String(s.elevation));
    if ($("opening").checked) q.set("o", "1");
    return location.pathname + "?" + q.toString();
  }
  function remember() { history.replaceState(null, "", address()); showValues(); }

  /* dragging: a ball (Move balls) or the aim (Aim) */
  function onDown(ev) {
    if (state.playing) return;
    restore();
    var target = ev.target.closest ? ev.target.closest("circle.ball") : null;
    var moving = state.mode === "place" && target && target.parentNode === balls.white.parentNode;
    state.drag = moving ? { ball: target.getAttribute("data-ball") } : { aim: true };
    svg.setPointerCapture(ev.pointerId);
    ev.preventDefault();
    onMove(ev);
  }
  function onMove(ev) {
    if (!state.drag) return;
    ev.preventDefault();
    var p = pointerTable(ev);
    if (state.drag.ball) {
      var q = legal(state.drag.ball, p);
      if (q) place(state.drag.ball, q);
      drawAim();
    } else {
      var c = pos[cue()], dx = p[0] - c[0], dy = p[1] - c[1];
      if (Math.hypot(dx, dy) < 0.01) return;
      var deg = Math.atan2(dy, dx) * 180 / Math.PI;
      state.direction = Math.round(((deg + 360) % 360) * 100) / 100;
      $("direction").value = String(state.direction);
      showValues();
    }
  }
  function onUp(ev) {
    if (!state.drag) return;
    state.drag = null;
    if (svg.hasPointerCapture(ev.pointerId)) svg.releasePointerCapture(ev.pointerId);
    clearPaths();
    remember();
  }

  function setMode(mode) {
    state.mode = mode;
    $("mode-place").setAttribute("aria-pressed", String(mode === "place"));
    $("mode-aim").setAttribute("aria-pressed", String(mode === "aim"));
    $("table-svg").setAttribute("data-mode", mode);
  }

  function onTip(ev) {
    var m = $("tip").getScreenCTM().inverse();
    var p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m);
    var side = p.x / 50, height = -p.y / 50, r = Math.hypot(side, height), limit = 0.5;
    if (r > limit) { side *= limit / r; height *= limit / r; }
    state.side = Math.round(side * 100) / 100; state.height = Math.round(height * 100) / 100;
    remember();
  }

  function clearPaths() {
    while (overlay.paths.firstChild) overlay.paths.removeChild(overlay.paths.firstChild);
    overlay.aim.removeAttribute("visibility"); overlay.cue.removeAttribute("visibility");
  }

  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
                        body: JSON.stringify(body), credentials: "same-origin" })
      .then(function (r) {
        return r.json().then(function (data) {
          if (!r.ok) throw new Error(data && data.detail ? data.detail : String(r.status));
          return data;
        });
      });
  }
  function fail(error) {
    state.playing = false;
    $("trainer").setAttribute("data-state", "error");
    $("status").textContent = fill(words.error, { reason: error.message });
    $("play").disabled = false; $("suggest").disabled = !cfg.solvable;
  }

  function play() {
    if (state.playing) return;
    restore();
    state.playing = true;
    $("play").disabled = true;
    $("trainer").setAttribute("data-state", "playing");
    $("status").textContent = words.playing;
    $("result").hidden = true;
    var body = { discipline: cfg.discipline, table: cfg.table, opening: $("opening").checked, sample: 0.01,
                 balls: {}, strike: strike() };
    BALLS.forEach(function (b) { body.balls[b] = { r: pos[b] }; });
    remember();
    post("/api/simulate", body).then(animate, fail);
  }

  /* the stroke in real time (or at a quarter of it): requestAnimationFrame, each ball's
     centre interpolated between its samples, its trace growing behind it. A trace grows by
     a short piece a frame, and only while its ball moves: the browser then repaints a few
     small rectangles a frame, not the whole table (a growing polyline's bounds are). */
  function animate(answer) {
    clearPaths();
    overlay.aim.setAttribute("visibility", "hidden"); overlay.cue.setAttribute("visibility", "hidden");
    var paths = answer.stroke.paths, rate = $("slow").checked ? 0.25 : 1, traces = {}, next = {}, last = {};
    var start = {}, r = geo.radius * geo.mm;
    BALLS.forEach(function (b) {
      start[b] = pos[b].slice();
      var g = toDrawing(start[b]);  /* where the balls stood: faint */
      el("circle", { "class": "ghost " + b, cx: g[0].toFixed(1), cy: g[1].toFixed(1), r: r.toFixed(1),
                     fill: COLOURS[b], opacity: "0.35" }, overlay.paths);
      traces[b] = el("g", { "class": "trace " + b, fill: "none", stroke: COLOURS[b], "stroke-width": "6",
                            "stroke-linejoin": "round", "stroke-linecap": "round", opacity: "0.8" }, overlay.paths);
      if (b !== answer.stroke.ball) traces[b].setAttribute("stroke-dasharray", "18 10");
      next[b] = 0;
      last[b] = toDrawing(start[b]);
    });
    var end = 0;
    BALLS.forEach(function (b) { var p = paths[b]; if (p && p.length) end = Math.max(end, p[p.length - 1][0]); });
    var events = answer.contacts, shown = 0, list = $("contacts");
    list.textContent = "";
    $("result").hidden = false;
    $("ruling").textContent = ""; $("ruling").setAttribute("data-points", "");
    var frames = [], work = [], t0 = null;
    window.caromTable.frames = frames;
    window.caromTable.work = work;
    function frame(now) {
      if (t0 === null) t0 = now;
      frames.push(now);
      var w0 = performance.now();
      var t = Math.min(end, (now - t0) / 1000 * rate);
      BALLS.forEach(function (b) {
        var p = paths[b];
        if (!p || !p.length) return;
        var k = next[b], piece = null;
        while (k < p.length && p[k][0] <= t) {
          var d = toDrawing([p[k][1], p[k][2]]);
          if (Math.abs(d[0] - last[b][0]) + Math.abs(d[1] - last[b][1]) > 1) {
            piece = (piece || last[b][0].toFixed(1) + "," + last[b][1].toFixed(1)) + " " + d[0].toFixed(1) + "," + d[1].toFixed(1);
            last[b] = d;
          }
          k++;
        }
        if (piece) el("polyline", { points: piece }, traces[b]);
        next[b] = k;
        var here;
        if (k >= p.length) here = [p[p.length - 1][1], p[p.length - 1][2]];
        else if (k === 0) here = [p[0][1], p[0][2]];
        else {
          var a = p[k - 1], c = p[k], f = (t - a[0]) / (c[0] - a[0] || 1);
          here = [a[1] + (c[1] - a[1]) * f, a[2] + (c[2] - a[2]) * f];
        }
        place(b, here);
      });
      while (shown < events.length && events[shown].t <= t) { list.appendChild(contactItem(events[shown])); shown++; }
      work.push(performance.now() - w0);
      if (t < end) { requestAnimationFrame(frame); return; }
      while (shown < events.length) { list.appendChild(contactItem(events[shown])); shown++; }
      BALLS.forEach(function (b) {  /* the pieces become one line: the object balls' dashes run on */
        var p = paths[b] || [];
        traces[b].textContent = "";
        if (p.length > 1) {
          el("polyline", { points: p.map(function (q) { var d = toDrawing([q[1], q[2]]); return d[0].toFixed(1) + "," + d[1].toFixed(1); }).join(" ") }, traces[b]);
        }
      });
      finish(answer, start);
    }
    requestAnimationFrame(frame);
  }

  function contactItem(c) {
    var li = document.createElement("li");
    li.className = c.kind;
    li.textContent = c.kind === "ball"
      ? fill(words.ball_n, { n: c.n, ball: words.balls[c.ball] })
      : fill(words.cushion_n, { n: c.n, cushion: words.cushions[c.cushion] });
    var t = document.createElement("span");
    t.className = "t"; t.textContent = fmt(c.t, 2) + " s";
    li.appendChild(t);
    return li;
  }

  function rulingWords(ruling) {
    if (ruling.fouls.length) return fill(words.fault, { rules: ruling.fouls.join(", ") });
    return ruling.points > 0 ? (ruling.points === 1 ? words.point : words.points) : words.no_point;
  }

  function finish(answer, start) {
    var ruling = answer.ruling, p = $("ruling");
    p.textContent = "";
    var head = document.createElement("strong");
    head.textContent = rulingWords(ruling);
    p.appendChild(head);
    var cites = document.createElement("span");
    cites.className = "cites";
    // a stroke without a point: what was missing and that the inning ends, not the carom's
    // rules as if they had applied (words.missing: C1, 1C1/3C1, F1; views.reasons does the same)
    var missed = ruling.points === 0 && !ruling.fouls.length;
    var short = ruling.cites.some(function (id) { return id !== "C1" && id !== "F1" && words.missing[id]; });
    var shown = missed && short ? ruling.cites.filter(function (id) { return id !== "C1"; }) : ruling.cites;
    cites.textContent = " · " + shown.map(function (id) {
      return missed && words.missing[id] ? words.missing[id] + " (" + id + ")" : id + " " + (ruling.titles[id] || "");
    }).join(" · ");
    p.appendChild(cites);
    p.className = "ruling " + (ruling.fouls.length ? "fault" : ruling.points > 0 ? "point" : "miss");
    p.setAttribute("data-points", String(ruling.points));
    p.setAttribute("data-cites", ruling.cites.join(","));
    state.last = answer;
    $("status").textContent = "";
    /* the balls stay where they stopped until the next touch: the position to train is
       still the one before the stroke */
    BALLS.forEach(function (b) { pos[b] = start[b].slice(); });
    state.shownEnd = true;
    $("back").hidden = false;
    state.playing = false;
    $("play").disabled = false;
    $("trainer").setAttribute("data-state", "done");
  }

  function suggest() {
    if (state.playing) return;
    $("suggest").disabled = true;
    $("trainer").setAttribute("data-state", "searching");
    $("status").textContent = words.searching;
    var start = {};
    BALLS.forEach(function (b) { start[b] = pos[b]; });
    post("/api/solve", { discipline: cfg.discipline, table: cfg.table, ball: cue(), start: start,
                         opening: $("opening").checked, count: 3 })
      .then(function (answer) {
        var list = $("suggestions");
        list.textContent = "";
        $("status").textContent = answer.shots.length ? "" : words.none_found;
        answer.shots.forEach(function (shot, i) {
          var li = document.createElement("li"), b = document.createElement("button");
          b.type = "button"; b.className = "suggestion"; b.id = "suggestion-" + (i + 1);
          var s = shot.strike;
          var route = shot.route.map(function (x) { return words.balls[x] || words.cushions[x] || x; }).join(" → ");
          b.textContent = fill(words.chance, { chance: Math.round(shot.chance * 100) + " %" });
          var detail = document.createElement("span");
          detail.className = "detail";
          detail.textContent = fmt(s.speed, 2) + " m/s · " + fmt(s.direction, 1) + "° · " +
            fmt(s.side, 2) + " / " + fmt(s.height, 2) + " R · " + route;
          b.appendChild(detail);
          b.addEventListener("click", function () { use(s); play(); });
          li.appendChild(b);
          list.appendChild(li);
        });
        $("suggest").disabled = false;
        $("trainer").setAttribute("data-state", "suggested");
      }, fail);
  }

  /* a suggestion's strike, exactly: it plays as it was found */
  function use(s) {
    state.speed = s.speed; state.direction = ((s.direction % 360) + 360) % 360;
    state.side = s.side; state.height = s.height; state.elevation = s.elevation;
    sliders();
    remember();
  }
  function sliders() {
    $("speed").value = String(state.speed);
    $("direction").value = String(state.direction);
    $("elevation").value = String(state.elevation);
  }
  function restore() {
    if (!state.shownEnd) return;
    state.shownEnd = false;
    BALLS.forEach(function (b) { place(b, pos[b]); });
    clearPaths();
    $("back").hidden = true;
  }

  function share() {
    var url = location.origin + address();
    var done = function () { $("status").textContent = words.copied; };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(done, function () {});
    else { $("status").textContent = url; }
  }

  function init() {
    cfg = JSON.parse($("table-config").textContent);
    geo = cfg.geometry; words = cfg.words;
    svg = document.querySelector("#table-svg svg");
    var group = svg.querySelector("g.balls");
    layer = group.parentNode;
    BALLS.forEach(function (b) { balls[b] = group.querySelector("circle[data-ball=" + b + "]"); pos[b] = cfg.position[b].slice(); });
    overlay.paths = el("g", { "class": "live-paths" });
    layer.insertBefore(overlay.paths, group);
    overlay.cue = el("line", { "class": "cue-stick", stroke: "#c9a66b", "stroke-width": "14", "stroke-linecap": "round", opacity: "0.85" }, layer);
    overlay.aim = el("line", { "class": "aim", stroke: "#ffffff", "stroke-width": "4", "stroke-dasharray": "14 10", opacity: "0.9" }, layer);
    layer.insertBefore(overlay.cue, group); layer.insertBefore(overlay.aim, group);
    var s0 = cfg.strike;
    state = { mode: "aim", speed: s0.speed, direction: ((s0.direction % 360) + 360) % 360, side: s0.side,
              height: s0.height, elevation: s0.elevation, playing: false, drag: null, shownEnd: false };
    sliders();
    $("back").addEventListener("click", restore);

    svg.addEventListener("pointerdown", onDown);
    svg.addEventListener("pointermove", onMove);
    svg.addEventListener("pointerup", onUp);
    svg.addEventListener("pointercancel", onUp);
    $("tip").addEventListener("pointerdown", onTip);
    $("tip-centre").addEventListener("click", function () { state.side = 0; state.height = 0; remember(); });
    ["speed", "direction", "elevation"].forEach(function (id) { $(id).addEventListener("input", fromSliders); });
    $("cue-ball").addEventListener("change", remember);
    $("opening").addEventListener("change", remember);
    $("mode-place").addEventListener("click", function () { setMode("place"); });
    $("mode-aim").addEventListener("click", function () { setMode("aim"); });
    $("start-position").addEventListener("click", function () {
      restore();
      var s = cfg.starts[cue()];
      BALLS.forEach(function (b) { place(b, s[b]); });
      clearPaths(); remember();
    });
    $("play").addEventListener("click", play);
    $("share").addEventListener("click", share);
    $("suggest").addEventListener("click", suggest);
    $("suggest").disabled = !cfg.solvable;
    /* another discipline or table keeps the position and the stroke (the server falls back
       to the starting position if the balls do not fit the new table) */
    function reopen(ev) {
      if (ev) ev.preventDefault();
      var q = new URLSearchParams(address().split("?")[1]);
      q.set("d", $("discipline").value);
      q.set("t", $("table-name").value);
      location.assign(location.pathname + "?" + q.toString());
    }
    $("setup-form").addEventListener("submit", reopen);
    $("setup-open").hidden = true;
    $("discipline").addEventListener("change", reopen);
    $("table-name").addEventListener("change", reopen);
    setMode("aim");
    remember();
    window.caromTable = { frames: [], work: [], state: state, positions: pos, strike: strike, address: address };
    $("trainer").setAttribute("data-state", "ready");
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
