"""A screen laid out for play (issue 31, item 1), measured in the browser.

In a fight of four characters and three NPCs in each RPG, while the turn waits on a player:
the GM's 1366 × 768 laptop shows the turn on top and the log in view (at the top of the page
and scrolled to its end), every card but the acting one folded to a line that still reads
its name, health and place in the turn, and no other card's open sheet above any control of
the current turn (what is asked and the acting card); the player's phone shows "Your turn",
their character's line and the control the turn's next step needs in its first screen. The
turn is then played to its end (tests/pages/scripted.py) in no more clicks than on a48a6db.
Then the cards' own controls, pressed as the GM, a player and an observer: Open, Fold and
Pop out each read what they do, the fold outlasts a reload and is each member's own, and a
popped-out sheet is the same member's page holding that card alone, live, with nothing the
member may not see."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator

from tests.pages import fights, scripted, sheets
from tests.pages.driver import PHONE, Seat, accessible, fits, live, seat, submit
from tests.pages.expecting import expect
from tests.pages.scripted import LAPTOP, Table
from tests.pages.sheets import named

CONTROLS = ":is(button, summary, select, a[href])"

PASSED_SHEETS = """controls => {
  // Each control of the turn below an open sheet of another card in its column.
  const shown = (el) => el.checkVisibility() && el.getClientRects().length;
  const others = 'article.card:not(.acting) > .card-body';
  const sheets = [...document.querySelectorAll(others)].filter(shown);
  const passed = [];
  for (const control of [...document.querySelectorAll(controls)].filter(shown)) {
    const c = control.getBoundingClientRect();
    for (const sheet of sheets) {
      const s = sheet.getBoundingClientRect();
      if (s.top < c.top && s.left < c.right && c.left < s.right) {
        const card = sheet.closest('article').dataset.card;
        passed.push(`${control.textContent.trim().slice(0, 30)} under ${card}`);
      }
    }
  }
  return passed;
}"""

IN_VIEW = """el => {
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight;
}"""


def first_screen(person: Seat, target) -> bool:
    """Whether `target` shows whole in the page's first screen, the page not scrolled."""
    return target.evaluate(
        "(el) => { const r = el.getBoundingClientRect(); return el.checkVisibility()"
        " && r.top + scrollY >= 0 && r.bottom + scrollY <= innerHeight; }"
    )


def gms_screen(gm: Seat, acting: str) -> None:
    page = gm.page
    page.evaluate("scrollTo(0, 0)")
    bar = page.locator(".turn-bar")
    expect(bar).to_be_visible()
    assert bar.bounding_box()["y"] < 120, "the turn is on top"
    expect(bar.locator(".turn-order li")).not_to_have_count(0)
    # Every card but the acting one is folded to its line, which reads name and health.
    cards = page.locator("article.card")
    expect(cards).to_have_count(7)
    acting_card = page.locator("article.card.acting")
    for card in cards.all():
        line = card.locator(".card-line")
        expect(line.locator("h3")).not_to_be_empty()
        if card.get_attribute("data-card") in acting_card.evaluate_all(
            "a => a.map(c => c.dataset.card)"
        ):
            continue
        expect(card.locator(".card-body")).to_be_hidden()
        expect(line.locator(".health")).to_have_text(re.compile(r"\d"))
        expect(
            line.get_by_role("button", name=re.compile(r"^Open .+'s (sheet|card)$"))
        ).to_be_visible()
    # The acting card leads the cards, open; whose turn it is is on its line and the bar
    # (in 2d6's Main Phase anyone with AP acts: the bar says so, and no card leads).
    if acting_card.count():
        expect(acting_card.locator(".card-line h3")).to_contain_text(acting)
        expect(acting_card.locator(".badge.turn")).to_contain_text("their turn")
        first = page.locator("article.card").first
        assert first.get_attribute("data-card") == acting_card.first.get_attribute("data-card")
        expect(bar.locator("li[aria-current=true]")).to_contain_text(acting)
    else:
        expect(bar.locator("li", has_text=acting)).to_contain_text("3 of 3 AP")
    # The turn's controls: what is asked, the acting card's, those on the lines of the
    # cards in the turn; none below another card's open sheet.
    turn = ", ".join(
        f"{part} {CONTROLS}"
        for part in ("#asks", "article.card.acting", "article.card:has(.badge.turn) > .card-line")
    )
    assert page.locator(turn).count(), "the turn has controls on the GM's screen"
    assert page.evaluate(PASSED_SHEETS, turn) == []
    # The log stays in view: at the top of the page and with the page scrolled to its end.
    log = page.locator("#log-scroll")
    assert log.evaluate(IN_VIEW)
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    assert log.evaluate(IN_VIEW)
    page.evaluate("scrollTo(0, 0)")


OUTSIDE_THE_BAR = """bar => {
  const box = bar.getBoundingClientRect();
  return [...bar.querySelectorAll('.turn-order li')]
    .filter(li => {
      const r = li.getBoundingClientRect();
      return r.left < box.left || r.right > box.right;
    })
    .map(li => li.textContent);
}"""
"""Who in the turn order stands past the bar's sides (cut off, or out of sight until scrolled)."""


def players_phone(phone: Seat, acting: str, next_control) -> None:
    page = phone.page
    # everyone in the fight shows in the bar: none cut off at its side (issue 30)
    assert page.locator(".turn-bar").evaluate(OUTSIDE_THE_BAR) == []
    expect(page.locator(".turn-bar .your-turn")).to_have_text("Your turn")
    assert first_screen(phone, page.locator(".turn-bar .your-turn"))
    own = page.locator("#mine article.card", has=page.locator("h3", has_text=acting))
    assert first_screen(phone, own.locator(".card-line h3"))
    assert first_screen(phone, own.locator(".card-line .health"))
    assert first_screen(phone, next_control), f"{next_control} is below the first screen"
    fits(page)


@pytest.mark.parametrize("system", list(scripted.TURNS))
def test_a_turn_in_a_fight_of_seven_on_the_gms_laptop_and_the_players_phone(
    browser, server, system
):
    table = scripted.at_the_table(browser, server, system)

    def checkpoint(table: Table, acting: str, next_control) -> None:
        gms_screen(table.gm, acting)
        players_phone(table.player, acting, next_control)
        if system == "dead-weight":  # one of each, axe-core's checks of the new layout
            accessible(table.gm.page)
            accessible(table.player.page)
            table.gm.page.reload()
            table.player.page.reload()
            for person in (table.gm, table.player):
                live(person)
                expect(person.page.locator(".advice").first).to_be_visible()

    scripted.TURNS[system](table, checkpoint)
    assert table.clicks <= scripted.A48A6DB[system], (table.clicks, scripted.A48A6DB[system])
    print(f"{system}: {table.clicks} clicks (a48a6db: {scripted.A48A6DB[system]})")
    assert not (table.gm.errors or table.player.errors)
    table.fight.close()


def folding(person: Seat, name: str, kind: str = "sheet") -> None:
    """Open, reload, fold, reload: each press says what it does and the fold outlasts it."""
    page = person.page
    card = named(person, name)
    toggle = card.locator(".card-line button.fold")
    body = card.locator(".card-body")
    for word, expanded in (("Open", "false"), ("Fold", "true")):
        expect(toggle).to_have_text(word)
        expect(toggle).to_have_attribute("aria-label", f"{word} {name}'s {kind}")
        expect(toggle).to_have_attribute("aria-expanded", expanded)
        if expanded == "true":
            expect(body).to_be_visible()
        else:
            expect(body).to_be_hidden()
        toggle.click()
        expect(toggle).not_to_have_text(word)
        page.reload()
        live(person)
        expect(toggle).not_to_have_text(word)  # kept across the reload
    expect(toggle).to_have_text("Open")


def popped(person: Seat, name: str, kind: str = "sheet"):
    """Pop the card of `name` out; the new window, showing it alone."""
    page = person.page
    link = named(person, name).locator(".card-line a.pop")
    expect(link).to_have_text("Pop out")
    expect(link).to_have_attribute("aria-label", f"Pop out {name}'s {kind} into a new window")
    with page.expect_popup() as opened:
        link.click()
    window = opened.value
    window.on("pageerror", lambda error: person.errors.append(str(error)))
    expect(window.locator("#popped article.card h3")).to_contain_text(name)
    expect(window.locator("#popped article.card .card-body")).to_be_visible()
    expect(window).to_have_title(re.compile(f"^{name} · "))
    for elsewhere in ("#log", "#turn", "#actions", "#members", ".card-line button.fold", "a.pop"):
        expect(window.locator(elsewhere)).to_have_count(0)
    expect(window.locator("article.card")).to_have_count(1)
    return window


def coins(sheet: Locator, silver: str) -> None:
    """Write silver gained on a Dead Weight sheet, from its Coins line."""
    box = sheet.locator("details.entry-form", has_text="coins gained or spent")
    box.locator("summary").click()
    submit(box.locator("form"), Silver=silver)


def readable(response) -> str:
    """A JSON answer's text ("" for anything else, or a body gone with its page)."""
    try:
        return response.text() if "json" in response.headers.get("content-type", "") else ""
    except Exception:
        return ""


def test_cards_fold_open_and_pop_out_as_the_gm_a_player_and_an_observer(browser, server):
    fight = fights.dead_weight(server, opposed=False)
    gm, ada, wes = seat(browser, LAPTOP), seat(browser, PHONE), seat(browser, PHONE)
    for person, link in ((gm, "gm"), (ada, "Ada"), (wes, "observer")):
        person.page.goto(fight.links[link])
        if link == "observer":
            person.page.get_by_label("Your name").fill("Wes")
            person.page.get_by_role("button", name="Join the table").click()
        live(person)

    # Each member folds and opens a card of their own choosing; their folds are theirs.
    folding(gm, "Brom")
    folding(ada, "Amber")
    folding(wes, "Ghoul", "card")

    # The GM viewing as Ada pops out what Ada sees of the ghoul, read-only as View as is.
    gm.page.get_by_label("View as").select_option(label="Ada (player)")
    expect(gm.page.locator("#viewing")).to_contain_text("Viewing as Ada")
    window = popped(gm, "Ghoul", "card")
    expect(window.locator("#popped")).to_contain_text("Its numbers are the GM's.")
    expect(window.locator("#popped details.offer-box")).to_have_count(0)
    window.close()
    gm.page.get_by_role("button", name="Back to the GM view").click()
    # the GM's own cards are drawn again once the room is read back (not Ada's view of them)
    expect(gm.page.locator("body")).to_have_attribute("data-viewing-as", "")
    named(gm, "Brom").locator("button.fold").click()
    expect(named(gm, "Brom").locator(".card-body")).to_be_visible()
    gm.page.goto("about:blank")
    gm.page.goto(fight.links["Ada"])  # another member's link in the same browser
    live(gm)
    expect(named(gm, "Brom").locator(".card-body")).to_be_hidden()

    # A popped-out sheet is the member's page holding that card alone, following the room.
    window = popped(ada, "Amber")
    expect(window.locator("#popped details.offer-box").first).to_be_visible()  # hers to use
    amber = fight.clients["GM"].view()["state"]["characters"][0]["id"]
    fight.act("GM", {"kind": "fatigue", "character": amber, "attribute": "STR"})
    expect(window.locator(".card-line .health")).to_have_text("0 wounds · 1 fatigue")
    # What she sends from either window is hers: each request its own id, its nonce in the
    # one book of the room her pages keep (the teardown verifies her entries against it).
    coins(sheets.card(ada, "Amber"), "2")
    expect(named(ada, "Amber")).to_contain_text("Silver2")
    coins(window.locator("#popped"), "3")
    expect(window.locator("#popped")).to_contain_text("Silver5")
    window.close()

    # The ghoul popped out on a player's phone holds what she sees: its numbers hidden.
    window = popped(ada, "Ghoul", "card")
    expect(window.locator("#popped")).to_contain_text("Its numbers are the GM's.")
    answers: list[Any] = []
    window.on("response", lambda answer: answers.append(answer))
    window.reload()
    expect(window.locator("#popped article.card")).to_have_count(1)
    received = window.content() + "".join(readable(a) for a in answers)
    assert '"hidden"' in received and not re.search(r'"wound_limit":\s*4\b', received)
    # …and asking there for the GM's sight of it gets her nothing.
    view = fight.clients["GM"].view()
    address, token = fight.links["Ada"].split("#", 1)
    ghoul, gm_id = view["state"]["npcs"][0]["id"], view["me"]["id"]
    window.goto(f"{address}?sheet={ghoul}&as={gm_id}#{token}")
    expect(window.locator("#notice")).not_to_be_empty()
    received = window.content() + "".join(readable(a) for a in answers)
    assert not re.search(r'"wound_limit":\s*4\b', received)
    window.close()

    # The observer's pop-out: read-only, as their page is.
    window = popped(wes, "Amber")
    expect(window.locator("details.offer-box, .entry-actions, .card-acts")).to_have_count(0)
    window.close()
    assert not (gm.errors or ada.errors or wes.errors)
    fight.close()
