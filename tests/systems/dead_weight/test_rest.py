"""Rest, the interlude, waiting out a faint and being stabilised: what the book says they
clear (§ Prayers, § Afflictions, § Fainting, § Mortal Wounds), through the rules and the
session; and creation that honours what the table supplies (issue 17)."""

from __future__ import annotations

import pytest

from tabletop.cli.local import play
from tabletop.dice import FixedDice, SeededDice
from tabletop.session import Member
from tabletop.systems.dead_weight import Affliction, Attribute, Character, interlude, rest_at_camp
from tabletop.systems.dead_weight.catalogue import QuirkRule, Trait
from tabletop.systems.dead_weight.character import Condition, Quirk
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.session import SESSION
from tests.systems.dead_weight.helpers import character


def tired(*afflictions: Affliction, **fields: object) -> Character:
    """A cleric-free sheet with fatigue, a wound and `afflictions`."""
    return character(
        Attribute.STR, score=3, fatigue=1, wounds=1, afflictions=list(afflictions), **fields
    )


def test_rest_at_camp_ends_shaken_and_sleepy_and_readies_prayers():
    """§ Afflictions: Shaken goes with "rest in the camp phase", Sleepy with "camp"."""
    c = tired(Affliction.SHAKEN, Affliction.SLEEPY, Affliction.HUNGRY)
    rested, events = rest_at_camp(c)
    assert rested.afflictions == (Affliction.HUNGRY,)
    assert [e.kind for e in events] == ["rest", "affliction ended", "affliction ended"]


def test_rest_leaves_fatigue_and_wounds_to_the_gm():
    """DW-G09: how much rest heals is another book's; rest at camp changes neither."""
    rested, _ = rest_at_camp(tired())
    assert rested.attribute(Attribute.STR).fatigue == 1
    assert rested.attribute(Attribute.STR).wounds == 1


def test_a_coffee_addict_without_coffee_stays_sleepy_after_camp():
    """Quirk 6: Sleepy goes only after coffee this expedition, whatever the remedy."""
    addict = tired(Affliction.SLEEPY, quirks=[Quirk(name="Coffee", rule=QuirkRule.COFFEE_ADDICT)])
    rested, events = rest_at_camp(addict)
    assert rested.has(Affliction.SLEEPY) and events[-1].kind == "still sleepy"


def test_a_loud_snorer_chooses_an_ambush_die_or_staying_sleepy():
    """DW-X22: quirk 4 is the player's choice each camp, and only matters when Sleepy."""
    snorer = tired(Affliction.SLEEPY, quirks=[Quirk(name="Snore", rule=QuirkRule.LOUD_SNORE)])
    awake, events = rest_at_camp(snorer, "ambush")
    assert not awake.has(Affliction.SLEEPY)
    assert events[-1].kind == "ambush die" and events[-1].data == {"ambush_dice": 1}
    still, events = rest_at_camp(snorer, "sleepy")
    assert still.has(Affliction.SLEEPY) and "ambush die" not in [e.kind for e in events]


def test_the_interlude_heals_nauseated_and_ends_hopeless():
    """DW-X23: Nauseated is "healed in the interlude"; reaching it is escaping alive."""
    back, _ = interlude(tired(Affliction.NAUSEATED, Affliction.HOPELESS, Affliction.CURSED))
    assert back.afflictions == (Affliction.CURSED,)


def seated(sheet: Character):
    table, _ = play(
        SESSION,
        SESSION.new(),
        {"kind": "import-character", "sheet": sheet.model_dump(mode="json")},
        FixedDice([]),
    )
    return table


def test_a_fainted_character_waits_the_turns_out_and_wakes_through_the_session():
    """Issue 17: a character who fainted stayed fainted. DW-A16: two discarded points are
    two turns to wait; DW-A17: a 1 on the 1d! wakes them."""
    out = character(condition=Condition(fainted=True, faint_turns=2))
    table = seated(out)
    offered = SESSION.legal(table, Member.gm())
    assert any(o.kind == "wait" for o in offered)
    table, events = play(
        SESSION, table, {"kind": "wait", "character": "c1", "turns": 5}, FixedDice([])
    )
    assert [e.text for e in events] == [
        "Unnamed: 1 turn left before trying to wake",
        "Unnamed: 0 turns left before trying to wake",
    ]
    table, events = play(SESSION, table, {"kind": "wake", "character": "c1"}, FixedDice([1]))
    assert table.characters["c1"].sheet.condition == Condition()
    assert "wakes up" in events[0].text


def test_a_mortally_wounded_character_is_stabilised_after_the_fight():
    """§ Mortal Wounds: a first aid kit, medical supply or healing spell; DW-A38: not
    during combat unless on the verge of death."""
    table = seated(character(condition=Condition(mortally_wounded=True)))
    during = {"kind": "stabilise", "character": "c1", "means": "medical supply", "in_combat": True}
    with pytest.raises(DeadWeightError, match="waits until the combat is over"):
        play(SESSION, table, during, FixedDice([]))
    after = {**during, "in_combat": False}
    table, _ = play(SESSION, table, after, FixedDice([]))
    assert table.characters["c1"].sheet.condition.can_act


SCHOOLS = {
    school: {"spells": ["Bone spear", "Grave chill", "Dead speak"]}
    for school in (
        "Necromancers of Yadar",
        "Alchemists of the Golden Ridge",
        "Thaumaturgists of Ravenhome",
        "Wandering Mystics",
        "The Awakened",
    )
}


def test_a_random_wizard_gets_spells_from_the_supplied_school():
    """Issue 17: the session dropped the supplement, so a wizard got no spells. § Spells:
    one spell per INT point from the school's list."""
    asked = {
        "kind": "new-character",
        "character_class": "wizard",
        "supplement": {"schools": SCHOOLS},
    }
    table, _ = play(SESSION, SESSION.new(), asked, SeededDice(1))
    wizard = table.characters["c1"].sheet
    assert wizard.has(Trait.MAGIC_USER)
    known = wizard.magic.spells_known
    assert len(known) == wizard.attribute(Attribute.INT).score
    assert set(known) <= set(SCHOOLS["Necromancers of Yadar"]["spells"])


def test_a_random_character_records_what_the_core_book_left_out():
    """Creation's `missing` reached the table only for guided characters; now for all."""
    asked = {"kind": "new-character", "character_class": "warrior"}
    table, _ = play(SESSION, SESSION.new(), asked, SeededDice(1))
    assert any("background" in line for line in table.characters["c1"].missing)
