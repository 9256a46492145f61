"""Driving the training table (``/table``) in Chromium: where a point of the table is on the
screen, dragging with the mouse or a finger, playing and waiting for the ruling."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

SCORING = "s=3.12&a=163.35&sd=0.025&h=0.377"
"""A three-cushion point from the starting position (``carom solve``)."""


def on_screen(page: Page, x: float, y: float) -> tuple[float, float]:
    """The viewport point of the table point (x, y) in metres."""
    point = page.evaluate("""([x, y]) => {
      const cfg = JSON.parse(document.getElementById("table-config").textContent), g = cfg.geometry;
      const layer = document.querySelector("#table-svg g.balls").parentNode;
      const p = new DOMPoint(g.rail + x * g.mm, g.rail + (g.length - y) * g.mm)
        .matrixTransform(layer.getScreenCTM());
      return [p.x, p.y];
    }""", [x, y])
    return float(point[0]), float(point[1])


def positions(page: Page) -> dict[str, list[float]]:
    found: dict[str, list[float]] = page.evaluate(
        "Object.fromEntries(Object.entries(window.caromTable.positions).map(([k, v]) => [k, v.slice()]))")
    return found


def drag(page: Page, start: tuple[float, float], end: tuple[float, float], steps: int = 12) -> None:
    """A mouse drag between table points (metres)."""
    a, b = on_screen(page, *start), on_screen(page, *end)
    page.mouse.move(*a)
    page.mouse.down()
    page.mouse.move(*b, steps=steps)
    page.mouse.up()


def touch_drag(page: Page, start: tuple[float, float], end: tuple[float, float], steps: int = 10) -> None:
    """A finger's drag between table points (metres), as a touch screen sends it."""
    a, b = on_screen(page, *start), on_screen(page, *end)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": a[0], "y": a[1]}]})
    for k in range(1, steps + 1):
        x, y = a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def set_range(page: Page, selector: str, value: float) -> None:
    page.eval_on_selector(selector, """(el, v) => { el.value = String(v);
      el.dispatchEvent(new Event("input", {bubbles: true})); }""", value)


def play(page: Page, timeout: float = 60_000) -> dict[str, Any]:
    """Press Play (once the page's script has started) and wait for the animation's end: the
    ruling, the contacts, the frames."""
    expect(page.locator("#trainer")).not_to_have_attribute("data-state", "loading")
    page.click("#play")
    expect(page.locator("#trainer")).to_have_attribute("data-state", "done", timeout=timeout)
    expect(page.locator("#ruling")).not_to_be_empty()
    return {
        "ruling": page.locator("#ruling").inner_text(),
        "points": page.locator("#ruling").get_attribute("data-points"),
        "cites": page.locator("#ruling").get_attribute("data-cites"),
        "contacts": page.locator("#contacts li").all_inner_texts(),
        "frames": page.evaluate("window.caromTable.frames.slice()"),
    }
