"""The notes' other probabilities (DW-P04, P07, P08), from the engine's own rules and
tables by enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from tabletop.dice import FixedDice, distribution
from tabletop.systems.dead_weight import ArmourPart, armour_roll, system_table


def test_dw_p04_one_armour_die_blocks_half_the_time_and_breaks_a_third():
    part = ArmourPart(points=1, maximum=1)
    rolls = [armour_roll(1, part, FixedDice([face])) for face in range(1, 7)]
    assert Fraction(sum(r.blocked for r in rolls), 6) == Fraction(1, 2)
    assert Fraction(sum(r.damage for r in rolls), 6) == Fraction(1, 3)
    assert Fraction(sum(r.blocked and r.damage for r in rolls), 6) == Fraction(1, 6)


def test_dw_p04_no_armour_point_lost_over_two_dice():
    part = ArmourPart(points=2, maximum=2)
    kept = sum(
        armour_roll(2, part, FixedDice(faces)).damage == 0
        for faces in itertools.product(range(1, 7), repeat=2)
    )
    assert Fraction(kept, 36) == Fraction(2, 3) ** 2


@pytest.mark.parametrize("earlier", range(0, 7))
def test_dw_p07_death_from_a_mortal_wound(earlier):
    """P(dead) = P(1d6 + earlier >= 7) = earlier/6, and row 6 has 1/6 while earlier <= 5."""
    table = system_table("mortal-wounds")
    names = [table.lookup(face + earlier).name for face in range(1, 7)]
    assert Fraction(names.count("Dead"), 6) == Fraction(min(earlier, 6), 6)
    assert Fraction(names.count("On the verge of death"), 6) == (
        Fraction(1, 6) if earlier <= 5 else 0
    )


def test_dw_p08_mishap_rows_with_two_earlier_mishaps():
    table = system_table("mishaps")
    odds = distribution("3d6 + 2")
    endless = sum(p for value, p in odds if table.lookup(value).name == "Endless horror")
    assert endless == Fraction(10, 216)
    assert all(table.lookup(value).name != "Sick backlash" for value, _ in odds)
