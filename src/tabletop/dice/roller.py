"""Rolling: evaluate a syntax tree with an injected dice source, recording every die."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from tabletop.dice import limits
from tabletop.dice.dialects import DEFAULT_DIALECT, Dialect, dialect_named
from tabletop.dice.prepare import prepare
from tabletop.dice.results import (
    Die,
    Rolled,
    RolledCall,
    RolledComputed,
    RolledGroup,
    RolledInteger,
    RolledLabel,
    RolledName,
    RolledNegate,
    RolledOp,
    RolledPool,
    RolledRisk,
    RolledUsage,
)
from tabletop.dice.roll import Roll
from tabletop.dice.source import DiceSource, dice_source
from tabletop.dice.syntax import (
    RISK_DIE_SIDES,
    BinaryOp,
    Call,
    ComputedDice,
    Dice,
    Group,
    Integer,
    Keep,
    Label,
    Name,
    Negate,
    Node,
    Number,
    PooledKeep,
    RiskDice,
    UsageDie,
)
from tabletop.errors import LimitError, RollError


def roll(
    expression: str | Node,
    dice: DiceSource | None = None,
    *,
    seed: int | None = None,
    names: Mapping[str, int] | None = None,
    dialect: str | Dialect = DEFAULT_DIALECT,
) -> Roll:
    """Roll a dice expression, read in `dialect`, and keep the record of every die.

    `dice` is the source of faces; without one, `seed` picks a reproducible stream and no
    seed means the operating system's random source. `names` binds names such as `STR`.
    """
    reading = dialect_named(dialect)
    prepared = prepare(expression, names, reading)
    source = dice if dice is not None else dice_source(seed)
    result = _Roller(source, prepared.names, reading).evaluate(prepared.tree)
    return Roll(prepared.text, result.value, result, reading.name)


_WHOLE = {"+": operator.add, "-": operator.sub, "*": operator.mul}
"""The operations whose result on two ints is an int, done without checking it is whole."""

_COMPARED = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
"""d20's comparisons, 1 when they hold and 0 when not."""


def arithmetic(op: str, left: Number, right: Number) -> Number:
    """The operations of the notation: `/` divides rounding down (toward minus infinity),
    `÷` divides exactly (a whole quotient stays an int), `rem` and `mod` are the remainders
    signed as the dividend and as the divisor, `**` raises to a whole power."""
    if type(left) is int and type(right) is int and op in _WHOLE:
        return _WHOLE[op](left, right)
    if op in _COMPARED:
        return int(_COMPARED[op](left, right))
    if op == "+":
        return exact(left + right)
    if op == "-":
        return exact(left - right)
    if op == "*":
        return exact(left * right)
    if op == "**":
        if right < 0 and left == 0:
            raise RollError("zero raised to a negative power (a division by zero)")
        return exact(Fraction(left) ** int(right)) if right < 0 else exact(left ** int(right))
    if right == 0:
        raise RollError("division by zero")
    if op == "/":
        return int(left // right)
    if op == "mod":
        return exact(left % right)
    if op == "rem":
        remainder = exact(abs(left) % abs(right))
        return remainder if left >= 0 else -remainder
    if isinstance(left, int) and isinstance(right, int):
        quotient, remainder = divmod(left, right)
        return quotient if remainder == 0 else Fraction(left, right)
    return exact(Fraction(left) / right)


def exact(value: Number) -> Number:
    """A value as an int when it is whole, so whole values stay ints everywhere."""
    if type(value) is Fraction and value.denominator == 1:  # not isinstance: an ABC's check
        return value.numerator
    return value


def apply(function: str, value: Number) -> Number:
    """floor, ceil, round (halves up, as JavaScript's Math.round), abs, trunc."""
    if function == "abs":
        return abs(value)
    if function == "floor":
        return math.floor(value)
    if function == "ceil":
        return math.ceil(value)
    if function == "round":
        return math.floor(value + Fraction(1, 2))
    return math.trunc(value)


class _Roller:
    __slots__ = ("cap", "dice_rolled", "left", "names", "source")

    def __init__(self, source: DiceSource, names: Mapping[str, int], dialect: Dialect) -> None:
        self.source = source
        self.names = names
        self.dice_rolled = 0
        self.cap = (dialect.max_dice, dialect.cap_name) if dialect.max_dice else None
        self.left: dict[str, int | None] = {}
        """What the pool being thrown may still re-roll and explode, where it is limited."""

    def evaluate(self, node: Node) -> Rolled:
        step = _STEPS.get(type(node))
        if step is None:
            raise TypeError(f"not a dice expression node: {node!r}")
        return step(self, node)

    def operation(self, node: BinaryOp) -> RolledOp:
        left = self.evaluate(node.left)
        right = self.evaluate(node.right)
        return RolledOp(node.op, left, right, arithmetic(node.op, left.value, right.value))

    def integer(self, node: Integer) -> RolledInteger:
        return RolledInteger(node.value)

    def negate(self, node: Negate) -> RolledNegate:
        operand = self.evaluate(node.operand)
        return RolledNegate(operand, -operand.value)

    def call(self, node: Call) -> RolledCall:
        operand = self.evaluate(node.operand)
        return RolledCall(node.function, operand, apply(node.function, operand.value))

    def label(self, node: Label) -> RolledLabel:
        operand = self.evaluate(node.operand)
        return RolledLabel(node.text, node.trailing, operand, operand.value)

    def computed(self, node: ComputedDice) -> RolledComputed:
        count = self.evaluate(node.count)
        sides = None if isinstance(node.sides, Integer) else self.evaluate(node.sides)
        faces = node.sides.value if sides is None else sides.value  # type: ignore[union-attr]
        pool = self.pool(node.pool(int(count.value), int(faces)))
        return RolledComputed(count, pool, pool.value, sides)

    def name(self, node: Name) -> RolledName:
        return RolledName(node.name, self.names[node.name])

    def usage(self, node: UsageDie) -> RolledUsage:
        return RolledUsage(node, self.die(node.size))

    def risk(self, node: RiskDice) -> RolledRisk:
        faces = tuple(self.die(RISK_DIE_SIDES) for _ in range(node.count))
        return RolledRisk(node, faces, int(1 in faces))

    def charge(self, count: int) -> None:
        """Count `count` more dice thrown, refusing the roll past the limit."""
        self.dice_rolled += count
        if self.cap is not None and self.dice_rolled > self.cap[0]:
            raise LimitError(f"the roll needed more than {self.cap[0]:,} dice; {self.cap[1]}")
        if self.dice_rolled > limits.MAX_DICE:
            raise LimitError(
                f"the roll needed more than {limits.MAX_DICE:,} dice "
                "(counting re-rolls and explosions)"
            )

    def allowed(self, rule: str) -> bool:
        """Whether the pool may re-roll (or explode) once more, counting it when limited."""
        left = self.left.get(rule)
        if left is None:
            return True
        if left == 0:
            return False
        self.left[rule] = left - 1
        return True

    def die(self, sides: int) -> int:
        self.charge(1)
        return self.source.roll(sides)

    def pool(self, term: Dice) -> RolledPool:
        """A pool's dice and value, its dice marked at Roll20's critical points and shown in
        the order it asks for."""
        rolled = self.thrown(term)
        if term.critical is not None or term.fumble is not None:
            rolled = replace(rolled, dice=tuple(_marked(term, die) for die in rolled.dice))
        if term.order is not None:
            descending = term.order == "descending"
            ordered = sorted(rolled.dice, key=lambda die: die.value, reverse=descending)
            rolled = replace(rolled, dice=tuple(ordered))
        return rolled

    def thrown(self, term: Dice) -> RolledPool:
        if term.reroll_place is not None:
            return self.rerolled_by_place(term)
        sides = term.sides
        if term.plain:
            self.charge(term.count)
            throw = self.source.roll
            faces = [throw(sides) for _ in range(term.count)]
            dice = tuple(Die(sides, (face,), face) for face in faces)
            return RolledPool(term, dice, sum(faces))
        self.left = {
            "reroll": None if term.reroll is None else term.reroll.limit,
            "explode": None if term.explode is None else term.explode.limit,
        }
        if term.mapped:  # custom faces or per-die bounds: no explosions
            throws = [self.mapped_die(term) for _ in range(term.count)]
        elif term.explode is not None and term.explode.separate:
            throws = [throw for _ in range(term.count) for throw in self.separate_dice(term)]
        else:
            throws = [self.modified_die(term) for _ in range(term.count)]
        values = [throw.value for throw in throws]
        kept = [True] * len(throws) if term.keep is None else _kept_by_value(term.keep, values)
        if term.pick is not None:
            kept = [k and term.pick.stays(v) for k, v in zip(kept, values, strict=True)]
        fates = list(zip(throws, kept, strict=True))
        if not term.scored:
            dice = tuple(throw.die(sides, k) for throw, k in fates)
            return RolledPool(term, dice, sum(throw.value for throw, k in fates if k))
        dice = tuple(throw.die(sides, k, *_counted(term, throw.value, k)) for throw, k in fates)
        return RolledPool(term, dice, sum(term.score(throw.value) for throw, k in fates if k))

    def rerolled_by_place(self, term: Dice) -> RolledPool:
        """d20's `4d6rol1`: every die thrown, then the lowest (highest) re-rolled once, the
        earlier die first among equals; `4d6ral1`: the lowest adds a die of its own."""
        assert term.reroll_place is not None
        place = term.reroll_place.place
        faces = [self.die(term.sides) for _ in range(term.count)]
        chosen = _kept_by_value(place, faces)
        if term.reroll_place.adds:
            first = chosen.index(True)
            dice = [
                Die(term.sides, (face,), face, triggered=i == first) for i, face in enumerate(faces)
            ]
            added = self.die(term.sides)
            dice.append(Die(term.sides, (added,), added, added=True))
            return RolledPool(term, tuple(dice), sum(faces) + added)
        dice = []
        for face, again in zip(faces, chosen, strict=True):
            new = self.die(term.sides) if again else face
            dice.append(Die(term.sides, (new,), new, (face,) if again else ()))
        return RolledPool(term, tuple(dice), sum(die.value for die in dice))

    def first_face(self, term: Dice) -> tuple[int, tuple[int, ...]]:
        """A die's face after its re-roll rule, and the faces thrown away on the way."""
        face = self.die(term.sides)
        if term.reroll is None:
            return face, ()
        rerolled: list[int] = []
        for step in term.reroll.steps:
            while step.when.matches(face) and self.allowed("reroll"):
                rerolled.append(face)
                face = self.die(term.sides)
                if step.once:
                    break
        return face, tuple(rerolled)

    def mapped_die(self, term: Dice) -> _Throw:
        """A die of custom faces or bounded values: what it shows and what it is worth."""
        face, rerolled = self.first_face(term)
        return _Throw((term.shown(face),), term.value(face), rerolled)

    def separate_dice(self, term: Dice) -> list[_Throw]:
        """One die and the dice its explosion adds to the pool, each a die of its own."""
        explode = term.explode
        assert explode is not None
        sides = term.sides
        face, rerolled = self.first_face(term)
        dice = [_Throw((face,), face, rerolled)]
        shift = -1 if explode.penetrating else 0
        while (
            explode.triggers(face, sides)
            and len(dice) <= explode.max_follow_ups
            and self.allowed("explode")
        ):
            dice[-1].triggered = True
            face = self.die(sides)
            dice.append(_Throw((face,), face + shift, (), explode.penetrating, added=True))
        return dice

    def modified_die(self, term: Dice) -> _Throw:
        """One die with its re-rolls and explosion chain."""
        sides = term.sides
        face, rerolled = self.first_face(term)
        explode = term.explode
        if explode is None:
            return _Throw((face,), face, rerolled)
        faces = [face]
        value = face
        depth = explode.max_follow_ups
        shift = -1 if explode.penetrating else 0
        while explode.triggers(face, sides) and len(faces) <= depth and self.allowed("explode"):
            face = self.die(sides)
            faces.append(face)
            value += face + shift
        return _Throw(tuple(faces), value, rerolled, explode.penetrating)

    def group(self, node: Group) -> RolledGroup:
        """Each member rolled; the kept ones by total (the earlier first among equals)."""
        members = tuple(self.evaluate(member) for member in node.members)
        values = [member.value for member in members]
        kept = [True] * len(members)
        if node.keep is not None:
            kept = _kept_by_value(node.keep, values)
        if node.pick is not None:
            kept = [bool(node.pick.stays(value)) for value in values]
        success = failure = None
        if node.success is not None:
            success = tuple(
                bool(node.success.matches(v)) and k for v, k in zip(values, kept, strict=True)
            )
        if node.failure is not None:
            failure = tuple(
                bool(node.failure.matches(v)) and k for v, k in zip(values, kept, strict=True)
            )
        total = sum(node.scored(v) for v, k in zip(values, kept, strict=True) if k)
        return RolledGroup(members, tuple(kept), success, exact(total), failure)

    def pooled(self, node: PooledKeep) -> RolledGroup:
        """Each pool thrown, then the keep over all their dice, each pool shown with its own."""
        pools = [self.thrown(pool) for pool in node.pools]
        dice = [die for pool in pools for die in pool.dice]
        kept = iter(_kept_by_value(node.keep, [die.value for die in dice]))
        member: Rolled | None = None
        for pool in pools:
            marked = tuple(die if next(kept) else die._replace(kept=False) for die in pool.dice)
            value = sum(die.value for die in marked if die.kept)
            rolled = RolledPool(pool.term, marked, value)
            member = (
                rolled if member is None else RolledOp("+", member, rolled, member.value + value)
            )
        assert member is not None
        return RolledGroup((member,), (True,), None, member.value)


@dataclass(slots=True)
class _Throw:
    """One die as thrown, before its place in the pool (kept, counted) is known."""

    faces: tuple[int, ...]
    value: int
    rerolled: tuple[int, ...]
    penetrating: bool = False
    triggered: bool = False
    added: bool = False

    def die(
        self, sides: int, kept: bool, success: bool | None = None, failure: bool | None = None
    ) -> Die:
        """The die on the record, built once with its fate."""
        return Die(
            sides,
            self.faces,
            self.value,
            self.rerolled,
            kept,
            success,
            self.penetrating,
            failure,
            self.triggered,
            self.added,
        )


def _counted(term: Dice, value: int, kept: bool) -> tuple[bool | None, bool | None]:
    """Whether a die is marked a success, and a failure (Roll20's `f`; Foundry's `df` and
    `sf`, where a failure is no success)."""
    hit = None if term.success is None else kept and bool(term.success.matches(value))
    if term.deduct is not None:
        fails = kept and bool(term.fails(value))
        return hit and not fails, fails
    failure = term.failure
    return hit, None if failure is None else kept and bool(failure.matches(value))


_STEPS: dict[type, Callable[[_Roller, Any], Rolled]] = {
    Dice: _Roller.pool,
    BinaryOp: _Roller.operation,
    Integer: _Roller.integer,
    Negate: _Roller.negate,
    Call: _Roller.call,
    Label: _Roller.label,
    Group: _Roller.group,
    PooledKeep: _Roller.pooled,
    ComputedDice: _Roller.computed,
    Name: _Roller.name,
    UsageDie: _Roller.usage,
    RiskDice: _Roller.risk,
}
"""How each kind of node is rolled, found by its type (one dictionary look-up rather than a
chain of isinstance checks on every node of every roll)."""


def _kept_by_value(keep: Keep, values: list[Number]) -> list[bool]:
    """Which of `values` a keep/drop keeps; among equal values the earlier one."""
    kept_count = keep.kept_count(len(values))
    sign = -1 if keep.keeps_highest else 1
    order = sorted(range(len(values)), key=lambda i: (sign * values[i], i))
    chosen = set(order[:kept_count])
    return [index in chosen for index in range(len(values))]


def _marked(term: Dice, die: Die) -> Die:
    """A die marked when the face it shows is a critical success or failure point."""
    critical = term.critical is not None and bool(term.critical.matches(die.face))
    fumble = term.fumble is not None and bool(term.fumble.matches(die.face))
    return die._replace(critical=critical, fumble=fumble)
