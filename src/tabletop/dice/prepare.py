"""The one gate every entry point passes: parse, bind names, and bound every value.

`roll`, `distribution` and `sample` accept the same expressions and refuse the same ones:
a tree built by hand is re-read from its notation so the parser's limits apply to it too,
names must be bound to whole numbers, and every value any part of the expression can take
must fit in a signed 64-bit integer (so sampling never wraps around and every probability
and mean can be shown as a float).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from tabletop.dice import limits
from tabletop.dice.dialects import DEFAULT_DIALECT, Dialect, dialect_named
from tabletop.dice.parser import parse_with_names
from tabletop.dice.spelling import notation, shown
from tabletop.dice.syntax import (
    COMPARISONS,
    BinaryOp,
    Call,
    ComputedDice,
    Dice,
    Group,
    Integer,
    Label,
    Name,
    Negate,
    Node,
    Number,
    PooledKeep,
    RiskDice,
    UsageDie,
    children,
    expected_rerolls,
    most_dice,
    whole,
)
from tabletop.errors import LimitError, RollError

Bounds = tuple[Number, Number]


@dataclass(frozen=True, slots=True)
class Prepared:
    """An expression ready to evaluate: its tree, its bound names, and its canonical
    notation in the dialect it was read in (docs/dice-notation.md)."""

    tree: Node
    names: Mapping[str, int]
    dialect: str
    text: str


def prepare(
    expression: str | Node,
    bound: Mapping[str, int] | None = None,
    dialect: str | Dialect = DEFAULT_DIALECT,
) -> Prepared:
    """Check an expression and its names once, the same way for every entry point."""
    reading = dialect_named(dialect).name
    text = expression if isinstance(expression, str) else _canonical(expression, reading)
    unnamed, needed = _read(text, reading)
    if not needed:
        return unnamed
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
    value_bounds(unnamed.tree, given)
    return replace(unnamed, names=given)


@lru_cache(maxsize=4096)
def _read(text: str, dialect: str) -> tuple[Prepared, frozenset[str]]:
    """What depends only on the text and dialect, kept so a warm roll does none of it again:
    the tree, its canonical notation, (without names) its bounds, and the names it needs."""
    reading = dialect_named(dialect)
    tree, needed = parse_with_names(text, reading)
    if not needed:
        value_bounds(tree, {})
    return Prepared(tree, {}, dialect, notation(tree, reading)), needed


@lru_cache(maxsize=4096)
def _canonical(tree: Node, dialect: str) -> str:
    return notation(tree, dialect)


def value_bounds(node: Node, bound: Mapping[str, int]) -> Bounds:
    """The least and greatest value `node` can take; refuses any part past `MAX_VALUE`."""
    if isinstance(node, Integer):
        low = high = node.value
    elif isinstance(node, Dice):
        low, high = _pool_bounds(node)
    elif isinstance(node, BinaryOp):
        left, right = value_bounds(node.left, bound), value_bounds(node.right, bound)
        if node.op == "÷" and not whole(node.right):
            raise RollError(f"{shown(node)!r} divides by a fraction, which is not supported")
        low, high = _power(node, left, right) if node.op == "**" else _combine(node.op, left, right)
    elif isinstance(node, Name):
        low = high = bound[node.name]
    elif isinstance(node, Negate):
        inner = value_bounds(node.operand, bound)
        low, high = -inner[1], -inner[0]
    elif isinstance(node, Label):
        low, high = value_bounds(node.operand, bound)
    elif isinstance(node, Group):
        members = [value_bounds(member, bound) for member in node.members]
        if node.success is not None:
            low, high = (0 if node.failure is None else -len(members)), len(members)
        else:  # any kept subset's sum lies between these
            low = sum(min(member[0], 0) for member in members)
            high = sum(max(member[1], 0) for member in members)
    elif isinstance(node, Call):
        inner = value_bounds(node.operand, bound)
        if node.function == "abs":
            low = 0 if inner[0] <= 0 <= inner[1] else min(abs(inner[0]), abs(inner[1]))
            high = max(abs(inner[0]), abs(inner[1]))
        else:
            low, high = math.floor(inner[0]), math.ceil(inner[1])
    elif isinstance(node, PooledKeep):
        kept = node.keep.kept_count(sum(pool.count for pool in node.pools))
        low, high = kept, kept * max(pool.sides for pool in node.pools)
    elif isinstance(node, ComputedDice):
        low, high = _computed_bounds(node, bound)
    elif isinstance(node, UsageDie):
        low, high = 1, node.size
    else:
        assert isinstance(node, RiskDice)
        low, high = 0, 1
    if max(abs(low), abs(high)) > limits.MAX_VALUE:
        raise LimitError(
            f"{shown(node)!r} can reach {round(high if abs(high) >= abs(low) else low):,}, beyond "
            f"the ±{limits.MAX_VALUE:,} a dice expression may reach"
        )
    return low, high


def computed_dice(node: Node, bound: Mapping[str, int]) -> int:
    """The most dice the computed pools of a tree can roll (their counts' own dice aside)."""
    found = most_dice(_largest_pool(node, bound)) if isinstance(node, ComputedDice) else 0
    return found + sum(computed_dice(child, bound) for child in children(node))


def _largest_pool(node: ComputedDice, bound: Mapping[str, int]) -> Dice:
    """The pool of the most dice with the most sides a computed pool can throw."""
    count = value_bounds(node.count, bound)[1]
    sides = value_bounds(node.sides, bound)[1]
    return node.pool(int(count), int(sides))


def _computed_bounds(node: ComputedDice, bound: Mapping[str, int]) -> Bounds:
    """A computed pool's bounds, refusing a count or sides that may be a fraction, a
    negative count, sides under one or past the limit, more dice than a roll may throw, or
    "re-roll until" rules expecting too many re-rolls."""
    low, high = value_bounds(node.count, bound)
    fewest, most = value_bounds(node.sides, bound)
    if not whole(node.count):
        raise RollError(f"{shown(node)!r} may roll a fraction of a die, which is not supported")
    if not whole(node.sides):
        raise RollError(f"{shown(node)!r} may roll dice with a fraction of a side")
    if low < 0:
        raise RollError(f"{shown(node)!r} may roll a negative number of dice")
    if fewest < 1 or most > limits.MAX_SIDES:
        raise RollError(
            f"{shown(node)!r} may roll dice with {fewest if fewest < 1 else most:,} sides; a die "
            f"has between 1 and {limits.MAX_SIDES:,}"
        )
    largest = _largest_pool(node, bound)
    if most_dice(largest) > limits.MAX_DICE:
        raise LimitError(
            f"{shown(node)!r} could roll {most_dice(largest):,} dice; the limit is "
            f"{limits.MAX_DICE:,} per roll"
        )
    if expected_rerolls(largest) * 40 > limits.MAX_DICE:
        raise LimitError(
            f"the re-rolls of {shown(node)!r} would expect to throw about "
            f"{round(expected_rerolls(largest)):,} more dice, too many to be sure a roll ends"
        )
    ends = [_pool_bounds(node.pool(int(count), int(most))) for count in (low, high)]
    return min(end[0] for end in ends), max(end[1] for end in ends)


def _pool_bounds(term: Dice) -> Bounds:
    """Bounds that hold every value (not always the tightest: a separate explosion's pool
    grows, so its bounds are those of all its dice)."""
    kept = term.keep.kept_count(term.count) if term.keep is not None else term.count
    explode = term.explode
    separate = explode is not None and explode.separate
    most = most_dice(term) if separate else kept
    if term.deduct is not None:  # Foundry's: plain faces, explosions only of dice apart
        lost = 1 if term.deduct == "one" else term.sides
        return -most * lost, most * (1 if term.success is not None else term.sides)
    if term.success is not None:
        return -most if term.failure is not None else 0, most
    if term.pick is not None:  # any die may be dropped, and count nothing
        low, high = _pool_bounds(replace(term, pick=None))
        return min(low, 0), max(high, 0)
    if term.mapped:  # no explosions: each die is worth one of its faces' values
        values = [term.value(face) for face in _extreme_faces(term)]
        return kept * min(values), kept * max(values)
    highest = term.sides
    if explode is not None:
        highest += explode.max_follow_ups * (term.sides - 1 if explode.penetrating else term.sides)
    return (0, term.count * highest) if separate else (kept, kept * highest)


def _extreme_faces(term: Dice) -> range | tuple[int, ...]:
    """The faces whose values bound a die's: all of a custom die, the ends of a plain one."""
    return range(1, term.sides + 1) if term.faces is not None else (1, term.sides)


def _power(node: BinaryOp, base: Bounds, exponent: Bounds) -> Bounds:
    """Bounds of `base ** exponent`, refusing roots (a power that may be a fraction), a
    fraction to a negative power or to a power past `MAX_FRACTION_POWER`, and any power past
    `MAX_VALUE` before computing it."""
    if not whole(node.right):
        raise RollError(
            f"{shown(node)!r} raises to a power that may be a fraction (a root), "
            "which is not supported"
        )
    fraction = not whole(node.left)
    if fraction and exponent[0] < 0:
        raise RollError(
            f"{shown(node)!r} raises a fraction to a negative power, which is not supported"
        )
    most = max(exponent[1], 0)
    if fraction and most > limits.MAX_FRACTION_POWER:
        raise LimitError(
            f"{shown(node)!r} raises a fraction to a power past "
            f"{limits.MAX_FRACTION_POWER}, the largest allowed"
        )
    size = max(abs(base[0]), abs(base[1]))
    if size > 1 and most * math.log2(size) > 63:
        raise LimitError(
            f"{shown(node)!r} can reach {size}**{most}, beyond the "
            f"±{limits.MAX_VALUE:,} a dice expression may reach"
        )
    reach = max(size, 1) ** most  # a negative power of a whole number is within ±1
    return (0 if base[0] >= 0 else -reach), reach


def _combine(op: str, left: Bounds, right: Bounds) -> Bounds:
    if op in COMPARISONS:
        return 0, 1
    if op == "+":
        return left[0] + right[0], left[1] + right[1]
    if op == "-":
        return left[0] - right[1], left[1] - right[0]
    if op == "*":
        corners = [a * b for a in left for b in right]
        return min(corners), max(corners)
    # Dividing by a whole number never grows a value's size (dividing by zero is refused),
    # nor does taking a remainder.
    size = max(abs(left[0]), abs(left[1]))
    return -size, size
