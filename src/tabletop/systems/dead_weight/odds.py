"""Exact odds of a test and the re-roll advisor.

`advise(test)` gives, for an open test, the exact chance of each outcome after each choice
the side to move may make, assuming both sides then follow the canonical policy (see
`solver`), and the best choice. `opening_odds` gives the odds before the dice are thrown;
`pool_odds` answers the command line's `odds` question from a bare pool size.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tabletop.systems.dead_weight.attribute_test import (
    AttributeTest,
    DauntlessRoll,
    Pass,
    Reroll,
    Resource,
    Side,
)
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.solver import (
    CANONICAL,
    CRITICAL,
    FATIGUE,
    GM,
    GREAT,
    HELPERS,
    PLAYER,
    SUCCESS,
    HelperSpec,
    Key,
    Solution,
    Spec,
    solve,
)

Choice = Reroll | Pass | DauntlessRoll


@dataclass(frozen=True, slots=True)
class TestOdds:
    """Exact chances of the four outcomes (they sum to 1) and of fatigue for the roller
    (and for each helper)."""

    __test__ = False  # not a pytest test class

    critical_failure: Fraction
    failure: Fraction
    success: Fraction
    great_success: Fraction
    fatigue: Fraction
    helper_fatigue: tuple[Fraction, ...] = ()

    @classmethod
    def from_value(cls, value: Any, scale: int) -> TestOdds:
        """Odds from a solver value (integers out of `scale`)."""
        return cls.from_fractions(tuple(Fraction(int(v), scale) for v in value))

    @classmethod
    def from_fractions(cls, values: tuple[Fraction, ...]) -> TestOdds:
        """Odds from exact values in the solver's columns."""
        return cls(
            critical_failure=values[CRITICAL],
            failure=1 - values[SUCCESS] - values[CRITICAL],
            success=values[SUCCESS] - values[GREAT],
            great_success=values[GREAT],
            fatigue=values[FATIGUE],
            helper_fatigue=tuple(values[HELPERS + 1 :]),
        )

    @classmethod
    def certain_failure(cls, helpers: int = 0) -> TestOdds:
        zero = Fraction(0)
        return cls(zero, Fraction(1), zero, zero, zero, (zero,) * helpers)

    @property
    def any_success(self) -> Fraction:
        return self.success + self.great_success

    def to_json(self) -> dict[str, Any]:
        """The stable contract of `tabletop dead-weight odds --json`."""
        keys = ("critical_failure", "failure", "success", "great_success", "fatigue")
        values = {key: getattr(self, key) for key in keys}
        data: dict[str, Any] = {key: float(value) for key, value in values.items()}
        data["exact"] = {key: f"{v.numerator}/{v.denominator}" for key, v in values.items()}
        if self.helper_fatigue:
            data["helper_fatigue"] = [float(v) for v in self.helper_fatigue]
        return data


@dataclass(frozen=True, slots=True)
class Advice:
    """The side to move, the odds after each of its legal choices, and the best one."""

    side: Side
    options: tuple[tuple[Choice, TestOdds], ...]
    best: Choice

    @property
    def odds(self) -> TestOdds:
        """The odds of the test if the side to move takes the best choice."""
        return next(odds for choice, odds in self.options if choice == self.best)


def spec_for(test: AttributeTest, key: Key = CANONICAL) -> Spec:
    """The solver's description of a test: its dice, re-rolls (as they were at the throw,
    so one solution serves the whole exchange) and every rule that judges the faces."""
    throw = test.throw()
    distinct = test.options.proficiency_distinct_dice
    return Spec(
        own_dice=test.thrown,
        budgets=_opening_budgets(test),
        take_lowest=test.take_lowest,
        count_all_thrown=throw.count_all_thrown,
        helpers=tuple(
            HelperSpec(2 if help.extra_effort else 1, h.hopeless, h.fatigue_counts)
            for help, h in zip(test.helpers, throw.helpers, strict=True)
        ),
        terrified=test.terrified,
        hopeless=test.hopeless,
        fatigue_counts=throw.fatigue_counts,
        keep_safe=throw.keep_safe,
        dauntless=test.dauntless,
        distinct=distinct,
        helper_dice_open_to_roller=test.options.main_may_modify_help_die,
        key=key,
    )


def _budget_vector(test: AttributeTest, used: dict[tuple[Resource, int], int]) -> tuple[int, ...]:
    b = test.budgets
    own = b.proficiency + used.get((Resource.PROFICIENCY, 0), 0)
    advantage = b.advantage + used.get((Resource.ADVANTAGE, 0), 0)
    vector = [own, advantage] if test.options.proficiency_distinct_dice else [own + advantage]
    vector += [
        left + used.get((Resource.HELPER_PROFICIENCY, i), 0)
        for i, left in enumerate(b.helpers, start=1)
    ]
    vector.append(b.disadvantage + used.get((Resource.DISADVANTAGE, 0), 0))
    return tuple(vector)


def _opening_budgets(test: AttributeTest) -> tuple[int, ...]:
    used: dict[tuple[Resource, int], int] = {}
    for die in test.dice:
        for resource in die.rerolls:
            owner = die.owner if resource == Resource.HELPER_PROFICIENCY else 0
            used[(resource, owner)] = used.get((resource, owner), 0) + 1
    return _budget_vector(test, used)


def _position(solution: Solution, test: AttributeTest) -> int:
    distinct = test.options.proficiency_distinct_dice
    return solution.position(
        [(d.owner, d.face, distinct and d.proficiency_used) for d in test.dice]
    )


def _resource_index(test: AttributeTest, choice: Reroll) -> int:
    first_helper = 2 if test.options.proficiency_distinct_dice else 1
    if choice.resource == Resource.PROFICIENCY:
        return 0
    if choice.resource == Resource.ADVANTAGE:
        return 1 if test.options.proficiency_distinct_dice else 0
    if choice.resource == Resource.HELPER_PROFICIENCY:
        return first_helper + choice.helper - 1
    return first_helper + len(test.helpers)


def advise(test: AttributeTest, key: Key = CANONICAL) -> Advice:
    """The odds after each legal choice of the side to move, and the best choice."""
    valued, scale = _values(test, key)
    return Advice(
        side=test.deciding,
        options=tuple((choice, TestOdds.from_value(value, scale)) for choice, value in valued),
        best=_best(valued, test.deciding, key),
    )


def best_choice(test: AttributeTest, key: Key = CANONICAL) -> Choice:
    """The canonical policy's choice for the side to move (what a bot plays)."""
    valued, _ = _values(test, key)
    return _best(valued, test.deciding, key)


def _best(valued: list[tuple[Choice, list[int]]], side: Side, key: Key) -> Choice:
    """The first choice with the best key: the player's highest, the GM's lowest."""
    sign = 1 if side == Side.PLAYER else -1

    def rank(item: tuple[Choice, list[int]]) -> tuple[int, ...]:
        return tuple(sign * direction * item[1][column] for column, direction in key)

    best = valued[0]
    for item in valued[1:]:
        if rank(item) > rank(best):
            best = item
    return best[0]


def _values(test: AttributeTest, key: Key) -> tuple[list[tuple[Choice, list[int]]], int]:
    """Each legal choice with its solver value, and the scale the values are out of."""
    if test.phase in ("announced", "finished") or test.automatic is not None:
        raise DeadWeightError("there is no choice to advise on: the test is not open")
    solution = solve(spec_for(test, key))
    position = _position(solution, test)
    if test.phase == "dauntless":
        assert solution.dauntless_options is not None
        declined, rolled = solution.dauntless_options
        return [
            (DauntlessRoll(roll=True), rolled[position].tolist()),
            (DauntlessRoll(roll=False), declined[position].tolist()),
        ], 36
    budget = _budget_vector(test, {})
    side = PLAYER if test.turn == Side.PLAYER else GM
    valued: list[tuple[Choice, list[int]]] = []
    for choice in test.choices():
        if isinstance(choice, Pass):
            value = solution.value(position, budget, 1 - side, test.passes + 1)
        else:
            assert isinstance(choice, Reroll)
            die = test.dice[choice.die]
            marked = test.options.proficiency_distinct_dice and die.proficiency_used
            die_type = solution.type_of(die.owner, marked, die.face)
            value = solution.reroll_value(position, budget, _resource_index(test, choice), die_type)
        valued.append((choice, value.tolist()))
    return valued, solution.scale(budget)


def opening_odds(test: AttributeTest, key: Key = CANONICAL) -> TestOdds:
    """The odds of an announced test before its dice are thrown."""
    if test.automatic is not None:
        return TestOdds.certain_failure(len(test.helpers))
    values = solve(spec_for(test, key)).opening()
    return TestOdds.from_fractions(values)


def pool_odds(
    dice: int,
    proficiency: int = 0,
    advantage: int = 0,
    disadvantage: int = 0,
    *,
    terrified: bool = False,
    hopeless: bool = False,
    check: bool = False,
    keep_safe: bool = False,
    extra_effort: bool = False,
    dauntless: bool = False,
    key: Key = CANONICAL,
) -> TestOdds:
    """Odds of a test from its pool size after modifiers (0 or less: the zero-dice rule),
    its proficiency and the announced advantages and disadvantages, netted (DW-A25)."""
    take_lowest = dice <= 0
    net = advantage - disadvantage
    spec = Spec(
        own_dice=2 - dice if take_lowest else dice,
        budgets=(proficiency + max(net, 0), max(-net, 0)),
        take_lowest=take_lowest,
        terrified=terrified,
        hopeless=hopeless,
        fatigue_counts=not (check or extra_effort),
        keep_safe=keep_safe,
        dauntless=dauntless,
        key=key,
    )
    return TestOdds.from_fractions(solve(spec).opening())
