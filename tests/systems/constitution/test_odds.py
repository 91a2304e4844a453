"""Exact check odds (C3-P01–P04) against closed forms, enumeration and sampling."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import distribution
from tabletop.systems.constitution import Options, check_odds, hit_point_odds, sample_degrees
from tabletop.systems.constitution.check import resolve_degree
from tabletop.systems.constitution.odds import (
    SERIES_REMAINDER,
    encounter_chance,
    exploding_d20,
    hunting_odds,
    improvement_chance,
    injury_odds,
    spell_improvement_mean,
)
from tests.effort import tried


def closed_form_success(ability: int, dc: int) -> Fraction:
    """C3-P01 without the natural 1: P(X ≥ t) of the exploding d20, t = DC − ability."""
    target = dc - ability
    if target <= 1:
        return Fraction(1)
    if target <= 20:
        return Fraction(21 - target, 20)
    return closed_form_success(ability, dc - 20) / 20


@pytest.mark.parametrize("ability", range(3, 19))
def test_c3_p01_success_at_dc_20_is_ability_plus_one_over_twenty(ability):
    """C3-P01: at DC 20, P = (a + 1) / 20 for a = 3..18."""
    assert check_odds(ability, 20).success == Fraction(ability + 1, 20)


@pytest.mark.parametrize("dc", [15, 20, 25, 30, 45, 61])
@pytest.mark.parametrize("ability", [0, 3, 10, 14, 18, 23])
def test_c3_p01_success_matches_the_closed_form(ability, dc):
    """C3-P01: the natural 1 matters only when a ≥ DC − 1, and then a − DC ≥ 4 still wins."""
    expected = closed_form_success(ability, dc)
    if ability >= dc - 1 and not ability - dc >= 4:
        expected -= Fraction(1, 20)
    assert check_odds(ability, dc, options=Options(natural_one="step")).success == expected


def test_c3_p02_direct_hit_chance():
    """C3-P02: +10 vs AC 20 → P(total ≥ 40) = P(X ≥ 30) = (1/20)(11/20)."""
    assert check_odds(10, 20).at_least(5) == Fraction(11, 400)


@pytest.mark.parametrize("net", [0, 1, 2, -1, -3])
@pytest.mark.parametrize("natural_one", ["step", "minus_five", "ignore"])
@pytest.mark.parametrize("rounding", ["floor", "ceil"])
def test_odds_equal_the_dice_engines_enumeration_with_bounded_explosions(
    net, natural_one, rounding
):
    """C3-A08: each die explodes, then the best or worst is kept; the degrees of every
    value of `Nd20!:3kh1` from the dice engine's exact distribution match ours."""
    options = Options(natural_one=natural_one, fail_degree_rounding=rounding)
    keep = "" if net == 0 else ("kh1" if net > 0 else "kl1")
    enumerated: dict[int, Fraction] = {}
    for value, chance in distribution(f"{1 + abs(net)}d20!:3{keep}"):
        signed = resolve_degree(value, 7, 21, options)
        enumerated[signed] = enumerated.get(signed, Fraction(0)) + chance
    ours = check_odds(
        7, 21, advantage=max(net, 0), disadvantage=max(-net, 0), options=options, depth=3
    )
    assert ours.degrees == enumerated
    assert ours.remainder == 0


def test_odds_equal_brute_force_over_every_face_sequence():
    """Two d20s with advantage, explosions cut after one follow-up: all 20^4 orderings."""
    counts: dict[int, int] = {}
    for a, a2, b, b2 in itertools.product(range(1, 21), repeat=4):
        first = a + (a2 if a == 20 else 0)
        second = b + (b2 if b == 20 else 0)
        signed = resolve_degree(max(first, second), 5, 20)
        counts[signed] = counts.get(signed, 0) + 1
    # Orderings where a die did not explode leave its follow-up face unused: each counted
    # 20 times, which the fractions cancel.
    total = 20**4
    expected = {d: Fraction(c, total) for d, c in counts.items()}
    assert check_odds(5, 20, advantage=1, depth=1).degrees == expected


@pytest.mark.parametrize("net", [0, 2, -2])
def test_the_exploding_series_is_summed_below_the_remainder(net):
    odds = check_odds(10, 20, advantage=max(net, 0), disadvantage=max(-net, 0))
    assert 0 < odds.remainder < SERIES_REMAINDER
    assert abs(float(sum(odds.degrees.values())) - 1) < 1e-14
    assert odds.success == 1 - sum(p for d, p in odds.degrees.items() if d < 0)


def test_a_single_exploding_d20_is_a_distribution():
    bounded = exploding_d20(4, bounded=True)
    assert sum(bounded.values()) == 1
    assert bounded[100] == Fraction(1, 20**5)


@pytest.mark.parametrize(
    ("score", "dc", "advantage", "disadvantage"),
    [(10, 20, 0, 0), (5, 25, 1, 0), (12, 18, 0, 2), (19, 20, 0, 0)],
)
def test_odds_match_sampling(score, dc, advantage, disadvantage):
    """Sampled degrees of 200,000 checks agree with the exact odds within 5 standard errors."""
    n = 200_000
    sampled = sample_degrees(score, dc, n, seed=3, advantage=advantage, disadvantage=disadvantage)
    exact = check_odds(score, dc, advantage=advantage, disadvantage=disadvantage)
    for signed, chance in exact.degrees.items():
        p = float(chance)
        if p < 1e-4:
            continue
        observed = np.count_nonzero(sampled == signed) / n
        assert abs(observed - p) < 5 * (p * (1 - p) / n) ** 0.5 + 1e-9, signed


@settings(max_examples=tried(40))
@given(
    score=st.integers(-5, 30),
    dc=st.integers(5, 45),
    advantage=st.integers(0, 3),
    disadvantage=st.integers(0, 3),
)
def test_odds_properties(score, dc, advantage, disadvantage):
    """Degrees sum to one; more advantage never lowers success; the JSON mirrors the odds."""
    odds = check_odds(score, dc, advantage=advantage, disadvantage=disadvantage)
    data = odds.to_json()
    assert abs(sum(data["degrees"].values()) - 1) < 1e-12
    assert 0 not in odds.degrees
    better = check_odds(score, dc, advantage=advantage + 1, disadvantage=disadvantage)
    assert better.success >= odds.success
    assert check_odds(score + 1, dc).success >= check_odds(score, dc).success


@pytest.mark.parametrize(
    ("hit_dice", "fatigue", "mean"),
    [
        (1, 0, Fraction(7, 2)),
        (1, 1, Fraction(91, 36)),
        (2, 1, Fraction(133, 24)),
        (3, 0, Fraction(21, 2)),
    ],
)
def test_c3_p04_hit_point_means(hit_dice, fatigue, mean):
    """C3-P04: keep the lowest X of X + F dice."""
    assert hit_point_odds(hit_dice, fatigue).mean == mean


@pytest.mark.parametrize(
    ("hit_dice", "fatigue", "approx"),
    [(1, 2, 2.0417), (1, 3, 1.7554), (2, 2, 4.6559), (2, 3, 4.0698), (3, 1, 8.7554)],
)
def test_c3_p04_hit_point_means_to_four_places(hit_dice, fatigue, approx):
    assert float(hit_point_odds(hit_dice, fatigue).mean) == pytest.approx(approx, abs=5e-5)


def test_c3_p05_injury_odds():
    """§ 6.6–6.8, § 6.11: STR 12 and will 8 at DC 24 — 9/20 and 5/20 (closed form)."""
    odds = injury_odds(12, 8, 24)
    assert odds.minor_wound == closed_form_success(12, 24) == Fraction(9, 20)
    assert odds.major_wound == Fraction(11, 20) and odds.dead == 0
    assert odds.standing == Fraction(5, 20)
    marked = injury_odds(12, 8, 24, may_take_major_wound=False)
    assert marked.dead == Fraction(11, 20) and marked.standing == Fraction(9, 20) * Fraction(5, 20)


def test_c3_p07_improvement_chance():
    """§ 4.9: (20 − a) / 20."""
    assert improvement_chance(12) == Fraction(8, 20)
    assert improvement_chance(20) == 0


def test_c3_p09_encounter_chance():
    """§ 13.5: 1 − (2/3)^(1 + ⌊miles/6⌋)."""
    assert encounter_chance(0) == Fraction(1, 3)
    assert encounter_chance(24) == 1 - Fraction(2, 3) ** 5


@pytest.mark.parametrize("rating", [0, 37, 50, 96, 100])
def test_c3_p10_spell_improvement_mean(rating):
    """C3-P10: Σ_{r>R} r/100 + (R/100)(R + 3.5), with the cap at 100 (C3-A20)."""
    above = sum(Fraction(r, 100) for r in range(rating + 1, 101))
    below = Fraction(rating, 100) * sum(Fraction(min(100, rating + g), 6) for g in range(1, 7))
    assert spell_improvement_mean(rating) == above + below
    if rating <= 94:
        assert below == Fraction(rating, 100) * (rating + Fraction(7, 2))


def test_c3_p08_hunting_odds():
    """§ 13.8: one hunter at 6 vs DC 15 succeeds 12/20; the day lost is 1 on a failure and
    d4/4 on a success; the worst of two hunters counts."""
    one = hunting_odds(6, 15)
    assert one.success == Fraction(12, 20)
    assert one.day_lost == Fraction(8, 20) + Fraction(12, 20) * Fraction(5, 8)
    s = Fraction(12, 20)
    loss = {Fraction(k, 4): s / 4 for k in range(1, 4)} | {Fraction(1): s / 4 + 1 - s}
    enumerated = sum(max(a, b) * pa * pb for a, pa in loss.items() for b, pb in loss.items())
    assert hunting_odds(6, 15, hunters=2).day_lost == enumerated
    assert hunting_odds(30, 0).rations_per_hunter > Fraction(5, 2)
