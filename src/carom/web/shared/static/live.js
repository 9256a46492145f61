/* The live channel of the pages (boards, tablets, the hall): the server's events over a
   WebSocket, behind the face of an EventSource, so that htmx's SSE extension and
   hall.js use it as they would use server-sent events.

   Why: a browser keeps at most six HTTP/1.1 connections to one server, and an
   EventSource holds one for as long as its page is open, so the seventh board or
   tablet opened in one browser waited for ever. WebSockets are not counted among the
   six. Each message is one event, {"event": name, "id": n, "data": text}.

   A channel that closes is opened again after a pause that grows (0.5 s, 1 s, 2 s, ...
   up to 30 s, a little at random, so that a hall full of screens does not come back at
   once); meanwhile readyState is CONNECTING, as an EventSource's is. Where no WebSocket
   gets through (a proxy that does not pass them), it falls back to server-sent events
   after three failed tries. No inline code: the Content-Security-Policy allows none. */
(function () {
  "use strict";

  var CONNECTING = 0, OPEN = 1, CLOSED = 2;

  function LiveSource(url) {
    this.url = url;
    this.readyState = CONNECTING;
    this.onopen = null;
    this.onerror = null;
    this.onmessage = null;
    this._listeners = {};
    this._tries = 0;
    this._opened = false;
    this._stopped = false;
    this._timer = null;
    this._connect();
  }

  LiveSource.prototype.addEventListener = function (type, listener) {
    (this._listeners[type] = this._listeners[type] || []).push(listener);
  };

  LiveSource.prototype.removeEventListener = function (type, listener) {
    var list = this._listeners[type] || [];
    var at = list.indexOf(listener);
    if (at >= 0) { list.splice(at, 1); }
  };

  LiveSource.prototype.close = function () {
    this._stopped = true;
    this.readyState = CLOSED;
    if (this._timer) { clearTimeout(this._timer); }
    if (this._socket) { this._socket.close(); }
    if (this._fallback) { this._fallback.close(); }
  };

  LiveSource.prototype._emit = function (type, event) {
    var own = this["on" + type];
    if (typeof own === "function") { own.call(this, event); }
    var list = (this._listeners[type] || []).slice();
    for (var i = 0; i < list.length; i++) { list[i].call(this, event); }
  };

  LiveSource.prototype._connect = function () {
    var self = this;
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket;
    try {
      socket = new WebSocket(scheme + window.location.host + this.url);
    } catch (error) {
      this._lost(false);
      return;
    }
    this._socket = socket;
    var opened = false;
    socket.onopen = function () {
      opened = true;
      self._opened = true;
      self._tries = 0;
      self.readyState = OPEN;
      self._emit("open", {type: "open"});
    };
    socket.onmessage = function (message) {
      var parsed;
      try { parsed = JSON.parse(message.data); } catch (error) { return; }
      var name = parsed.event || "message";
      self._emit(name, {type: name, data: parsed.data, lastEventId: String(parsed.id)});
    };
    socket.onclose = function () {
      if (self._socket === socket) { self._lost(opened); }
    };
  };

  LiveSource.prototype._lost = function (opened) {
    if (this._stopped) { return; }
    this._socket = null;
    this.readyState = CONNECTING;
    this._emit("error", {type: "error"});
    this._tries += 1;
    if (!opened && !this._opened && this._tries >= 3 && window.EventSource) {
      this._fallBack();
      return;
    }
    var pause = Math.min(30000, 500 * Math.pow(2, Math.min(this._tries - 1, 6)));
    var self = this;
    this._timer = setTimeout(function () { self._connect(); }, pause * (0.75 + Math.random() / 2));
  };

  LiveSource.prototype._fallBack = function () {
    var self = this;
    var source = new EventSource(this.url);
    this._fallback = source;
    source.onopen = function () { self.readyState = OPEN; self._emit("open", {type: "open"}); };
    source.onerror = function () {
      self.readyState = source.readyState === CLOSED ? CLOSED : CONNECTING;
      self._emit("error", {type: "error"});
    };
    var forward = function (event) { self._emit(event.type, event); };
    var types = Object.keys(this._listeners).concat(["message"]);
    for (var i = 0; i < types.length; i++) {
      if (types[i] !== "open" && types[i] !== "error") { source.addEventListener(types[i], forward); }
    }
    var add = this.addEventListener;
    this.addEventListener = function (type, listener) {
      if (!this._listeners[type] && type !== "open" && type !== "error") { source.addEventListener(type, forward); }
      add.call(this, type, listener);
    };
  };

  window.caromLive = function (url) {
    return window.WebSocket ? new LiveSource(url) : new EventSource(url);
  };
  if (window.htmx) { window.htmx.createEventSource = window.caromLive; }
})();
