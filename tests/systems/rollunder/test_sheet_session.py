"""The roll-under sheet at a shared table (CR-S08): the player's own edits (name, notes,
coins, sacred spells, how items are carried), the actions each entry offers, and the GM's
secret sheet kept from the players. Dice are fixed faces."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import TabletopError
from tabletop.session import Member
from tabletop.systems.rollunder import SESSION, RollUnderTable
from tabletop.systems.rollunder.errors import RollUnderError
from tests.systems.playing import played

GM = Member.gm()
ASH = Member.player("p1", "Ash's player")
BO = Member.player("p2", "Bo's player")

LOAD = {
    "carry_limit": 10,
    "worn": [{"name": "clothes", "bulk": 0, "kind": "clothes"}],
    "held": [{"name": "sword", "bulk": 2, "kind": "weapon"}],
}


def play(state: RollUnderTable, intent: dict[str, Any], member: Member, faces=()) -> tuple:
    return played(SESSION, state, intent, member, faces)


def seated(**ash: Any) -> RollUnderTable:
    """Ash (carrying a sword, with clothes on) played by Ash's player; Bo by Bo's."""
    sheet = {"name": "Ash", "abilities": {"STR": 12, "AGI": 10, "WIT": 9}, "max_health": 14}
    sheet |= {"health": 14, "load": LOAD, "money": 5} | ash
    state, _ = play(SESSION.new(), {"kind": "import-character", "sheet": sheet}, ASH)
    bo = {
        "name": "Bo",
        "abilities": {"STR": 10, "AGI": 12, "WIT": 10},
        "max_health": 10,
        "health": 10,
    }
    state, _ = play(state, {"kind": "import-character", "sheet": bo}, BO)
    return state


def ash(state: RollUnderTable):
    return state.sheet("c1")


def at(state: RollUnderTable, member: Member, entry: str) -> dict[str, Any]:
    found = {}
    for o in SESSION.legal(state, member):
        named = {*o.preset.values(), *(i.get("character") for i in o.intents)}
        if o.entry == entry and "c1" in named:
            found[o.kind] = o
    return found


def test_cr_s08_each_ability_row_rolls_that_ability_for_its_character():
    state = seated()
    agi = at(state, ASH, "abilities.AGI")["ability-roll"]
    assert agi.preset == {"character": "c1", "ability": "AGI"}
    assert not at(state, BO, "abilities.AGI")
    intent = {"kind": "ability-roll", "character": "c1", "ability": "AGI", "level": "challenging"}
    state, events = play(state, intent, ASH, [4])
    assert events[0].text == "Ash rolls 4 against AGI 10: pass"


def test_cr_s08_an_item_is_carried_another_way_only_where_the_rules_let_it_go():
    """§ Encumbrance: a sword (bulk 2) can be stored in the clothes' containers; a bulk-5
    chest cannot (CR-M09), so it is offered held or worn only where that is allowed."""
    state = seated()
    move = at(state, ASH, "load.held.0")["move-item"]
    assert move.fields["to"].values == ("stored",)  # a weapon is not worn
    intent = {"kind": "move-item", "character": "c1", "item": "sword", "where": "held"}
    state, _ = play(state, {**intent, "to": "stored"}, ASH)
    assert [i.name for i in ash(state).load.stored] == ["sword"] and not ash(state).load.held
    chest = {"kind": "take-item", "character": "c1", "item": {"name": "chest", "bulk": 5}}
    state, _ = play(state, {**chest, "where": "held"}, ASH)
    assert "move-item" not in at(state, ASH, "load.held.0")
    with pytest.raises(TabletopError, match="too big for containers"):
        SESSION.resolve(state, {**intent, "item": "chest", "to": "stored"}, ASH, FixedDice([]))


def test_cr_s08_coins_are_counted_and_never_below_none():
    state = seated()
    state, events = play(
        state, {"kind": "money", "character": "c1", "amount": -3, "reason": "rope"}, ASH
    )
    assert events[0].text == "Ash: -3 coins (rope)" and ash(state).money == 2
    with pytest.raises(TabletopError, match="only 2 coins"):
        SESSION.resolve(
            state, {"kind": "money", "character": "c1", "amount": -9}, ASH, FixedDice([])
        )


def test_cr_s08_a_written_sacred_spell_is_cast_from_its_line_for_an_omen():
    """§ Spending omens: "cast a sacred spell"; the spell is written down by the player
    (CR-G09), and its line offers the cast while an omen is left."""
    state = seated(omens=1, max_omens=1)
    state, _ = play(state, {"kind": "learn-spell", "character": "c1", "spell": "Blessing"}, ASH)
    cast = {"kind": "cast-spell", "character": "c1", "spell": "Blessing"}
    assert at(state, ASH, "spells.0")["cast-spell"].intents == (cast,)
    state, _ = play(state, cast, ASH)
    assert ash(state).omens == 0 and "cast-spell" not in at(state, ASH, "spells.0")
    state, _ = play(state, {"kind": "forget-spell", "character": "c1", "spell": "Blessing"}, ASH)
    assert ash(state).spells == ()


def test_cr_s08_a_rename_carries_the_followers_and_keeps_names_distinct():
    """§ Followers: a follower follows their leader by name, so the name moves with them."""
    state = seated()
    follower = {"name": "Pip", "abilities": {"STR": 8, "AGI": 9, "WIT": 10}}
    follower |= {"max_health": 6, "health": 6}
    state, _ = play(state, {"kind": "recruit-follower", "leader": "c1", "sheet": follower}, ASH)
    state, events = play(
        state, {"kind": "rename-character", "character": "c1", "name": "Ashe"}, ASH
    )
    assert events[0].text == "Ash is now called Ashe"
    assert state.sheet("c3").leader == "Ashe"
    with pytest.raises(TabletopError, match="already a Bo"):
        SESSION.resolve(
            state, {"kind": "rename-character", "character": "c1", "name": "Bo"}, ASH, FixedDice([])
        )
    with pytest.raises(RollUnderError, match="not open to you"):  # as for a hidden sheet
        SESSION.resolve(
            state, {"kind": "write-notes", "character": "c1", "notes": "x"}, BO, FixedDice([])
        )


def test_cr_s04_cr_s08_what_the_gm_writes_on_a_secret_sheet_stays_with_the_gm():
    """CR-S04, CR-S08: the GM's bookkeeping of a secret sheet (its notes, spells written
    down, coins) is the GM's alone: the players read only that the GM changes Grue."""
    state = seated()
    grue = {"name": "Grue", "abilities": {"STR": 13, "AGI": 9, "WIT": 7}}
    grue |= {"max_health": 19, "health": 19}
    state, _ = play(state, {"kind": "import-character", "sheet": grue, "secret": True}, GM)
    log = []
    for intent in (
        {"kind": "write-notes", "character": "c3", "notes": "lair qz"},
        {"kind": "learn-spell", "character": "c3", "spell": "hymn qz"},
        {"kind": "money", "character": "c3", "amount": 41, "reason": "tithe qz"},
    ):
        state, events = play(state, intent, GM)
        log += events
    seen = [SESSION.view_event(e, ASH) for e in log]
    told = json.dumps([e.model_dump(mode="json") for e in seen if e])
    told += json.dumps(SESSION.view(state, ASH)) + json.dumps(
        [o.model_dump() for o in SESSION.legal(state, ASH)]
    )
    for secret in ("lair qz", "hymn qz", "tithe qz", '"money": 41'):
        assert secret not in told, secret
    assert [shown.text for shown in seen] == ["the GM changes Grue"] * 3
