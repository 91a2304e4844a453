"""A deliberately naive reference for the re-roll exchange: every ordered throw, every die,
every face, with Fractions and the rules' own `judge`. Slow, simple, and independent of the
solver's face classes, packed positions and numpy layers; tests compare the two."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from tabletop.systems.dead_weight.evaluation import HelperThrow, Throw, judge
from tabletop.systems.dead_weight.solver import CANONICAL, Key

Value = tuple[Fraction, ...]


@dataclass(frozen=True)
class Rules:
    own_dice: int
    proficiency: int = 0
    advantage: int = 0
    disadvantage: int = 0
    helper_dice: int = 0
    helper_proficiency: int = 0
    take_lowest: bool = False
    count_all_thrown: bool = False
    terrified: bool = False
    hopeless: bool = False
    helper_hopeless: bool = False
    fatigue_counts: bool = True
    keep_safe: bool = False
    dauntless: bool = False
    distinct: bool = False
    helper_open: bool = False
    key: Key = CANONICAL


def _leaf(rules: Rules, faces: tuple[int, ...], owners: tuple[int, ...], extra=()) -> Value:
    own = tuple(f for f, o in zip(faces, owners, strict=True) if o == 0)
    helper = tuple(f for f, o in zip(faces, owners, strict=True) if o == 1)
    helpers = (HelperThrow(helper, rules.helper_hopeless),) if rules.helper_dice else ()
    verdict = judge(
        Throw(
            own=own,
            take_lowest=rules.take_lowest,
            count_all_thrown=rules.count_all_thrown,
            helpers=helpers,
            dauntless=extra,
            terrified=rules.terrified,
            hopeless=rules.hopeless,
            fatigue_counts=rules.fatigue_counts,
            keep_safe=rules.keep_safe,
        )
    )
    one = Fraction(1)
    helper_tired = [one if tired else Fraction(0) for tired in verdict.helper_fatigue]
    return (
        one if verdict.outcome.succeeded else Fraction(0),
        one if verdict.outcome.value == "great success" else Fraction(0),
        one if verdict.fatigue else Fraction(0),
        one if verdict.outcome.value == "critical failure" else Fraction(0),
        sum(helper_tired, Fraction(0)),
        *helper_tired,
    )


def _better(a: Value, b: Value, player: bool, key: Key) -> bool:
    for column, sign in key:
        x, y = a[column] * sign, b[column] * sign
        if x != y:
            return x > y if player else x < y
    return False


def _mean(values: list[Value]) -> Value:
    return tuple(sum(column, Fraction(0)) / len(values) for column in zip(*values, strict=True))


def solve_brute(rules: Rules) -> Value:
    """The exact value before the throw, by enumerating everything."""
    owners = (0,) * rules.own_dice + (1,) * rules.helper_dice

    @cache
    def ended(faces: tuple[int, ...]) -> Value:
        declined = _leaf(rules, faces, owners)
        if not (rules.dauntless and declined[0] == 1):
            return declined
        rolled = _mean(
            [
                _leaf(rules, faces, owners, extra)
                for extra in itertools.product(range(1, 7), repeat=2)
            ]
        )
        return rolled if _better(rolled, declined, True, rules.key) else declined

    @cache
    def value(
        faces: tuple[int, ...],
        marks: tuple[bool, ...],
        budgets: tuple[int, ...],
        gm: bool,
        passes: int,
    ) -> Value:
        if passes == 2:
            return ended(faces)
        best = value(faces, marks, budgets, not gm, passes + 1)
        for resource, left in enumerate(budgets):
            if not left or (resource == 3) != gm:
                continue
            for die, owner in enumerate(owners):
                if resource == 0 and (owner == 1 and not rules.helper_open):
                    continue
                if resource == 0 and rules.distinct and marks[die]:
                    continue
                if resource == 1 and owner == 1 and not rules.helper_open:
                    continue
                if resource == 2 and (owner != 1 or (rules.distinct and marks[die])):
                    continue
                after = list(budgets)
                after[resource] -= 1
                marked = list(marks)
                if resource in (0, 2):
                    marked[die] = True
                outcomes = [
                    value(
                        (*faces[:die], face, *faces[die + 1 :]),
                        tuple(marked),
                        tuple(after),
                        not gm,
                        0,
                    )
                    for face in range(1, 7)
                ]
                option = _mean(outcomes)
                if _better(option, best, not gm, rules.key):
                    best = option
        return best

    budgets = (rules.proficiency, rules.advantage, rules.helper_proficiency, rules.disadvantage)
    throws = itertools.product(range(1, 7), repeat=len(owners))
    return _mean([value(faces, (False,) * len(owners), budgets, False, 0) for faces in throws])
