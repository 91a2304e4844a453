"""A GM and two players play a short Dead Weight scene in three browser contexts: a test
with its whole re-roll exchange, a hidden doom advance and a blind roll; each page shows
exactly what its member may see, and no player's page ever receives a hidden value."""

from __future__ import annotations

import re

from tabletop.rooms.client import RoomClient, create_room
from tabletop.systems.dead_weight import ArmourPart, Character, Item, PlaceKind, stow
from tests.pages.driver import (
    PASTE_SAVED,
    PHONE,
    Seat,
    accessible,
    fits,
    gm_and_ada,
    join,
    live,
    log_texts,
    member_client,
    offer,
    open_file,
    open_room,
    roll,
    seat,
    step,
    submit,
    synced,
    unfold,
    wait_for_log,
)
from tests.pages.expecting import expect

DOOM = "doom of the crypt qz"
"""The hidden tracker's name: a marker no player's page may ever receive (DW-X21)."""
BLIND = "perception qz"
"""The blind roll's label: only the GM sees the roll (RollMode.BLIND)."""

AMBER = '{"name": "Amber", "attributes": {"DEX": {"score": 3, "proficiency": 1}}}'
ARMOURED = (
    Character(name="Amber")
    .model_copy(
        update={
            "inventory": stow(
                Character().inventory,
                Item(name="leather coat", armour=(ArmourPart(points=2, maximum=2),)),
                PlaceKind.TORSO,
            )
        }
    )
    .model_dump_json()
)
"""Amber in a leather coat of 2 AP (§ Armor), worn on the torso."""


def pool(person: Seat) -> list[str]:
    return person.page.locator(".exchange .pool .face").all_inner_texts()


def test_a_dead_weight_scene_shows_each_member_exactly_their_view(browser, server):
    gm, ada, bo = seat(browser), seat(browser), seat(browser, PHONE)
    invites = open_room(gm, server, "dead-weight")
    join(ada, invites["player"], "Ada")
    join(bo, invites["player"], "Bo")

    submit(offer(ada, "bring a saved sheet"), **{PASTE_SAVED: AMBER})
    expect(ada.page.locator("article.card h3", has_text="Amber")).to_be_visible()
    submit(
        offer(bo, "bring a saved sheet"),
        **{PASTE_SAVED: '{"name": "Brom"}'},
    )
    expect(gm.page.locator("article.card h3")).to_have_count(2)

    # The GM announces Amber's DEX test with a disadvantage die, from her card (DW-M28):
    # advantage and disadvantage are the GM's to announce (DW-T01).
    card = ada.page.locator("article.card", has_text="Amber")
    form = offer(gm, "test or check an attribute", "article.card >> nth=0")
    form.get_by_label("Attribute").select_option('"DEX"')
    form.get_by_label("Disadvantage").fill("1")
    form.locator("button[type=submit]").click()
    for person in (gm, ada, bo):
        expect(person.page.locator(".exchange .pool .face")).to_have_count(3)
    assert card.is_visible()

    # The exchange, die by die (DW-M29..M31): whoever's choice it is sees the advisor's
    # exact odds and picks; every page sees the same dice after each step.
    for _ in range(12):
        synced(gm, ada, bo)
        status = gm.page.locator(".exchange .status-line").inner_text()
        if status.startswith("judged"):
            break
        chooser = ada if "player chooses" in status else gm
        table = chooser.page.locator(".advice table.odds")
        expect(table.locator("tr.best .badge", has_text="advisor's pick")).to_be_visible()
        assert re.search(r"\d+%", table.inner_text())
        expect(bo.page.locator(".advice")).to_have_count(0)
        if chooser is gm:
            expect(ada.page.locator(".advice")).to_have_count(0)
        step(chooser, table.locator("tr.best button").click)
        synced(chooser, gm, ada, bo)
        for person in (gm, ada, bo):
            expect(person.page.locator(".exchange .pool .face")).to_have_text(pool(chooser))
    for person in (gm, ada, bo):
        expect(person.page.locator(".exchange .status-line")).to_contain_text("judged")
        expect(person.page.locator('#log .entry[data-type="test judged"]')).to_have_count(1)

    # The GM starts a doom tracker and advances it: hidden from the players (DW-X21).
    submit(
        offer(gm, "start a tracker"),
        Name=DOOM,
        **{"Kind": "doom", "Segments": "6"},
    )
    expect(gm.page.locator(".trackers li", has_text=DOOM)).to_contain_text("hidden from players")
    submit(offer(gm, "advance a tracker"), Tracker=DOOM)
    expect(gm.page.locator(".trackers li", has_text=DOOM)).to_contain_text("1/6")
    expect(gm.page.locator("#hidden-things")).to_contain_text(DOOM)
    for person in (ada, bo):
        expect(person.page.locator(".trackers .hidden-value")).to_have_text(
            "hidden: a tracker the GM keeps hidden"
        )

    # Bo makes a blind roll: he sees that he rolled, never what; the GM sees the dice.
    roll(bo, "3d6", "blind", BLIND)
    wait_for_log(gm, BLIND)
    gm_entry = gm.page.locator("#log .entry", has_text=BLIND)
    expect(gm_entry.locator(".die")).to_have_count(3)
    wait_for_log(bo, "Bo made a blind roll for the GM")
    bo_entry = bo.page.locator("#log .entry", has_text="blind roll")
    expect(bo_entry.locator(".die")).to_have_count(0)
    wait_for_log(ada, "Bo made a blind roll for the GM")

    # What each role's page holds: the GM's tools for the GM only; no hidden value anywhere
    # a player's page looked (every websocket frame, every HTTP answer, the DOM).
    expect(gm.page.get_by_role("heading", name="GM screen")).to_be_visible()
    expect(gm.page.get_by_role("heading", name="Invite links")).to_be_visible()
    for person in (ada, bo):
        live(person)
        expect(person.page.get_by_role("heading", name="GM screen")).to_have_count(0)
        expect(person.page.get_by_role("heading", name="Invite links")).to_have_count(0)
        received = person.received()
        assert person.frames, "the page followed the room over its websocket"
        if person is bo:  # his own line's asked part gives back the intent he sent, no more
            received = re.sub(OWN_BLIND_INTENT, "", received)
        assert DOOM not in received and BLIND not in received
    assert DOOM in gm.received() and BLIND in gm.received()
    assert not (gm.errors or ada.errors or bo.errors)


OWN_BLIND_INTENT = r'"intent":\{"kind":"roll","label":"[^"]*","mode":"blind"'
"""The intent of Bo's blind roll as his own line shows it back to him (format 3's asked part)."""


def finish_exchange(gm: Seat, player: Seat, *others: Seat) -> None:
    """Play an exchange to its verdict, each choice the advisor's pick of whoever chooses."""
    for _ in range(40):
        synced(gm, player, *others)
        status = gm.page.locator(".exchange .status-line").inner_text()
        if status.startswith("judged"):
            return
        chooser = player if "player chooses" in status else gm
        step(chooser, chooser.page.locator(".advice table.odds tr.best button").click)
    raise AssertionError("the exchange did not reach a verdict in 40 choices")


def test_npc_and_opposed_tests_and_wounds_come_from_guided_forms(browser, server):
    gm, ada = gm_and_ada(browser, server, "dead-weight")
    submit(offer(ada, "bring a saved sheet"), **{PASTE_SAVED: AMBER})
    expect(gm.page.locator("article.card h3", has_text="Amber")).to_be_visible()

    # The GM deals Amber two wounds (DW-T01) placed on DEX from her card, a row per wound
    # (DW-A14: DEX 3 holds them while it has no fatigue, so before the tests, whose re-rolls
    # may tire her); the sheet's DEX row shows 2 wounds on both pages.
    form = offer(gm, "take wounds", "article.card >> nth=0")
    form.get_by_role("group", name="Placement 1").get_by_label("Attribute").select_option('"DEX"')
    form.get_by_role("button", name="Add a placement").click()
    form.get_by_role("group", name="Placement 2").get_by_label("Attribute").select_option('"DEX"')
    step(gm, form.locator("button[type=submit]").click)
    synced(gm, ada)
    for person in (gm, ada):
        expect(person.page.locator("article.card", has_text="Amber")).to_contain_text("2 wounds")
        unfold(person, "article.card:has-text('Amber')")
        dex = person.page.locator("article.card", has_text="Amber").locator("[data-attribute=DEX]")
        marks = "2 wounds, 0 fatigue, 1 of 3 dice available"  # an X a wound, as on paper
        expect(dex.locator(".track")).to_have_attribute("aria-label", marks)

    # The GM tests for a ghoul of level 2 (DW-M50): its name, level and attribute are
    # fields, not JSON; every page shows the ghoul's DEX test.
    form = offer(gm, "test for an NPC")
    npc = form.get_by_role("group", name="Or an enemy typed in")
    npc.get_by_label("Name").fill("Ghoul qz")
    npc.get_by_label("Level").fill("2")
    form.get_by_role("group", name="What is announced").get_by_label("Attribute").select_option(
        '"DEX"'
    )
    step(gm, form.locator("button[type=submit]").click)
    synced(gm, ada)
    for person in (gm, ada):
        expect(person.page.locator(".exchange h2")).to_have_text("Ghoul qz: DEX test")
    finish_exchange(gm, ada)

    # An opposed test (DW-M36): Amber, chosen by name, tests DEX against the ghoul's STR.
    form = offer(gm, "an opposed test")
    first = form.get_by_role("group", name="One side")
    second = form.get_by_role("group", name="The other side")
    first.get_by_label("Adventurer").select_option(label="Amber")
    first.get_by_role("group", name="What is announced").get_by_label("Attribute").select_option(
        '"DEX"'
    )
    second.get_by_role("group", name="Or an enemy typed in").get_by_label("Name").fill("Ghoul qz")
    second.get_by_role("group", name="What is announced").get_by_label("Attribute").select_option(
        '"STR"'
    )
    step(gm, form.locator("button[type=submit]").click)
    synced(gm, ada)
    for person in (gm, ada):
        panel = person.page.locator(".exchange")
        expect(panel.locator("h2")).to_contain_text("Opposed test: Amber against Ghoul qz")
        expect(panel.locator(".side h3")).to_contain_text(["Amber: DEX test", "Ghoul qz: STR test"])
        # DEX 3 less her 2 wounds leaves Amber one die to roll (DW-A12)
        expect(panel.locator(".side").nth(0).locator(".face")).to_have_count(1)
    finish_exchange(gm, ada)
    expect(ada.page.locator(".exchange .status-line")).to_contain_text(re.compile("wins|draw"))

    fits(ada.page)
    accessible(gm.page)
    assert not (gm.errors or ada.errors)


def test_an_attack_asks_each_step_of_whoever_the_rules_ask_in_words(browser, server):
    """DW-T02: the GM's kept Wight attacks Amber from the attack form (names, not ids); it
    hits (twenty dice), the GM gives the blow's wounds, and Ada's page offers Amber's armour
    as buttons that say which piece and how many dice; her choice is the next entry."""
    gm, ada = gm_and_ada(browser, server, "dead-weight")
    submit(offer(ada, "bring a saved sheet"), **{PASTE_SAVED: ARMOURED})
    expect(gm.page.locator("article.card h3", has_text="Amber")).to_be_visible()
    form = offer(gm, "type in an NPC", "#npcs")
    form.get_by_label("Name").fill("Wight")
    stats = form.get_by_role("group", name="Numbers")
    stats.get_by_label("Level").fill("20")
    stats.get_by_label("Wound limit").fill("3")
    step(gm, form.locator("button[type=submit]").click)

    form = offer(gm, re.compile(r"^attack"))  # not a form whose help names an attack
    form.get_by_label("Who attacks").select_option(label="Wight")
    form.get_by_label("Whom").select_option(label="Amber")
    step(gm, form.locator("button[type=submit]").click)
    wait_for_log(ada, "Wight hits Amber")
    step(gm, lambda: submit(offer(gm, "the wounds of Wight's blow"), **{"Wounds of the blow": "2"}))
    synced(gm, ada)

    armour = ada.page.get_by_role("group", name="Amber's armour against 2 wounds")
    buttons = armour.get_by_role("button")
    expect(buttons).to_have_text(["leather coat · 1 die", "leather coat · 2 dice"])
    expect(ada.page.get_by_role("button", name="Take it without armour")).to_be_visible()
    step(ada, buttons.nth(1).click)
    synced(gm, ada)
    wait_for_log(gm, "Amber's leather coat:")
    texts = " ".join(log_texts(ada))
    assert "c1" not in texts and "n1" not in texts
    assert not (gm.errors or ada.errors)


SUPPLEMENT = """[schools."Necromancers of Yadar"]
spells = ["Bone dart", "Grave chill", "Dead speak", "Rot touch"]
"""
"""A group's supplement file: one school's spells, as the Blacksalt book would give them."""


def test_a_wizard_ticks_spells_from_the_list_the_gm_loaded(browser, server):
    """DW-T07: the GM loads the group's file on the page; every member reads the table's
    lists; Ada's wizard, made step by step, ticks spells from that list on her card, which
    says where they come from."""
    links = create_room(server, "dead-weight", "the crypt")
    gm, ada = seat(browser), seat(browser, PHONE)
    with RoomClient(links["player"]) as invite:
        own = invite.join("Ada")
    gm.page.goto(links["gm"])
    live(gm)
    open_file(
        gm, "load the group's supplement file", "Supplement file", "blacksalt.toml", SUPPLEMENT
    )
    wait_for_log(gm, "1 school's spells")
    client = member_client(own)
    new = {"kind": "new-character", "name": "Wren", "guided": True, "character_class": "wizard"}
    client.act(new)
    while (making := client.view()["state"]["making"][0])["decision"]["stage"] != "spells":
        closed = next(
            o for o in client.legal()["offers"] if o["kind"] == "creation-choice" and o["intents"]
        )
        picks = [i for i in closed["intents"] if i["choice"].get("name") == "Necromancers of Yadar"]
        client.act((picks or closed["intents"])[0])
    count = making["decision"]["count"]
    ada.page.goto(own)
    live(ada)
    lists = ada.page.locator(".panel.lists")
    expect(lists).to_contain_text("Necromancers of Yadar: Bone dart, Grave chill")
    card = ada.page.locator("article.card", has_text="being made")
    expect(card.locator(".step-from")).to_have_text(
        "From the GM's list of the spells of the Necromancers of Yadar (the Blacksalt book's)."
    )
    form = offer(ada, "of your school", "article.card")
    for name in ("Bone dart", "Grave chill", "Dead speak")[:count]:
        form.get_by_label(name, exact=True).check()
    ada.page.screenshot(path="/tmp/dw-spells.png", full_page=True)
    step(ada, lambda: form.locator("button[type=submit]").click())
    expect(ada.page.locator("article.card", has_text="Wren")).to_contain_text("Bone dart")
    client.close()
