/* The hall monitor: one live channel (static/live.js) for every table of the page. Each
   event "table" is a card's HTML: it replaces the card of its match, or joins the grid
   in match order when the match has just started. Event "tables" is the block of the
   club's registered tables and running tournaments above the cards. */
(function () {
  "use strict";
  var grid = document.getElementById("hall");
  if (!grid || !window.caromLive) { return; }
  var empty = document.getElementById("hall-empty");
  var source = window.caromLive(grid.getAttribute("data-events"));
  source.addEventListener("table", function (e) {
    var holder = document.createElement("template");
    holder.innerHTML = e.data;
    var card = holder.content.querySelector("article.hall-table");
    if (!card) { return; }
    var old = document.getElementById(card.id);
    if (old) {
      old.replaceWith(card);
    } else {
      var id = Number(card.getAttribute("data-match"));
      var before = null;
      for (var i = 0; i < grid.children.length; i++) {
        if (Number(grid.children[i].getAttribute("data-match")) > id) { before = grid.children[i]; break; }
      }
      grid.insertBefore(card, before);
    }
    if (empty) { empty.hidden = true; }
  });
  // event "tables": the club's tables and the running tournaments, the whole block again
  var tables = document.getElementById("hall-tables");
  source.addEventListener("tables", function (e) {
    if (!tables) { return; }
    tables.innerHTML = e.data;
    if (empty) { empty.hidden = true; }
  });
  source.addEventListener("open", function () { grid.setAttribute("data-live", "1"); });
})();
