"""Working a character sheet on the pages, for the sheet tests and the screenshots: find a
character's card, open the form an entry of its sheet offers or press its button, and the
phone checks (no word broken across lines, touch targets of 44 CSS px)."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Locator, Page

from tests.pages.driver import (
    PHONE,
    Seat,
    join,
    offer,
    open_room,
    seat,
    settled,
    step,
    submit,
    unfold,
)

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


def named(person: Seat, name: str) -> Locator:
    """The card whose heading is `name`, as it is (folded or open)."""
    page = person.page
    return page.locator("article.card", has=page.locator("h3", has_text=name))


def card(person: Seat, name: str) -> Locator:
    """The card whose heading is `name`, opened to its sheet if it was folded."""
    found = named(person, name)
    unfold(person, found)
    return found


def entry_form(sheet_card: Locator, text: str) -> Locator:
    """The form of the sheet entry's offer called `text` (its summary), opened."""
    summary = sheet_card.locator("details.entry-form > summary", has_text=text).first
    details = summary.locator("xpath=..")
    settled(details)
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
      // a hyphenated word may break after its hyphen ("half-" / "chain"), as print does
      for (const word of node.data.matchAll(/[^\\s-]+-?|-/g)) {
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
    a value one letter a line); a break after a word's hyphen is not one."""
    return page.evaluate(BROKEN_WORDS, selector)


def small_targets(page: Page, selector: str = "article.card") -> list[str]:
    """Controls on the character cards a finger can miss: under 44 × 44 CSS px."""
    controls = ", ".join(f"{selector} {c}" for c in ("button", "summary", "select"))
    return page.evaluate(SMALL_TARGETS, [controls, TARGET])


SHOWN = {
    "dead-weight": {
        "name": "Amber",
        "character_class": "wizard",
        "traits": ["magic user"],
        "skills": ["loremaster", "surgeon"],
        "quirks": [{"name": "Loud snore"}],
        "school": "Thaumaturgists of Ravenhome",
        "life_path": {"infancy": "Street Urchin", "career": "Physician", "burden": "Restless"},
        "attributes": {
            "STR": {"score": 2},
            "DEX": {"score": 3, "proficiency": 1, "fatigue": 1},
            "INT": {"score": 3, "proficiency": 1, "wounds": 1},
            "PRE": {"score": 1},
        },
        "afflictions": ["sleepy"],
        "magic": {"spells_known": ["Bolt", "Ward", "Mend"], "spells_memorised": ["Bolt", "Ward"]},
        "silver": 7,
        "inventory": {
            "places": [
                {"kind": "belt", "items": [{"name": "crystal ball", "tags": ["conductor"]}]},
                {
                    "kind": "canteen",
                    "items": [{"name": "water", "liquid": True, "tags": ["water"]}],
                },
                {
                    "kind": "bag",
                    "items": [
                        {"name": "torches", "usage": 4},
                        {"name": "ration", "tags": ["food"]},
                        {"name": "scattered notes", "tags": ["grimoire"]},
                    ],
                },
                {
                    "kind": "torso",
                    "items": [{"name": "cloak", "armour": [{"points": 1, "maximum": 1}]}],
                },
                {"kind": "left hand"},
                {"kind": "right hand", "items": [{"name": "quarterstaff", "weapon": "STR 1+1"}]},
            ],
            "loose": [{"name": "chalk", "slots": 0}],
        },
        "notes": "Owes the ferryman two silver.",
    },
    "rollunder": {
        "name": "Ash",
        "abilities": {"STR": 12, "AGI": 10, "WIT": 9},
        "max_health": 14,
        "health": 10,
        "omens": 2,
        "max_omens": 2,
        "corruption": 3,
        "money": 30,
        "mutations": ["scaled forearm"],
        "spells": ["Blessing", "Ward against rot"],
        "load": {
            "carry_limit": 10,
            "worn": [{"name": "clothes", "bulk": 0, "kind": "clothes"}],
            "held": [{"name": "sword", "bulk": 2, "kind": "weapon"}],
            "stored": [{"name": "rope", "bulk": 1}, {"name": "lantern", "bulk": 1}],
        },
        "notes": "Swore to find the drowned bell.",
    },
    "constitution": {
        "name": "Cora",
        "character_class": "sage",
        "abilities": {"strength": 9, "wits": 12, "knowledge": 15, "will": 11, "charisma": 10},
        "level": 2,
        "xp": 1700,
        "initiations": ["goetia"],
        "skills": {"herbs": 40, "latin": 70},
        "spells": {"Sleep": {"level": 1, "rating": 60}, "Light": {"level": 1, "rating": 55}},
        "prepared": ["Sleep"],
        "has_spell_book": True,
        "hp": 7,
        "fatigue": 1,
        "gear": [
            {"name": "backpack", "size": "backpack", "where": "back"},
            {"name": "candle", "size": "small", "count": 4, "where": "backpack"},
            {"name": "purse", "size": "purse", "where": "backpack"},
            {"name": "staff", "size": "medium", "where": "in hand"},
            {"name": "leather coat", "size": "armour", "armour": "leather", "where": "worn"},
        ],
        "coins": 35,
        "notes": "Studied under the abbot of Maastricht.",
    },
    "ap2d6": {
        "name": "Ayla",
        "scores": {"STR": 1, "AGI": 2, "DEX": 1, "CON": 0, "PERCEPTION": 1, "SOCIAL": -1},
        "special": {"PYROMANCY": 0},
        "skills": {"STEALTH": 2},
        "unspent_sp": 1,
        "carried": {
            "personal": [{"name": "spear", "kind": "weapon"}, {"name": "dagger", "kind": "small"}],
            "bag": {"name": "backpack", "threshold": 4, "maximum": 8},
            "in_bag": [{"name": "rations", "kind": "food-day", "count": 3}],
        },
        "notes": "Looking for her brother in the salt mines.",
    },
}
"""A character of each system as a player would have them after a session or two: what the
screenshots of the sheets show."""
