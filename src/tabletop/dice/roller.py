"""Rolling: evaluate a syntax tree with an injected dice source, recording every die."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

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


def arithmetic(op: str, left: Number, right: Number) -> Number:
    """The operations of the notation: `/` divides rounding down (toward minus infinity),
    `÷` divides exactly (a whole quotient stays an int), `rem` and `mod` are the remainders
    signed as the dividend and as the divisor, `**` raises to a whole power."""
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
    if isinstance(value, Fraction) and value.denominator == 1:
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
        if isinstance(node, Dice):
            return self.pool(node)
        if isinstance(node, BinaryOp):
            left = self.evaluate(node.left)
            right = self.evaluate(node.right)
            return RolledOp(node.op, left, right, arithmetic(node.op, left.value, right.value))
        if isinstance(node, Integer):
            return RolledInteger(node.value)
        if isinstance(node, Negate):
            operand = self.evaluate(node.operand)
            return RolledNegate(operand, -operand.value)
        if isinstance(node, Call):
            operand = self.evaluate(node.operand)
            return RolledCall(node.function, operand, apply(node.function, operand.value))
        if isinstance(node, Label):
            operand = self.evaluate(node.operand)
            return RolledLabel(node.text, node.trailing, operand, operand.value)
        if isinstance(node, Group):
            return self.group(node)
        if isinstance(node, PooledKeep):
            return self.pooled(node)
        if isinstance(node, ComputedDice):
            count = self.evaluate(node.count)
            pool = self.pool(Dice(int(count.value), node.sides))
            return RolledComputed(count, pool, pool.value)
        if isinstance(node, Name):
            return RolledName(node.name, self.names[node.name])
        if isinstance(node, UsageDie):
            return RolledUsage(node, self.die(node.size))
        if isinstance(node, RiskDice):
            faces = tuple(self.die(RISK_DIE_SIDES) for _ in range(node.count))
            return RolledRisk(node, faces, int(1 in faces))
        raise TypeError(f"not a dice expression node: {node!r}")

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
        sides = term.sides
        self.left = {
            "reroll": None if term.reroll is None else term.reroll.limit,
            "explode": None if term.explode is None else term.explode.limit,
        }
        if term.plain and term.faces is None:
            self.charge(term.count)
            throw = self.source.roll
            faces = [throw(sides) for _ in range(term.count)]
            dice = tuple(Die(sides, (face,), face) for face in faces)
            return RolledPool(term, dice, sum(faces))
        if term.mapped:  # custom faces or per-die bounds: no explosions
            rolled = []
            for _ in range(term.count):
                face, rerolled = self.first_face(term)
                rolled.append(Die(sides, (term.shown(face),), term.value(face), tuple(rerolled)))
        elif term.explode is not None and term.explode.separate:
            rolled = [die for _ in range(term.count) for die in self.separate_dice(term)]
        else:
            rolled = [self.modified_die(term) for _ in range(term.count)]
        if term.keep is not None:
            rolled = self.mark_kept(term, rolled)
        if term.pick is not None:
            pick = term.pick
            rolled = [die if pick.stays(die.value) else replace(die, kept=False) for die in rolled]
        if term.scored:
            rolled = [self.counted(term, die) for die in rolled]
            value = sum(term.score(die.value) for die in rolled if die.kept)
        else:
            value = sum(die.value for die in rolled if die.kept)
        return RolledPool(term, tuple(rolled), value)

    def first_face(self, term: Dice) -> tuple[int, list[int]]:
        """A die's face after its re-roll rule, and the faces thrown away on the way."""
        face = self.die(term.sides)
        rerolled: list[int] = []
        for step in () if term.reroll is None else term.reroll.steps:
            while step.when.matches(face) and self.allowed("reroll"):
                rerolled.append(face)
                face = self.die(term.sides)
                if step.once:
                    break
        return face, rerolled

    def separate_dice(self, term: Dice) -> list[Die]:
        """One die and the dice its explosion adds to the pool, each a die of its own."""
        explode = term.explode
        assert explode is not None
        sides = term.sides
        face, rerolled = self.first_face(term)
        dice = [Die(sides, (face,), face, tuple(rerolled))]
        shift = -1 if explode.penetrating else 0
        while (
            explode.triggers(face, sides)
            and len(dice) <= explode.max_follow_ups
            and self.allowed("explode")
        ):
            dice[-1] = replace(dice[-1], triggered=True)
            face = self.die(sides)
            dice.append(
                Die(sides, (face,), face + shift, penetrating=explode.penetrating, added=True)
            )
        return dice

    def modified_die(self, term: Dice) -> Die:
        """One die with its re-rolls and explosion chain."""
        sides = term.sides
        face, rerolled = self.first_face(term)
        faces = [face]
        value = face
        explode = term.explode
        if explode is not None:
            depth = explode.max_follow_ups
            shift = -1 if explode.penetrating else 0
            while explode.triggers(face, sides) and len(faces) <= depth and self.allowed("explode"):
                face = self.die(sides)
                faces.append(face)
                value += face + shift
        return Die(
            sides,
            tuple(faces),
            value,
            tuple(rerolled),
            penetrating=explode is not None and explode.penetrating,
        )

    def group(self, node: Group) -> RolledGroup:
        """Each member rolled; the kept ones by total (the earlier first among equals)."""
        members = tuple(self.evaluate(member) for member in node.members)
        values = [member.value for member in members]
        kept = [True] * len(members)
        if node.keep is not None:
            kept = _kept_by_value(node.keep, values)
        success = None
        if node.success is not None:
            success = tuple(
                bool(node.success.matches(v)) and k for v, k in zip(values, kept, strict=True)
            )
        total = sum(node.scored(v) for v, k in zip(values, kept, strict=True) if k)
        return RolledGroup(members, tuple(kept), success, exact(total))

    def pooled(self, node: PooledKeep) -> RolledGroup:
        """Each pool thrown, then the keep over all their dice, each pool shown with its own."""
        pools = [self.thrown(pool) for pool in node.pools]
        dice = [die for pool in pools for die in pool.dice]
        kept = iter(_kept_by_value(node.keep, [die.value for die in dice]))
        member: Rolled | None = None
        for pool in pools:
            marked = tuple(die if next(kept) else replace(die, kept=False) for die in pool.dice)
            value = sum(die.value for die in marked if die.kept)
            rolled = RolledPool(pool.term, marked, value)
            member = (
                rolled if member is None else RolledOp("+", member, rolled, member.value + value)
            )
        assert member is not None
        return RolledGroup((member,), (True,), None, member.value)

    @staticmethod
    def counted(term: Dice, die: Die) -> Die:
        """A kept die marked as a success, or a failure (Roll20's `f`; Foundry's `df` and
        `sf`, where a failure is no success)."""
        kept, value = die.kept, die.value
        hit = None if term.success is None else kept and bool(term.success.matches(value))
        if term.deduct is not None:
            fails = kept and bool(term.fails(value))
            return replace(die, success=hit and not fails, failure=fails)
        failure = term.failure
        failed = None if failure is None else kept and bool(failure.matches(value))
        return replace(die, success=hit, failure=failed)

    @staticmethod
    def mark_kept(term: Dice, dice: list[Die]) -> list[Die]:
        """Mark the dropped dice; among equal values the earlier die is kept."""
        assert term.keep is not None
        kept = _kept_by_value(term.keep, [die.value for die in dice])
        return [
            die if stays else replace(die, kept=False)
            for die, stays in zip(dice, kept, strict=True)
        ]


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
    return replace(die, critical=critical, fumble=fumble)
