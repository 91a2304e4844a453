"""Many rolls at once: the totals of `n` independent rolls as a numpy array.

For Monte Carlo checks and simulation, where the record of each die is not needed. It
follows exactly the rules of `roll` (re-roll, explode, keep, count), vectorised over the
samples and processed in chunks so memory stays bounded whatever `n` is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import gcd

import numpy as np

from tabletop.dice import limits
from tabletop.dice.dialects import DEFAULT_DIALECT, Dialect
from tabletop.dice.distribution import Distribution
from tabletop.dice.exact import exact_distribution
from tabletop.dice.prepare import prepare
from tabletop.dice.roller import apply, arithmetic
from tabletop.dice.source import check_seed
from tabletop.dice.syntax import (
    RISK_DIE_SIDES,
    BinaryOp,
    Call,
    Dice,
    Integer,
    Name,
    Negate,
    Node,
    RiskDice,
    UsageDie,
    dice_terms,
    most_dice,
    whole,
)
from tabletop.errors import LimitError, RollError

_CHUNK_ELEMENTS = 1 << 22
"""Dice drawn per chunk (about 32 MB of int64), bounding memory for any `n`."""


def sample(
    expression: str | Node,
    n: int,
    seed: int | None = None,
    names: Mapping[str, int] | None = None,
    *,
    dialect: str | Dialect = DEFAULT_DIALECT,
) -> np.ndarray:
    """Totals of `n` independent rolls of `expression`, read in `dialect`, reproducible
    with `seed`: int64, or exact `Fraction`s (an object array) when the total can be one."""
    prepared = prepare(expression, names, dialect)
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
        raise LimitError("the number of samples must be a whole number, 0 or more")
    if n > limits.MAX_SAMPLES:
        raise LimitError(f"{n:,} samples asked for; the limit is {limits.MAX_SAMPLES:,} per call")
    dice_per_roll = max(1, sum(most_dice(term) for term in dice_terms(prepared.tree)))
    if n * dice_per_roll > limits.MAX_SAMPLED_DICE:
        raise LimitError(
            f"{n:,} samples of {prepared.text!r} could throw {n * dice_per_roll:,} dice; the "
            f"limit is {limits.MAX_SAMPLED_DICE:,} per call"
        )
    sampler = _Sampler(np.random.default_rng(check_seed(seed)), prepared.names)
    chunk = max(1, _CHUNK_ELEMENTS // dice_per_roll)
    parts = [sampler.evaluate(prepared.tree, min(chunk, n - start)) for start in range(0, n, chunk)]
    totals = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    return totals.astype(np.int64) if whole(prepared.tree) else totals


class _Sampler:
    def __init__(self, rng: np.random.Generator, names: Mapping[str, int]) -> None:
        self.rng = rng
        self.names = names

    def faces(self, sides: int, shape: int | tuple[int, ...]) -> np.ndarray:
        return self.rng.integers(1, sides + 1, size=shape, dtype=np.int64)

    def evaluate(self, node: Node, n: int) -> np.ndarray:
        if isinstance(node, Dice):
            return self.pool(node, n)
        if isinstance(node, Integer):
            return np.full(n, node.value, dtype=np.int64)
        if isinstance(node, Name):
            return np.full(n, self.names[node.name], dtype=np.int64)
        if isinstance(node, Negate):
            return -self.evaluate(node.operand, n)
        if isinstance(node, Call):
            operand = self.evaluate(node.operand, n)
            if operand.dtype != object:  # whole numbers: only abs changes them
                return np.abs(operand) if node.function == "abs" else operand
            return _EXACT_APPLY(node.function, operand)
        if isinstance(node, BinaryOp):
            left = self.evaluate(node.left, n)
            right = self.evaluate(node.right, n)
            if node.op in ("/", "÷") and np.any(right == 0):
                raise RollError("division by zero")
            if left.dtype == object or right.dtype == object or node.op == "÷":
                # Exact fractions, value by value: only expressions that divide exactly.
                return _EXACT_ARITHMETIC(node.op, left, right)
            if node.op == "+":
                return left + right
            if node.op == "-":
                return left - right
            if node.op == "*":
                return left * right
            return np.floor_divide(left, right)
        if isinstance(node, UsageDie):
            return self.faces(node.size, n)
        if isinstance(node, RiskDice):
            return np.any(self.faces(RISK_DIE_SIDES, (n, node.count)) == 1, axis=1).astype(np.int64)
        raise TypeError(f"not a dice expression node: {node!r}")

    def pool(self, term: Dice, n: int) -> np.ndarray:
        if term.keep is not None and n >= _BY_TABLE_FROM:
            table = _sampling_table(term)
            if table is not None:
                return table.draw(self.rng, n)
        rolls = self.faces(term.sides, (n, term.count))
        if term.plain:
            return rolls.sum(axis=1)
        if term.reroll is not None:
            self.reroll(term, rolls)
        if term.explode is not None and term.explode.separate:
            if term.keep is not None or term.success is not None:
                return self.separate(term, rolls)
            rolls = self.explode(term, rolls)
        elif term.explode is not None:
            rolls = self.explode(term, rolls)
        if term.keep is not None:
            rolls = self.kept(term, rolls)
        if term.success is not None:
            return term.success.matches(rolls).sum(axis=1)
        return rolls.sum(axis=1)

    def reroll(self, term: Dice, rolls: np.ndarray) -> None:
        """Re-roll matching first faces in place: once, or straight to a face that stands.

        Re-rolling until a face stops matching leaves each non-matching face equally likely,
        so it is drawn from those faces at once, with the same odds as rolling again."""
        assert term.reroll is not None
        again = term.reroll.when.matches(rolls)
        count = int(again.sum())
        if term.reroll.once:
            rolls[again] = self.faces(term.sides, count)
            return
        low, high = term.reroll.when.span(term.sides)
        standing = np.concatenate(
            [np.arange(1, low, dtype=np.int64), np.arange(high + 1, term.sides + 1, dtype=np.int64)]
        )
        rolls[again] = standing[self.rng.integers(0, len(standing), size=count)]

    def explode(self, term: Dice, rolls: np.ndarray) -> np.ndarray:
        """Each die's value after its explosion chain, following only the dice still going."""
        explode = term.explode
        assert explode is not None
        shift = -1 if explode.penetrating else 0
        values = rolls.reshape(-1).copy()
        going = np.flatnonzero(explode.triggers(values, term.sides))
        for _ in range(explode.max_follow_ups):
            if going.size == 0:
                break
            follow = self.faces(term.sides, going.size)
            values[going] += follow + shift
            going = going[explode.triggers(follow, term.sides)]
        return values.reshape(rolls.shape)

    def separate(self, term: Dice, rolls: np.ndarray) -> np.ndarray:
        """Keep/drop and counts over pools whose explosions add dice of their own: every
        die and follow-up gets a slot (absent ones masked), then the kept slots are
        chosen by rank within each sample's pool."""
        explode = term.explode
        assert explode is not None
        shift = -1 if explode.penetrating else 0
        n, count = rolls.shape
        depth = explode.max_follow_ups
        values = np.zeros((n, count, depth + 1), dtype=np.int64)
        present = np.zeros((n, count, depth + 1), dtype=bool)
        values[:, :, 0], present[:, :, 0] = rolls, True
        going = explode.triggers(rolls, term.sides)
        for level in range(1, depth + 1):
            rows, dice = np.nonzero(going)
            if rows.size == 0:
                break
            follow = self.faces(term.sides, rows.size)
            values[rows, dice, level] = follow + shift
            present[rows, dice, level] = True
            going = np.zeros_like(going)
            going[rows, dice] = explode.triggers(follow, term.sides)
        values = values.reshape(n, -1)
        present = present.reshape(n, -1)
        kept = present if term.keep is None else _kept_slots(term, values, present)
        if term.success is not None:
            return (term.success.matches(values) & kept).sum(axis=1)
        return np.where(kept, values, 0).sum(axis=1)

    @staticmethod
    def kept(term: Dice, rolls: np.ndarray) -> np.ndarray:
        keep = term.keep
        assert keep is not None
        kept = keep.kept_count(term.count)
        if kept == term.count:
            return rolls
        ordered = np.sort(rolls, axis=1)
        return ordered[:, term.count - kept :] if keep.keeps_highest else ordered[:, :kept]


def _kept_slots(term: Dice, values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Which present slots a keep/drop keeps, ranking each sample's dice by value."""
    keep = term.keep
    assert keep is not None
    big = np.iinfo(np.int64).max
    # Rank present dice from lowest to highest; absent slots sort after all of them.
    order = np.argsort(np.where(present, values, big), axis=1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(values.shape[1])[None, :], axis=1)
    size = present.sum(axis=1, keepdims=True)
    if keep.mode == "kh":
        chosen = rank >= size - keep.count
    elif keep.mode == "kl":
        chosen = rank < keep.count
    elif keep.mode == "dh":
        chosen = rank < size - keep.count
    else:
        chosen = rank >= keep.count
    return chosen & present


_EXACT_ARITHMETIC = np.frompyfunc(lambda op, a, b: arithmetic(op, Fraction(a), Fraction(b)), 3, 1)
_EXACT_APPLY = np.frompyfunc(lambda function, value: apply(function, Fraction(value)), 2, 1)


_BY_TABLE_FROM = 1_000
"""Keep/drop pools sampled this many times or more are drawn from their exact distribution."""

_LOOKUP_UP_TO = 1 << 16
"""A distribution whose weights total at most this is drawn by one look-up per sample."""


@dataclass(frozen=True)
class _Table:
    """A pool's exact distribution laid out for drawing in O(1) a sample: Walker's alias
    table in whole numbers (column `i` keeps `values[i]` for `threshold[i]` of its `total`
    units of weight and gives the rest to `alias_values[i]`; the columns are padded with
    empty ones to a power of two, so a draw splits with a mask and a shift), and for small
    totals one slot per unit of weight instead."""

    values: np.ndarray
    threshold: np.ndarray
    alias_values: np.ndarray
    total: int
    slots: np.ndarray | None

    def draw(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """`n` totals with exactly the pool's odds: one uniform whole number per sample picks
        a column and a unit of weight in it (no float rounding anywhere)."""
        if self.slots is not None:
            return self.slots[rng.integers(0, self.total, size=n, dtype=np.int64)]
        bits = len(self.values).bit_length() - 1  # the columns are a power of two
        picks = rng.integers(0, self.total << bits, size=n, dtype=np.int64)
        column = picks & ((1 << bits) - 1)
        picks >>= bits  # now the unit of weight within the column
        kept = picks < self.threshold[column]
        return np.where(kept, self.values[column], self.alias_values[column])


def _sampling_table(term: Dice) -> _Table | None:
    """The drawing table of a pool, built once from its exact distribution; None when that
    is past the exact engine's limits or its weights are too large to draw in 63 bits."""
    if term in _TABLES:
        return _TABLES[term]
    try:
        odds: Distribution | None = exact_distribution(term, {})
    except LimitError:
        odds = None
    table = None
    if odds is not None:
        common = gcd(*odds.weights.values())
        weights = [weight // common for weight in odds.weights.values()]
        total = sum(weights)
        values = np.fromiter(odds.weights, dtype=np.int64, count=len(weights))
        if total <= _LOOKUP_UP_TO:
            slots = np.repeat(values, np.array(weights, dtype=np.int64))
            table = _Table(values, values, values, total, slots)
        else:
            columns = 1 << (len(weights) - 1).bit_length()
            if columns * total < 1 << 63:
                padded = weights + [0] * (columns - len(weights))
                threshold, alias = _alias(padded, total)
                values = np.concatenate([values, np.zeros(columns - len(weights), np.int64)])
                table = _Table(values, threshold, values[alias], total, None)
    if len(_TABLES) >= _MAX_TABLES:
        _TABLES.pop(next(iter(_TABLES)))
    _TABLES[term] = table
    return table


def _alias(weights: list[int], total: int) -> tuple[np.ndarray, np.ndarray]:
    """Vose's alias method in whole numbers: each of the `len(weights)` columns holds
    `total` units, its own outcome's first, topped up from one larger outcome."""
    count = len(weights)
    left = [weight * count for weight in weights]
    threshold = [total] * count
    alias = list(range(count))
    small = [i for i, units in enumerate(left) if units < total]
    large = [i for i, units in enumerate(left) if units >= total]
    while small and large:
        low, high = small.pop(), large.pop()
        threshold[low], alias[low] = left[low], high
        left[high] -= total - left[low]
        (small if left[high] < total else large).append(high)
    return np.array(threshold, dtype=np.int64), np.array(alias, dtype=np.int64)


_MAX_TABLES = 256
"""Pools whose drawing tables are kept (each at most `MAX_OUTCOMES` values, or 64k slots)."""

_TABLES: dict[Dice, _Table | None] = {}
