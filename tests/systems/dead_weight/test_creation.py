"""Character creation: the life path with its clamps (DW-T19), insight and the party's free
re-roll, classes and kits, supplements, and random characters that are always legal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice, SeededDice
from tabletop.systems.dead_weight import (
    Attribute,
    Character,
    CharacterClass,
    DeadWeightError,
    ItemTag,
    LifePath,
    Options,
    Quirk,
    QuirkRule,
    Skill,
    Trait,
)
from tabletop.systems.dead_weight.creation import (
    Creation,
    Keep,
    Pick,
    PickAttribute,
    PickNames,
    RerollDice,
    Skip,
    Stage,
    begin_creation,
    gain_skill,
    give_camping_supply,
    learn_skill,
    random_character,
    unveil_true_past,
)
from tabletop.systems.dead_weight.supplements import Supplement, load_supplement
from tests.effort import tried
from tests.systems.dead_weight.helpers import character


def keep(creation, faces=()):
    return creation.choose(Keep(), FixedDice(faces))


def through_the_life_path(**kwargs):
    """Clergy Bastard, Watchman, night pleasures, Fear of loss... up to the quirk (or the
    class when the quirk is rolled): no row here rolls silver."""
    creation, _ = begin_creation(FixedDice([3, 3, 4]), **kwargs)
    for faces in ([3, 3, 3], [3, 3, 4], [1, 2]):
        creation, _ = keep(creation, faces)
    if kwargs.get("allow_choosing_quirk"):
        creation, _ = keep(creation)
        return creation
    creation, _ = keep(creation, [3, 3, 3, 3])
    creation, _ = keep(creation)
    return creation


def test_dw_t19_clamps_apply_after_each_effect_and_duplicates_do_nothing():
    """Occultist's Apprentice (INT 3), Occultist (+1 INT ignored, prof 1, occult studies
    again: nothing), Nothing else to lose (INT 3 - 2 = 1), wizard: INT 1/2."""
    creation, _ = begin_creation(FixedDice([1, 1, 3]), character_class=CharacterClass.WIZARD)
    creation, _ = keep(creation, [4, 6, 6, 5])  # silver 1d6, then the career roll
    creation, _ = keep(creation, [2, 3, 3])  # the tragedy roll
    creation, _ = keep(creation, [1, 1])  # the burden roll
    creation, _ = keep(creation, [1, 1, 1, 1])  # the quirk roll
    creation, _ = keep(creation)  # the quirk: loud snore
    assert creation.stage == Stage.SCHOOL
    creation, _ = creation.choose(Pick(name="Necromancers of Yadar"), FixedDice([]))
    decision = creation.decision()
    assert decision.count == 1 and decision.free_names
    creation, _events = creation.choose(
        PickNames(names=("Dark bolt",)), FixedDice([2, 2, 3, 4, 4, 4, 4, 4])
    )
    c = creation.character
    assert creation.done
    assert [str(c.attribute(a)) for a in Attribute] == [
        "1/1 F0 W0",
        "1/0 F0 W0",
        "1/2 F0 W0",
        "2/0 F0 W0",
    ]
    assert c.skills == (Skill.LOREMASTER, Skill.OCCULT_STUDIES)
    assert c.traits == (Trait.MAGIC_USER,)
    assert c.magic.spells_known == ("Dark bolt",)
    assert c.silver == 4 + 4  # infancy 1d6 and the school's 2d6
    assert c.quirks[0].rule == QuirkRule.LOUD_SNORE
    assert c.has_conductor and c.has_grimoire
    assert sum(1 for item in c.inventory.items() if item.name == "torch") == 3
    assert not c.inventory.has(ItemTag.CAMPING_SUPPLY) and not c.inventory.has(ItemTag.BANDAGE)


def test_dw_t19_the_second_case_strength_stays_at_the_limits():
    """Battleborn (STR 3), Deserter Knight (STR stays 3, prof 1), Enslaved (prof 2, DEX 0),
    warrior: the class's +1 STR proficiency is ignored."""
    creation, _ = begin_creation(FixedDice([2, 2, 3]), character_class=CharacterClass.WARRIOR)
    creation, _ = keep(creation, [1, 1, 1])  # career 3
    creation, _ = keep(creation, [4, 4, 5])  # tragedy 13
    creation, _ = keep(creation, [1, 1])
    creation, _ = keep(creation, [1, 1, 1, 1])
    creation, events = keep(creation)
    strength = creation.character.attribute(Attribute.STR)
    assert (strength.score, strength.proficiency) == (3, 2)
    assert creation.character.attribute(Attribute.DEX).score == 0
    assert any("ignored" in e.text for e in events)
    assert creation.stage == Stage.BACKGROUND


def test_dw_a02_insight_re_rolls_up_to_two_dice_and_the_new_faces_stand():
    creation, _ = begin_creation(FixedDice([1, 1, 3]))
    assert "reroll" in creation.decision().kinds
    with pytest.raises(DeadWeightError, match="one or two dice"):
        creation.choose(RerollDice(dice=(0, 1, 2)), FixedDice([6, 6, 6]))
    creation, _ = creation.choose(RerollDice(dice=(0, 1)), FixedDice([6, 6]))
    assert creation.dice == (6, 6, 3) and creation.character.insight == 0
    assert creation.decision().kinds == ("keep",)


def test_dw_a02_the_whole_roll_reading():
    creation, _ = begin_creation(FixedDice([1, 1, 3]), options=Options(insight_reroll="whole_roll"))
    creation, _ = creation.choose(RerollDice(), FixedDice([2, 2, 2]))
    assert creation.dice == (2, 2, 2)


def test_dw_m04_dw_a03_the_party_free_re_roll_once_for_a_shared_entry():
    party = (LifePath(infancy="Occultist's Apprentice"),)
    creation, _ = begin_creation(FixedDice([1, 1, 3]), party=party)
    assert "free re-roll" in creation.decision().prompt
    creation, _ = creation.choose(RerollDice(dice=(2,), free=True), FixedDice([3]))
    assert creation.dice == (1, 1, 3) and creation.character.insight == 1
    with pytest.raises(DeadWeightError, match="no free re-roll"):
        creation.choose(RerollDice(dice=(2,), free=True), FixedDice([3]))


def test_dw_a27_tragedy_nine_raises_the_lowest_score_chosen_on_a_tie():
    creation, _ = begin_creation(FixedDice([2, 2, 3]))  # Battleborn: STR 3
    creation, _ = keep(creation, [3, 3, 3])  # career 9: STR, DEX +1
    creation, _ = keep(creation, [3, 3, 3])  # tragedy 9: lowest gets +1 prof
    creation, _ = keep(creation)
    decision = creation.decision()
    assert decision.options == ("INT", "PRE")
    with pytest.raises(DeadWeightError):
        creation.choose(PickAttribute(attribute=Attribute.STR), FixedDice([]))
    creation, _ = creation.choose(PickAttribute(attribute=Attribute.PRE), FixedDice([1, 1]))
    pre = creation.character.attribute(Attribute.PRE)
    assert (pre.score, pre.proficiency) == (0, 1)


def test_quirks_can_be_chosen_when_the_gm_agrees_including_the_unrollable_row():
    creation = through_the_life_path(allow_choosing_quirk=True)
    assert creation.stage == Stage.QUIRK and "Unusual glasses" in creation.decision().options
    creation, _ = creation.choose(Pick(name="Unusual glasses"), FixedDice([]))
    assert creation.character.quirks[0].name == "Unusual glasses"
    assert creation.stage == Stage.CLASS


def test_dw_a01_a_rolled_twenty_is_the_second_nineteen():
    creation, _ = begin_creation(FixedDice([3, 3, 4]))
    for faces in ([3, 3, 3], [3, 3, 4], [3, 4], [5, 5, 5, 5]):
        creation, _ = keep(creation, faces)
    creation, _ = keep(creation)
    assert creation.character.quirks[0].name == "Very short"


def test_cleric_kit_b_prayers_and_a_supplied_god():
    supplement = Supplement.model_validate({"gods": {"Yulak": {"prayers": ["Smite"]}}})
    creation = through_the_life_path(character_class=CharacterClass.CLERIC, supplement=supplement)
    creation, _ = creation.choose(Pick(name="B"), FixedDice([]))
    assert creation.decision().options == ("Yulak",)
    creation, _ = creation.choose(Pick(name="Yulak"), FixedDice([]))
    decision = creation.decision()
    assert decision.options == ("Cure Light Wounds", "Light", "Create food and water", "Smite")
    count = creation.character.attribute(Attribute.PRE).score
    assert decision.count == count
    names = decision.options[:count]
    creation, _ = creation.choose(PickNames(names=names), FixedDice([3, 3, 3, 2, 2, 2, 2, 2, 2]))
    c = creation.character
    assert c.god == "Yulak" and c.magic.prayers_known == names
    flasks = next(i for i in c.inventory.items() if i.name == "flasks of holy water")
    assert flasks.usage == 6
    assert c.has_holy_symbol and Skill.WARD_THE_DEAD in c.skills


def test_a_supplied_background_grants_its_trait_gear_and_a_maneuver():
    supplement = Supplement.model_validate(
        {
            "backgrounds": {
                "Footman": {
                    "class": "warrior",
                    "traits": ["hardened"],
                    "maneuvers": ["Brace"],
                    "items": [{"name": "spear", "weapon": "STR 1P+2", "place": "right hand"}],
                }
            },
            "items": {"rope": {"slots": 2}},
        }
    )
    creation = through_the_life_path(character_class=CharacterClass.WARRIOR, supplement=supplement)
    assert Creation.model_validate_json(creation.model_dump_json()) == creation  # `class` alias
    creation, _ = creation.choose(Pick(name="Footman"), FixedDice([]))
    assert creation.decision().options == ("Brace",)
    creation, _ = creation.choose(Pick(name="Brace"), FixedDice([1, 2, 2, 2, 2, 2]))
    c = creation.character
    assert Trait.HARDENED in c.traits and c.maneuvers == ("Brace",)
    assert any(i.name == "spear" for i in c.inventory.items())


def test_a_background_without_supplied_content_is_recorded_as_missing():
    creation, _ = random_character(SeededDice(3), character_class=CharacterClass.THIEF)
    assert creation.character.background is not None
    assert any("not supplied" in line for line in creation.missing)


def test_skipping_what_is_not_supplied():
    creation = through_the_life_path(character_class=CharacterClass.WIZARD)
    creation, _ = creation.choose(Pick(name="The Awakened"), FixedDice([]))
    creation, _ = creation.choose(Skip(), FixedDice([2] * 7))
    assert creation.done and creation.character.magic.spells_known == ()
    assert "spells: skipped, to be written on the sheet" in creation.missing


def test_dw_m11_skills_upgrade_when_gained_twice():
    c = character(skills=[Skill.COOKING])
    upgraded, _ = gain_skill(c, Skill.COOKING)
    assert upgraded.skills == (Skill.MASTER_CHEF,)
    again, _events = gain_skill(upgraded, Skill.COOKING)
    assert again.skills == (Skill.MASTER_CHEF,)
    with pytest.raises(DeadWeightError, match="before"):
        learn_skill(character(), Skill.BEASTMASTER)
    shield, _ = gain_skill(character(), Skill.SHIELD_MASTER)  # DW-A28: from a table
    assert shield.skills == (Skill.SHIELD_MASTER,)


def test_a_camping_supply_for_a_party_that_got_none():
    party = [character(name="A"), character(name="B")]
    given_one = give_camping_supply(party, 1)
    assert given_one[1].inventory.has(ItemTag.CAMPING_SUPPLY)
    with pytest.raises(DeadWeightError):
        give_camping_supply(given_one, 0)


def test_quirk_24_unveils_a_new_infancy():
    creation, _ = random_character(SeededDice(5))
    past = Quirk(name="Deep and murky past", rule=QuirkRule.DEEP_AND_MURKY_PAST)
    c = creation.character.model_copy(update={"quirks": (past,)})
    unveiled, _ = unveil_true_past(c, FixedDice([6, 6, 5, 1, 1, 1, 1]))
    assert unveiled.life_path.infancy == "Blue Blood"
    with pytest.raises(DeadWeightError):
        unveil_true_past(unveiled, FixedDice([6, 6, 5, 1, 1, 1, 1]))


def test_a_supplement_file_is_read_and_bad_ones_are_refused(tmp_path):
    good = tmp_path / "blacksalt.toml"
    good.write_text('[schools."The Awakened"]\nspells = ["Mind spike"]\n')
    assert load_supplement(good).schools["The Awakened"].spells == ("Mind spike",)
    bad = tmp_path / "bad.toml"
    bad.write_text('[gods.X]\nprayers = "not a list"\n')
    with pytest.raises(Exception, match="prayers"):
        load_supplement(bad)


@settings(max_examples=tried(25))
@given(seed=st.integers(0, 100_000), cls=st.sampled_from([None, *CharacterClass]))
def test_a_random_character_is_always_legal(seed, cls):
    """Scores within 0..3 and proficiencies within 0..2, a valid sheet, a full kit."""
    creation, _ = random_character(SeededDice(seed), character_class=cls)
    c = creation.character
    assert creation.done and c.character_class is not None
    for attribute in Attribute:
        state = c.attribute(attribute)
        assert 0 <= state.score <= 3 and 0 <= state.proficiency <= 2
        assert state.fatigue == state.wounds == 0
    assert Character.model_validate(c.model_dump()) == c
    assert sum(1 for i in c.inventory.items() if i.name == "torch") in range(1, 7)
    assert any(i.name == "ration" for i in c.inventory.items())
    if c.character_class == CharacterClass.WIZARD:
        assert c.has_conductor and Trait.MAGIC_USER in c.traits
    if c.character_class == CharacterClass.CLERIC:
        assert c.has_holy_symbol and len(c.magic.prayers_known) == min(
            3, c.attribute(Attribute.PRE).score
        )
