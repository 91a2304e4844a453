"""The syntax tree of a dice expression and its canonical notation.

Nodes are frozen, hashable values. `notation(node)` prints a tree so that parsing the text
gives back an equal tree; the grammar is documented in docs/dice-notation.md.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal as TypingLiteral

from tabletop.dice import limits

CompareOp = TypingLiteral["=", "<", "<=", ">", ">="]
KeepMode = TypingLiteral["kh", "kl", "dh", "dl"]
ArithmeticOp = TypingLiteral["+", "-", "*", "/"]

_COMPARATORS: dict[str, Callable[[int, int], bool]] = {
    "=": operator.eq,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}

USAGE_DIE_SIZES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
"""The usage-die chain, smallest first: a usage die steps down one place on a 1 or 2."""

RISK_DIE_SIDES = 6
"""Risk dice are d6; the risk happens if any shows a 1."""


@dataclass(frozen=True, slots=True)
class Compare:
    """A compare point such as `>=4`: which faces a re-roll, explosion or count applies to."""

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
        low, high = self.span(sides)
        return max(0, high - low + 1)

    def faces(self, sides: int) -> range:
        """The faces of a d`sides` this selects, in order."""
        low, high = self.span(sides)
        return range(low, high + 1)

    def __str__(self) -> str:
        return f"{self.op}{self.target}"


@dataclass(frozen=True, slots=True)
class Reroll:
    """Re-roll the first face while it matches: once (`ro`) or until it does not (`r`)."""

    when: Compare
    once: bool

    def __str__(self) -> str:
        when = str(self.when.target) if self.when.op == "=" else str(self.when)
        return ("ro" if self.once else "r") + when


@dataclass(frozen=True, slots=True)
class Explode:
    """Roll again and add while the new face matches (`on`, default: the maximum face).

    Penetrating explosions add each follow-up face minus one. `depth` bounds the follow-ups
    per die; None means the engine default (`limits.DEFAULT_EXPLOSION_DEPTH`).
    """

    on: Compare | None = None
    penetrating: bool = False
    depth: int | None = None

    @property
    def max_follow_ups(self) -> int:
        """The most follow-up dice one die may add: `depth`, or the engine default."""
        return limits.DEFAULT_EXPLOSION_DEPTH if self.depth is None else self.depth

    def triggers(self, face: int, sides: int) -> bool:
        """Whether `face` explodes (elementwise on a numpy array of faces, for sampling)."""
        return face == sides if self.on is None else self.on.matches(face)

    def __str__(self) -> str:
        text = "!"
        if self.penetrating:
            text += "p"
        if self.on is not None:
            text += str(self.on)
        if self.depth is not None:
            text += f":{self.depth}"
        return text


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

    def __str__(self) -> str:
        return f"{self.mode}{self.count}"


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
class Dice:
    """A pool of `count` dice with `sides` faces and its modifiers, applied in this order:
    re-roll the first face, explode, keep or drop, then sum (or count successes)."""

    count: int
    sides: int
    reroll: Reroll | None = None
    explode: Explode | None = None
    keep: Keep | None = None
    success: Compare | None = None

    @property
    def plain(self) -> bool:
        """True when the pool is just summed: no modifier at all."""
        return (
            self.reroll is None
            and self.explode is None
            and self.keep is None
            and (self.success is None)
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


Node = Integer | Name | Negate | BinaryOp | Dice | UsageDie | RiskDice


def most_dice(term: Dice | UsageDie | RiskDice) -> int:
    """The most dice one roll of a term can throw, counting one re-roll per die and every
    explosion follow-up."""
    if isinstance(term, UsageDie):
        return 1
    if isinstance(term, RiskDice):
        return term.count
    throws = 1 + (term.reroll is not None)
    if term.explode is not None:
        throws += term.explode.max_follow_ups
    return term.count * throws


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def dice_notation(node: Dice | UsageDie | RiskDice) -> str:
    """The canonical text of one dice term, modifiers in evaluation order."""
    if isinstance(node, UsageDie):
        return f"Ud{node.size}"
    if isinstance(node, RiskDice):
        return f"{node.count}d!"
    modifiers = [node.reroll, node.explode, node.keep, node.success]
    explode = node.explode
    if explode and explode.on is None and explode.depth is None and node.keep is None:
        # "8d6!>=5" would read as exploding on 5+; the count goes first: "8d6>=5!".
        modifiers = [node.reroll, node.success, node.explode]
    return f"{node.count}d{node.sides}" + "".join(str(m) for m in modifiers if m is not None)


def notation(node: Node) -> str:
    """The canonical text of a tree; `parse(notation(tree)) == tree`."""
    if isinstance(node, Integer):
        return str(node.value)
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Negate):
        inner = notation(node.operand)
        return f"-({inner})" if isinstance(node.operand, BinaryOp) else f"-{inner}"
    if isinstance(node, BinaryOp):
        return infix(
            node.op,
            notation(node.left),
            _op_of(node.left),
            notation(node.right),
            _op_of(node.right),
        )
    return dice_notation(node)


def _op_of(node: Node) -> str | None:
    return node.op if isinstance(node, BinaryOp) else None


def infix(op: str, left: str, left_op: str | None, right: str, right_op: str | None) -> str:
    """Join two operands with the fewest parentheses that keep the tree's shape.

    `left_op`/`right_op` are the operators at the top of each operand (None for a leaf)."""
    level = _PRECEDENCE[op]
    if left_op is not None and _PRECEDENCE[left_op] < level:
        left = f"({left})"
    if right_op is not None and _PRECEDENCE[right_op] <= level:
        right = f"({right})"
    return f"{left} {op} {right}"


def dice_terms(node: Node) -> list[Dice | UsageDie | RiskDice]:
    """Every dice term in the tree, left to right."""
    if isinstance(node, Dice | UsageDie | RiskDice):
        return [node]
    if isinstance(node, Negate):
        return dice_terms(node.operand)
    if isinstance(node, BinaryOp):
        return dice_terms(node.left) + dice_terms(node.right)
    return []


def names(node: Node) -> set[str]:
    """The names the tree needs bound before it can be rolled."""
    if isinstance(node, Name):
        return {node.name}
    if isinstance(node, Negate):
        return names(node.operand)
    if isinstance(node, BinaryOp):
        return names(node.left) | names(node.right)
    return set()
