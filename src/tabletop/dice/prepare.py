"""The one gate every entry point passes: parse, bind names, and bound every value.

`roll`, `distribution` and `sample` accept the same expressions and refuse the same ones:
a tree built by hand is re-read from its notation so the parser's limits apply to it too,
names must be bound to whole numbers, and every value any part of the expression can take
must fit in a signed 64-bit integer (so sampling never wraps around and every probability
and mean can be shown as a float).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from tabletop.dice import limits
from tabletop.dice.parser import parse
from tabletop.dice.syntax import (
    BinaryOp,
    Dice,
    Integer,
    Name,
    Negate,
    Node,
    RiskDice,
    UsageDie,
    names,
    notation,
)
from tabletop.errors import LimitError, RollError

Bounds = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Prepared:
    """An expression ready to evaluate: its tree and its bound names."""

    tree: Node
    names: Mapping[str, int]

    @property
    def text(self) -> str:
        """The canonical notation (docs/dice-notation.md)."""
        return _canonical(self.tree)


def prepare(expression: str | Node, bound: Mapping[str, int] | None = None) -> Prepared:
    """Check an expression and its names once, the same way for every entry point."""
    text = expression if isinstance(expression, str) else _canonical(expression)
    tree, needed = _read(text)
    if not needed:
        return Prepared(tree, {})
    given = dict(bound or {})
    missing = sorted(needed - given.keys())
    if missing:
        raise RollError(f"the expression uses {missing[0]!r} but no value was given for it")
    for name in needed:
        value = given[name]
        if not isinstance(value, int) or isinstance(value, bool):
            raise RollError(f"the value given for {name!r} must be a whole number")
        if abs(value) > limits.MAX_VALUE:
            raise LimitError(f"the value given for {name!r} is beyond ±{limits.MAX_VALUE:,}")
    value_bounds(tree, given)
    return Prepared(tree, given)


@lru_cache(maxsize=4096)
def _read(text: str) -> tuple[Node, frozenset[str]]:
    tree = parse(text)
    needed = frozenset(names(tree))
    if not needed:
        value_bounds(tree, {})
    return tree, needed


@lru_cache(maxsize=4096)
def _canonical(tree: Node) -> str:
    return notation(tree)


def value_bounds(node: Node, bound: Mapping[str, int]) -> Bounds:
    """The least and greatest value `node` can take; refuses any part past `MAX_VALUE`."""
    if isinstance(node, Integer):
        low = high = node.value
    elif isinstance(node, Name):
        low = high = bound[node.name]
    elif isinstance(node, Negate):
        inner = value_bounds(node.operand, bound)
        low, high = -inner[1], -inner[0]
    elif isinstance(node, BinaryOp):
        left, right = value_bounds(node.left, bound), value_bounds(node.right, bound)
        low, high = _combine(node.op, left, right)
    elif isinstance(node, Dice):
        low, high = _pool_bounds(node)
    elif isinstance(node, UsageDie):
        low, high = 1, node.size
    else:
        assert isinstance(node, RiskDice)
        low, high = 0, 1
    if max(abs(low), abs(high)) > limits.MAX_VALUE:
        raise LimitError(
            f"{notation(node)!r} can reach {high if abs(high) >= abs(low) else low:,}, beyond "
            f"the ±{limits.MAX_VALUE:,} a dice expression may reach"
        )
    return low, high


def _pool_bounds(term: Dice) -> Bounds:
    kept = term.keep.kept_count(term.count) if term.keep is not None else term.count
    if term.success is not None:
        return 0, kept
    highest = term.sides
    if term.explode is not None:
        highest += term.explode.max_follow_ups * (
            term.sides - 1 if term.explode.penetrating else term.sides
        )
    return kept, kept * highest


def _combine(op: str, left: Bounds, right: Bounds) -> Bounds:
    if op == "+":
        return left[0] + right[0], left[1] + right[1]
    if op == "-":
        return left[0] - right[1], left[1] - right[0]
    if op == "*":
        corners = [a * b for a in left for b in right]
        return min(corners), max(corners)
    # Whole-number division never grows a value's size (and dividing by zero is refused).
    size = max(abs(left[0]), abs(left[1]))
    return -size, size
