"""Trackers, usage and risk dice, light and darkness (§ Trackers, § Light), the inventory's
slot rules (§ Inventory, DW-A33), afflictions and their quirks, and the sheet's own checks."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tabletop.dice import FixedDice, distribution
from tabletop.systems.dead_weight import (
    Affliction,
    Attribute,
    Character,
    DeadWeightError,
    Item,
    Options,
    PlaceKind,
    Quirk,
    QuirkRule,
    Remedy,
    SheetError,
    Skill,
    Trait,
    Trauma,
    carrying_capacity,
    choose_affliction,
    drink_coffee,
    gain_affliction,
    remove_affliction,
    revise,
    sheet_from,
    stow,
)
from tabletop.systems.dead_weight.trackers import (
    LightKind,
    Tracker,
    TrackerKind,
    UsageDie,
    advance,
    advance_doom,
    can_see,
    decay_lights,
    end_turn_in_darkness,
    light,
    new_turn,
    refuel,
    risk,
)
from tests.systems.dead_weight.helpers import character


def test_dw_m58_a_tracker_fills_triggers_and_starts_again():
    clock = Tracker(name="tide", segments=4, filled=2)
    clock, events = advance(clock, 3)
    assert clock.filled == 1 and [e.kind for e in events] == ["tracker", "tracker triggered"]
    clock, _ = advance(clock, -5)
    assert clock.filled == 0
    with pytest.raises(ValueError):
        Tracker(name="bad", segments=4, filled=4)


def test_dw_a34_doomed_adventurers_push_the_doom_tracker_further():
    doom = Tracker(name="doom", kind=TrackerKind.DOOM, segments=8)
    party = [character(afflictions=[Affliction.DOOMED]), character(afflictions=[Affliction.DOOMED])]
    each, _ = advance_doom(doom, 1, party)
    once, _ = advance_doom(doom, 1, party, Options(doomed_stacking="once"))
    assert (each.filled, once.filled) == (3, 2)


def test_the_third_eye_sees_the_hidden_omens_tracker():
    omens = Tracker(name="omens", kind=TrackerKind.OMENS, segments=6, visible=False)
    assert not can_see(omens, character())
    assert can_see(omens, character(traits=[Trait.THIRD_EYE]))


def test_dw_m26_usage_dice_step_down_and_run_out():
    die = UsageDie(size=8)
    same, rolled = die.use(FixedDice([5]))
    assert same == die and rolled.total == 5
    smaller, _ = die.use(FixedDice([2]))
    assert smaller == UsageDie(size=6)
    gone, _ = UsageDie(size=4).use(FixedDice([1]))
    assert gone is None
    with pytest.raises(ValueError):
        UsageDie(size=7)


@pytest.mark.parametrize(("size", "uses"), [(4, 2), (6, 5), (8, 9), (10, 14), (12, 20), (20, 30)])
def test_dw_p05_expected_uses_of_a_usage_die(size, uses):
    """Each size lasts 1 / P(1 or 2) uses on average, down the chain to the end of the d4."""
    expected = Fraction(0)
    die: UsageDie | None = UsageDie(size=size)
    while die is not None:
        expected += 1 / distribution(str(die)).at_most(2)
        die, _ = die.use(FixedDice([1]))
    assert expected == uses


def test_dw_m27_risk_dice():
    assert risk(2, FixedDice([3, 1]))[0] is True
    assert risk(3, FixedDice([2, 3, 6]))[0] is False
    assert distribution("3d!").probability(1) == Fraction(91, 216)
    with pytest.raises(DeadWeightError):
        risk(0, FixedDice([]))


def test_dw_m59_lights_test_their_usage_dice_on_each_decay():
    lights = [light(LightKind.TORCH), light(LightKind.LIGHT_SPELL), light(LightKind.LANTERN)]
    lights, _events = decay_lights(lights, FixedDice([1, 6]))
    torch, spell, lantern = lights
    assert torch.going_out and spell.going_out and not lantern.going_out
    assert [source.kind for source in new_turn(lights)] == [LightKind.LANTERN]
    assert refuel(lantern).usage == UsageDie(size=8)
    with pytest.raises(DeadWeightError):
        refuel(torch)


def test_dw_m60_ending_a_turn_in_the_dark():
    tired, _ = end_turn_in_darkness(character(Attribute.PRE, score=2), "fatigue", FixedDice([]))
    assert tired.attribute(Attribute.PRE).fatigue == 1
    scared, _ = end_turn_in_darkness(character(), "terrified", FixedDice([]))
    assert scared.has(Affliction.TERRIFIED)


# afflictions --------------------------------------------------------------------------------


def test_an_affliction_held_already_is_ignored_and_remedies_must_fit():
    c, _ = gain_affliction(character(), Affliction.HUNGRY, FixedDice([]))
    again, events = gain_affliction(c, Affliction.HUNGRY, FixedDice([]))
    assert again.afflictions == (Affliction.HUNGRY,) and events[0].kind == "affliction ignored"
    with pytest.raises(DeadWeightError, match="does not end"):
        remove_affliction(c, Affliction.HUNGRY, Remedy.DRINK_WATER)
    fed, _ = remove_affliction(c, Affliction.HUNGRY, Remedy.EAT_FOOD)
    assert not fed.afflictions


def test_quirks_irritable_patient_and_coffee():
    irritable = character(quirks=[Quirk(name="Irritable", rule=QuirkRule.IRRITABLE)])
    offered = [Affliction.ANGRY, Affliction.TERRIFIED]
    with pytest.raises(DeadWeightError, match="irritable"):
        choose_affliction(irritable, offered, Affliction.TERRIFIED, FixedDice([]))
    patient = character(quirks=[Quirk(name="Extremely patient", rule=QuirkRule.EXTREMELY_PATIENT)])
    calm, _ = gain_affliction(patient, Affliction.ANGRY, FixedDice([1, 5]))
    assert not calm.has(Affliction.ANGRY)
    angry, _ = gain_affliction(patient, Affliction.ANGRY, FixedDice([3, 5]))
    assert angry.has(Affliction.ANGRY)
    addict = character(
        afflictions=[Affliction.SLEEPY],
        quirks=[Quirk(name="Coffee addict", rule=QuirkRule.COFFEE_ADDICT)],
    )
    with pytest.raises(DeadWeightError, match="coffee"):
        remove_affliction(addict, Affliction.SLEEPY, Remedy.CAMP)
    awake, _ = drink_coffee(addict)
    assert not awake.has(Affliction.SLEEPY) and awake.expedition.had_coffee


# inventory and the sheet --------------------------------------------------------------------


def test_dw_m55_carrying_capacity_and_encumbrance():
    assert carrying_capacity(1) == 10 and carrying_capacity(3) == 16
    c = character(Attribute.STR, score=0)
    inventory = c.inventory
    for n in range(7):
        inventory = stow(inventory, Item(name=f"rock {n}"))
    c = c.model_copy(update={"inventory": inventory})
    assert not c.encumbered
    c = c.model_copy(update={"inventory": stow(c.inventory, Item(name="rock 7"))})
    assert c.encumbered


def test_dw_m56_places_hold_their_slots_awkward_items_take_more():
    c = character()
    inventory = stow(c.inventory, Item(name="ladder", awkward=("oversized",)), PlaceKind.BAG)
    assert inventory.place(PlaceKind.BAG).used == 2
    with pytest.raises(ValueError, match="no room"):
        stow(inventory, Item(name="sack", slots=3), PlaceKind.BAG)
    chalk = stow(inventory, Item(name="chalk", slots=0))
    assert chalk.loose[0].name == "chalk" and chalk.slots_carried == inventory.slots_carried
    water = stow(inventory, Item(name="water", liquid=True))
    assert water.place(PlaceKind.CANTEEN).items[0].name == "water"
    assert water.slots_carried == inventory.slots_carried  # DW-A33: liquids do not count


def test_an_overfull_or_impossible_sheet_is_refused_with_a_reason():
    good = character(skills=[Skill.COOKING])
    with pytest.raises(SheetError, match="replaces"):
        revise(good, skills=[Skill.COOKING, Skill.MASTER_CHEF])
    with pytest.raises(SheetError, match="only a magic user"):
        revise(good, magic={"spells_known": ["Bolt"]})
    with pytest.raises(SheetError, match="listed twice"):
        revise(good, afflictions=[Affliction.ANGRY, Affliction.ANGRY])
    overfull = good.inventory.model_dump()
    overfull["places"][0]["items"] = [{"name": "a"}, {"name": "b"}]
    with pytest.raises(SheetError, match="holds 1 slots"):
        revise(good, inventory=overfull)
    with pytest.raises(SheetError, match="broken arm"):
        c = character(traumas=[Trauma.BROKEN_ARM])
        inventory = stow(
            stow(c.inventory, Item(name="a"), PlaceKind.LEFT_HAND),
            Item(name="b"),
            PlaceKind.RIGHT_HAND,
        )
        revise(c, inventory=inventory)


def test_a_sheet_round_trips_through_json():
    c = character(Attribute.DEX, score=3, proficiency=1, fatigue=1, skills=[Skill.STALKER])
    c = c.model_copy(update={"inventory": stow(c.inventory, Item(name="rope"))})
    again = sheet_from(json.loads(c.model_dump_json()))
    assert again == c
    assert isinstance(again, Character)
    with pytest.raises(SheetError):
        sheet_from({"attributes": {"LUCK": {}}})
