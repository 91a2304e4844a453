"""Exact distributions are computed once, and keep/drop pools are sampled from them exactly
(issue 17, item 7)."""

from __future__ import annotations

import time
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.dice import distribution, parse, sample
from tabletop.dice.cache import SizedCache
from tabletop.dice.sampling import _sampling_table
from tabletop.errors import LimitError


def _implied(expression: str) -> dict[int, Fraction]:
    """The odds a pool's drawing table gives each value, read off the table itself."""
    table = _sampling_table(parse(expression))
    assert table is not None
    if table.slots is not None:
        counts = Counter(int(value) for value in table.slots)
        return {value: Fraction(count, table.total) for value, count in counts.items()}
    implied: Counter[int] = Counter()
    for column, value in enumerate(table.values):
        kept = int(table.threshold[column])
        implied[int(value)] += kept
        implied[int(table.alias_values[column])] += table.total - kept
    units = len(table.values) * table.total
    return {value: Fraction(count, units) for value, count in implied.items() if count}


@pytest.mark.parametrize("expression", ["4d6kh3", "8d10kh4", "12d12kh6", "10d6kh3>=4", "5d8dl2"])
def test_a_pools_drawing_table_gives_exactly_the_exact_odds(expression):
    odds = distribution(expression)
    assert _implied(expression) == {value: odds.probability(value) for value in odds.outcomes}


@given(
    count=st.integers(1, 9),
    sides=st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20]),
    keep=st.integers(1, 9),
    highest=st.booleans(),
)
def test_every_small_keep_pool_is_drawn_with_its_exact_odds(count, sides, keep, highest):
    expression = f"{count}d{sides}{'kh' if highest else 'kl'}{min(keep, count)}"
    odds = distribution(expression)
    assert _implied(expression) == {value: odds.probability(value) for value in odds.outcomes}


def test_sampled_keep_pools_follow_the_exact_mean():
    totals = sample("4d6kh3", 200_000, seed=7)
    assert abs(totals.mean() - 15869 / 1296) < 0.02  # 6 standard errors
    assert totals.min() >= 3 and totals.max() <= 18


def test_sampling_a_pool_is_reproducible_from_its_seed():
    assert np.array_equal(sample("8d10kh4", 5_000, seed=3), sample("8d10kh4", 5_000, seed=3))


def test_a_pool_too_large_for_exact_odds_is_still_sampled_die_by_die():
    assert _sampling_table(parse("1000d6kh500")) is None
    totals = sample("1000d6kh500", 1_000, seed=1)
    assert totals.min() >= 500 and totals.max() <= 3000


def test_an_exact_distribution_asked_again_is_the_same_one_and_costs_nothing():
    first = distribution("20d6kh10")
    start = time.perf_counter()
    again = distribution("20d6kh10")
    assert again is first and time.perf_counter() - start < 0.005


def test_a_refusal_is_remembered_too():
    with pytest.raises(LimitError):
        distribution("1000d6kh500")
    start = time.perf_counter()
    with pytest.raises(LimitError):
        distribution("1000d6kh500")
    assert time.perf_counter() - start < 0.005


def test_a_shared_distribution_cannot_be_changed_by_a_caller():
    with pytest.raises(TypeError):
        distribution("2d6").weights[7] = 0  # type: ignore[index]


def test_the_cache_forgets_the_least_recently_used_past_its_budget():
    cache: SizedCache[str] = SizedCache(budget=10)
    cache.put("a", "A", 4)
    cache.put("b", "B", 4)
    assert cache.get("a") == "A"  # now a is the most recently used
    cache.put("c", "C", 4)
    assert cache.get("b") is None and cache.get("a") == "A" and cache.get("c") == "C"
    cache.put("huge", "H", 11)
    assert cache.get("huge") is None and len(cache) == 2
