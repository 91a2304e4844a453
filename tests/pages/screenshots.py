"""Screenshots of the main pages for the README and docs/rooms.md, desktop and phone:
`python -m tests.pages.screenshots` (a server on a free port, Debian's Chromium), or only
some scenes: `python -m tests.pages.screenshots board npc`."""

from __future__ import annotations

import contextlib
import json
import re
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from tabletop.rooms import SqliteStore
from tests.pages import scripted
from tests.pages.conftest import CHROMIUM
from tests.pages.driver import (
    PASTE_SAVED,
    PHONE,
    board_table,
    join,
    my_move,
    offer,
    open_room,
    roll,
    seat,
    step,
    submit,
    synced,
)
from tests.pages.sheets import SHOWN, card
from tests.rooms.conftest import serve_in_thread

OUT = Path(__file__).resolve().parents[2] / "docs" / "images"
AMBER = '{"name": "Amber", "attributes": {"DEX": {"score": 3, "proficiency": 1}}}'


def main(only: list[str]) -> None:
    """Every scene, or the ones named (room, rollunder, npc, sheets, fights, board)."""
    scenes = {
        "room": scene,
        "rollunder": rollunder_scene,
        "npc": npc_scene,
        "sheets": lambda browser, url: [sheet_scene(browser, url, system) for system in SHOWN],
        "fights": lambda browser, url: [fight_scene(browser, url, s) for s in scripted.TURNS],
        "board": board_scene,
    }
    unknown = set(only) - set(scenes)
    if unknown:
        raise SystemExit(f"no scene called {', '.join(sorted(unknown))}: {', '.join(scenes)}")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        store = SqliteStore(Path(tmp) / "rooms.sqlite3")
        running = serve_in_thread(store)
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
        try:
            for name, shoot in scenes.items():
                if not only or name in only:
                    shoot(browser, running.url)
        finally:
            browser.close()
            running.stop()
            store.close()


def scene(browser, url: str) -> None:
    gm, ada, bo = seat(browser), seat(browser, PHONE), seat(browser)
    gm.page.goto(url)
    expect(gm.page.locator("details#rules > p")).to_be_attached()  # the system's rules drawn
    gm.page.screenshot(path=OUT / "lobby.png")
    invites = open_room(gm, url, "dead-weight", "The crypt of the ash king")
    ada.page.goto(invites["player"])
    ada.page.get_by_label("Your name").fill("Ada")
    ada.page.screenshot(path=OUT / "join-phone.png")
    join(ada, invites["player"], "Ada")
    join(bo, invites["player"], "Bo")
    submit(offer(ada, "bring a saved sheet"), **{PASTE_SAVED: AMBER})
    submit(offer(bo, "make a character"), Name="Brom")
    submit(offer(gm, "start a tracker"), Name="the doom of the crypt", Kind="doom")
    submit(offer(gm, "start a tracker"), Name="torchlight", Segments="4")
    step(gm, lambda: submit(offer(gm, "advance a tracker"), Tracker="the doom of the crypt"))
    step(bo, lambda: roll(bo, "4d6kh3", label="a lucky find"))
    step(bo, lambda: roll(bo, "2d6", "blind", "listening at the door"))
    form = offer(gm, "test or check an attribute", "article.card >> nth=0")
    form.get_by_label("Attribute").select_option('"DEX"')
    form.get_by_label("Disadvantage").fill("1")
    step(gm, form.locator("button[type=submit]").click)
    synced(ada, gm, bo)
    ada.page.locator(".exchange").scroll_into_view_if_needed()
    ada.page.screenshot(path=OUT / "exchange-phone.png")
    gm.page.screenshot(path=OUT / "gm-desktop.png", full_page=True)
    bo.page.screenshot(path=OUT / "player-desktop.png", full_page=True)


def rollunder_scene(browser, url: str) -> None:
    """A roll-under table after a hit through armour and a contest: the GM on a desktop,
    the contest's result on the player's phone."""
    gm, ada = seat(browser), seat(browser, PHONE)
    invites = open_room(gm, url, "rollunder", "The drowned chapel")
    join(ada, invites["player"], "Ada")
    submit(offer(ada, "write down a character's scores"), Name="Ash", STR="14", AGI="12")
    submit(offer(gm, "write down a character's scores"), Name="Mire hound", AGI="11")
    ash = "article.card:has-text('Ash')"
    step(gm, lambda: submit(offer(gm, "take a hit", ash), Damage="4", Armour="1"))
    form = offer(ada, "an ability contest")
    form.get_by_role("group", name="Score 1").get_by_label("Name", exact=True).fill("Mire hound")
    step(ada, lambda: submit(form, Ability="AGI"))
    synced(gm, ada)
    gm.page.screenshot(path=OUT / "rollunder-gm-desktop.png", full_page=True)
    ada.page.locator("section.result").scroll_into_view_if_needed()
    ada.page.screenshot(path=OUT / "rollunder-phone.png")


def npc_scene(browser, url: str) -> None:
    """An NPC in a fight: a Constitution GM's sergeant from the book and a henchman against
    Cora; the GM's screen with the NPC panel, and Ada's phone where their numbers are ?."""
    gm, ada = seat(browser), seat(browser, PHONE)
    invites = open_room(gm, url, "constitution", "The toll bridge")
    join(ada, invites["player"], "Ada")
    submit(offer(ada, "roll up a character"), Name="Cora")
    for creature, name in (("Human in heavy armour", "Sergeant Voss"), ("Henchman", "Pike")):
        form = offer(gm, "bring a creature from the book", "#npcs")
        form.get_by_label("Creature").select_option(f'"{creature}"')
        step(gm, lambda form=form, name=name: submit(form, Called=name))
    step(ada, lambda: submit(offer(ada, "step into the fight", "#mine"), Side="party"))
    for name in ("Sergeant Voss", "Pike"):
        card = f"#npcs article.npc:has-text('{name}')"
        step(gm, lambda card=card: submit(offer(gm, "an NPC steps into the fight", card)))
    synced(gm, ada)
    step(ada, ada.page.locator(".closed button", has_text="roll for initiative").first.click)
    synced(gm, ada)
    step(gm, gm.page.locator(".closed button", has_text="roll for initiative").first.click)
    step(
        gm, gm.page.locator(".closed button", has_text=re.compile("^Begin the first round$")).click
    )
    synced(gm, ada)
    acting = gm.page.locator(".fight tr[aria-current=true] th").inner_text()
    attacker = ada if acting == "Cora" else gm
    step(attacker, attacker.page.locator(".closed button", has_text="attack").first.click)
    synced(gm, ada)
    for details in gm.page.locator("#npcs details[open]").all():
        details.locator("summary").first.click()
    gm.page.screenshot(path=OUT / "npc-fight-desktop.png", full_page=True)
    ada.page.locator(".area-log").evaluate("el => el.scrollIntoView({block: 'start'})")
    ada.page.screenshot(path=OUT / "npc-fight-phone.png")


def sheet_scene(browser, url: str, system: str) -> None:
    """A character's sheet of `system`: on the GM's desktop (the card, top part) and on the
    player's phone (as the phone shows it, the first screen and a later one)."""
    gm, ada = seat(browser), seat(browser, PHONE)
    invites = open_room(gm, url, system, "A sheet")
    join(ada, invites["player"], "Ada")
    submit(
        offer(ada, "bring a saved sheet"),
        **{PASTE_SAVED: json.dumps(SHOWN[system])},
    )
    synced(gm, ada)
    name = SHOWN[system]["name"]
    desktop = card(gm, name)
    expect(desktop.locator(".sheet")).to_be_visible()
    box = desktop.bounding_box()
    gm.page.screenshot(
        path=OUT / f"sheet-{system}-desktop.png",
        full_page=True,
        clip={
            "x": box["x"],
            "y": box["y"],
            "width": box["width"],
            "height": min(box["height"], 1150),
        },
    )
    if system == "dead-weight":  # a sheet as it prints: the sheet alone, no control, no log
        gm.page.emulate_media(media="print")
        gm.page.screenshot(path=OUT / "sheet-print.png", full_page=True)
        gm.page.emulate_media(media="screen")
    phone = card(ada, name)
    phone.scroll_into_view_if_needed()
    phone.evaluate("el => el.scrollIntoView({block: 'start'})")
    ada.page.screenshot(path=OUT / f"sheet-{system}-phone.png")


def fight_scene(browser, url: str, system: str) -> None:
    """Four characters and three NPCs in a fight (tests/pages/fights.py), taken while the
    turn waits on a player: the GM's 1366 × 768 laptop, and that player's phone."""
    table = scripted.at_the_table(browser, url, system)

    def taken(table: scripted.Table, acting: str, next_control) -> None:
        for person, name in ((table.gm, "gm"), (table.player, "phone")):
            person.page.evaluate("scrollTo(0, 0)")
            expect(next_control).to_be_visible()
            person.page.screenshot(path=OUT / f"fight-{system}-{name}.png")
        raise Taken

    with contextlib.suppress(Taken):
        scripted.TURNS[system](table, taken)
    table.fight.close()


class Taken(Exception):
    """The pictures are taken: the turn goes no further."""


def board_scene(browser, url: str) -> None:
    """A board game under way: Ann (Red) against a greedy and an MCTS bot, an observer on
    a phone; taken on Ann's move, the places her moves point at glowing. Then the key to
    the ship on the phone, and the finished game replayed on Ann's laptop."""
    gm, ann, wes = board_table(browser, url)
    submit(offer(gm, "set the ship up and start"))
    for _ in range(9):
        ann.page.locator(".moves").wait_for(timeout=60_000)
        my_move(ann)
    ann.page.locator(".moves").wait_for(timeout=60_000)
    synced(ann, wes)
    ann.page.screenshot(path=OUT / "board-desktop.png")
    wes.page.screenshot(path=OUT / "board-phone.png")
    key = wes.page.locator("details", has_text="Key to the ship")
    key.locator("summary").click()
    key.evaluate("el => el.scrollIntoView({block: 'start'})")
    wes.page.screenshot(path=OUT / "board-key-phone.png")
    status = ann.page.locator(".board .status-line")
    while "Game over" not in status.inner_text():
        if ann.page.locator(".moves").count():
            my_move(ann)
        else:
            ann.page.wait_for_timeout(100)
    ann.page.get_by_role("button", name="Replay the game").click()
    ann.page.get_by_role("spinbutton", name="Turn").fill("5")
    ann.page.get_by_role("button", name="Go to turn").click()
    ann.page.get_by_role("button", name="Next", exact=True).click()
    ann.page.set_viewport_size({"width": 1280, "height": 1080})
    ann.page.locator(".panel.board").evaluate("el => el.scrollIntoView({block: 'start'})")
    ann.page.screenshot(path=OUT / "board-replay.png")


if __name__ == "__main__":
    main(sys.argv[1:])
