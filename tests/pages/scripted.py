"""A turn of each RPG played from the pages as people play it, every click counted: the
layout test checks a turn takes no more clicks than on a48a6db (issue 31), whose pages had
no folded cards. The steps find what they press by its words, the way a person does, so
the same turn runs on either page; a form folded away with its card costs the click that
opens the card.

`python -m tests.pages.scripted DIR` plays each turn against the room pages in DIR (for
the record: `git archive a48a6db src/tabletop/rooms/static | tar -x -C /tmp/old`, then
DIR=/tmp/old/src/tabletop/rooms/static) and prints the clicks."""

from __future__ import annotations

import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Locator

from tests.pages import expecting, fights
from tests.pages.driver import PHONE, Seat, live, roll, seat, step
from tests.pages.expecting import expect
from tests.pages.sheets import fill

LAPTOP = {"width": 1366, "height": 768}
"""The GM's laptop in issue 31's measures."""

A48A6DB = {"ap2d6": 7, "constitution": 2, "dead-weight": 5, "rollunder": 8}
"""The clicks each turn took on a48a6db's pages (`python -m tests.pages.scripted`)."""


@dataclass
class Table:
    """A fight with the GM on a laptop and the player whose character acts on a phone."""

    fight: fights.Fight
    gm: Seat
    player: Seat
    clicks: int = 0

    def press(self, target: Locator) -> None:
        target.click()
        self.clicks += 1

    def use(self, person: Seat, name: str, text: str, **fields: Any) -> None:
        """Send the offer called `text` from the card of `name`: open the card if the form
        is folded away with it, open the form, fill it in, send it."""
        page = person.page
        card = page.locator("article.card", has=page.locator("h3", has_text=name)).first
        box = card.locator("details.offer-box", has_text=text).first
        box.wait_for(state="attached")
        if not box.is_visible():
            self.press(card.locator("button.fold"))
        if box.get_attribute("open") is None:
            self.press(box.locator("summary").first)
        form = box.locator("form")
        fill(form, **fields)
        step(person, lambda: self.press(form.locator("button[type=submit]")))

    def choose(self, person: Seat, name: str | re.Pattern[str]) -> None:
        """Press the button called `name` (a closed offer's choice)."""
        button = person.page.get_by_role("button", name=name).first
        step(person, lambda: self.press(button))

    def roll(self, person: Seat, notation: str) -> None:
        step(person, lambda: roll(person, notation))
        self.clicks += 1


def summary(person: Seat, name: str, text: str) -> Locator:
    """The summary of the offer called `text` on the card of `name`."""
    page = person.page
    card = page.locator("article.card", has=page.locator("h3", has_text=name)).first
    return card.locator("details.offer-box > summary", has_text=text).first


Checkpoint = Callable[[Table, str, Locator], None]
"""What the layout test checks while the turn waits on the player, given the acting
character's name and the control the player presses next (nothing, on a48a6db)."""


def ap2d6(table: Table, checkpoint: Checkpoint) -> None:
    """Ayla attacks the gate guard with the longsword from the GM's list, as the book chains
    it: she pays its speed, rolls to hit and, on a hit, rolls damage; the GM deals it
    (RU-A49, RU-S09)."""
    ada, gm = table.player, table.gm
    checkpoint(table, "Ayla", summary(ada, "Ayla", "attack someone"))
    table.use(ada, "Ayla", "attack someone", Whom="n1", Weapon="longsword")
    table.choose(ada, "Roll to hit")  # under "Ayla's attack on Gate guard: roll to hit"
    hit = ada.page.get_by_text(re.compile(r"rolls to hit Gate guard .*: a hit")).first
    missed = ada.page.get_by_text(re.compile(r"rolls to hit Gate guard .*: a miss")).first
    expect(hit.or_(missed)).to_be_visible()
    if hit.is_visible():  # the dice are the room's: a miss ends the attack here
        table.choose(ada, "Roll damage")
        table.use(gm, "Ayla", "deal the damage")


def constitution(table: Table, checkpoint: Checkpoint) -> None:
    """The character whose turn it is attacks the first foe, then ends the turn (§ 5)."""
    blow = re.compile(r"^Attack: strength against the AC · \w+ · Pike")
    attack = table.player.page.get_by_role("button", name=blow)
    checkpoint(table, attack.first.inner_text().split(" · ")[1], attack.first)
    table.choose(table.player, blow)
    table.choose(table.player, "End the turn")


def dead_weight(table: Table, checkpoint: Checkpoint) -> None:
    """Amber tests DEX and keeps her dice; the GM wounds the ghoul (DW-M45)."""
    ada, gm = table.player, table.gm
    table.use(ada, "Amber", "test or check an attribute", Attribute="DEX")
    keep = re.compile("^No more re-rolls$")
    checkpoint(table, "Amber", ada.page.get_by_role("button", name=keep).first)
    table.choose(ada, keep)
    table.use(gm, "Ghoul", "wound an NPC", Wounds="1")


def rollunder(table: Table, checkpoint: Checkpoint) -> None:
    """In Ash's activation she rolls AGI, keeps the roll and rolls her damage; the GM deals
    it to the mire hound."""
    ada, gm = table.player, table.gm
    table.use(ada, "Ash", "an ability roll", Ability="AGI")
    checkpoint(table, "Ash", ada.page.get_by_role("button", name="Keep result 1").first)
    table.choose(ada, "Keep result 1")
    table.use(ada, "Ash", "roll the damage dealt", Damage="d6")
    table.choose(ada, "Keep result 1")  # her omen could buy this roll again too (CR-A10)
    table.use(gm, "Mire hound", "take a hit", Damage="3")


TURNS = {
    "ap2d6": ap2d6,
    "constitution": constitution,
    "dead-weight": dead_weight,
    "rollunder": rollunder,
}

SCENES = {
    "ap2d6": fights.ap2d6,
    "constitution": fights.constitution,
    "dead-weight": lambda url: fights.dead_weight(url, opposed=False),
    "rollunder": lambda url: fights.rollunder(url, rolled=False),
}


def at_the_table(browser: Browser, url: str, system: str) -> Table:
    """The fight before the turn: the GM's laptop, and the phone of the player whose
    character acts first (Ada's, unless Constitution's initiative put Bo's first)."""
    fight = SCENES[system](url)
    player = "Ada"
    if system == "constitution":
        state = fight.clients["GM"].view()["state"]
        acting = state["fight"]["acting"]
        player = next(p for p, names in fight.characters.items() if acting in names)
    gm, phone = seat(browser, LAPTOP), seat(browser, PHONE)
    gm.page.goto(fight.links["gm"], wait_until="commit")
    phone.page.goto(fight.links[player], wait_until="commit")
    for person in (gm, phone):
        live(person)
        expect(person.page.locator("article.card").first).to_be_visible()
    return Table(fight, gm, phone)


def main(static: str) -> None:
    """Each turn's clicks on the pages in `static`."""
    from playwright.sync_api import sync_playwright

    from tabletop.rooms import SqliteStore, pages
    from tests.pages.conftest import CHROMIUM
    from tests.rooms.conftest import serve_in_thread

    pages.STATIC = Path(static)
    expecting.TIMEOUT = 30_000  # the full browser, beside whatever else runs
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        store = SqliteStore(Path(tmp) / "rooms.sqlite3")
        running = serve_in_thread(store)
        httpx.get(f"{running.url}/systems", timeout=60)  # every system loaded once
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
        try:
            for system, turn in TURNS.items():
                table = at_the_table(browser, running.url, system)
                turn(table, lambda *_: None)
                print(f"{system}: {table.clicks} clicks")
                table.fight.close()
        finally:
            browser.close()
            running.stop()
            store.close()


if __name__ == "__main__":
    main(sys.argv[1])
