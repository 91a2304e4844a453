"""The body: fatigue overflow (DW-A13), placing wounds (DW-T13, DW-A14), fainting, mortal
wounds (DW-M47), enemies (DW-T15), armour (DW-M40), healing blocks, and the invariant that
fatigue and wounds never exceed the score."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.dice import FixedDice
from tabletop.systems.dead_weight import (
    Affliction,
    ArmourPart,
    Attribute,
    Character,
    DeadWeightError,
    Item,
    Npc,
    Options,
    Outcome,
    PendingKind,
    PlaceKind,
    Quirk,
    QuirkRule,
    SheetError,
    Skill,
    Trait,
    Trauma,
    WoundPlacement,
    combat_turn_ends,
    heal_wounds,
    mortally_wound,
    pass_fainted_turn,
    receive_fatigue,
    receive_wounds,
    recover_fatigue,
    resolve_pending,
    stabilise,
    stow,
    try_to_wake,
    wound_npc,
)
from tabletop.systems.dead_weight.armour import (
    armour_roll,
    camp_repair,
    defend,
    hardened_test,
    wounds_after_hardened,
)
from tabletop.systems.dead_weight.attribute_test import throw_test
from tests.systems.dead_weight.helpers import character

STR, DEX, INT, PRE = Attribute.STR, Attribute.DEX, Attribute.INT, Attribute.PRE


def full_of_wounds(**fields) -> Character:
    """Every attribute at score 1 with a wound: no attribute can hold another."""
    wounded = {a.value: {"score": 1, "wounds": 1} for a in Attribute}
    return Character.model_validate({"attributes": wounded, **fields})


def test_dw_m32_fatigue_fills_then_converts_then_faints():
    c = character(STR, score=2)
    c, _ = receive_fatigue(c, STR, 2)
    assert str(c.attribute(STR)) == "2/0 F2 W0"
    c, events = receive_fatigue(c, STR)
    assert str(c.attribute(STR)) == "2/0 F1 W1" and events[0].kind == "fatigue to wound"
    c, _ = receive_fatigue(c, STR)
    assert str(c.attribute(STR)) == "2/0 F0 W2"
    c, events = receive_fatigue(c, STR)
    assert c.condition.fainted and c.condition.faint_turns == 1
    assert str(c.attribute(STR)) == "2/0 F0 W2"


def test_plagued_fatigue_arrives_as_a_wound():
    c = character(STR, score=2, afflictions=[Affliction.PLAGUED])
    c, _ = receive_fatigue(c, STR)
    assert str(c.attribute(STR)) == "2/0 F0 W1"


def test_dw_t13_zael_places_two_wounds_converting_fatigue():
    zael = character(PRE, score=3, fatigue=2)
    convert = WoundPlacement(attribute=PRE, convert=True)
    zael, _ = receive_wounds(zael, 2, [convert, convert], FixedDice([]))
    assert str(zael.attribute(PRE)) == "3/0 F0 W2" and zael.attribute(PRE).available == 1


def test_dw_t13_a_full_attribute_must_convert():
    c = character(PRE, score=3, fatigue=2)
    add = WoundPlacement(attribute=PRE)
    c, _ = receive_wounds(c, 1, [add], FixedDice([]))
    assert str(c.attribute(PRE)) == "3/0 F2 W1"
    with pytest.raises(DeadWeightError, match="must turn a fatigue"):
        receive_wounds(c, 1, [add], FixedDice([]))
    c, _ = receive_wounds(c, 1, [WoundPlacement(attribute=PRE, convert=True)], FixedDice([]))
    assert str(c.attribute(PRE)) == "3/0 F1 W2"


def test_a_bad_placement_changes_nothing():
    c = character(PRE, score=2, wounds=2)
    with pytest.raises(DeadWeightError, match="cannot hold"):
        receive_wounds(c, 1, [WoundPlacement(attribute=PRE)], FixedDice([]))
    with pytest.raises(DeadWeightError, match="more wound"):
        receive_wounds(c, 2, [WoundPlacement(attribute=STR)], FixedDice([]))
    assert c.attribute(PRE).wounds == 2


def test_dw_m44_a_wound_nobody_can_hold_mortally_wounds():
    c = full_of_wounds()
    c, events = receive_wounds(c, 1, [], FixedDice([4]))
    assert c.condition.mortally_wounded and c.expedition.mortal_wounds == 1
    assert Trauma.BRAIN_DAMAGE in c.traumas
    assert [e.kind for e in events][:2] == ["mortal wound roll", "mortally wounded"]
    assert events[0].text.endswith("'s mortal wound, 1d6: 4: Internal bleeding")  # DW-T06, v6


def test_dw_a15_more_of_the_same_blow_is_discarded_but_a_later_blow_kills():
    c, events = receive_wounds(full_of_wounds(), 3, [], FixedDice([5]))
    assert c.condition.mortally_wounded and not c.condition.dead
    assert any(e.kind == "discarded" for e in events)
    dead, _ = receive_wounds(c, 1, [], FixedDice([]))
    assert dead.condition.dead


def test_dw_a15_the_kill_reading():
    c, _ = receive_wounds(
        full_of_wounds(), 2, [], FixedDice([5]), options=Options(mortal_excess_same_instance="kill")
    )
    assert c.condition.dead


def test_dw_m44_non_lethal_wounds_knock_out_instead():
    c, _ = receive_wounds(full_of_wounds(), 2, [], FixedDice([]), lethal=False)
    assert c.condition.fainted and c.condition.faint_turns == 2
    assert not c.condition.mortally_wounded


@pytest.mark.parametrize(
    ("face", "earlier", "check"),
    [
        (1, 0, lambda c: c.condition.fainted and not c.condition.mortally_wounded),
        (2, 0, lambda c: Trauma.CHRONIC_PAIN in c.traumas),
        (5, 0, lambda c: Trauma.VISIONS in c.traumas),
        (6, 0, lambda c: c.condition.verge_of_death),
        (6, 1, lambda c: c.condition.dead),
        (1, 6, lambda c: c.condition.dead),
    ],
)
def test_dw_m47_dw_a18_mortal_wound_rows_with_earlier_mortal_wounds(face, earlier, check):
    c = full_of_wounds(expedition={"mortal_wounds": earlier})
    c, _ = mortally_wound(c, FixedDice([face]))
    assert check(c)


def test_mortal_row_zero_spares_the_character():
    c, _events = mortally_wound(full_of_wounds(), FixedDice([1]), modifier=-1)
    assert c.condition.can_act and c.expedition.mortal_wounds == 0


def test_mortal_row_three_asks_for_a_trauma_then_chronic_pain_asks_for_a_score():
    c, _ = mortally_wound(full_of_wounds(), FixedDice([3]))
    assert c.pending[0].kind == PendingKind.CHOOSE_TRAUMA
    c, _ = resolve_pending(c, "chronic pain")
    assert c.pending[0].kind == PendingKind.LOWER_SCORE
    with pytest.raises(DeadWeightError):
        resolve_pending(c, "LUCK")
    c, _ = resolve_pending(c, "DEX")
    assert str(c.attribute(DEX)) == "0/0 F0 W0" and not c.pending


def test_a_trauma_already_held_is_ignored():
    c = full_of_wounds(traumas=[Trauma.VISIONS])
    c, events = mortally_wound(c, FixedDice([5]))
    assert c.traumas == (Trauma.VISIONS,) and any(e.kind == "trauma ignored" for e in events)


def test_dw_a37_rejected_by_death_faints_instead():
    c = full_of_wounds(traits=[Trait.REJECTED_BY_DEATH])
    spared, _events = mortally_wound(c, FixedDice([1, 4]))
    assert spared.condition.fainted and not spared.condition.mortally_wounded
    doomed, _ = mortally_wound(c, FixedDice([3, 4, 6]))
    assert doomed.condition.mortally_wounded


def test_dw_m46_the_rest_of_a_blow_counts_towards_a_knock_out():
    """§ Fainting, § Mortal Wounds row 1 (docs/rules DW-X06, DW-A16): three wounds that no
    attribute can hold, and the mortal roll reads "knocked out" (a 1): the first point is
    the knock-out and the other two are discarded too, so the faint lasts three turns."""
    knocked, events = receive_wounds(full_of_wounds(), 3, [], FixedDice([1]))
    assert knocked.condition.fainted and not knocked.condition.mortally_wounded
    assert knocked.condition.faint_turns == 3
    assert knocked.expedition.mortal_wounds == 1
    assert events[-1].data["discarded"] == 2


def test_dw_a37_the_rest_of_a_blow_death_rejects_counts_towards_the_faint():
    """§ Special Traits (Rejected by death), § Fainting (docs/rules DW-A37, DW-A16): the 2d!
    triggers on the first point nobody can hold; that point and the rest of the blow are
    discarded, and the faint lasts as many turns as points were discarded."""
    rejected = full_of_wounds(traits=[Trait.REJECTED_BY_DEATH])
    fainted, _ = receive_wounds(rejected, 2, [], FixedDice([1, 5]))
    assert fainted.condition.fainted and not fainted.condition.mortally_wounded
    assert fainted.condition.faint_turns == 2


def test_dw_x06_mortal_row_zero_discards_the_rest_of_the_blow():
    """§ Mortal Wounds row 0 (docs/rules DW-X06): the character stands their ground; the
    other points of the same blow are discarded and nothing else happens."""
    spared, events = receive_wounds(full_of_wounds(), 2, [], FixedDice([1]), mortal_modifier=-1)
    assert spared.condition.can_act and spared.condition.faint_turns == 0
    assert events[-1].kind == "discarded" and events[-1].data["discarded"] == 1


def test_dw_m46_dw_a17_fainting_then_waking_on_the_risk_die():
    c, _ = receive_fatigue(character(INT, score=0), INT)
    assert c.condition.faint_turns == 1
    with pytest.raises(DeadWeightError, match="wait"):
        try_to_wake(c, FixedDice([1]))
    c, _ = pass_fainted_turn(c)
    still, _ = try_to_wake(c, FixedDice([3]))
    assert still.condition.fainted
    awake, _ = try_to_wake(c, FixedDice([1]))
    assert awake.condition.can_act
    other, _ = try_to_wake(c, FixedDice([3]), Options(wake_on="risk_not_triggered"))
    assert other.condition.can_act


def test_dw_a38_stabilising_waits_for_the_end_of_combat_except_on_the_verge():
    hurt, _ = mortally_wound(full_of_wounds(), FixedDice([4]))
    with pytest.raises(DeadWeightError, match="combat is over"):
        stabilise(hurt, "first aid kit", in_combat=True)
    saved, _ = stabilise(hurt, "medical supply", in_combat=False)
    assert saved.condition.can_act
    verge, _ = mortally_wound(full_of_wounds(), FixedDice([6]))
    saved, _ = stabilise(verge, "healing spell", in_combat=True)
    assert saved.condition.can_act
    gone, _ = combat_turn_ends(verge)
    assert gone.condition.dead


def test_dw_t15_an_enemy_dies_past_its_wound_count():
    ghoul = Npc(name="Ghoul", level=2, wound_limit=3)
    ghoul, _ = wound_npc(ghoul, 3)
    assert not ghoul.dead
    ghoul, events = wound_npc(ghoul, 1)
    assert ghoul.dead and events[-1].kind == "npc died"


def test_healing_is_blocked_by_hunger_thirst_and_curses():
    hungry = character(STR, score=2, wounds=1, fatigue=1, afflictions=[Affliction.HUNGRY])
    with pytest.raises(DeadWeightError, match="hungry"):
        heal_wounds(hungry, STR)
    recovered, _ = recover_fatigue(hungry, STR)
    assert recovered.attribute(STR).fatigue == 0
    parched = character(STR, score=2, fatigue=1, afflictions=[Affliction.PARCHED])
    with pytest.raises(DeadWeightError, match="parched"):
        recover_fatigue(parched, STR)
    cursed = character(STR, score=2, wounds=1, afflictions=[Affliction.CURSED])
    with pytest.raises(DeadWeightError, match="cursed"):
        heal_wounds(cursed, STR, by_resting=True)
    healed, _ = heal_wounds(cursed, STR)
    assert healed.attribute(STR).wounds == 0


def test_a_wound_in_combat_ends_sleepy():
    sleepy = character(STR, score=2, afflictions=[Affliction.SLEEPY])
    after, _ = receive_wounds(
        sleepy, 1, [WoundPlacement(attribute=STR)], FixedDice([]), in_combat=True
    )
    assert not after.has(Affliction.SLEEPY)


def test_a_wound_in_combat_does_not_wake_a_coffee_addict_without_coffee():
    """§ 5. Roll your features, quirk 6 (coffee addict) and § Afflictions (Sleepy): the
    addict shakes off Sleepy only after a coffee this expedition, whatever the remedy, so
    a wound taken in combat leaves them sleepy until they have had one."""
    addict = Quirk(name="Coffee addict", rule=QuirkRule.COFFEE_ADDICT)
    sleepy = character(STR, score=3, afflictions=[Affliction.SLEEPY], quirks=[addict])
    after, events = receive_wounds(
        sleepy, 1, [WoundPlacement(attribute=STR)], FixedDice([]), in_combat=True
    )
    assert after.has(Affliction.SLEEPY) and after.attribute(STR).wounds == 1
    assert any("coffee" in e.text for e in events)
    had_coffee = sleepy.model_copy(
        update={"expedition": sleepy.expedition.model_copy(update={"had_coffee": True})}
    )
    after, _ = receive_wounds(
        had_coffee, 1, [WoundPlacement(attribute=STR)], FixedDice([]), in_combat=True
    )
    assert not after.has(Affliction.SLEEPY)


# armour -----------------------------------------------------------------------------------


def test_dw_m40_zael_blocks_one_wound_and_damages_his_armour():
    """Two wounds against 2 AP rolling [1, 6]: one stopped, one armour point lost."""
    result = armour_roll(2, ArmourPart(points=2, maximum=2), FixedDice([1, 6]))
    assert (result.blocked, result.damage, result.wounds_after) == (1, 1, 1)
    assert result.part.points == 1


def test_a_four_both_blocks_and_damages_and_fewer_dice_may_be_rolled():
    result = armour_roll(1, ArmourPart(points=3, maximum=3), FixedDice([4]), count=1)
    assert (result.blocked, result.damage, result.wounds_after) == (1, 1, 0)
    with pytest.raises(DeadWeightError):
        armour_roll(1, ArmourPart(points=1, maximum=1), FixedDice([4, 4]), count=2)


def test_dw_m41_worn_multi_part_armour_defends_with_one_part():
    coat = Item(
        name="scale coat",
        armour=(ArmourPart(points=2, maximum=2), ArmourPart(points=2, maximum=2)),
    )
    c = character(STR, score=3)
    c = c.model_copy(update={"inventory": stow(c.inventory, coat, PlaceKind.TORSO)})
    c, through, _ = defend(c, 2, "scale coat", FixedDice([4, 5]), part=1)
    assert through == 0
    parts = next(i for i in c.inventory.items() if i.name == "scale coat").armour
    assert [p.points for p in parts] == [2, 1]
    with pytest.raises(DeadWeightError, match="wears no armour"):
        defend(c, 2, "helmet", FixedDice([4]))


def test_dw_m51_crafting_repairs_two_armour_points_in_camp():
    """§ Armor (a lost point stays lost until repaired) and § Skills (Crafting: two points
    repaired in the camp phase): the points go back part by part, never past a part's
    maximum, and only a crafter repairs this way."""
    coat = Item(
        name="scale coat",
        armour=(ArmourPart(points=0, maximum=2), ArmourPart(points=1, maximum=2)),
    )
    wearer = character(STR, score=3)
    wearer = wearer.model_copy(update={"inventory": stow(wearer.inventory, coat, PlaceKind.TORSO)})
    crafter = character(STR, score=2, skills=[Skill.CRAFTING])
    repaired, events = camp_repair(crafter, wearer, "scale coat")
    parts = next(i for i in repaired.inventory.items() if i.name == "scale coat").armour
    assert [p.points for p in parts] == [2, 1] and events[0].data["repaired"] == 2
    again, _ = camp_repair(crafter, repaired, "scale coat")
    parts = next(i for i in again.inventory.items() if i.name == "scale coat").armour
    assert [p.points for p in parts] == [2, 2]
    with pytest.raises(DeadWeightError, match="crafting"):
        camp_repair(wearer, wearer, "scale coat")
    with pytest.raises(DeadWeightError, match="wears no armour"):
        camp_repair(crafter, wearer, "helmet")


def test_dw_a35_hardened_after_armour_resists_by_its_test():
    tough = character(STR, score=2, traits=[Trait.HARDENED])
    announced, _ = hardened_test(tough, 2)
    test, _ = throw_test(announced, FixedDice([6, 6]))
    assert test.verdict == Outcome.GREAT_SUCCESS
    assert wounds_after_hardened(2, test) == 0
    test, _ = throw_test(announced, FixedDice([5, 2]))
    assert wounds_after_hardened(2, test) == 1
    with pytest.raises(DeadWeightError):
        hardened_test(tough, 0)


# invariants ------------------------------------------------------------------------------


@given(
    score=st.integers(0, 4),
    steps=st.lists(st.tuples(st.sampled_from(["fatigue", "wound"]), st.booleans()), max_size=12),
)
def test_fatigue_and_wounds_never_exceed_the_score(score, steps):
    """Any mix of fatigue and forced wounds keeps the sheet legal (DW-A14)."""
    from tabletop.systems.dead_weight import wound_attribute

    c = character(DEX, score=score)
    for kind, plagued in steps:
        if plagued and not c.has(Affliction.PLAGUED):
            c = c.model_copy(update={"afflictions": (*c.afflictions, Affliction.PLAGUED)})
        if kind == "fatigue":
            c, _ = receive_fatigue(c, DEX)
        else:
            c, _ = wound_attribute(c, DEX, 1, "a test")
        state = c.attribute(DEX)
        assert 0 <= state.fatigue + state.wounds <= state.score
        assert state.available >= 0


def test_an_impossible_sheet_is_refused_with_a_reason():
    with pytest.raises(SheetError, match="exceed the score"):
        from tabletop.systems.dead_weight import sheet_from

        sheet_from({"attributes": {"STR": {"score": 1, "fatigue": 1, "wounds": 1}}})
