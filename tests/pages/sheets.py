"""Working a character sheet on the pages, for the sheet tests and the screenshots: find a
character's card, open the form an entry of its sheet offers or press its button, and the
phone checks (no word broken across lines, touch targets of 44 CSS px)."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Locator, Page

from tests.pages.driver import PHONE, Seat, join, offer, open_room, seat, step, submit

TARGET = 44
"""The least width and height of a control a finger presses (WCAG 2.5.5, in CSS px)."""


def at_the_table(
    browser: Browser, url: str, system: str, make: str, **fields: Any
) -> tuple[Seat, Seat]:
    """A GM on a desktop and Ada on a phone in a new room of `system`; Ada makes her
    character with the offer called `make`, filled with `fields`."""
    gm, ada = seat(browser), seat(browser, PHONE)
    invites = open_room(gm, url, system)
    join(ada, invites["player"], "Ada")
    submit(offer(ada, make), **fields)
    return gm, ada


def write_in(person: Seat, form: Locator, group: str, **fields: Any) -> None:
    """Fill the fields of one group of an entry's form (an item, a line of gear) and send
    it, waiting until the page has drawn what it appended."""
    fill(form.get_by_role("group", name=group), **fields)
    step(person, form.locator("button[type=submit]").click)


def card(person: Seat, name: str) -> Locator:
    """The character card whose heading is `name`."""
    page = person.page
    return page.locator("article.card", has=page.locator("h3", has_text=name))


def entry_form(sheet_card: Locator, text: str) -> Locator:
    """The form of the sheet entry's offer called `text` (its summary), opened."""
    summary = sheet_card.locator("details.entry-form > summary", has_text=text).first
    details = summary.locator("xpath=..")
    if details.get_attribute("open") is None:
        summary.click()
    return details.locator("form")


def fill(form: Locator, **fields: Any) -> None:
    """Type or pick each field of a form by its label (a select takes the value as JSON)."""
    for label, value in fields.items():
        control = form.get_by_label(label, exact=True).first
        if control.evaluate("el => el.tagName") == "SELECT":
            control.select_option(json.dumps(value))
        else:
            control.fill(str(value))


BROKEN_WORDS = """(selector) => {
  const broken = [];
  for (const el of document.querySelectorAll(selector)) {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      if (!node.parentElement.checkVisibility()) continue;
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
        const lines = new Set(boxes.map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""

SMALL_TARGETS = """([selector, least]) => [...document.querySelectorAll(selector)]
  .filter((el) => el.checkVisibility())
  .map((el) => [el.textContent.trim().slice(0, 30), el.getBoundingClientRect()])
  .filter(([, box]) => box.width < least || box.height < least)
  .map(([name, box]) => `${name} ${Math.round(box.width)}×${Math.round(box.height)}`)"""


def broken_words(page: Page, selector: str = ".sheet") -> list[str]:
    """Words of the sheet that the layout broke across two lines (a header cut mid-word,
    a value one letter a line)."""
    return page.evaluate(BROKEN_WORDS, selector)


def small_targets(page: Page, selector: str = "article.card") -> list[str]:
    """Controls on the character cards a finger can miss: under 44 × 44 CSS px."""
    controls = ", ".join(f"{selector} {c}" for c in ("button", "summary", "select"))
    return page.evaluate(SMALL_TARGETS, [controls, TARGET])
