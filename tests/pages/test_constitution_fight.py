"""Issue 30's broken Constitution fight, played on the pages: a blow's extra degrees have a
control to spend them (§ 5.19, C3-A63), a reaction's button says what it costs once, and a
fight the GM ends leaves no tracker up as "round 1 (over)" (C3-A64)."""

from __future__ import annotations

import re

from tests.pages.driver import gm_and_ada, offer, step, submit, synced, wait_for_log
from tests.pages.expecting import expect


def detailed(gm, which: str, **fields) -> None:
    """Send one choice of the fight from the GM's detailed form."""
    form = offer(gm, "choose in full")
    form.get_by_label("Which").select_option(which)
    step(gm, lambda: submit(form, **fields))


def closed(gm, face: str):
    """The button of a choice of the fight whose face reads `face` (a pattern)."""
    return gm.page.locator(".closed button", has_text=re.compile(face)).first


def test_extra_degrees_are_spent_from_a_button_and_an_ended_fight_leaves_the_page(browser, server):
    gm, ada = gm_and_ada(browser, server, "constitution")
    for cid, name, side, hp in (
        ("wren", "Wren qz", "party", "10"),
        ("gob", "Goblin qz", "foes", "30"),
    ):
        form = offer(gm, "choose in full")
        form.get_by_label("Which").select_option("add")
        fighter = form.get_by_role("group", name="Combatant")
        for label, value in (("Who", cid), ("Name", name), ("Side", side), ("HP", hp)):
            fighter.get_by_label(label, exact=True).fill(value)
        step(gm, form.locator("button[type=submit]").click)
    detailed(gm, "set_initiative", Who="wren", Initiative="20")
    detailed(gm, "set_initiative", Who="gob", Initiative="10")
    step(gm, closed(gm, "^Begin the first round$").click)
    expect(gm.page.locator("#fight-title")).to_have_text("Initiative: round 1 (in the round)")
    # a reaction's button says its cost, and "a reaction" once (issue 30)
    reaction = "^Pay initiative for a reaction · Goblin qz · 2 initiative$"
    expect(closed(gm, reaction)).to_be_visible()
    # A blow 60 over the AC leaves at least ten extra degrees, whatever the d20 shows.
    detailed(
        gm,
        "attack",
        Attacker="wren",
        Target="gob",
        **{"Bonus or penalty": "60", "Use a direct hit": False},
    )
    wait_for_log(gm, "Wren qz has extra degrees to spend on Goblin qz")
    step(
        gm,
        closed(
            gm, "^Spend extra degrees · Wren qz · 2 extra degrees · drives them well back"
        ).click,
    )
    synced(gm, ada)
    for person in (gm, ada):
        wait_for_log(person, "Wren qz spends extra degrees (2) on Goblin qz")
    expect(ada.page.locator(".closed button", has_text="Spend extra degrees")).to_have_count(0)

    step(gm, closed(gm, "^End the turn$").click)  # what is left lapses (C3-A63)
    expect(gm.page.locator(".closed button", has_text="Spend extra degrees")).to_have_count(0)
    step(gm, closed(gm, "^End the turn$").click)  # the Goblin's
    expect(gm.page.locator("#fight-title")).to_have_text("Initiative: round 1 (between rounds)")
    step(gm, closed(gm, "^End the fight$").click)
    synced(gm, ada)
    for person in (gm, ada):
        wait_for_log(person, "the fight is over")
        expect(person.page.locator(".fight")).to_have_count(0)
    assert not (gm.errors or ada.errors)
