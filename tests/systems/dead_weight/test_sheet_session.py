"""Dead Weight's sheet at a shared table: what a player writes on it between rolls (DW-X25),
using items (DW-X26), casting and praying from the sheet (DW-X27), the offers each sheet
entry carries, and what the rules wait on from a player (a wound's choice, a sacrifice) or
the GM (a new session). Dice are fixed faces."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import TabletopError
from tabletop.session import Member
from tabletop.systems.dead_weight import SESSION, Trauma
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.session import DeadWeightTable
from tests.systems.playing import played

GM = Member.gm()
ADA = Member.player("p1", "Ada")
BO = Member.player("p2", "Bo")


def play(state: DeadWeightTable, intent: dict[str, Any], member: Member, faces=()) -> tuple:
    return played(SESSION, state, intent, member, faces)


def seated(amber: dict[str, Any] | None = None) -> DeadWeightTable:
    """Amber (the sheet given, or a plain one) played by Ada; Brom played by Bo."""
    state = SESSION.new()
    state, _ = play(state, {"kind": "import-character", "sheet": amber or {"name": "Amber"}}, ADA)
    state, _ = play(state, {"kind": "import-character", "sheet": {"name": "Brom"}}, BO)
    return state


def amber(state: DeadWeightTable):
    return state.characters["c1"].sheet


def stow(state, item: dict[str, Any], place: str | None = None, member: Member = ADA):
    intent = {"kind": "stow-item", "character": "c1", "item": item, "place": place}
    return play(state, intent, member)


def refused(state: DeadWeightTable, intent: dict[str, Any], member: Member, faces=()) -> str:
    """The one-line refusal of an intent; the state is untouched by construction."""
    with pytest.raises(TabletopError) as refusal:
        SESSION.resolve(state, intent, member, FixedDice(faces))
    assert "\n" not in str(refusal.value)
    return str(refusal.value)


def at(state: DeadWeightTable, member: Member, entry: str, cid: str = "c1") -> dict[str, Any]:
    """The offers of one entry of one character's sheet, by kind."""
    return {
        o.kind: o
        for o in SESSION.legal(state, member)
        if o.entry == entry
        and cid in (*o.preset.values(), *(i.get("character") for i in o.intents))
    }


def test_the_owner_renames_and_writes_notes_and_nobody_else_but_the_gm_does():
    """DW-X25: name and notes are the player's to write (the GM may too)."""
    state = seated()
    state, _ = play(
        state, {"kind": "rename-character", "character": "c1", "name": " Amber Vane "}, ADA
    )
    assert amber(state).name == "Amber Vane"
    state, _ = play(state, {"kind": "write-notes", "character": "c1", "notes": "chalk, a key"}, GM)
    assert amber(state).notes == "chalk, a key"
    with pytest.raises(DeadWeightError, match="not open to you"):  # as for a hidden sheet
        SESSION.resolve(
            state, {"kind": "write-notes", "character": "c1", "notes": "x"}, BO, FixedDice([])
        )
    assert "only spaces" in refused(
        state, {"kind": "rename-character", "character": "c1", "name": "  "}, ADA
    )


def test_gear_goes_where_it_fits_and_a_full_place_refuses_it():
    """DW-X25 with DW-M55, M56: the belt holds one slot, a canteen liquids only; an item
    with no room anywhere is carried anyway and encumbers (DW-X09)."""
    state = seated()
    state, events = stow(state, {"name": "rope", "slots": 1}, "belt")
    assert events[0].text == "Amber stows rope in the belt"
    assert refused(
        state,
        {"kind": "stow-item", "character": "c1", "item": {"name": "axe"}, "place": "belt"},
        ADA,
    ) == ("no room in the belt: 0 of 1 slots free, axe takes 1")
    assert "only liquids" in refused(
        state,
        {"kind": "stow-item", "character": "c1", "item": {"name": "bread"}, "place": "canteen"},
        ADA,
    )
    state, _ = stow(state, {"name": "chalk", "slots": 0})
    assert [i.name for i in amber(state).inventory.loose] == ["chalk"]
    state, _ = stow(state, {"name": "anvil", "slots": 20})
    assert [i.name for i in amber(state).inventory.overflow] == ["anvil"]
    assert amber(state).encumbered


def test_an_item_moves_only_to_a_place_with_room_and_drops_off_the_sheet():
    state = seated()
    state, _ = stow(state, {"name": "rope"}, "bag")
    moves = at(state, ADA, "inventory.places.2.items.0")
    assert set(moves) == {"drop-item", "move-item"}
    assert "belt" in moves["move-item"].fields["to"].values
    assert "canteen" not in moves["move-item"].fields["to"].values  # liquids only
    state, _ = play(
        state,
        {"kind": "move-item", "character": "c1", "place": "bag", "index": 0, "to": "belt"},
        ADA,
    )
    assert [i.name for i in amber(state).inventory.place("belt").items] == ["rope"]
    state, events = play(
        state, {"kind": "drop-item", "character": "c1", "place": "belt", "index": 0}, ADA
    )
    assert events[0].text == "Amber drops rope" and not amber(state).inventory.items()


def test_using_an_item_rolls_its_usage_die_and_the_last_one_goes():
    """DW-X26 with DW-M26: Ud6 torches showing 2 step down to Ud4; a d4 showing 1 is the
    last one, and the item is gone."""
    state = seated()
    state, _ = stow(state, {"name": "torches", "usage": 6}, "bag")
    use = {"kind": "use-item", "character": "c1", "place": "bag", "index": 0}
    assert use in at(state, ADA, "inventory.places.2.items.0")["use-item"].intents
    state, events = play(state, use, ADA, [2])
    assert events[0].text == "Amber uses torches: Ud6, now Ud4"
    assert amber(state).inventory.place("bag").items[0].usage == 4
    state, events = play(state, use, ADA, [1])
    assert events[0].text == "Amber uses torches: Ud4, that was the last one"
    assert not amber(state).inventory.items()


def test_eating_a_ration_ends_hunger_and_a_rope_cannot_be_used_up():
    """DW-X26: food is used up and ends Hungry (§ Afflictions, "eat food")."""
    state = seated({"name": "Amber", "afflictions": ["hungry"]})
    state, _ = stow(state, {"name": "ration", "tags": ["food"]}, "bag")
    state, _ = stow(state, {"name": "rope"}, "bag")
    assert "use-item" not in at(state, ADA, "inventory.places.2.items.1")
    state, events = play(
        state, {"kind": "use-item", "character": "c1", "place": "bag", "index": 0}, ADA
    )
    assert [e.type for e in events] == ["item used", "affliction ended"]
    assert not amber(state).afflictions
    assert "not used up" in refused(
        state, {"kind": "use-item", "character": "c1", "place": "bag", "index": 0}, ADA
    )


def test_coins_are_counted_and_never_below_none():
    state = seated({"name": "Amber", "silver": 3})
    state, events = play(
        state, {"kind": "coins", "character": "c1", "silver": -2, "reason": "a rope"}, ADA
    )
    assert events[0].text == "Amber: -2 silver (a rope)" and amber(state).silver == 1
    assert "only 1 silver" in refused(
        state, {"kind": "coins", "character": "c1", "silver": -5}, ADA
    )


def test_containers_come_and_an_empty_one_can_be_left_behind():
    state = seated()
    state, _ = play(
        state, {"kind": "add-container", "character": "c1", "container": "small bag"}, ADA
    )
    state, _ = play(
        state, {"kind": "add-container", "character": "c1", "container": "small bag"}, ADA
    )
    state, _ = stow(state, {"name": "rope"}, "small bag 2")
    assert [p.kind for p in amber(state).inventory.places].count("small bag") == 2
    assert "drop-container" not in at(state, ADA, "inventory.places.7")
    assert refused(
        state, {"kind": "drop-container", "character": "c1", "place": "small bag 2"}, ADA
    ) == ("Leave a container behind: the small bag 2 still holds rope")
    state, _ = play(state, {"kind": "drop-container", "character": "c1", "place": "small bag"}, ADA)
    assert [p.kind for p in amber(state).inventory.places].count("small bag") == 1


def test_each_attribute_offers_its_own_test_and_holds_an_intent_to_it():
    """The DEX row's offer fixes Amber and DEX, and for her player the GM's part of the
    announcement as none (DW-T01); an INT test is not that offer's, nor one with advantage."""
    state = seated()
    dex = at(state, ADA, "attributes.DEX")["test"]
    none = {"advantage": 0, "disadvantage": 0, "check": False, "helpers_allowed": 1}
    assert dex.preset == {"roller": "c1", "setup": {"attribute": "DEX", **none}}
    plain = {"kind": "test", "roller": "c1", "setup": {"attribute": "DEX", **none}}
    assert dex.allows(plain) is None
    assert dex.allows({**plain, "setup": {**plain["setup"], "advantage": 1}})
    assert dex.allows({**plain, "setup": {**plain["setup"], "attribute": "INT"}})
    gm_dex = at(state, GM, "attributes.DEX")["test"]
    assert gm_dex.allows({**plain, "setup": {**plain["setup"], "advantage": 1}}) is None
    assert not at(state, BO, "attributes.DEX")  # Brom's player gets Brom's rows only
    assert at(state, BO, "attributes.DEX", "c2")
    state, _ = play(
        state, {"kind": "test", "roller": "c1", "setup": {"attribute": "DEX"}}, ADA, [5]
    )
    assert amber(state).name == "Amber"


def test_a_sheet_in_a_test_under_way_takes_no_edits_until_the_test_is_judged():
    """The test keeps its own copy of the roller until it is judged (its fatigue is written
    back then), so the sheet's edits wait."""
    state = seated({"name": "Amber", "attributes": {"DEX": {"score": 2, "proficiency": 1}}})
    state, _ = play(
        state, {"kind": "test", "roller": "c1", "setup": {"attribute": "DEX"}}, ADA, [1, 2]
    )
    assert state.testing
    assert not [o for o in SESSION.legal(state, ADA) if o.kind == "stow-item"]
    assert refused(state, {"kind": "write-notes", "character": "c1", "notes": "x"}, ADA)


WIZARD = {
    "name": "Amber",
    "traits": ["magic user"],
    "attributes": {"INT": {"score": 2}},
    "magic": {"spells_known": ["Bolt", "Ward"], "spells_memorised": ["Bolt"]},
}


CLERIC = {
    "name": "Amber",
    "traits": ["divine mandate"],
    "attributes": {"PRE": {"score": 1}},
    "magic": {"prayers_known": ["Light"], "prayers_memorised": ["Light"]},
}
"""Amber as a cleric, who knows a prayer (DW-X27); WIZARD is her as a wizard."""


def test_a_memorised_spell_is_cast_from_its_row_and_a_failed_test_forgets_it():
    """DW-X27 with DW-M18: the spell works; the INT test's failure forgets it. Without a
    conductor any failure would be critical, so Amber carries a wand."""
    state = seated(WIZARD)
    state, _ = stow(state, {"name": "wand", "tags": ["conductor"]}, "belt")
    cast = {"kind": "cast-spell", "character": "c1", "spell": "Bolt"}
    assert at(state, ADA, "magic.spells_known.0")["cast-spell"].intents == (cast,)
    assert "cast-spell" not in at(state, ADA, "magic.spells_known.1")  # Ward is not memorised
    state, events = play(state, cast, ADA, [2, 3])
    assert [e.type for e in events][:1] == ["spell"] and "forgotten" in [e.type for e in events]
    magic = amber(state).magic
    assert magic.spells_forgotten == ("Bolt",) and not magic.spells_memorised
    assert SESSION.view(state, ADA)["exchange"]["casting"] == {"spell": "Bolt", "result": "failure"}


def test_a_spell_from_an_arcane_well_is_cast_at_once_with_no_test():
    """DW-A20: a great success (two 6s) leaves an arcane well; the next spell needs no test,
    so nothing waits, and the well is spent (it once failed to name whose test it was)."""
    state = seated(WIZARD)
    state, _ = stow(state, {"name": "wand", "tags": ["conductor"]}, "belt")
    cast = {"kind": "cast-spell", "character": "c1", "spell": "Bolt"}
    state, events = play(state, cast, ADA, [6, 6])
    assert events[-1].text == "an arcane well: Amber's next spell is automatic"
    state, events = play(state, cast, ADA)
    assert [e.text for e in events] == [
        "Amber casts Bolt",
        "Amber's arcane well makes Bolt an automatic success",
    ]
    assert not state.testing and not amber(state).magic.arcane_well


def test_a_cast_with_a_re_roll_left_waits_for_the_exchange_and_writes_back_after():
    state = seated({**WIZARD, "attributes": {"INT": {"score": 2, "proficiency": 1}}})
    state, _ = stow(state, {"name": "wand", "tags": ["conductor"]}, "belt")
    state, _ = play(state, {"kind": "cast-spell", "character": "c1", "spell": "Bolt"}, ADA, [2, 3])
    assert (
        state.testing and SESSION.view(state, GM)["exchange"]["test"]["roller"]["name"] == "Amber"
    )
    reroll = {"kind": "reroll", "resource": "proficiency", "die": 0, "helper": 0}
    state, _ = play(state, reroll, ADA, [5])
    assert not state.testing and amber(state).magic.spells_memorised == ("Bolt",)


def test_a_prayer_needs_its_holy_symbol_and_an_exhausted_one_is_a_desperate_plea():
    """DW-X27 with DW-M21, M22: answered prayers are exhausted; the desperate plea is the
    one way to pray one again before camp."""
    state = seated(CLERIC)
    assert "pray" not in at(state, ADA, "magic.prayers_known.0")
    state, _ = stow(state, {"name": "talisman", "tags": ["holy symbol"]}, "belt")
    state, _ = play(state, {"kind": "pray", "character": "c1", "prayer": "Light"}, ADA, [5])
    assert amber(state).magic.prayers_exhausted == ("Light",)
    plea = at(state, ADA, "magic.prayers_known.0")["pray"]
    assert plea.text == "desperate plea" and plea.intents[0]["desperate_plea"] is True


def offered(state: DeadWeightTable, member: Member) -> dict[str, Any]:
    """What `member` is offered now, by kind."""
    return {o.kind: o for o in SESSION.legal(state, member)}


def test_a_lasting_scar_waits_for_its_player_to_choose_the_trauma_then_the_score():
    """DW-M47 row 3 and DW-M53: Amber, her STR and DEX full of wounds, is mortally wounded
    on a 3 and chooses a trauma she lacks; chronic pain then asks which score drops, both
    being above zero. Only her player (or the GM) answers, and only with what is asked."""
    state = seated({"name": "Amber", "attributes": {"INT": {"score": 0}, "PRE": {"score": 0}}})
    state, _ = play(state, {"kind": "new-npc", "name": "Wight", "stats": {"level": 2}}, GM)
    attack = {"kind": "attack", "attacker": "n1", "target": "c1", "setup": {"attribute": "STR"}}
    state, _ = play(state, attack, GM, [6, 3])
    state, _ = play(state, {"kind": "blow", "wounds": 3}, GM)
    placed = {"kind": "place-wounds", "placements": [{"attribute": "STR"}, {"attribute": "DEX"}]}
    state, events = play(state, placed, ADA, [3])
    assert events[-1].text == "Amber: choose a trauma not held yet"
    choice = offered(state, ADA)["wound-choice"]
    assert choice.text == "Amber: choose a trauma"
    assert [intent["answer"] for intent in choice.intents] == [t.value for t in Trauma]
    assert "wound-choice" not in offered(state, BO)
    pain = {"kind": "wound-choice", "character": "c1", "answer": "chronic pain"}
    assert "not Bo's" in refused(state, pain, BO)
    assert "choose one of" in refused(state, {**pain, "answer": "a headache"}, ADA)
    state, events = play(state, pain, ADA)
    assert [e.text for e in events] == ["Amber receives the chronic pain trauma"]
    assert offered(state, ADA)["wound-choice"].intents == (
        {"kind": "wound-choice", "character": "c1", "answer": "STR"},
        {"kind": "wound-choice", "character": "c1", "answer": "DEX"},
    )
    state, events = play(state, {**pain, "answer": "DEX"}, ADA)
    assert [e.text for e in events] == ["Amber's DEX score drops to 0"]
    assert not amber(state).pending and "wound-choice" not in offered(state, ADA)


def test_an_angry_god_answers_nothing_until_a_sacrifice():
    """§ Prayers: a critical failure angers the god, who answers no prayer until a sacrifice
    (what it takes is another book's, DW-G03); the player makes it, and nobody else."""
    state = seated({**CLERIC, "attributes": {"PRE": {"score": 2}}})
    state, _ = stow(state, {"name": "talisman", "tags": ["holy symbol"]}, "belt")
    prayer = {"kind": "pray", "character": "c1", "prayer": "Light"}
    state, _ = play(state, prayer, ADA, [1, 2])
    assert "angry" in refused(state, prayer, ADA, [5, 5])
    sacrifice = {"kind": "sacrifice", "character": "c1"}
    assert offered(state, ADA)["sacrifice"].fields["character"].values == ("c1",)
    assert "sacrifice" not in offered(state, BO)
    assert "not Bo's" in refused(state, sacrifice, BO)
    state, events = play(state, sacrifice, ADA)
    assert [e.text for e in events] == ["Amber's god is appeased"]
    assert "sacrifice" not in offered(state, ADA)
    assert refused(state, sacrifice, ADA) == "Make a sacrifice: the god is not angry"
    state, events = play(state, prayer, ADA, [5, 2])
    assert events[-1].text == "Amber's prayer Light is answered"


def test_the_gm_begins_a_new_session_and_every_burden_may_be_used_again():
    """DW-M09: the burden is used once a session; the GM, and nobody else, begins the next,
    offered once a burden is spent."""
    state = seated()
    assert "new-session" not in offered(state, GM)
    burden = {"kind": "test", "roller": "c1", "setup": {"attribute": "STR", "burden": True}}
    state, events = play(state, burden, ADA, [5])
    assert events[0].text == "Amber's burden weighs on this STR test: +1 insight"
    assert "new-session" in offered(state, GM) and "new-session" not in offered(state, ADA)
    assert "not Ada's to ask for" in refused(state, {"kind": "new-session"}, ADA)
    state, events = play(state, {"kind": "new-session"}, GM)
    assert [e.text for e in events] == [
        "a new session: Amber's burden may be used again",
        "a new session: Brom's burden may be used again",
    ]
    assert "new-session" not in offered(state, GM)
    assert not amber(state).expedition.burden_used_this_session
