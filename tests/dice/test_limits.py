"""Limits hold for every entry point alike: roll, exact odds and sampling accept the same
expressions, refuse the same ones, and refuse before doing the work (docs/dice-notation.md,
"Limits")."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.dice import FixedDice, SeededDice, distribution, notation, parse, roll, sample
from tabletop.dice.syntax import Dice
from tabletop.errors import LimitError, RollError


@pytest.mark.parametrize(
    "expression",
    [
        "500d1!",  # always explodes: 10,500 dice at worst
        "1d1000000r<1000000",  # expects a million re-rolls
        "d1000000 * d1000000 * d1000000 * d1000000",  # beyond 64-bit integers
        "9" * 20,
        "d2 * 1" + "0" * 30,
    ],
)
def test_every_entry_point_refuses_the_same_expressions(expression):
    for attempt in (
        lambda: roll(expression, SeededDice(1)),
        lambda: distribution(expression),
        lambda: sample(expression, 10, seed=1),
    ):
        with pytest.raises(LimitError):
            attempt()


@pytest.mark.parametrize(
    "expression",
    [
        "10000d6>=4",
        "1000d20!:9>=4",
        "10000d6kh2",
        "d1000 * d2999",
        "d1000000",
        "-d1000000",
        "+".join(["d999999r<9!>9"] * 40),
    ],
)
def test_exact_odds_refuse_costly_questions_before_the_work(expression):
    with pytest.raises(LimitError, match="sample it instead"):
        distribution(expression)


def test_adding_a_constant_costs_nothing_extra():
    assert distribution("400d6 + 1").min == 401


def test_trees_built_by_hand_pass_the_same_limits():
    with pytest.raises(LimitError):
        sample(Dice(10**9, 6), 1, seed=1)
    with pytest.raises(LimitError):
        distribution(Dice(1, 10**8))
    with pytest.raises(LimitError):
        roll(Dice(10**9, 6), SeededDice(1))
    assert roll(Dice(3, 6), FixedDice([1, 2, 3])).total == 6


def test_sampling_is_bounded_by_the_dice_it_could_throw():
    with pytest.raises(LimitError, match="could throw 1,000,000,000 dice"):
        sample("10000d6", 100_000, seed=1)


def test_re_roll_until_samples_directly_from_the_faces_that_stand():
    totals = sample("d100r<100", 100_000, seed=1)
    assert np.all(totals == 100)


@pytest.mark.parametrize("value", [2.5, "2", True, None])
def test_names_are_checked_alike_everywhere(value):
    for attempt in (
        lambda: roll("d6+STR", SeededDice(1), names={"STR": value}),
        lambda: distribution("d6+STR", {"STR": value}),
        lambda: sample("d6+STR", 10, seed=1, names={"STR": value}),
    ):
        with pytest.raises(RollError, match="whole number"):
            attempt()


@pytest.mark.parametrize("seed", [-1, 2.5, True])
def test_a_seed_is_a_whole_number_zero_or_more(seed):
    with pytest.raises(RollError, match="seed"):
        roll("3d6", seed=seed)
    with pytest.raises(RollError, match="seed"):
        sample("3d6", 3, seed=seed)


@pytest.mark.parametrize("face", [2.5, True, "3"])
def test_fixed_faces_must_be_whole_numbers(face):
    with pytest.raises(RollError, match="whole number"):
        FixedDice([face])


def test_a_success_count_before_a_plain_explosion_keeps_its_meaning():
    tree = parse("8d6>=5!")
    assert notation(tree) == "8d6>=5!"
    assert parse(notation(tree)) == tree
    assert distribution("8d6>=5!") != distribution("8d6!>=5")


def test_a_name_starting_with_ud_is_a_name():
    assert roll("Udo + 1", names={"Udo": 2}).total == 3
