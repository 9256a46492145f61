// The tablet: never let an older view replace a newer one. A refresh (GET) that
// was computed before the referee's last entry arrives after it is dropped.
document.addEventListener("htmx:beforeSwap", function (event) {
  var panel = document.getElementById("panel");
  var config = event.detail.requestConfig;
  if (!panel || !config || config.verb !== "get") return;
  var match = /data-seq="(\d+)"/.exec(event.detail.serverResponse || "");
  if (match && Number(match[1]) < Number(panel.dataset.seq)) event.detail.shouldSwap = false;
});
