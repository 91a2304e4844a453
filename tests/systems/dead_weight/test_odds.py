"""Exact odds and the re-roll advisor: the notes' probabilities (DW-P01..P03), brute-force
enumeration on small cases, and sampling the state machine itself."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice, SeededDice, distribution
from tabletop.errors import LimitError
from tabletop.systems.dead_weight import (
    CAUTIOUS,
    Affliction,
    Attribute,
    DeadWeightError,
    Help,
    Options,
    Outcome,
    Pass,
    Reroll,
    Resource,
    TestSetup,
    Trait,
    advise,
    announce_test,
    best_choice,
    opening_odds,
    pool_odds,
    start_test,
)
from tabletop.systems.dead_weight.solver import (
    FATIGUE,
    GREAT,
    SUCCESS,
    HelperSpec,
    Solution,
    Spec,
)
from tests.effort import tried
from tests.systems.dead_weight.brute import Rules, solve_brute
from tests.systems.dead_weight.helpers import character

# DW-P01: outcomes by pool size with no re-rolls, verified in the notes by enumeration.
P01 = {
    1: (F(1, 6), F(1, 3), F(1, 2), F(0), F(1, 3)),
    2: (F(5, 36), F(1, 9), F(3, 4), F(1, 36), F(5, 9)),
    3: (F(19, 216), F(1, 27), F(7, 8), F(2, 27), F(19, 27)),
    4: (F(65, 1296), F(1, 81), F(15, 16), F(19, 144), F(65, 81)),
    5: (F(211, 7776), F(1, 243), F(31, 32), F(763, 3888), F(211, 243)),
    6: (F(665, 46656), F(1, 729), F(63, 64), F(12281, 46656), F(665, 729)),
}


@pytest.mark.parametrize("n", sorted(P01))
def test_dw_p01_outcomes_by_pool_size(n):
    critical, plain_failure, any_success, great, fatigue = P01[n]
    odds = pool_odds(n)
    assert odds.critical_failure == critical
    assert odds.failure == plain_failure
    assert odds.any_success == any_success
    assert odds.great_success == great
    assert odds.fatigue == fatigue
    assert odds.critical_failure + odds.failure + odds.success + odds.great_success == 1


@pytest.mark.parametrize(
    ("pool", "success", "critical", "fatigue"),
    [
        (0, F(1, 4), F(11, 36), F(4, 9)),
        (-1, F(1, 8), F(91, 216), F(55, 108)),
        (-2, F(1, 16), F(671, 1296), F(46, 81)),
        (-3, F(1, 32), F(4651, 7776), F(2431, 3888)),
    ],
)
def test_dw_p02_take_lowest_pools_judge_the_kept_die(pool, success, critical, fatigue):
    """DW-M37, DW-A06 (kept): zero and negative pools keep the lowest of 2 + |pool| dice."""
    odds = pool_odds(pool)
    assert (odds.any_success, odds.critical_failure, odds.fatigue) == (success, critical, fatigue)
    assert odds.great_success == 0


@pytest.mark.parametrize(("n", "p"), [(n, p) for n in range(1, 5) for p in range(3)])
def test_dw_p03_best_success_with_proficiency(n, p):
    """Re-rolling any die repeatedly (DW-A24 default): P(success) = 1 - (1/2)^(n+p)."""
    assert pool_odds(n, p).any_success == 1 - F(1, 2) ** (n + p)


@pytest.mark.parametrize(
    ("n", "fatigues"),
    [
        (1, (0.3333, 0.3333, 0.3333)),
        (2, (0.5556, 0.3704, 0.2654)),
        (3, (0.7037, 0.4568, 0.2901)),
        (4, (0.8025, 0.5597, 0.3580)),
    ],
)
def test_dw_p03_fatigue_when_success_comes_before_freshness(n, fatigues):
    """The notes' policy: most success, then least fatigue (the CAUTIOUS key)."""
    for p, expected in enumerate(fatigues):
        assert round(float(pool_odds(n, p, key=CAUTIOUS).fatigue), 4) == expected


def test_dw_a24_distinct_dice_reading_changes_the_odds():
    """One die, two proficiency: 7/8 re-rolling the same die, 3/4 with distinct dice."""
    roller = character(Attribute.INT, score=1, proficiency=2)
    setup = TestSetup(attribute=Attribute.INT)
    same, _ = announce_test(roller, setup)
    distinct, _ = announce_test(roller, setup, options=Options(proficiency_distinct_dice=True))
    assert opening_odds(same).any_success == F(7, 8)
    assert opening_odds(distinct).any_success == F(3, 4)


def test_a_check_never_tires_and_extra_effort_already_paid():
    assert pool_odds(3, 1, check=True).fatigue == 0
    assert pool_odds(3, 1, extra_effort=True).fatigue == 0


def test_terrified_and_hopeless_shift_the_odds():
    assert pool_odds(1, terrified=True).any_success == F(1, 3)
    assert pool_odds(1, hopeless=True).fatigue == F(2, 3)


def test_dw_p06_risk_dice_odds_come_from_the_dice_engine():
    for count, expected in [(1, F(1, 6)), (2, F(11, 36)), (3, F(91, 216))]:
        assert distribution(f"{count}d!").probability(1) == expected


# brute force ------------------------------------------------------------------------------


def _spec(rules: Rules) -> Spec:
    budgets = (
        (rules.proficiency, rules.advantage)
        if rules.distinct
        else (rules.proficiency + rules.advantage,)
    )
    helpers = ()
    if rules.helper_dice:
        helpers = (HelperSpec(rules.helper_dice, rules.helper_hopeless),)
        budgets += (rules.helper_proficiency,)
    return Spec(
        own_dice=rules.own_dice,
        budgets=(*budgets, rules.disadvantage),
        take_lowest=rules.take_lowest,
        count_all_thrown=rules.count_all_thrown,
        helpers=helpers,
        terrified=rules.terrified,
        hopeless=rules.hopeless,
        fatigue_counts=rules.fatigue_counts,
        keep_safe=rules.keep_safe,
        dauntless=rules.dauntless,
        distinct=rules.distinct,
        helper_dice_open_to_roller=rules.helper_open,
        key=rules.key,
    )


@st.composite
def small_rules(draw: st.DrawFn) -> Rules:
    helper_dice = draw(st.integers(0, 1))
    own = draw(st.integers(1, 2 if helper_dice else 3))
    distinct = draw(st.booleans())
    return Rules(
        own_dice=own,
        proficiency=draw(st.integers(0, 2)),
        advantage=draw(st.integers(0, 1)) if distinct else 0,
        disadvantage=draw(st.integers(0, 2)),
        helper_dice=helper_dice,
        helper_proficiency=draw(st.integers(0, 1)) if helper_dice else 0,
        take_lowest=draw(st.booleans()) and own >= 2,
        count_all_thrown=draw(st.booleans()),
        terrified=draw(st.booleans()),
        hopeless=draw(st.booleans()),
        helper_hopeless=draw(st.booleans()),
        fatigue_counts=draw(st.booleans()),
        keep_safe=draw(st.booleans()),
        dauntless=draw(st.booleans()) and own == 1,
        distinct=distinct,
        helper_open=draw(st.booleans()),
        key=draw(st.sampled_from([_CANONICAL, CAUTIOUS])),
    )


_CANONICAL = Rules(1).key


@settings(max_examples=tried(20))
@given(small_rules())
def test_the_solver_agrees_with_brute_force_enumeration(rules):
    """Every ordered throw and every re-roll of every die, against the packed solver."""
    assert Solution(_spec(rules)).opening() == solve_brute(rules)


def test_brute_force_agrees_on_a_fuller_exchange():
    rules = Rules(own_dice=3, proficiency=2, disadvantage=1, hopeless=True, keep_safe=True)
    assert Solution(_spec(rules)).opening() == solve_brute(rules)


# the advisor on open tests -------------------------------------------------------------


def test_dw_t03_the_advisor_re_rolls_the_one():
    """INT 2/1 rolling [1, 3]: re-rolling the 1 keeps success at 1/2 and fatigue at 1/3;
    re-rolling the 3 leaves the 1 standing (fatigue certain)."""
    roller = character(Attribute.INT, score=2, proficiency=1)
    test, _ = start_test(roller, TestSetup(attribute=Attribute.INT), FixedDice([1, 3]))
    advice = advise(test)
    by_die = {choice.die: odds for choice, odds in advice.options if isinstance(choice, Reroll)}
    assert by_die[0].any_success == by_die[1].any_success == F(1, 2)
    assert by_die[0].fatigue == F(1, 3)
    assert by_die[1].fatigue == 1
    assert advice.best == Reroll(resource=Resource.PROFICIENCY, die=0)
    passing = next(odds for choice, odds in advice.options if isinstance(choice, Pass))
    assert passing.critical_failure == 1


def test_the_advised_odds_before_the_throw_average_the_advised_odds_after_it():
    """Opening odds = mean over every first throw of the best choice's odds."""
    roller = character(Attribute.DEX, score=2, proficiency=1)
    setup = TestSetup(attribute=Attribute.DEX, disadvantage=1)
    announced, _ = announce_test(roller, setup)
    total = [F(0)] * 3
    for first in range(1, 7):
        for second in range(1, 7):
            test, _ = start_test(roller, setup, FixedDice([first, second]))
            odds = advise(test).odds if test.phase == "rerolling" else None
            assert odds is not None
            total = [
                t + v / 36
                for t, v in zip(
                    total, (odds.any_success, odds.great_success, odds.fatigue), strict=True
                )
            ]
    opening = opening_odds(announced)
    assert total == [opening.any_success, opening.great_success, opening.fatigue]


def test_the_gm_is_advised_too():
    roller = character(Attribute.STR, score=3)
    test, _ = start_test(
        roller, TestSetup(attribute=Attribute.STR, disadvantage=1), FixedDice([6, 6, 2])
    )
    advice = advise(test)
    assert advice.side == "gm"
    assert isinstance(advice.best, Reroll) and test.dice[advice.best.die].face == 6
    assert advice.odds.great_success == F(1, 6)


def test_advice_on_a_finished_test_is_refused():
    test, _ = start_test(character(), TestSetup(), FixedDice([5]))
    assert test.finished
    with pytest.raises(DeadWeightError):
        advise(test)


def test_dauntless_advice_offers_the_extra_dice_unless_already_great():
    roller = character(Attribute.STR, score=2, traits=[Trait.DAUNTLESS])
    test, _ = start_test(roller, TestSetup(attribute=Attribute.STR), FixedDice([6, 2]))
    assert test.phase == "dauntless"
    advice = advise(test)
    assert advice.best.roll is True
    rolled = advice.odds
    assert rolled.great_success == F(11, 36)
    assert rolled.fatigue == 1 - F(4, 6) ** 2


def test_a_helper_die_changes_the_advice_and_the_helper_fatigue_is_reported():
    roller = character(Attribute.PRE, score=1)
    helper = character(Attribute.PRE, score=2, proficiency=1, name="Zael")
    test, _ = start_test(
        roller, TestSetup(attribute=Attribute.PRE), FixedDice([3, 1]), helpers=[Help(helper=helper)]
    )
    advice = advise(test)
    assert isinstance(advice.best, Reroll)
    assert advice.best.resource == Resource.HELPER_PROFICIENCY
    assert advice.odds.helper_fatigue == (F(1, 3),)


def test_the_state_machine_sampled_matches_the_exact_odds():
    """Play 2,000 tests with both sides following the advice; the frequencies must sit
    within 4.5 standard errors of the exact odds."""
    roller = character(Attribute.INT, score=3, proficiency=1, afflictions=[Affliction.HOPELESS])
    setup = TestSetup(attribute=Attribute.INT, disadvantage=1)
    announced, _ = announce_test(roller, setup)
    exact = opening_odds(announced)
    dice = SeededDice(7)
    outcomes: Counter[Outcome] = Counter()
    tired = 0
    runs = 2000
    for _ in range(runs):
        test, _ = start_test(roller, setup, dice)
        while not test.finished:
            test, _ = test.choose(best_choice(test), dice)
        assert test.verdict is not None
        outcomes[test.verdict] += 1
        tired += test.fatigue
    expected = {
        Outcome.CRITICAL_FAILURE: exact.critical_failure,
        Outcome.FAILURE: exact.failure,
        Outcome.SUCCESS: exact.success,
        Outcome.GREAT_SUCCESS: exact.great_success,
    }
    for outcome, probability in [*expected.items(), ("fatigue", exact.fatigue)]:
        seen = (tired if outcome == "fatigue" else outcomes[outcome]) / runs
        spread = math.sqrt(float(probability) * (1 - float(probability)) / runs)
        assert abs(seen - float(probability)) <= 4.5 * spread + 1e-9, outcome


def test_the_solver_refuses_more_re_rolls_than_it_can_plan():
    with pytest.raises(LimitError):
        Solution(Spec(own_dice=2, budgets=(10, 10)))


def test_solver_columns_are_exact_fractions_of_one():
    solution = Solution(Spec(own_dice=2, budgets=(1, 1)))
    opening = solution.opening()
    assert 0 <= opening[SUCCESS] <= 1 and 0 <= opening[GREAT] <= opening[SUCCESS]
    assert 0 <= opening[FATIGUE] <= 1
