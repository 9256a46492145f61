"""axe-core's WCAG 2.1 AA check of a page in Chromium (the axe-core build the
``axe-playwright-python`` package ships; the dev extra installs it): the rules tagged
wcag2a, wcag2aa, wcag21a and wcag21aa, each violation named with the elements it is on."""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from playwright.sync_api import Page

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@cache
def _axe() -> str:
    return files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def violations(page: Page) -> list[str]:
    """Every WCAG 2.1 AA violation on the page as it is now: ``rule: help (elements)``."""
    page.evaluate(_axe())
    found = page.evaluate("""async (tags) => {
      const result = await axe.run(document, {runOnly: {type: "tag", values: tags}});
      return result.violations.map(v => v.id + ": " + v.help + " (" +
        v.nodes.map(n => n.target.join(" ")).join(", ") + ")");
    }""", TAGS)
    return [str(x) for x in found]
