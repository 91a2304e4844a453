"""Food, water and exhaustion (article 15)."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.systems.constitution import (
    ConstitutionError,
    Deprivation,
    Options,
    deprivation_injury,
    pass_day,
    penalties,
    stay_awake,
    total_penalty,
)
from tabletop.systems.constitution.survival import effects, strain_threshold

from .conftest import make_character

NO_DICE = FixedDice([])


def days(state, character, count, dice=NO_DICE, **day):
    for _ in range(count):
        state, _ = pass_day(state, character, dice, **day)
    return state


@pytest.mark.parametrize(("strength", "days_"), [(9, 3), (10, 3), (11, 4), (2, 1), (1, 1)])
def test_c3_a23_strain_threshold_is_strength_over_three_at_least_one(strength, days_):
    assert strain_threshold(strength) == days_
    assert strain_threshold(strength, Options(starvation_threshold="three")) == 3


def test_c3_m76_half_a_ration_a_day_keeps_a_fast_at_minus_two():
    """§ 15.2."""
    hero = make_character(strength=9)
    state = days(Deprivation(), hero, 10, meal="half")
    assert state.fasting and not state.starving and total_penalty(state, 9) == -2


def test_c3_a24_starvation_starts_at_the_threshold_and_each_later_strain_day_adds_minus_two():
    """§ 15.3–15.4: STR 9 → threshold 3; no food at all is a strain day."""
    hero = make_character(strength=9)
    state = days(Deprivation(), hero, 3, meal="none")
    assert state.starving and total_penalty(state, 9) == -2
    state = days(state, hero, 1, meal="none")
    assert total_penalty(state, 9) == -4
    with_trigger = Options(starvation_penalty_start="with_trigger")
    assert total_penalty(state, 9, with_trigger) == -6


def test_c3_m77_exertion_while_fasting_is_a_second_strain():
    hero = make_character(strength=9)
    state = days(Deprivation(), hero, 1, meal="none", exerted=True)
    assert state.strain == 2


def test_c3_m77_starvation_ends_first_then_the_fast():
    """§ 15.4, § 15.2: eat normally as many days as the starvation, then as the fast."""
    hero = make_character(strength=3)
    state = days(Deprivation(), hero, 1, meal="half")
    state = days(state, hero, 3, meal="none")  # threshold 1: starving from the second day
    assert state.starving and state.fasting_days == 2 and state.starving_days == 2
    state = days(state, hero, 2)
    assert not state.starving and state.fasting
    state = days(state, hero, 1)
    assert state.fasting
    state = days(state, hero, 1)
    assert state == Deprivation()


def test_c3_a30_no_fast_takes_more_than_a_month_to_end():
    hero = make_character(strength=18)
    state = Deprivation(fasting=True, fasting_days=90)
    state = days(state, hero, 29)
    assert state.fasting
    assert not days(state, hero, 1).fasting


def test_c3_a27_dehydration_penalty_from_the_latest_save_or_cumulative():
    """§ 15.5: pass −4, fail −6; drinking resets; three failures kill."""
    hero = make_character(strength=10)
    state, _ = pass_day(Deprivation(), hero, FixedDice([15]), drank=False)
    assert penalties(state, 10)["dehydration"] == -4
    state, _ = pass_day(state, hero, FixedDice([2]), drank=False)
    assert penalties(state, 10)["dehydration"] == -6
    cumulative = Options(dehydration="cumulative")
    summed, _ = pass_day(
        Deprivation(dehydration=-4), hero, FixedDice([2]), drank=False, options=cumulative
    )
    assert summed.dehydration == -10
    state, _ = pass_day(state, hero, FixedDice([]))
    assert state.dehydration == 0 and state.failed_water_saves == 0


def test_c3_m78_three_failed_water_saves_kill():
    hero = make_character(strength=3)
    state = Deprivation()
    for _ in range(3):
        state, events = pass_day(state, hero, FixedDice([2]), drank=False)
    assert state.dead and any(e.kind == "dead" for e in events)
    with pytest.raises(ConstitutionError):
        pass_day(state, hero, NO_DICE)


def test_c3_a28_sleep_deprivation_counts_periods_after_the_first():
    """§ 15.6: one sleepless day 0, two −4, three −8; sleeping badly leaves −2."""
    hero = make_character()
    state = days(Deprivation(), hero, 1, slept="none")
    assert penalties(state, 10)["sleep"] == 0
    state = days(state, hero, 1, slept="none")
    assert penalties(state, 10)["sleep"] == -4
    state = days(state, hero, 1, slept="none")
    assert penalties(state, 10)["sleep"] == -8
    state = days(state, hero, 1, slept="badly")
    assert penalties(state, 10)["sleep"] == -2
    assert penalties(days(state, hero, 1, slept="badly"), 10)["sleep"] == -2
    assert penalties(days(state, hero, 1), 10)["sleep"] == 0


def test_c3_a28_a_bad_night_brings_a_penalty_down_but_never_makes_one():
    """§ 15.6, docs/rules C3-A28: sleeping badly brings an exhaustion penalty to −2; a rested
    character (or one only a day awake, penalty 0) who sleeps badly has none to bring."""
    hero = make_character()
    assert penalties(days(Deprivation(), hero, 3, slept="badly"), 10)["sleep"] == 0
    one_day = days(Deprivation(), hero, 1, slept="none")
    assert penalties(days(one_day, hero, 1, slept="badly"), 10)["sleep"] == 0


def test_c3_m79_staying_awake_is_a_will_check_at_25_with_the_penalties():
    hero = make_character(will=12)
    state = Deprivation(hours_awake=48)
    result = stay_awake(hero, state, FixedDice([18]))
    assert result.score == 8 and result.dc == 25 and result.success
    with pytest.raises(ConstitutionError):
        stay_awake(hero, Deprivation(), FixedDice([1]))


def test_c3_m80_combined_penalties_halve_speed_then_call_for_injury_saves():
    """§ 15.7, C3-A29: at half STR, half speed and morning fatigue; at STR, both saves at 20."""
    hero = make_character(strength=8, will=10)
    half = Deprivation(fasting=True, fasting_days=1, hours_awake=48)  # −2 −4 = −6
    assert effects(half, 8)["half_speed"] and not effects(half, 8)["daily_injury_save"]
    _, injury, _ = deprivation_injury(hero, half, NO_DICE)
    assert injury is None
    full = Deprivation(fasting=True, fasting_days=1, hours_awake=48, dehydration=-4)
    _hurt, injury, _ = deprivation_injury(hero, full, FixedDice([20, 2, 20, 1]))
    assert injury.dc == 20 and injury.outcome == "minor_wound" and injury.standing


def test_c3_a51_the_deprivation_penalty_weighs_on_the_daily_injury_saves():
    """§ 15.7 with § 15.2 ("all checks") and § 3.1 (a save is a check), docs/rules C3-A51:
    STR 8, will 10 at −10: the strength save is [12] + 8 − 10 = 10, a failure."""
    hero = make_character(strength=8, will=10)
    full = Deprivation(fasting=True, fasting_days=1, hours_awake=48, dehydration=-4)
    _hurt, injury, _ = deprivation_injury(hero, full, FixedDice([12, 10]))
    assert injury.strength_save.total == 10 and injury.outcome == "major_wound"
    assert injury.will_save.total == 10 and not injury.standing


def test_c3_a51_a_dry_day_save_carries_the_penalties_in_force():
    """§ 15.5 with § 15.2 and § 3.1, docs/rules C3-A51: STR 10, already fasting (−2) and a
    day dry (−4): the next dry day's save [13] comes to 13 + 10 − 6 = 17 < 20, a failure."""
    hero = make_character(strength=10)
    state = Deprivation(fasting=True, fasting_days=1, dehydration=-4)
    state, events = pass_day(state, hero, FixedDice([13]), meal="half", drank=False)
    assert state.dehydration == -6 and state.failed_water_saves == 1
    thirst = next(e for e in events if e.kind == "thirst")
    assert "13 + 4 = 17 vs DC 20: failure" in thirst.message
