"""Checking the log from the room page (docs/rooms.md, "In the browser"): the page keeps the id
and nonce of every intent it sends in localStorage before sending, "Download and verify the
log" checks the export with them (as `tabletop room verify --mine` does), and "check this
roll" on an entry verifies the member's export and shows that entry: its hash, its dice
against the revealed seed (or that they wait for the end of the session), and your nonce."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from tests.pages.driver import PHONE, accessible, fits, join, live, open_room, roll, seat, step


def kept(person, room: str) -> dict[str, str]:
    return json.loads(person.page.evaluate(f"localStorage.getItem('tabletop.nonces.{room}')"))


def test_check_this_roll_shows_its_hash_its_dice_and_your_nonce(browser, server):
    gm, ada = seat(browser), seat(browser, PHONE)
    invites = open_room(gm, server, "dice")
    join(ada, invites["player"], "Ada")
    room = ada.page.url.split("/rooms/")[1].split("#")[0]
    step(ada, lambda: roll(ada, "3d6", label="luck qz"))
    step(ada, lambda: roll(ada, "1d20", "blind", "a blind qz"))
    book = kept(ada, room)
    assert len(book) == 2 and all(len(nonce) == 32 for nonce in book.values())
    line = ada.page.locator("#log .entry", has_text="luck qz")
    line.get_by_role("button", name="check entry").click()
    report = ada.page.locator("#verified .entry-check")
    expect(report).to_contain_text("dice are checkable once the GM ends the session")
    expect(report.locator(".nonce-check")).to_contain_text("it carries the nonce you sent")
    expect(report.locator(".nonce-check")).to_contain_text(book[next(iter(book))][:8])
    expect(line).to_have_class(re.compile(r"\bchecked\b"))
    # the GM ends the session: the seed is revealed, and the same check shows every die
    gm.page.once("dialog", lambda dialog: dialog.accept())
    step(gm, gm.page.get_by_role("button", name="End the session (reveal the seed)").click)
    expect(ada.page.locator("#log .entry", has_text="its dice seed is revealed")).to_be_visible()
    line.get_by_role("button", name="check entry").click()
    expect(report.locator(".dice-check")).to_contain_text("every die is what the seed gives")
    expect(report.locator(".dice-check .draw")).to_have_count(3)
    expect(ada.page.locator("#verified .good").last).to_contain_text("of yours carry your nonces")
    # Ada's blind roll: she holds its nonce, not its dice
    blind = ada.page.locator("#log .entry").filter(has=ada.page.locator(".check-roll")).nth(1)
    blind.get_by_role("button", name="check entry").click()
    expect(report.locator(".dice-check")).to_contain_text("kept from you")
    expect(report.locator(".nonce-check")).to_contain_text("it carries the nonce you sent")
    # the whole log, downloaded and verified with the nonces this browser kept
    with ada.page.expect_download():
        ada.page.get_by_role("button", name="Download and verify the log").click()
    expect(ada.page.locator("#verified")).to_contain_text("2 of yours carry your nonces")
    fits(ada.page)
    accessible(ada.page)
    live(ada)
    assert not (gm.errors or ada.errors)
