"""What the browser tests share: a context that records every Content-Security-Policy
violation, logging in, creating a match through the organiser's form, tapping."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from tests.web.server import ORGANISER, PASSWORD, SESSION_COOKIE, Server

WATCH_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sample || ""));
});
"""


class Watched:
    """A browser context whose pages report every CSP violation and console error."""

    def __init__(self, browser: Any, **options: Any) -> None:
        self.context: BrowserContext = browser.new_context(**options)
        self.context.add_init_script(WATCH_CSP)
        self.console: list[str] = []
        self.pages: list[Page] = []

    def page(self) -> Page:
        page = self.context.new_page()
        page.on("console", lambda m: self.console.append(m.text) if m.type == "error" else None)
        self.pages.append(page)
        return page

    def violations(self) -> list[str]:
        found = [m for m in self.console if "Content Security Policy" in m or "Refused to" in m]
        for page in self.pages:
            if not page.is_closed():
                found += page.evaluate("window.__csp || []")
        return found

    def close(self) -> None:
        found = self.violations()
        self.context.close()
        assert found == [], found


def log_in(page: Page, server: Server) -> None:
    """The organiser logged in: through the login form, or, on a server whose tests share
    one login (``Server.one_login``), with that session's cookie."""
    if server.one_login:
        cookie = {"name": SESSION_COOKIE, "value": server.session_cookie(), "url": server.url}
        page.context.add_cookies([cookie])
        page.goto(server.url + "/organiser")
        expect(page).to_have_url(re.compile(r"/organiser$"))
        return
    page.goto(server.url + "/organiser")
    expect(page).to_have_url(re.compile(r"/login"))
    page.fill("input[name=name]", ORGANISER)
    page.fill("input[name=password]", PASSWORD)
    page.click("#login-form button[type=submit]")
    expect(page).to_have_url(re.compile(r"/organiser$"))


def create_match(page: Page, **fields: str) -> tuple[int, str]:
    """Fill the organiser's form (logged in), then open the new match's page: its id
    and the full tablet link shown there (with its QR code)."""
    form = page.locator("#create-form")
    for name, value in fields.items():
        if name in ("discipline", "table"):
            form.locator(f"select[name={name}]").select_option(value)
        elif name == "equalizing_inning":
            form.locator("input[name=equalizing_inning]").set_checked(value == "on")
        else:
            form.locator(f"input[name={name}]").fill(value)
    form.locator("button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/organiser$"))
    page.locator("a.manage").first.click()
    expect(page.locator("#tablet-qr svg")).to_be_visible()
    url = page.locator("#tablet-url").inner_text()
    assert re.fullmatch(r"http://[^/]+/m/\d+/tablet\?t=[\w-]{20,}", url), url
    return int(url.split("/")[4]), url


def tap(tablet: Page, selector: str) -> None:
    """Press a tablet button and wait until the panel shows the next record."""
    seq = int(tablet.locator("#panel").get_attribute("data-seq") or "0")
    tablet.locator(selector).click()
    expect(tablet.locator("#panel")).to_have_attribute("data-seq", str(seq + 1))
    error = tablet.locator("#panel-error")
    try:
        expect(error).to_have_count(0)
    except AssertionError:  # say what the panel said
        raise AssertionError(f"{selector} after record {seq}: {error.first.inner_text()}") from None


def foul(tablet: Page, rule: str) -> None:
    tablet.locator("#fouls summary").click()
    tap(tablet, f"button.rule[data-rule={rule}]")


def fits(page: Page, selector: str) -> bool:
    """The element lies wholly inside the viewport, without scrolling.

    A live page swaps its fragments as records arrive: wait until the element is shown,
    and measure again if it was replaced between the wait and the measurement."""
    box = None
    for _ in range(5):
        page.locator(selector).wait_for(state="visible")
        box = page.locator(selector).bounding_box()
        if box is not None:
            break
    size = page.viewport_size
    assert box is not None and size is not None
    return bool(box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= size["width"]
                and box["y"] + box["height"] <= size["height"])


def no_sideways_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def words_broken(page: Page, selector: str) -> list[str]:
    """The words of the elements ``selector`` finds that are drawn over more than one line
    (a word is what lies between spaces, hyphens and soft hyphens: a break at a hyphen or a
    soft hyphen is a hyphenation, not a broken word)."""
    return list(page.evaluate("""(selector) => {
      const broken = [];
      for (const el of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const m of node.data.matchAll(/[^\\s\\u00ad-]+/g)) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) broken.push(m[0]);
          }
        }
      }
      return broken;
    }""", selector))


def contrast(page: Page, selector: str) -> float:
    """The WCAG contrast ratio of an element's text colour against its background."""
    return float(page.evaluate("""(selector) => {
      const el = document.querySelector(selector);
      const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
      const lum = ([r, g, b]) => {
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const style = getComputedStyle(el);
      const a = lum(rgb(style.color)), b = lum(rgb(style.backgroundColor));
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    }""", selector))


def enter(client: Any, match_id: int, token: str, records: list[dict[str, Any]], after: int = 0) -> None:
    """Records through the API, as a tablet enters them."""
    for seq, record in enumerate(records, start=after):
        response = client.post(f"/api/matches/{match_id}/records", json={"after": seq, "record": record},
                               headers={"X-Referee-Token": token})
        assert response.status_code == 201, response.text


def calls(*results: str) -> list[dict[str, Any]]:
    """``carom``, ``miss`` or a fault's rule id, as call records."""
    return [{"type": "call", "result": r} if r in ("carom", "miss")
            else {"type": "call", "result": "foul", "rule": r} for r in results]


OPENER = {"type": "opener", "player": 0}
RULE_ID = re.compile(r"\b(?:[CLEQFZOSK]|1C|3C)\d{1,2}\b")
"""A rule id of RULES.md, as it must never appear on the audience board."""
