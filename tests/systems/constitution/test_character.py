"""Characters (articles 2, 4, 7–10): XP and levels, creation, initiations, bonuses,
improvement rolls, adventurer re-rolls."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.dice import FixedDice, SeededDice
from tabletop.systems.constitution import (
    Character,
    ConstitutionDataError,
    ConstitutionError,
    Options,
    add_initiation,
    award_xp,
    bonuses,
    catalogue,
    character_check,
    end_session,
    foe_xp,
    haggle,
    improvement_roll,
    level_for_xp,
    new_character,
    rummage,
    spend_reroll,
    to_silver,
    treasure_xp,
    unusual_concept_allowed,
)
from tabletop.systems.constitution.character import armour_bonuses, damage_dice, level_threshold

from .conftest import make_character


@pytest.mark.parametrize(
    ("xp", "level"),
    [
        (0, 1),
        (1499, 1),
        (1500, 2),
        (2999, 2),
        (3000, 3),
        (5999, 3),
        (6000, 4),
        (12000, 5),
        (24000, 6),
    ],
)
def test_c3_t07_levels_at_1500_and_doubling(xp, level):
    """§ 2.9, C3-T07."""
    assert level_for_xp(xp) == level


def test_c3_t07_the_tenth_scale_of_the_notes():
    """§ 2.9 notes, C3-M06 option xp_scale=tenth."""
    tenth = Options(xp_scale="tenth")
    assert level_for_xp(149, tenth) == 1
    assert level_for_xp(150, tenth) == 2
    assert level_for_xp(600, tenth) == 4


@given(st.integers(0, 10**9))
def test_level_is_the_highest_threshold_reached(xp):
    """C3-P06: L = 1 below 1500, else floor(log2(XP/1500)) + 2 (integers only)."""
    level = level_for_xp(xp)
    assert level_threshold(level) <= xp
    assert level == 30 or xp < level_threshold(level + 1)


def test_xp_for_foes_and_treasure():
    """§ 2.7: 10 XP per hit die; C3-G01: the treasure rate is an option (1 XP per sp)."""
    assert foe_xp(3) == 30
    assert treasure_xp(9000) == 9000
    assert treasure_xp(100, Options(xp_per_sp=Fraction(1, 10))) == 10


def test_awarding_xp_raises_the_level_and_never_takes_xp_away():
    """§ 2.9: gaining a level keeps all the XP; § 12.8: a level owes a spell research."""
    sage = make_character(character_class="sage", has_spell_book=True)
    raised, events = award_xp(sage, 3000, "the tomb's gold")
    assert (raised.level, raised.xp, raised.research_owed) == (3, 3000, 2)
    assert [e.kind for e in events] == ["xp", "level"]
    with pytest.raises(ConstitutionError):
        award_xp(sage, -1, "a penalty")


def test_new_character_rolls_3d6_in_order_then_hit_points():
    """§ 4.2: strength, wits, knowledge, will, charisma; § 6.1: 1 HD at level 1."""
    faces = [1, 2, 3, 6, 6, 6, 4, 4, 4, 2, 2, 2, 5, 5, 5, 4]
    made, events = new_character("Ada", FixedDice(faces))
    assert made.abilities.model_dump() == {
        "strength": 6,
        "wits": 18,
        "knowledge": 12,
        "will": 6,
        "charisma": 15,
    }
    assert (made.level, made.hp, made.fatigue) == (1, 4, 0)
    assert events[0].dice[0].text == "3d6 → [1, 2, 3] = 6"


def test_a_character_survives_a_json_round_trip():
    made, _ = new_character("Ada", SeededDice(7), "sage", "goetia")
    assert Character.model_validate_json(made.model_dump_json()) == made
    assert made.has_spell_book


def test_c3_m14_initiations_are_limited_by_level_and_class():
    """§ 4.4: as many initiations as the level; class-exclusive ones need the class."""
    fighter = make_character(character_class="fighter", initiations=("tough",))
    with pytest.raises(ConstitutionDataError, match="level 1 allows 1"):
        add_initiation(fighter, "berserk")
    with pytest.raises(ValueError, match="only to fighters"):
        make_character(character_class="sage", initiations=("tough",))
    with pytest.raises(ValueError, match="unknown initiation"):
        make_character(initiations=("flying",))
    custom = make_character(initiations=("custom:beekeeper",))
    assert custom.initiations == ("custom:beekeeper",)


def test_the_catalogue_has_every_precedent_of_articles_7_to_10():
    assert len(catalogue()) == 18
    assert {i.article for i in catalogue().values()} >= {"7.2", "8.3", "9.4", "10.3"}
    for initiation in catalogue().values():  # the `class` alias loads back from a dump
        assert type(initiation).model_validate_json(initiation.model_dump_json()) == initiation


def test_c3_m48_fighters_add_their_level_to_combat_checks():
    """§ 7.1: initiative, attack, defence and injury saves; C3-A37 option."""
    fighter = make_character(character_class="fighter", level=3)
    assert sum(b.amount for b in bonuses(fighter, "strength", {"attack"})) == 3
    assert sum(b.amount for b in bonuses(fighter, "strength", {"injury_save"})) == 3
    assert bonuses(fighter, "strength", set()) == []
    narrow = Options(fighter_bonus_scope="attack_and_defence")
    assert bonuses(fighter, "strength", {"injury_save"}, narrow) == []


def test_c3_m50_sages_add_their_level_to_knowledge_checks():
    """§ 8.1."""
    sage = make_character(character_class="sage", level=2, knowledge=12)
    result = character_check(sage, "knowledge", 20, FixedDice([6]))
    assert result.score == 14 and result.success


def test_initiation_bonuses_apply_only_in_their_situation():
    """§ 9.2 circus acrobat, § 9.4 keen eye, § 10.1 wanderer: +level; § 7.4 berserk +2."""
    adventurer = make_character(
        character_class="adventurer", level=2, initiations=("circus_acrobat", "keen_eye")
    )
    assert sum(b.amount for b in bonuses(adventurer, "strength", {"whole_body"})) == 2
    assert sum(b.amount for b in bonuses(adventurer, "wits", {"search"})) == 2
    assert bonuses(adventurer, "wits", {"attack"}) == []
    berserker = make_character(character_class="fighter", initiations=("berserk",))
    assert sum(b.amount for b in bonuses(berserker, "strength", {"attack", "berserk_melee"})) == 3


def test_reach_and_weapon_training_add_armour_class():
    """§ 5.16 +1 AC vs shorter reach; § 7.5 stacks another +1; § 7.6 spear +2."""
    trained = make_character(
        character_class="fighter", level=2, initiations=("weapons_training", "spear_training")
    )
    amounts = [b.amount for b in armour_bonuses(trained, {"longer_reach", "spear_longer_reach"})]
    assert sorted(amounts) == [1, 1, 2]


def test_a_skill_modified_check_needs_a_rating_first():
    """§ 4.10–4.11: the group sets a rating when the skill is first used."""
    hunter = make_character(strength=12, skills={"hunting": 50})
    result = character_check(hunter, "strength", 20, FixedDice([14]), skill="hunting")
    assert result.score == 6 and result.total == 20
    with pytest.raises(ConstitutionError, match="no rating"):
        character_check(hunter, "strength", 20, FixedDice([14]), skill="sailing")
    with pytest.raises(ValueError, match="ratings run from 0 to 100"):
        make_character(skills={"hunting": 120})


def test_c3_t07_improvement_roll_stops_at_the_first_success():
    """§ 4.9, C3-T07, C3-A10: 12 on STR 12 is not higher; 15 on wits 9 raises it to 10."""
    hero = make_character(strength=12, wits=9)
    improved, events = improvement_roll(hero, ["strength", "wits", "will"], FixedDice([12, 15]))
    assert (improved.abilities.strength, improved.abilities.wits) == (12, 10)
    assert [e.kind for e in events] == ["not_improved", "improved"]
    with pytest.raises(ConstitutionError):
        improvement_roll(hero, ["wits", "wits"], FixedDice([1, 1]))


def test_c3_m51_adventurers_reroll_level_times_a_session():
    """§ 9.1, C3-A34."""
    adventurer = make_character(character_class="adventurer", level=2)
    first = character_check(adventurer, "wits", 20, FixedDice([3]))
    adventurer, second = spend_reroll(adventurer, first, FixedDice([16]))
    adventurer, third = spend_reroll(adventurer, second, FixedDice([2]))
    assert (second.die, third.die, adventurer.rerolls_left) == (16, 2, 0)
    with pytest.raises(ConstitutionError):
        spend_reroll(adventurer, third, FixedDice([20]))
    assert end_session(adventurer).rerolls_left == 2
    with pytest.raises(ConstitutionError):
        spend_reroll(make_character(character_class="fighter"), first, FixedDice([1]))


def test_bad_sheets_are_refused_with_a_reason():
    with pytest.raises(ValueError):
        make_character(strength=31)
    with pytest.raises(ValueError, match="not in the spell book"):
        make_character(prepared=("Sleep",))


def test_c3_m51_prepared_rummages_with_a_knowledge_check_at_20():
    """§ 9.3."""
    prepared = make_character(character_class="adventurer", initiations=("prepared",), knowledge=9)
    assert rummage(prepared, FixedDice([11])).success  # 9 + 11 = 20
    assert not rummage(prepared, FixedDice([10])).success
    with pytest.raises(ConstitutionError):
        rummage(make_character(), FixedDice([10]))


def test_c3_m52_haggler_takes_ten_percent_off_on_a_d20_under_charisma():
    """§ 10.3, C3-A07: the d20 is compared, not added, so 20 does not explode."""
    haggler = make_character(charisma=12, initiations=("haggler",))
    assert haggle(haggler, Fraction(100), FixedDice([11]))[0] == 90
    assert haggle(haggler, Fraction(100), FixedDice([12]))[0] == 100
    with pytest.raises(ConstitutionError):
        haggle(make_character(), Fraction(100), FixedDice([1]))


def test_c3_m02_coins_in_silver():
    """§ 2.6: gp = 50 sp, cp = 1/10 sp."""
    assert to_silver(gold=2, silver=3, copper=5) == Fraction(207, 2)


def test_c3_m15_a_reused_unusual_concept_needs_a_one():
    """§ 4.8."""
    assert unusual_concept_allowed(FixedDice([1]))[0]
    assert not unusual_concept_allowed(FixedDice([2]))[0]


def test_c3_m49_weapon_initiations_change_the_damage_roll():
    """§ 5.18 d6; § 7.5 two-handed d8; § 7.7 longsword: one advantage die on damage."""
    plain = make_character()
    assert damage_dice(plain, {"two_handed"}) == "1d6"
    trained = make_character(
        character_class="fighter", level=2, initiations=("weapons_training", "longsword_training")
    )
    assert damage_dice(trained, {"two_handed"}) == "1d8"
    assert damage_dice(trained, {"longsword"}) == "2d6kh1"
    assert damage_dice(trained, {"longsword", "two_handed"}) == "2d8kh1"
