"""Exact odds: checked against brute-force enumeration and against icepool."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from tabletop.dice import Distribution, distribution
from tabletop.errors import LimitError, RollError
from tests.dice.brute import enumerate_odds


def as_dict(odds: Distribution) -> dict[int, Fraction]:
    return dict(odds)


@pytest.mark.parametrize(
    ("expression", "question", "answer"),
    [
        ("2d6", lambda d: d.at_least(7), Fraction(7, 12)),
        ("4d6kh3", lambda d: d.mean, Fraction(15869, 1296)),
        ("3d!", lambda d: d.probability(1), Fraction(91, 216)),
        ("d20adv", lambda d: d.at_least(15), Fraction(51, 100)),
        ("d20dis", lambda d: d.at_least(15), Fraction(6 * 6, 400)),
        ("Ud8", lambda d: d.at_most(2), Fraction(1, 4)),
        ("1d6!p", lambda d: d.mean, None),
        ("3d6", lambda d: d.variance, Fraction(35, 4)),
    ],
)
def test_known_answers(expression, question, answer):
    odds = distribution(expression)
    if answer is None:
        # penetrating d6: E = 3.5 + (E - 1) / 6 gives 4, truncated at the default depth
        assert abs(float(odds.mean) - 4) < 1e-12
    else:
        assert question(odds) == answer


SMALL = [
    "3d6",
    "d20 + 5",
    "4d6kh3",
    "4d6dl1",
    "4d4dh2",
    "5d4kl2",
    "2d20kh1",
    "d20dis2",
    "3d4>=3",
    "4d4kh2>=3",
    "3d4<2",
    "d6!:3",
    "2d4!:3",
    "d6!>=5:3",
    "d6!p:4",
    "3d4!p:2kh2",
    "2d6ro1",
    "3d4ro<=2kh2",
    "Ud6",
    "Ud4 + Ud4",
    "3d!",
    "d6 * d4 - 3",
    "(d6 + d4) / 3",
    "-d8 / 3",
    "2d6 - d4 * 2",
    "d4!>=3:2 + 2d!",
    "2d6+STR",
]


@pytest.mark.parametrize("expression", SMALL)
def test_exact_odds_equal_brute_force_enumeration(expression):
    names = {"STR": 2}
    assert as_dict(distribution(expression, names)) == enumerate_odds(expression, names)


ORACLE = [
    ("3d6", lambda: 3 @ icepool.d6),
    ("10d6", lambda: 10 @ icepool.d6),
    ("100d6", lambda: 100 @ icepool.d6),
    ("4d6kh3", lambda: icepool.d6.highest(4, 3)),
    ("20d8kl7", lambda: icepool.d8.lowest(20, 7)),
    ("12d10dh4", lambda: icepool.d10.lowest(12, 8)),
    ("2d20kh1", lambda: icepool.d20.highest(2, 1)),
    ("8d6>=4", lambda: 8 @ (icepool.d6 >= 4)),
    ("30d10>=8", lambda: 30 @ (icepool.d10 >= 8)),
    ("d6!:9", lambda: icepool.d6.explode(depth=9)),
    ("d20!", lambda: icepool.d20.explode(depth=20)),
    ("3d6!>=5:5", lambda: 3 @ icepool.d6.explode([5, 6], depth=5)),
    ("d6r1", lambda: icepool.d6.reroll([1], depth="inf")),
    ("4d6r<3", lambda: 4 @ icepool.d6.reroll([1, 2], depth="inf")),
    ("4d6r1kh3", lambda: icepool.d6.reroll([1], depth="inf").highest(4, 3)),
    ("2d10ro<=2", lambda: 2 @ icepool.d10.reroll([1, 2], depth=1)),
    ("6d6!:4kh2", lambda: icepool.d6.explode(depth=4).highest(6, 2)),
    ("d100", lambda: icepool.d100),
]


@pytest.mark.parametrize(("expression", "oracle"), ORACLE, ids=[case[0] for case in ORACLE])
def test_exact_odds_agree_with_icepool(expression, oracle):
    ours = as_dict(distribution(expression))
    theirs = oracle()
    assert ours == {
        outcome: Fraction(quantity, theirs.denominator()) for outcome, quantity in theirs.items()
    }


def test_probabilities_are_exact_fractions_in_lowest_terms_that_sum_to_one():
    odds = distribution("4d6kh3 + d20!:3 - 2d!")
    total = sum(p for _, p in odds)
    assert total == 1
    data = odds.to_json()
    for outcome in data["outcomes"]:
        numerator, denominator = map(int, outcome["exact"].split("/"))
        assert Fraction(numerator, denominator) == odds.probability(outcome["value"])
        assert Fraction(numerator, denominator).denominator == denominator
    assert [o["value"] for o in data["outcomes"]] == sorted(o["value"] for o in data["outcomes"])


def test_at_least_and_at_most_are_complements():
    odds = distribution("3d6")
    for threshold in range(2, 20):
        assert odds.at_least(threshold) + odds.at_most(threshold - 1) == 1


@pytest.mark.parametrize(
    "expression",
    ["1000d6kh500", "10000d1000", "3000d6 * 3000d6", "1d1000000 * 1d1000000", "5d1000!:100"],
)
def test_exact_odds_past_their_cost_limits_are_refused(expression):
    with pytest.raises(LimitError, match="sample it instead"):
        distribution(expression)


def test_exact_odds_refuse_a_possible_division_by_zero():
    with pytest.raises(RollError, match="divide by zero"):
        distribution("6 / (d2 - 1)")


def test_exact_odds_need_every_name_bound():
    with pytest.raises(RollError, match="'STR'"):
        distribution("d6 + STR")
