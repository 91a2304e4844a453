"""Sampling many rolls at once agrees with the exact odds.

The agreement test is a chi-square goodness-of-fit test with a fixed seed. Bins with an
expected count under 5 are pooled; the statistic must stay under the 99.99th percentile
of the chi-square distribution for its degrees of freedom (Wilson-Hilferty approximation),
so a wrong rule fails it while a correct one passes with this fixed seed.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop.dice import distribution, sample
from tabletop.errors import LimitError, RollError

Z_99_99 = 3.719
"""Standard normal quantile for 0.9999."""


def chi_square_critical(degrees: int) -> float:
    term = 2 / (9 * degrees)
    return degrees * (1 - term + Z_99_99 * math.sqrt(term)) ** 3


def chi_square(expression: str, n: int, seed: int, sampled: str | None = None) -> tuple[float, int]:
    """The statistic and degrees of freedom for samples of `sampled` (default: the same
    expression) against the exact odds of `expression`."""
    odds = distribution(expression)
    totals = sample(sampled or expression, n, seed=seed)
    counts = dict(zip(*np.unique(totals, return_counts=True), strict=True))
    observed_bins, expected_bins = [], []
    observed, expected = 0.0, 0.0
    for value, probability in odds:
        observed += counts.get(value, 0)
        expected += float(probability) * n
        if expected >= 5:
            observed_bins.append(observed)
            expected_bins.append(expected)
            observed, expected = 0.0, 0.0
    if expected_bins:
        observed_bins[-1] += observed
        expected_bins[-1] += expected
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed_bins, expected_bins, strict=True))
    return statistic, len(expected_bins) - 1


@pytest.mark.parametrize(
    "expression",
    [
        "3d6",
        "4d6kh3",
        "4d6dl1 + d4",
        "5d6kl2",
        "d20adv2",
        "8d6>=4",
        "4d6kh2>=4",
        "d6!:5",
        "2d6!>=5:4",
        "d8!p:6",
        "3d6r1",
        "3d6ro<3kh2",
        "Ud12",
        "4d!",
        "(d10 - d6) * 2",
        "d20 / d4",
    ],
)
def test_sampled_frequencies_agree_with_exact_odds(expression):
    statistic, degrees = chi_square(expression, 200_000, seed=20261121)
    assert set(np.unique(sample(expression, 20_000, seed=3))) <= set(
        distribution(expression).outcomes
    )
    assert degrees >= 1
    assert statistic < chi_square_critical(degrees)


def test_the_chi_square_test_catches_a_subtly_wrong_rule():
    # Re-rolling 1s until they stop versus re-rolling them once: close, but not the same.
    statistic, degrees = chi_square("3d6r1", 200_000, seed=20261121, sampled="3d6ro1")
    assert statistic > chi_square_critical(degrees)


def test_the_same_seed_gives_the_same_samples():
    assert np.array_equal(sample("4d6kh3", 1000, seed=5), sample("4d6kh3", 1000, seed=5))


def test_samples_come_back_in_chunks_of_any_size():
    totals = sample("100d6", 60_000, seed=1)
    assert totals.shape == (60_000,) and totals.dtype == np.int64
    assert totals.min() >= 100 and totals.max() <= 600


def test_zero_samples_is_an_empty_array():
    assert sample("3d6", 0, seed=1).shape == (0,)


@pytest.mark.parametrize("n", [-1, 10_000_001, 2.5, True])
def test_a_bad_number_of_samples_is_refused(n):
    with pytest.raises(LimitError):
        sample("3d6", n)


def test_sampling_refuses_division_by_zero_and_unbound_names():
    with pytest.raises(RollError):
        sample("6 / (d2 - 1)", 1000, seed=1)
    with pytest.raises(RollError):
        sample("d6 + STR", 10, seed=1)
    assert sample("d6 + STR", 10, seed=1, names={"STR": 100}).min() > 100
