"""The syntax tree of a dice expression, shared by every dialect.

Nodes are frozen, hashable values. `tabletop.dice.spelling.notation(node, dialect)` prints a
tree so that parsing the text in that dialect gives back an equal tree; the grammar of each
dialect is documented in docs/dice-notation.md.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal as TypingLiteral

from tabletop.dice import limits

CompareOp = TypingLiteral["=", "<", "<=", ">", ">=", "even", "odd"]
KeepMode = TypingLiteral["kh", "kl", "dh", "dl"]
SortOrder = TypingLiteral["ascending", "descending"]
Deduct = TypingLiteral["one", "face"]
"""What a failing die is worth under Foundry's `df` (minus one) and `sf` (minus its face)."""
ArithmeticOp = TypingLiteral[
    "+", "-", "*", "/", "÷", "rem", "mod", "**", "==", "!=", "<", "<=", ">", ">="
]
"""`/` is whole-number division rounded down (tabletop's `/`); `÷` is exact division, whose
value may be a fraction (Roll20's, Foundry's and d20's `/`). `rem` is the remainder signed as
the dividend (JavaScript's `%`: Roll20, Foundry; `-7 % 3` is -1), `mod` the one signed as the
divisor (Python's `%`: d20; `-7 % 3` is 2); `**` raises to a whole power (Roll20); the
comparisons are 1 when they hold and 0 when not (d20's `1d20 >= 10`)."""

COMPARISONS: tuple[str, ...] = ("==", "!=", "<", "<=", ">", ">=")
"""The operators that compare two values (d20's), 1 when true and 0 when false."""

DIVISIONS: tuple[str, ...] = ("/", "÷", "rem", "mod")
"""The operators that divide, and so refuse a divisor of zero."""

WRITTEN: dict[str, str] = {"÷": "/", "rem": "%", "mod": "%"}
"""How an operator of the tree is written where it differs from its name in the tree."""
Function = TypingLiteral["floor", "ceil", "round", "abs", "trunc"]
"""`round` rounds halves up (JavaScript's Math.round, which Roll20 and Foundry use);
`trunc` rounds toward zero (d20's whole-number total)."""
Number = int | Fraction
"""A value of an expression: whole, or a fraction once exact division is involved."""

_COMPARATORS: dict[str, Callable[[int, int], bool]] = {
    "=": operator.eq,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "even": lambda face, _: face % 2 == 0,
    "odd": lambda face, _: face % 2 == 1,
}

USAGE_DIE_SIZES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
"""The usage-die chain, smallest first: a usage die steps down one place on a 1 or 2."""

FATE_FACES: tuple[int, ...] = (-1, 0, 1)
"""A Fate (Fudge) die: minus, blank, plus."""

TENS_FACES: tuple[int, ...] = tuple(range(0, 100, 10))
"""d20's `d%`: a tens die, 0 to 90."""

COIN_FACES: tuple[int, ...] = (0, 1)
"""Foundry's coin, `dc`: tails (0) or heads (1)."""

RISK_DIE_SIDES = 6
"""Risk dice are d6; the risk happens if any shows a 1."""


@dataclass(frozen=True, slots=True)
class Compare:
    """A compare point such as `>=4`: which faces a re-roll, explosion or count applies to.
    Counts may also select even or odd values (Foundry's `even`, `odd`; target unused)."""

    op: CompareOp
    target: int

    def matches(self, face: int) -> bool:
        """Whether `face` is selected (elementwise on a numpy array of faces, for sampling)."""
        return _COMPARATORS[self.op](face, self.target)

    def span(self, sides: int) -> tuple[int, int]:
        """The lowest and highest face of a d`sides` this selects (low > high: none)."""
        op, target = self.op, self.target
        if op == "=":
            low, high = target, target
        elif op[0] == "<":
            low, high = 1, target if op == "<=" else target - 1
        else:
            low, high = target if op == ">=" else target + 1, sides
        return max(low, 1), min(high, sides)

    def count(self, sides: int) -> int:
        """How many faces of a d`sides` this selects, without visiting them."""
        if self.op in ("even", "odd"):
            return sides // 2 if self.op == "even" else (sides + 1) // 2
        low, high = self.span(sides)
        return max(0, high - low + 1)

    def faces(self, sides: int) -> range:
        """The faces of a d`sides` this selects, in order."""
        low, high = self.span(sides)
        return range(low, high + 1)

    def __str__(self) -> str:
        return self.op if self.op in ("even", "odd") else f"{self.op}{self.target}"


@dataclass(frozen=True, slots=True)
class AnyOf:
    """Several compare points of one re-roll: a face matches when it matches any of them
    (Roll20's `2d8r1r3r5r7`, d20's `rr1rr3`)."""

    points: tuple[Compare, ...]

    def matches(self, face: int) -> bool:
        """Whether `face` is selected (elementwise on a numpy array of faces, for sampling)."""
        hit = self.points[0].matches(face)
        for point in self.points[1:]:
            hit = hit | point.matches(face)
        return hit

    def faces(self, sides: int) -> list[int]:
        """The faces of a d`sides` this selects, in order."""
        return sorted(set().union(*(point.faces(sides) for point in self.points)))

    def count(self, sides: int) -> int:
        """How many faces of a d`sides` this selects, from the spans (without visiting them)."""
        spans = sorted(point.span(sides) for point in self.points)
        total, reached = 0, 0
        for low, high in spans:
            low = max(low, reached + 1)
            if high >= low:
                total += high - low + 1
                reached = high
        return total

    def __str__(self) -> str:
        return " or ".join(str(point) for point in self.points)


@dataclass(frozen=True, slots=True)
class Reroll:
    """Re-roll the first face while it matches: once (`ro`) or until it does not (`r`)."""

    when: Compare | AnyOf
    once: bool
    limit: int | None = None
    """At most this many re-rolls over the whole pool, first dice first (Foundry's
    `20d20r1=1` re-rolls a single 1); None: no such limit."""
    then: Reroll | None = None
    """A further re-roll applied to the face this one leaves (Foundry's `r1r3`: a 1 re-rolled
    into a 3 is re-rolled again; d20's `rr1ro3`)."""

    @property
    def steps(self) -> tuple[Reroll, ...]:
        """This re-roll and those applied after it, in order."""
        return (self,) if self.then is None else (self, *self.then.steps)


@dataclass(frozen=True, slots=True)
class Explode:
    """Roll again and add while the new face matches (`on`, default: the maximum face).

    Penetrating explosions add each follow-up face minus one. `depth` bounds the follow-ups
    per die; None means the engine default (`limits.DEFAULT_EXPLOSION_DEPTH`). A compounding
    explosion (`separate` False) adds its follow-ups into the die that exploded; a separate
    one adds them to the pool as dice of their own, which keep/drop and counts then see.
    """

    on: Compare | AnyOf | None = None
    penetrating: bool = False
    depth: int | None = None
    separate: bool = False
    limit: int | None = None
    """At most this many follow-ups over the whole pool (Foundry's `5d6x2=6`); None: none."""

    @property
    def max_follow_ups(self) -> int:
        """The most follow-up dice one die may add: `depth`, or the engine default."""
        return limits.DEFAULT_EXPLOSION_DEPTH if self.depth is None else self.depth

    def triggers(self, face: int, sides: int) -> bool:
        """Whether `face` explodes (elementwise on a numpy array of faces, for sampling)."""
        return face == sides if self.on is None else self.on.matches(face)


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep or drop the highest or lowest `count` dice of a pool."""

    mode: KeepMode
    count: int

    def kept_count(self, pool: int) -> int:
        """How many dice of a pool of `pool` dice stay."""
        return self.count if self.mode in ("kh", "kl") else pool - self.count

    @property
    def keeps_highest(self) -> bool:
        return self.mode in ("kh", "dl")


@dataclass(frozen=True, slots=True)
class Pick:
    """Keep (or drop) the dice whose value matches, whatever their place: d20's `k3` keeps
    the dice showing 3, `p<3` drops those under 3; a die not kept counts nothing."""

    when: Compare | AnyOf
    keep: bool

    def stays(self, value: int) -> bool:
        """Whether a die of this value is kept (elementwise on numpy arrays)."""
        return self.when.matches(value) * 1 == (1 if self.keep else 0)


@dataclass(frozen=True, slots=True)
class Integer:
    value: int


@dataclass(frozen=True, slots=True)
class Name:
    """A named number bound when rolling, such as an ability score: `2d6+STR`."""

    name: str


@dataclass(frozen=True, slots=True)
class Negate:
    operand: Node


@dataclass(frozen=True, slots=True)
class BinaryOp:
    op: ArithmeticOp
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Call:
    """A function of one value: `floor(7/2)`."""

    function: Function
    operand: Node


@dataclass(frozen=True, slots=True)
class Label:
    """Words kept with a value and shown, never evaluated: `2d6[fire]`, or (`trailing`) the
    rest of the line after a whole expression, `1d20+5 Roll for initiative`."""

    operand: Node
    text: str
    trailing: bool = False


@dataclass(frozen=True, slots=True)
class Group:
    """Expressions rolled together and judged by their totals: `{4d6, 3d8}kh1` keeps the
    better total, `{3d6+3, 2d10}>15` counts the totals past 15 (Roll20's groups, Foundry's
    pools, d20's sets). Among equal totals the earlier member is kept."""

    members: tuple[Node, ...]
    keep: Keep | None = None
    success: Compare | None = None
    pick: Pick | None = None
    """d20's keep or drop by value (`(1, 2, 3)k3`): a member not kept counts nothing."""
    failure: Compare | None = None
    """Roll20's failures after a count (`{a, b}>40f<10`): a member matching takes one away."""

    def scored(self, value: Number) -> Number:
        """What a kept member's total adds: itself, or 1 when it is a success and -1 when it
        is a failure (elementwise on numpy arrays); nothing when a pick does not keep it."""
        if self.pick is not None:
            return value * self.pick.stays(value)
        if self.success is None:
            return value
        if self.failure is None:
            return self.success.matches(value) * 1
        return self.success.matches(value) * 1 - self.failure.matches(value) * 1


@dataclass(frozen=True, slots=True)
class PlacedReroll:
    """d20's `ro` and `ra` with a selector of place: `4d6rol1` re-rolls the lowest die once
    (`roh2` the highest two); `4d6ral1` adds one die for the lowest, which stays (d20 adds one
    die at most, for the first it selects)."""

    place: Keep
    adds: bool = False


@dataclass(frozen=True, slots=True)
class Dice:
    """A pool of `count` dice with `sides` faces and its modifiers, applied in this order:
    re-roll the first face, explode, keep or drop, then sum (or count successes).

    `faces`, when given, are the values of the faces 1 to `sides` (a Fate die's -1, 0, +1);
    such dice take keep/drop and counts, not re-rolls or explosions. `minimum` and `maximum`
    bound each die's value after its re-roll (Foundry's `min2`, d20's `mi2`); they take no
    explosion."""

    count: int
    sides: int
    reroll: Reroll | None = None
    explode: Explode | None = None
    keep: Keep | None = None
    success: Compare | None = None
    faces: tuple[int, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    failure: Compare | None = None
    """Roll20's failures (`3d6>3f1`): each kept die matching it takes one from the count."""
    critical: Compare | AnyOf | None = None
    """Roll20's critical success point (`1d20cs>19`): dice showing it are marked, nothing more."""
    fumble: Compare | AnyOf | None = None
    """Roll20's critical failure point (`1d20cf<3`): dice showing it are marked, nothing more."""
    order: SortOrder | None = None
    """Roll20's sorting (`8d6s`, `8d6sd`): the dice are shown lowest (or highest) first."""
    deduct: Deduct | None = None
    """Foundry's `df` and `sf`: each kept die that fails (matches `failure`, or, when that is
    None, is not a success) is worth minus one or minus its face, whatever else it was; the
    others are worth their value, or 1 and 0 under a success count."""

    pick: Pick | None = None
    """d20's keep or drop by face (`k3`, `p<3`), at the place of a keep."""
    reroll_place: PlacedReroll | None = None
    """d20's `4d6rol1` and `4d6ral1`: dice chosen by place after every die is thrown; the
    pool's only modifier."""

    @property
    def scored(self) -> bool:
        """True when dice add scores rather than their values (counts, `df`, `sf`, picks)."""
        return self.success is not None or self.deduct is not None or self.pick is not None

    def score(self, value: int) -> int:
        """What a die of this value adds: 1 a success, -1 a Roll20 failure (both: 0); under
        `df`/`sf`, a failure's minus one or minus face instead; nothing when a pick drops
        it; elementwise on numpy arrays."""
        counted = self.counted(value)
        return counted if self.pick is None else self.pick.stays(value) * counted

    def counted(self, value: int) -> int:
        """What a kept die of this value adds (see `score`)."""
        hits = value if self.success is None else self.success.matches(value) * 1
        if self.deduct is None:
            return hits if self.failure is None else hits - self.failure.matches(value) * 1
        fails = self.fails(value)
        lost = 1 if self.deduct == "one" else value
        return hits - fails * (hits + lost)

    def fails(self, value: int) -> int:
        """1 when a die of this value fails under `df`/`sf`, else 0 (elementwise)."""
        if self.failure is not None:
            return self.failure.matches(value) * 1
        assert self.success is not None
        return 1 - self.success.matches(value) * 1

    def shown(self, face: int) -> int:
        """What face number `face` shows: itself, unless the faces say otherwise."""
        return face if self.faces is None else self.faces[face - 1]

    def value(self, face: int) -> int:
        """What face number `face` is worth: what it shows, within the bounds."""
        value = self.shown(face)
        if self.minimum is not None:
            value = max(value, self.minimum)
        if self.maximum is not None:
            value = min(value, self.maximum)
        return value

    @property
    def mapped(self) -> bool:
        """True when a die's value is not simply its face number (custom faces, bounds)."""
        return self.faces is not None or self.minimum is not None or self.maximum is not None

    @property
    def plain(self) -> bool:
        """True when the pool is just summed: no modifier at all."""
        return (
            self.reroll is None
            and self.reroll_place is None
            and self.explode is None
            and self.keep is None
            and self.success is None
            and self.deduct is None
            and self.pick is None
            and not self.mapped
        )


@dataclass(frozen=True, slots=True)
class UsageDie:
    """Dead Weight's usage die `Ud8`: roll it; on a 1 or 2 it steps down the chain."""

    size: int

    @property
    def next_size(self) -> int | None:
        """The die it becomes after a 1 or 2; None when the item is used up."""
        index = USAGE_DIE_SIZES.index(self.size)
        return USAGE_DIE_SIZES[index - 1] if index else None


@dataclass(frozen=True, slots=True)
class RiskDice:
    """Dead Weight's risk dice `2d!`: roll that many d6; the risk happens if any shows a 1.

    Its value is 1 when the risk happens and 0 otherwise."""

    count: int


@dataclass(frozen=True, slots=True)
class PooledKeep:
    """Roll20's group of one sum of pools with a keep: `{4d6+3d8}k4` keeps the 4 best of
    all seven dice (among equal values the earlier die)."""

    pools: tuple[Dice, ...]
    """Plain pools added together."""
    keep: Keep


@dataclass(frozen=True, slots=True)
class ComputedDice:
    """A pool whose number of dice or of sides is rolled first (Roll20, Foundry): `(1d4)d6kh1`
    rolls 1d4, then that many d6, keeping the best; `2d(1d6)` rolls 1d6 for the sides."""

    count: Node
    sides: Node
    modifiers: Dice | None = None
    """The pool's modifiers, on a pool of the most dice a roll may throw (fixed sides only)."""

    def pool(self, count: int, sides: int) -> Dice:
        """The pool one roll throws once its count and sides are known: a keep of more dice
        than it has keeps them all, a drop of as many drops them all."""
        template = self.modifiers
        if template is None or count == 0:
            return Dice(count, sides)
        keep = template.keep
        if keep is not None:
            keep = Keep(keep.mode, min(keep.count, count))
        return replace(template, count=count, sides=sides, keep=keep)


Node = (
    Integer
    | Name
    | Negate
    | BinaryOp
    | Call
    | Label
    | Group
    | Dice
    | UsageDie
    | RiskDice
    | ComputedDice
    | PooledKeep
)


def most_dice(term: Dice | UsageDie | RiskDice) -> int:
    """The most dice one roll of a term can throw, counting one re-roll per die and every
    explosion follow-up."""
    if isinstance(term, UsageDie):
        return 1
    if isinstance(term, RiskDice):
        return term.count
    count, reroll, explode = term.count, term.reroll, term.explode
    rerolls = 0 if reroll is None else count * len(reroll.steps)
    if reroll is not None and reroll.limit is not None:
        rerolls = reroll.limit
    if reroll is not None and reroll.once and reroll.limit is not None:
        rerolls = min(count, reroll.limit)
    if term.reroll_place is not None:
        rerolls = 1 if term.reroll_place.adds else term.reroll_place.place.count
    follow_ups = 0 if explode is None else count * explode.max_follow_ups
    if explode is not None and explode.limit is not None:
        follow_ups = min(follow_ups, explode.limit)
    return count + rerolls + follow_ups


def expected_rerolls(term: Dice) -> Fraction:
    """The re-rolls a pool's "re-roll until" rules expect (a later step may see its faces
    more often than a fresh die does: at most always)."""
    expected = Fraction(0)
    if term.reroll is None or term.reroll.limit is not None:
        return expected
    for place, step in enumerate(term.reroll.steps):
        if not step.once:
            matching = step.when.count(term.sides)
            seen = matching if place == 0 else term.sides
            expected += Fraction(term.count * seen, term.sides - matching)
    return expected


def limited(term: Dice) -> bool:
    """Whether a pool's re-rolls or explosions are limited to a count over the whole pool."""
    return (term.reroll is not None and term.reroll.limit is not None) or (
        term.explode is not None and term.explode.limit is not None
    )


def children(node: Node) -> tuple[Node, ...]:
    """The operands of a node, left to right (none for a leaf)."""
    if isinstance(node, BinaryOp):
        return (node.left, node.right)
    if isinstance(node, Negate | Call | Label):
        return (node.operand,)
    if isinstance(node, Group):
        return node.members
    if isinstance(node, ComputedDice):
        return (node.count, node.sides)
    if isinstance(node, PooledKeep):
        return node.pools
    return ()


def dice_terms(node: Node) -> list[Dice | UsageDie | RiskDice]:
    """Every dice term in the tree, left to right."""
    if isinstance(node, Dice | UsageDie | RiskDice):
        return [node]
    return [term for child in children(node) for term in dice_terms(child)]


def whole(node: Node) -> bool:
    """Whether every value `node` can take is a whole number (no exact division escapes)."""
    if isinstance(node, BinaryOp):
        if node.op == "**":  # a negative power of a whole number is a fraction
            return whole(node.left) and never_negative(node.right)
        if node.op in COMPARISONS:
            return True
        return node.op == "/" or (node.op != "÷" and whole(node.left) and whole(node.right))
    if isinstance(node, Call):
        return node.function != "abs" or whole(node.operand)
    if isinstance(node, Negate | Label):
        return whole(node.operand)
    if isinstance(node, Group):
        return node.success is not None or all(whole(member) for member in node.members)
    return True


def never_negative(node: Node) -> bool:
    """Whether `node` is sure never to be negative, judged from its shape alone (False when
    unsure): numbers, plain dice, and sums, products and powers of such."""
    if isinstance(node, Integer):
        return node.value >= 0
    if isinstance(node, Dice):
        lowest = (node.minimum, node.maximum)
        return (
            node.faces is None
            and node.failure is None
            and node.deduct is None
            and all(bound is None or bound >= 0 for bound in lowest)
        )
    if isinstance(node, Label):
        return never_negative(node.operand)
    if isinstance(node, Call):
        return node.function == "abs" or never_negative(node.operand)
    if isinstance(node, BinaryOp) and node.op == "**":
        return never_negative(node.left)
    if isinstance(node, BinaryOp) and node.op in COMPARISONS:
        return True
    if isinstance(node, BinaryOp) and node.op in ("+", "*", "/", "÷"):
        return never_negative(node.left) and never_negative(node.right)
    return isinstance(node, UsageDie | RiskDice | ComputedDice | PooledKeep)
