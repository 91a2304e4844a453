"""Hit points, fatigue, injury (article 6, § 7.2, § 11.3)."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.systems.constitution import (
    ConstitutionError,
    Options,
    direct_hit,
    good_night,
    injury_saves,
    short_rest,
    take_damage,
)
from tabletop.systems.constitution.health import die_of_wounds

from .conftest import make_character


def test_c3_t09_tough_rolls_d8s_with_fatigue_dice_and_may_keep_the_old_total():
    """§ 7.2, § 6.5, C3-T09: 1 HD, fatigue 1, HP 5: 2d8 [8, 2] keeps 2, the player keeps 5."""
    tough = make_character(character_class="fighter", initiations=("tough",), hp=5, fatigue=1)
    rested, events = short_rest(tough, FixedDice([8, 2]))
    assert (rested.hp, rested.fatigue) == (5, 2)
    assert events[0].dice[0].expression == "2d8kl1"


def test_c3_a04_each_fatigue_point_is_a_disadvantage_die_on_the_hp_roll():
    """§ 6.5 example, C3-A04: 2 HD, two fatigue → 4d6 keeping the two lowest; the new total
    is taken even if lower (§ 6.4); then a third fatigue point."""
    worn = make_character(level=2, hp=11, fatigue=2)
    rested, _ = short_rest(worn, FixedDice([6, 1, 5, 2]))
    assert (rested.hp, rested.fatigue) == (3, 3)


def test_c3_a18_resting_without_rerolling_still_tires():
    """C3-A18 option fatigue_without_reroll."""
    hero = make_character(hp=4)
    rested, _ = short_rest(hero, FixedDice([]), reroll=False)
    assert (rested.hp, rested.fatigue) == (4, 1)
    lenient, _ = short_rest(
        hero, FixedDice([]), reroll=False, options=Options(fatigue_without_reroll=False)
    )
    assert lenient.fatigue == 0


def test_c3_m54_penance_counts_as_fatigue_on_hp_rolls():
    """§ 11.3: penance adds disadvantage dice even after a night's sleep."""
    priest = make_character(character_class="sage", hp=1, fatigue=3, penance=1)
    slept, events = good_night(priest, FixedDice([5, 2]))
    assert (slept.hp, slept.fatigue) == (2, 0)
    assert events[1].dice[0].expression == "2d6kl1"


def test_a_good_night_clears_fatigue_and_heals_minor_wounds():
    """§ 6.5, § 6.9 (a shallow cut lasts until the next long rest; C3-G09)."""
    hurt = make_character(hp=0, fatigue=2)
    hurt, injury, _ = take_damage(hurt, 3, FixedDice([15, 15]))
    assert injury is not None and injury.outcome == "minor_wound"
    slept, _ = good_night(hurt, FixedDice([4]))
    assert (slept.hp, slept.fatigue, slept.wounds) == (4, 0, ())


def test_c3_m33_falling_to_exactly_zero_does_nothing():
    """§ 5.18."""
    hero = make_character(hp=4)
    hurt, injury, _ = take_damage(hero, 4, FixedDice([]))
    assert hurt.hp == 0 and injury is None


def test_c3_m42_overflow_sets_the_injury_dc():
    """§ 6.6: HP 2, damage 5 → overflow 3 → both saves at DC 23."""
    hero = make_character(hp=2, strength=12, will=8)
    _hurt, injury, _ = take_damage(hero, 5, FixedDice([11, 15]))
    assert injury is not None and injury.dc == 23
    assert injury.strength_save.total == 23 and injury.outcome == "minor_wound"
    assert injury.will_save.total == 23 and injury.standing


def test_c3_a17_at_zero_hp_the_whole_damage_overflows():
    hero = make_character(hp=0)
    _, injury, _ = take_damage(hero, 4, FixedDice([10, 10]))
    assert injury is not None and injury.dc == 24


def test_c3_t11_major_wound_marks_limit_then_death():
    """§ 6.7, § 6.11, C3-T11."""
    hero = make_character(hp=0)
    hero, injury, _ = injury_saves(hero, 20, FixedDice([2, 15]))
    assert injury.outcome == "major_wound" and hero.major_wound_marks == 1
    hero, injury, _ = injury_saves(hero, 20, FixedDice([2, 15]))
    assert injury.outcome == "dead" and hero.dead
    veteran = make_character(level=3, major_wound_marks=2)
    veteran, injury, _ = injury_saves(veteran, 20, FixedDice([2, 15]))
    assert injury.outcome == "major_wound" and veteran.major_wound_marks == 3


def test_c3_m43_the_player_may_choose_death_over_a_major_wound():
    hero = make_character()
    hero, injury, _ = injury_saves(hero, 20, FixedDice([2, 15]), take_major_wound=False)
    assert injury.outcome == "dead"


def test_c3_m44_failing_the_will_save_collapses_and_may_be_chosen():
    """§ 6.8."""
    hero = make_character()
    down, injury, events = injury_saves(hero, 20, FixedDice([15, 2]))
    assert not injury.standing and not down.standing and events[-1].kind == "collapsed"
    _quitter, injury, _ = injury_saves(hero, 20, FixedDice([15, 19]), give_up=True)
    assert not injury.standing and injury.gave_up


def test_c3_m48_fighters_add_their_level_to_injury_saves():
    """§ 7.1; C3-A37 option fighter_bonus_scope."""
    fighter = make_character(character_class="fighter", level=2, strength=8)
    _, injury, _ = injury_saves(fighter, 20, FixedDice([10, 10]))
    assert injury.strength_save.score == 10
    narrow = Options(fighter_bonus_scope="attack_and_defence")
    _, injury, _ = injury_saves(fighter, 20, FixedDice([10, 10]), options=narrow)
    assert injury.strength_save.score == 8


def test_c3_m47_a_direct_hit_can_be_bought_off_at_10_hp_per_attacker_level():
    """§ 6.12."""
    hero = make_character(level=3, hp=15)
    paid, injury, _ = direct_hit(hero, 4, 1, FixedDice([]), pay_hit_points=True)
    assert paid.hp == 5 and injury is None
    with pytest.raises(ConstitutionError):
        direct_hit(hero, 4, 2, FixedDice([]), pay_hit_points=True)


def test_c3_a16_direct_hit_injury_dc_is_20_plus_damage_or_flat():
    hero = make_character(hp=9)
    _, injury, _ = direct_hit(hero, 4, 1, FixedDice([10, 10]), pay_hit_points=False)
    assert injury.dc == 24
    flat = Options(direct_hit_injury_dc="flat")
    _, injury, _ = direct_hit(hero, 4, 1, FixedDice([10, 10]), pay_hit_points=False, options=flat)
    assert injury.dc == 20


def test_c3_m46_a_player_may_let_a_major_wound_kill_the_character():
    """§ 6.10."""
    hero = make_character()
    with pytest.raises(ConstitutionError):
        die_of_wounds(hero)
    hero, _, _ = injury_saves(hero, 20, FixedDice([2, 15]))
    assert die_of_wounds(hero).dead


def test_the_dead_take_no_more_damage_and_negative_damage_is_refused():
    hero = make_character(dead=True, standing=False)
    with pytest.raises(ConstitutionError):
        take_damage(hero, 1, FixedDice([]))
    with pytest.raises(ConstitutionError):
        take_damage(make_character(), -1, FixedDice([]))


def test_c3_m47_other_bypassing_effects_carry_their_own_price():
    """§ 6.12: the referee prices an effect that bypasses HP."""
    hero = make_character(hp=6)
    paid, injury, _ = direct_hit(hero, 2, 1, FixedDice([]), pay_hit_points=True, price=5)
    assert paid.hp == 1 and injury is None
