"""The ability check (article 3): degrees, exploding 20s, natural 1s, advantage dice.

Vectors C3-T01, C3-T03 and C3-T05 are from the rules notes; readings cite
docs/rules/constitution.md."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.dice import FixedDice
from tabletop.errors import RollError
from tabletop.systems.constitution import (
    ConstitutionDataError,
    Options,
    active_defence,
    check,
    degree,
    skill_score,
)
from tabletop.systems.constitution.check import MAX_EXTRA_DICE, reroll, resolve_degree


@pytest.mark.parametrize(
    ("face", "total", "expected"),
    [(12, 20, 1), (16, 24, 1), (17, 25, 2), (19, 27, 2)],
)
def test_c3_t01_equal_to_dc_succeeds_and_every_five_adds_a_degree(face, total, expected):
    """§ 3.1–3.2, C3-T01: ability 8 vs DC 20."""
    result = check(8, 20, FixedDice([face]))
    assert result.total == total
    assert result.degree == expected
    assert result.success


def test_c3_t03_twenty_explodes_and_repeats():
    """§ 3.3, C3-T03: [20, 20, 7] + 10 = 57 vs 20 → margin 37 → eight degrees."""
    result = check(10, 20, FixedDice([20, 20, 7]))
    assert (result.die, result.total, result.degree) == (47, 57, 8)
    assert result.roll.dice["dice"][0]["faces"] == [20, 20, 7]


def test_c3_t03_a_one_after_an_explosion_is_not_a_natural_one():
    """§ 3.5 "(first) d20", C3-T03, C3-A07."""
    result = check(10, 20, FixedDice([20, 1]))
    assert (result.total, result.degree, result.natural_one) == (31, 3, False)


def test_c3_t05_natural_one_adds_a_degree_of_failure():
    """§ 3.5, C3-T05, C3-A06 (step, the default): 11 vs 20 is F2, the natural 1 makes it F3."""
    result = check(10, 20, FixedDice([1]))
    assert result.natural_one and result.degree == -3


def test_c3_t05_natural_one_as_minus_five_gives_the_same_here():
    """C3-A06 option natural_one=minus_five: 6 vs 20 → margin −14 → F3."""
    result = check(10, 20, FixedDice([1]), options=Options(natural_one="minus_five"))
    assert result.degree == -3


def test_c3_a06_minus_five_scores_the_natural_one_as_minus_four_in_the_total():
    """§ 3.5, docs/rules C3-A06 option minus_five: the 1 is replaced by −4, so the total an
    active defence uses (§ 5.17) is −4 + score, consistent with the degree."""
    minus_five = Options(natural_one="minus_five")
    result = check(25, 20, FixedDice([1]), options=minus_five)
    assert (result.total, result.margin, result.degree) == (21, 1, 1)
    assert "−4 + 25 = 21" in result.describe() and "scored as −4" in result.describe()
    assert active_defence(25, 20, FixedDice([1]), minus_five)[0] == 21
    assert active_defence(25, 20, FixedDice([1]))[0] == 26


def test_c3_a06_step_turns_a_first_degree_success_into_a_failure():
    """C3-A06: margin 0..4 with a natural 1 → F1 (step) but F2 as −5 (floor), S1 if ignored."""
    assert resolve_degree(1, 19, 20) == -1
    assert resolve_degree(1, 19, 20, Options(natural_one="minus_five")) == -2
    assert resolve_degree(1, 19, 20, Options(natural_one="ignore")) == 1


def test_c3_a06_natural_one_still_succeeds_with_a_margin_of_five():
    """C3-A06 (step): a natural 1 at margin ≥ 5 drops S2 to S1, still a success."""
    result = check(24, 20, FixedDice([1]))
    assert result.degree == 1 and result.success


@pytest.mark.parametrize(
    ("margin", "floor", "ceil"),
    [(-1, -1, -1), (-4, -1, -1), (-5, -2, -1), (-6, -2, -2), (-10, -3, -2), (-11, -3, -3)],
)
def test_c3_a05_failing_by_a_multiple_of_five(margin, floor, ceil):
    """§ 3.2 "each full 5 points below", C3-A05 option fail_degree_rounding."""
    assert degree(margin) == floor
    assert degree(margin, Options(fail_degree_rounding="ceil")) == ceil


def test_c3_a08_advantage_keeps_the_best_resolved_die_so_no_natural_one():
    """§ 3.8, C3-A08: with advantage [1, 15] the 15 is kept."""
    result = check(10, 20, FixedDice([1, 15]), advantage=1)
    assert (result.die, result.natural_one, result.degree) == (15, False, 2)


def test_c3_a08_disadvantage_keeps_the_one_and_the_natural_one_applies():
    result = check(10, 20, FixedDice([1, 15]), disadvantage=1)
    assert (result.die, result.natural_one, result.degree) == (1, True, -3)


def test_c3_a08_each_die_explodes_before_the_best_is_kept():
    """C3-A08: [19, 20→5] with advantage keeps 25, not 20."""
    result = check(0, 20, FixedDice([19, 20, 5]), advantage=1)
    assert result.die == 25


def test_c3_a09_advantage_and_disadvantage_cancel_one_for_one():
    """C3-A09: two advantage and one penalty die roll two d20 and keep the best."""
    result = check(0, 20, FixedDice([3, 18]), advantage=2, disadvantage=1)
    assert result.die == 18
    assert result.roll.expression == "2d20!kh1"
    with pytest.raises(RollError):  # nothing else was rolled: the third face was never asked
        check(0, 20, FixedDice([3]), advantage=2, disadvantage=1)


def test_too_many_extra_dice_are_refused():
    with pytest.raises(ConstitutionDataError):
        check(0, 20, FixedDice([]), advantage=MAX_EXTRA_DICE + 1)
    with pytest.raises(ConstitutionDataError):
        check(0, 20, FixedDice([]), advantage=-1)


@pytest.mark.parametrize(
    ("ability", "rating", "floor", "nearest"),
    [(12, 50, 6, 6), (13, 50, 6, 7), (10, 75, 7, 8), (18, 100, 18, 18), (9, 0, 0, 0)],
)
def test_c3_a11_skill_scales_the_ability(ability, rating, floor, nearest):
    """§ 4.10, C3-A11 option skill_rounding."""
    assert skill_score(ability, rating) == floor
    assert skill_score(ability, rating, Options(skill_rounding="nearest")) == nearest


def test_skill_ratings_outside_0_to_100_are_refused():
    with pytest.raises(ConstitutionDataError):
        skill_score(10, 101)


def test_c3_a34_a_reroll_rolls_the_whole_check_again_and_keeps_the_new_result():
    """§ 9.1, C3-A34: the new result stands even when worse."""
    first = check(10, 20, FixedDice([18]))
    second = reroll(first, FixedDice([2]))
    assert (second.die, second.degree, second.score, second.dc) == (2, -2, 10, 20)


@given(
    die=st.integers(1, 120),
    score=st.integers(-10, 40),
    dc=st.integers(0, 60),
    natural_one=st.sampled_from(["step", "minus_five", "ignore"]),
    rounding=st.sampled_from(["floor", "ceil"]),
)
def test_degrees_are_never_zero_and_success_means_reaching_the_dc(
    die, score, dc, natural_one, rounding
):
    """§ 3.1–3.2: the sign of the degree is success; without a natural 1 it is total ≥ DC."""
    options = Options(natural_one=natural_one, fail_degree_rounding=rounding)
    result = resolve_degree(die, score, dc, options)
    assert result != 0
    if die != 1:
        assert (result > 0) == (die + score >= dc)


@given(score=st.integers(-10, 40), dc=st.integers(0, 60), die=st.integers(2, 119))
def test_a_higher_die_never_gives_a_lower_degree(score, dc, die):
    assert resolve_degree(die + 1, score, dc) >= resolve_degree(die, score, dc)
