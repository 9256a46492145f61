"""WCAG 2.1 AA checks of a page in Chromium, by axe-core (installed from the npm registry
into ``tests/web/axe/`` by ``make test``: ``npm ci --prefix tests/web/axe``)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1024, "height": 768},
         "hall screen": {"width": 1920, "height": 1080}}
LOCALES = {"en": "en-GB", "sk": "sk-SK", "de": "de-DE"}


def every_look(browser: Any, session: Any) -> Iterator[tuple[str, Any]]:
    """A new page logged in with ``session`` (a context's ``storage_state``) at each of
    :data:`SIZES` in each of :data:`LOCALES`: ``(what, page)``, ``what`` naming the language
    and the size; each page's context is closed when the next is asked for."""
    for lang, locale in LOCALES.items():
        for size, viewport in SIZES.items():
            context = browser.new_context(locale=locale, viewport=viewport, bypass_csp=True,
                                          storage_state=session)
            try:
                yield f"{lang} {size}", context.new_page()
            finally:
                context.close()


def violations(page: Any) -> list[str]:
    """Every WCAG 2.1 A and AA rule the page breaks, one line each: the rule, its impact and
    the elements (by selector) that break it."""
    if not AXE.is_file():
        raise RuntimeError(f"axe-core is not installed: run `npm ci --prefix {AXE.parents[2]}` "
                           "(make test does)")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(url=_axe_address())
    found = page.evaluate("""async (tags) => {
      const result = await axe.run(document, {runOnly: {type: "tag", values: tags},
                                              resultTypes: ["violations"]});
      return result.violations.map(v => `${v.id} (${v.impact}): ` +
        v.nodes.slice(0, 6).map(n => n.target.join(" ") + (n.failureSummary ? " [" +
          n.failureSummary.replace(/\\s+/g, " ").slice(0, 160) + "]" : "")).join("; "));
    }""", WCAG_21_AA)
    return [str(line) for line in found]


class _Cached(SimpleHTTPRequestHandler):
    """axe-core's file, served to be kept in the browser's cache: Chromium then keeps the
    compiled script too, so that a page's check does not pay for parsing 500 kB again."""

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "public, max-age=86400")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@functools.cache
def _axe_address() -> str:
    """The address of axe-core's script, served from this process (started once)."""
    handler = functools.partial(_Cached, directory=str(AXE.parent))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, name="axe-core", daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/{AXE.name}"
