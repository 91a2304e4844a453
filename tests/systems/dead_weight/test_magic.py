"""Spells and prayers (§ Spells, § Prayers): the after-effect INT test, mishaps (DW-T17),
the arcane well, conductors and grimoires, prayers, miracles, the angry god and the plea."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.systems.dead_weight import (
    Affliction,
    Attribute,
    Character,
    DeadWeightError,
    Item,
    ItemTag,
    Options,
    Outcome,
    Pass,
    PlaceKind,
    Reroll,
    Resource,
    Trait,
    Trauma,
    stow,
)
from tabletop.systems.dead_weight.magic import (
    begin_expedition,
    cast_spell,
    create_food_and_water,
    cure_light_wounds,
    make_sacrifice,
    pray,
    see_spell_cast,
    study,
)
from tabletop.systems.dead_weight.rest import rest_at_camp
from tests.systems.dead_weight.helpers import character

WAND = Item(name="wand", tags=(ItemTag.CONDUCTOR,))
TOME = Item(name="old tome", tags=(ItemTag.GRIMOIRE,))
TALISMAN = Item(name="talisman", tags=(ItemTag.HOLY_SYMBOL,))


def wizard(
    *items: Item, mishaps: int = 0, score: int = 2, proficiency: int = 0, **fields
) -> Character:
    c = character(
        Attribute.INT,
        score=score,
        proficiency=proficiency,
        traits=[Trait.MAGIC_USER],
        magic={"spells_known": ["Bolt", "Ward"], "spells_memorised": ["Bolt"], "mishaps": mishaps},
        **fields,
    )
    inventory = c.inventory
    for item in items:
        inventory = stow(inventory, item)
    return c.model_copy(update={"inventory": inventory})


def cleric(*items: Item, **magic) -> Character:
    c = character(
        Attribute.PRE,
        score=2,
        traits=[Trait.DIVINE_MANDATE],
        magic={
            "prayers_known": ["Light", "Cure Light Wounds"],
            "prayers_memorised": ["Light"],
            **magic,
        },
    )
    inventory = c.inventory
    for item in items:
        inventory = stow(inventory, item)
    return c.model_copy(update={"inventory": inventory})


def test_dw_t17_a_critical_failure_forgets_and_rolls_a_mishap_with_earlier_ones_added():
    """[1, 3] on the INT test, 2 earlier mishaps: 3d6 [6, 6, 5] + 2 = 19 reads row 18."""
    casting, events = cast_spell(wizard(WAND, mishaps=2), "Bolt", FixedDice([1, 3, 6, 6, 5]))
    assert casting.finished and casting.result == Outcome.CRITICAL_FAILURE
    c = casting.caster
    assert c.attribute(Attribute.INT).fatigue == 1
    assert "Bolt" in c.magic.spells_forgotten and "Bolt" not in c.magic.spells_memorised
    assert c.magic.mishaps == 3
    rolled = next(e for e in events if e.kind == "mishap").text  # DW-T06, rules version 6
    assert rolled.endswith("'s mishap, 3d6: 6, 6 and 5 = 17 + 2 = 19: Endless horror")
    summon = next(e for e in events if e.kind == "summon")
    assert summon.data == {"creature": "endless horror", "range": "nearby"}


def test_dw_t17_without_a_conductor_a_failure_is_critical():
    casting, events = cast_spell(wizard(), "Bolt", FixedDice([3, 2, 1, 1, 1]))
    c = casting.caster
    assert casting.result == Outcome.CRITICAL_FAILURE
    assert c.has(Affliction.NAUSEATED)
    assert c.attribute(Attribute.INT).fatigue == 1  # the mishap's point; the test cost none
    assert any(e.kind == "no conductor" for e in events)


def test_dw_x18_a_failure_made_critical_by_no_conductor_brings_bad_omens():
    """§ Spells (without a conductor every failure is critical) and § Special
    Traits (Bad omens) (docs/rules DW-X18): the counted critical failure advances the omens
    tracker like a rolled one, once."""
    omens = (Trait.MAGIC_USER, Trait.BAD_OMENS)
    ominous = wizard().model_copy(update={"traits": omens})
    casting, events = cast_spell(ominous, "Bolt", FixedDice([3, 2, 1, 1, 1]))
    assert casting.result == Outcome.CRITICAL_FAILURE
    assert [e.data.get("tracker") for e in events if e.kind == "omens"] == ["omens"]
    with_wand = wizard(WAND).model_copy(update={"traits": omens})
    rolled, events = cast_spell(with_wand, "Bolt", FixedDice([1, 3, 1, 1, 1]))
    assert rolled.result == Outcome.CRITICAL_FAILURE
    assert [e.kind for e in events].count("omens") == 1


def test_dw_a19_the_option_to_keep_the_spell_on_a_critical_failure():
    casting, _ = cast_spell(
        wizard(WAND), "Bolt", FixedDice([1, 3, 2, 1, 1]), Options(spell_critical_forgets=False)
    )
    assert casting.result == Outcome.CRITICAL_FAILURE
    assert "Bolt" in casting.caster.magic.spells_memorised


def test_a_success_costs_nothing_and_a_failure_forgets():
    ok, _ = cast_spell(wizard(WAND), "Bolt", FixedDice([5, 3]))
    assert ok.result == Outcome.SUCCESS and ok.caster.magic.spells_memorised == ("Bolt",)
    failed, _ = cast_spell(wizard(WAND), "Bolt", FixedDice([2, 3]))
    assert failed.result == Outcome.FAILURE and failed.caster.magic.spells_forgotten == ("Bolt",)


def test_dw_a20_a_great_success_makes_the_next_spell_automatic():
    great, _ = cast_spell(wizard(WAND), "Bolt", FixedDice([6, 6]))
    assert great.caster.magic.arcane_well
    again, _events = cast_spell(great.caster, "Bolt", FixedDice([]))
    assert again.automatic and again.result == Outcome.SUCCESS
    assert not again.caster.magic.arcane_well


def test_a_fainted_caster_cannot_spend_the_arcane_well_or_plead_untested():
    """§ Fainting: a fainted character takes no actions, so neither a spell from an arcane
    well (no test to refuse it) nor a plea prayed without a test may be made."""
    fainted = {"fainted": True, "faint_turns": 1}
    well = wizard(WAND)
    well = well.model_copy(
        update={
            "magic": well.magic.model_copy(update={"arcane_well": True}),
            "condition": well.condition.model_copy(update=fainted),
        }
    )
    with pytest.raises(DeadWeightError, match="cannot act"):
        cast_spell(well, "Bolt", FixedDice([]))
    out_cold = cleric(TALISMAN, prayers_exhausted=["Light"]).model_copy(
        update={"condition": well.condition}
    )
    with pytest.raises(DeadWeightError, match="cannot act"):
        pray(
            out_cold,
            "Light",
            FixedDice([]),
            desperate_plea=True,
            options=Options(desperate_plea_needs_test=False),
        )


def test_the_casting_test_is_interactive():
    casting, _ = cast_spell(wizard(WAND, proficiency=1), "Bolt", FixedDice([1, 3]))
    assert not casting.finished and casting.choices()
    casting, _ = casting.choose(Reroll(resource=Resource.PROFICIENCY, die=0), FixedDice([5]))
    assert casting.finished and casting.result == Outcome.SUCCESS


def test_mishap_twelve_wounds_every_attribute_and_bleeds():
    casting, _ = cast_spell(wizard(WAND), "Bolt", FixedDice([1, 2, 4, 4, 4]))
    c = casting.caster
    assert all(c.attribute(a).wounds == 1 for a in Attribute)
    assert c.has(Affliction.BLEEDING)


def test_mishap_thirteen_destroys_the_conductor():
    casting, _ = cast_spell(wizard(WAND, TOME), "Bolt", FixedDice([1, 2, 4, 4, 5]))
    assert not casting.caster.has_conductor and casting.caster.has_grimoire


def test_only_a_magic_user_casts_only_memorised_spells():
    with pytest.raises(DeadWeightError, match="memorised"):
        cast_spell(wizard(WAND), "Ward", FixedDice([5, 5]))
    with pytest.raises(DeadWeightError, match="magic user"):
        cast_spell(character(), "Bolt", FixedDice([5]))


def test_dw_m16_memorising_and_studying_back_with_a_grimoire():
    forgotten, _ = cast_spell(wizard(WAND, TOME), "Bolt", FixedDice([2, 3]))
    c = forgotten.caster
    with pytest.raises(DeadWeightError, match="studied"):
        begin_expedition(c, spells=["Bolt"])
    c, _ = study(c, "Bolt")
    assert c.magic.spells_memorised == ("Bolt",)
    with pytest.raises(Exception, match="INT score"):
        begin_expedition(
            c.model_copy(
                update={
                    "attributes": c.attributes.with_(
                        Attribute.INT, c.attribute(Attribute.INT).model_copy(update={"score": 1})
                    )
                }
            ),
            spells=["Bolt", "Ward"],
        )
    no_book, _ = cast_spell(wizard(WAND), "Bolt", FixedDice([2, 3]))
    with pytest.raises(DeadWeightError, match="grimoire"):
        study(no_book.caster, "Bolt")


def test_visions_give_a_stun_token_when_a_spell_is_cast_nearby():
    seer = character(traumas=[Trauma.VISIONS])
    seer, _ = see_spell_cast(seer)
    assert seer.tokens.stun == 1


def test_dw_m22_an_answered_prayer_is_exhausted_an_ignored_one_is_not():
    answered, _ = pray(cleric(TALISMAN), "Light", FixedDice([5, 2]))
    assert answered.result == Outcome.SUCCESS
    assert answered.caster.magic.prayers_exhausted == ("Light",)
    ignored, _ = pray(cleric(TALISMAN), "Light", FixedDice([2, 3]))
    assert ignored.caster.magic.prayers_exhausted == ()
    with pytest.raises(DeadWeightError, match="exhausted"):
        pray(answered.caster, "Light", FixedDice([5, 5]))


def test_a_critical_failure_angers_the_god_until_a_sacrifice():
    angered, _ = pray(cleric(TALISMAN), "Light", FixedDice([1, 2]))
    c = angered.caster
    assert c.magic.god_angry and c.magic.prayers_exhausted == ()
    with pytest.raises(DeadWeightError, match="angry"):
        pray(c, "Light", FixedDice([5, 5]))
    calm, _ = make_sacrifice(c)
    assert not calm.magic.god_angry


def test_dw_a21_a_miracle_three_readies_even_the_prayer_just_used():
    blessed, events = pray(cleric(TALISMAN), "Light", FixedDice([6, 6, 3]))
    assert blessed.result == Outcome.GREAT_SUCCESS
    assert blessed.caster.magic.prayers_exhausted == ()
    told = next(e for e in events if e.kind == "miracle").text  # DW-T06, rules version 6
    assert told.endswith("'s miracle, 1d6: 3: Renewal")


def test_a_miracle_of_healing_reports_its_rolled_amount():
    _, events = pray(cleric(TALISMAN), "Light", FixedDice([6, 6, 1, 4]))
    healing = next(e for e in events if e.kind == "miracle healing")
    assert healing.data["amount"] == 4


def test_dw_a22_the_desperate_plea_once_per_expedition():
    used, _ = pray(cleric(TALISMAN), "Light", FixedDice([5, 2]))
    plea, _ = pray(used.caster, "Light", FixedDice([5, 2]), desperate_plea=True)
    assert plea.result == Outcome.SUCCESS and plea.caster.magic.desperate_plea_used
    with pytest.raises(DeadWeightError, match="spent"):
        pray(plea.caster, "Light", FixedDice([5, 2]), desperate_plea=True)
    free, _ = pray(
        used.caster,
        "Light",
        FixedDice([]),
        desperate_plea=True,
        options=Options(desperate_plea_needs_test=False),
    )
    assert free.result == Outcome.SUCCESS


def test_prayers_need_a_holy_symbol_and_rest_readies_them():
    with pytest.raises(DeadWeightError, match="holy symbol"):
        pray(cleric(), "Light", FixedDice([5, 5]))
    used, _ = pray(cleric(TALISMAN, prayers_exhausted=[]), "Light", FixedDice([5, 2]))
    rested, _ = rest_at_camp(used.caster)
    assert rested.magic.prayers_exhausted == ()


def test_the_praying_test_is_interactive():
    c = cleric(TALISMAN)
    c = c.model_copy(
        update={
            "attributes": c.attributes.with_(
                Attribute.PRE, c.attribute(Attribute.PRE).model_copy(update={"proficiency": 1})
            )
        }
    )
    praying, _ = pray(c, "Light", FixedDice([1, 2]))
    assert not praying.finished
    praying, _ = praying.choose(Pass(), FixedDice([]))
    assert praying.result == Outcome.CRITICAL_FAILURE


def test_dw_m24_basic_prayers():
    hurt = character(Attribute.STR, score=3, wounds=2, afflictions=[Affliction.BLEEDING])
    healed, _ = cure_light_wounds(hurt, [Attribute.STR, Attribute.STR])
    assert healed.attribute(Attribute.STR).wounds == 0 and not healed.has(Affliction.BLEEDING)
    fed, _ = create_food_and_water(character())
    names = [i.name for i in fed.inventory.items()]
    assert "ration" in names and "water" in fed.inventory.place(PlaceKind.CANTEEN).items[0].name
