"""Many rolls at once: the totals of `n` independent rolls as a numpy array.

For Monte Carlo checks and simulation, where the record of each die is not needed. It
follows exactly the rules of `roll` (re-roll, explode, keep, count), vectorised over the
samples and processed in chunks so memory stays bounded whatever `n` is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from math import gcd

import numpy as np

from tabletop.dice import limits
from tabletop.dice.dialects import DEFAULT_DIALECT, Dialect
from tabletop.dice.distribution import Distribution
from tabletop.dice.exact import exact_distribution
from tabletop.dice.prepare import computed_dice, prepare
from tabletop.dice.roller import apply, arithmetic, exact
from tabletop.dice.source import check_seed
from tabletop.dice.syntax import (
    COMPARISONS,
    DIVISIONS,
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
    PooledKeep,
    RiskDice,
    UsageDie,
    dice_terms,
    limited,
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
    dice_per_roll = sum(most_dice(term) for term in dice_terms(prepared.tree))
    dice_per_roll = max(1, dice_per_roll + computed_dice(prepared.tree, prepared.names))
    if n * dice_per_roll > limits.MAX_SAMPLED_DICE:
        raise LimitError(
            f"{n:,} samples of {prepared.text!r} could throw {n * dice_per_roll:,} dice; the "
            f"limit is {limits.MAX_SAMPLED_DICE:,} per call"
        )
    sampler = _Sampler(np.random.default_rng(check_seed(seed)), prepared.names)
    chunk = max(1, _CHUNK_ELEMENTS // dice_per_roll)
    parts = [
        _exact(sampler.evaluate(prepared.tree, min(chunk, n - start)))
        for start in range(0, n, chunk)
    ]
    totals = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    return totals.astype(np.int64) if whole(prepared.tree) else totals


class _Sampler:
    def __init__(self, rng: np.random.Generator, names: Mapping[str, int]) -> None:
        self.rng = rng
        self.names = names

    def faces(self, sides: int, shape: int | tuple[int, ...]) -> np.ndarray:
        return self.rng.integers(1, sides + 1, size=shape, dtype=np.int64)

    def evaluate(self, node: Node, n: int) -> np.ndarray | Ratios:
        if isinstance(node, Dice):
            return self.pool(node, n)
        if isinstance(node, Integer):
            return np.full(n, node.value, dtype=np.int64)
        if isinstance(node, Name):
            return np.full(n, self.names[node.name], dtype=np.int64)
        if isinstance(node, Negate):
            return -self.evaluate(node.operand, n)
        if isinstance(node, Call):
            return _applied(node.function, self.evaluate(node.operand, n))
        if isinstance(node, Label):
            return self.evaluate(node.operand, n)
        if isinstance(node, Group):
            return self.group(node, n)
        if isinstance(node, PooledKeep):
            faces = np.concatenate([self.faces(p.sides, (n, p.count)) for p in node.pools], axis=1)
            size = faces.shape[1]
            kept = _kept_range(node.keep, np.arange(size)[None, :], np.full((n, 1), size))
            return np.where(kept, np.sort(faces, axis=1), 0).sum(axis=1)
        if isinstance(node, ComputedDice):
            return self.computed(node, n)
        if isinstance(node, BinaryOp):
            left = self.evaluate(node.left, n)
            right = self.evaluate(node.right, n)
            if node.op in DIVISIONS and np.any(_numerators(right) == 0):
                raise RollError("division by zero")
            if node.op == "**":
                return _power(left, right)
            if isinstance(left, Ratios) or isinstance(right, Ratios) or node.op == "÷":
                return Ratios.of(left).combine(node.op, Ratios.of(right))
            if node.op in _WHOLE_OPERATIONS:
                return _WHOLE_OPERATIONS[node.op](left, right)
            raise TypeError(f"not an operator: {node.op!r}")
        if isinstance(node, UsageDie):
            return self.faces(node.size, n)
        if isinstance(node, RiskDice):
            return np.any(self.faces(RISK_DIE_SIDES, (n, node.count)) == 1, axis=1).astype(np.int64)
        raise TypeError(f"not a dice expression node: {node!r}")

    def computed(self, node: ComputedDice, n: int) -> np.ndarray:
        """A computed pool: plain dice in one array, each sample with its own count and
        sides; with modifiers (on fixed sides), the samples of each count thrown as that
        pool."""
        counts = _exact(self.evaluate(node.count, n)).astype(np.int64)
        if node.modifiers is None:
            sides = _exact(self.evaluate(node.sides, n)).astype(np.int64)
            most = int(counts.max()) if n else 0
            faces = self.rng.integers(1, sides[:, None] + 1, size=(n, most), dtype=np.int64)
            return np.where(np.arange(most)[None, :] < counts[:, None], faces, 0).sum(axis=1)
        assert isinstance(node.sides, Integer)
        totals = np.zeros(n, dtype=np.int64)
        for count in np.unique(counts):
            chosen = counts == count
            pool = node.pool(int(count), node.sides.value)
            totals[chosen] = self.evaluate(pool, int(chosen.sum()))
        return totals

    def group(self, node: Group, n: int) -> np.ndarray:
        """Each member's totals side by side, sorted per sample when a keep chooses among
        them (fractions as exact `Fraction`s)."""
        columns = [_exact(self.evaluate(member, n)) for member in node.members]
        totals = np.stack(columns, axis=1)
        if node.keep is None:
            return np.sum(node.scored(totals), axis=1)
        ordered = np.sort(totals, axis=1)
        position = np.arange(len(columns))[None, :]
        kept = _kept_range(node.keep, position, np.full((n, 1), len(columns)))
        return np.sum(np.where(kept, node.scored(ordered), 0), axis=1)

    def pool(self, term: Dice, n: int) -> np.ndarray:
        if term.reroll_place is not None:  # d20's `4d6rol1`: the dice that stay, and fresh ones
            place = term.reroll_place.place
            if term.reroll_place.adds:  # `4d6ral1`: every die and one more
                return self.faces(term.sides, (n, term.count + 1)).sum(axis=1)
            ordered = np.sort(self.faces(term.sides, (n, term.count)), axis=1)
            stays = term.count - place.count
            kept = ordered[:, place.count :] if place.mode == "kl" else ordered[:, :stays]
            return kept.sum(axis=1) + self.faces(term.sides, (n, place.count)).sum(axis=1)
        if term.keep is not None and n >= _BY_TABLE_FROM:
            table = _sampling_table(term)
            if table is not None:
                return table.draw(self.rng, n)
        if limited(term):
            return self.limited(term, n)
        rolls = self.faces(term.sides, (n, term.count))
        if term.plain:
            return rolls.sum(axis=1)
        if term.reroll is not None:
            self.reroll(term, rolls)
        if term.mapped:
            values = [term.value(face) for face in range(1, term.sides + 1)]
            rolls = np.asarray([0, *values], dtype=np.int64)[rolls]
        if term.explode is not None and term.explode.separate:
            if term.keep is not None or term.scored:
                return self.separate(term, rolls)
            rolls = self.explode(term, rolls)
        elif term.explode is not None:
            rolls = self.explode(term, rolls)
        if term.keep is not None:
            rolls = self.kept(term, rolls)
        if term.scored:
            return term.score(rolls).sum(axis=1)
        return rolls.sum(axis=1)

    def reroll(self, term: Dice, rolls: np.ndarray) -> None:
        """Re-roll matching first faces in place: once, or straight to a face that stands.

        Re-rolling until a face stops matching leaves each non-matching face equally likely,
        so it is drawn from those faces at once, with the same odds as rolling again."""
        assert term.reroll is not None
        for step in term.reroll.steps:
            again = step.when.matches(rolls)
            count = int(again.sum())
            if step.once:
                rolls[again] = self.faces(term.sides, count)
                continue
            faces = np.arange(1, term.sides + 1, dtype=np.int64)
            standing = faces[~step.when.matches(faces)]
            rolls[again] = standing[self.rng.integers(0, len(standing), size=count)]

    def limited(self, term: Dice, n: int) -> np.ndarray:
        """A pool whose re-rolls or explosions are limited over the whole pool: its dice
        thrown one after another, each sample spending its own limit."""
        reroll, explode = term.reroll, term.explode
        left = {
            "reroll": None if reroll is None else reroll.limit,
            "explode": None if explode is None else explode.limit,
        }
        budgets = {rule: np.full(n, limit) for rule, limit in left.items() if limit is not None}
        totals = np.zeros(n, dtype=np.int64)
        for _ in range(term.count):
            faces = self.faces(term.sides, n)
            if reroll is not None and reroll.limit is None:
                self.reroll(term, faces[:, None])
            elif reroll is not None:
                going = reroll.when.matches(faces) & (budgets["reroll"] > 0)
                while going.any():
                    rows = np.flatnonzero(going)
                    faces[rows] = self.faces(term.sides, rows.size)
                    budgets["reroll"][rows] -= 1
                    going = np.zeros(n, dtype=bool)
                    if not reroll.once:
                        going[rows] = reroll.when.matches(faces[rows])
                        going &= budgets["reroll"] > 0
            if explode is not None and explode.limit is None:
                faces = self.explode(term, faces[:, None])[:, 0]
            elif explode is not None:
                faces = self.spend_explosions(term, faces, budgets["explode"])
            totals += faces
        return totals

    def spend_explosions(self, term: Dice, faces: np.ndarray, budget: np.ndarray) -> np.ndarray:
        """Each die's value after an explosion chain the sample's `budget` still allows."""
        explode = term.explode
        assert explode is not None
        shift = -1 if explode.penetrating else 0
        values = faces.copy()
        going = np.flatnonzero(explode.triggers(faces, term.sides) & (budget > 0))
        for _ in range(explode.max_follow_ups):
            if going.size == 0:
                break
            follow = self.faces(term.sides, going.size)
            values[going] += follow + shift
            budget[going] -= 1
            going = going[explode.triggers(follow, term.sides) & (budget[going] > 0)]
        return values

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
        die and follow-up gets a slot (absent ones sort last), each sample's slots are
        sorted, and the kept ones are a range of positions in that order."""
        explode = term.explode
        assert explode is not None
        shift = -1 if explode.penetrating else 0
        n, count = rolls.shape
        depth = explode.max_follow_ups
        absent = np.iinfo(np.int64).max
        values = np.full((n, count, depth + 1), absent, dtype=np.int64)
        values[:, :, 0] = rolls
        going = explode.triggers(rolls, term.sides)
        levels = 1
        for level in range(1, depth + 1):
            rows, dice = np.nonzero(going)
            if rows.size == 0:
                break
            follow = self.faces(term.sides, rows.size)
            values[rows, dice, level] = follow + shift
            going = np.zeros_like(going)
            going[rows, dice] = explode.triggers(follow, term.sides)
            levels = level + 1
        ordered = np.sort(values[:, :, :levels].reshape(n, -1), axis=1)
        size = (ordered != absent).sum(axis=1, keepdims=True)
        position = np.arange(ordered.shape[1])[None, :]
        kept = position < size
        if term.keep is not None:
            kept = _kept_range(term.keep, position, size)
        if term.scored:
            return (term.score(ordered) * kept).sum(axis=1)
        return np.where(kept, ordered, 0).sum(axis=1)

    @staticmethod
    def kept(term: Dice, rolls: np.ndarray) -> np.ndarray:
        keep = term.keep
        assert keep is not None
        kept = keep.kept_count(term.count)
        if kept == term.count:
            return rolls
        ordered = np.sort(rolls, axis=1)
        return ordered[:, term.count - kept :] if keep.keeps_highest else ordered[:, :kept]


def _kept_range(keep: Keep, position: np.ndarray, size: np.ndarray) -> np.ndarray:
    """Which positions of each sample's sorted pool (`size` dice, lowest first) stay."""
    if keep.mode == "kh":
        return (position >= size - keep.count) & (position < size)
    if keep.mode == "kl":
        return position < keep.count
    if keep.mode == "dh":
        return position < size - keep.count
    return (position >= keep.count) & (position < size)


_HALF_BITS = 1 << 31
"""Ratios multiply in int64 while every numerator and denominator stays below 2**31."""


@dataclass(frozen=True)
class Ratios:
    """Fractions, one a sample, as int64 numerators over positive denominators in lowest
    terms; past int64's reach they fall back to Python's exact `Fraction`s."""

    numerator: np.ndarray
    denominator: np.ndarray

    @classmethod
    def of(cls, values: np.ndarray | Ratios) -> Ratios:
        if isinstance(values, Ratios):
            return values
        return cls(values, np.ones_like(values))

    def combine(self, op: str, other: Ratios) -> Ratios:
        """`self op other` for + - * / (rounded down) and ÷ (exact)."""
        if max(_largest(self), _largest(other)) >= _HALF_BITS:
            return _Objects(self.fractions()).combine(op, other)
        a, b, c, d = self.numerator, self.denominator, other.numerator, other.denominator
        if op in ("+", "-"):
            top = a * d + c * b if op == "+" else a * d - c * b
            return _lowest(top, b * d)
        if op == "*":
            return _lowest(a * c, b * d)
        top, bottom = a * d, b * c
        top, bottom = np.where(bottom < 0, -top, top), np.abs(bottom)
        if op == "/":
            return Ratios.of(np.floor_divide(top, bottom))
        if op in ("rem", "mod"):  # a/b % c/d is (ad % cb) / bd, as bd > 0
            return _lowest(_WHOLE_OPERATIONS[op](a * d, c * b), b * d)
        if op in COMPARISONS:  # a/b against c/d is ad against cb, as bd > 0
            return Ratios.of(_WHOLE_OPERATIONS[op](a * d, c * b))
        return _lowest(top, bottom)

    def fractions(self) -> np.ndarray:
        """The exact values as an object array of `Fraction`s."""
        return _FRACTION(self.numerator, self.denominator)

    def __neg__(self) -> Ratios:
        return Ratios(-self.numerator, self.denominator)


class _Objects(Ratios):
    """Fractions too large for int64, held as Python `Fraction`s (slow, exact)."""

    def __init__(self, values: np.ndarray) -> None:
        object.__setattr__(self, "numerator", values)
        object.__setattr__(self, "denominator", np.ones(len(values), dtype=np.int64))

    def combine(self, op: str, other: Ratios) -> Ratios:
        values = other.fractions() if not isinstance(other, _Objects) else other.numerator
        return _Objects(_ARITHMETIC(op, self.numerator, values))

    def fractions(self) -> np.ndarray:
        return self.numerator

    def __neg__(self) -> Ratios:
        return _Objects(-self.numerator)


def _lowest(top: np.ndarray, bottom: np.ndarray) -> Ratios:
    common = np.gcd(top, bottom)
    return Ratios(top // common, bottom // common)


def _largest(ratios: Ratios) -> int:
    if isinstance(ratios, _Objects) or ratios.numerator.size == 0:
        return 0 if not isinstance(ratios, _Objects) else _HALF_BITS
    return int(max(np.abs(ratios.numerator).max(), ratios.denominator.max()))


def _numerators(values: np.ndarray | Ratios) -> np.ndarray:
    if isinstance(values, _Objects):
        return values.numerator
    return values.numerator if isinstance(values, Ratios) else values


def _applied(function: str, values: np.ndarray | Ratios) -> np.ndarray | Ratios:
    """floor, ceil, round (halves up), abs or trunc of every sample."""
    if not isinstance(values, Ratios):
        return np.abs(values) if function == "abs" else values
    if isinstance(values, _Objects):
        return _Objects(_APPLY(function, values.numerator))
    top, bottom = values.numerator, values.denominator
    if function == "abs":
        return Ratios(np.abs(top), bottom)
    if function == "floor":
        whole = np.floor_divide(top, bottom)
    elif function == "ceil":
        whole = -np.floor_divide(-top, bottom)
    elif function == "round":
        whole = np.floor_divide(2 * top + bottom, 2 * bottom)
    else:
        whole = np.sign(top) * np.floor_divide(np.abs(top), bottom)
    return Ratios.of(whole)


_COMPARE = {
    "==": np.equal,
    "!=": np.not_equal,
    "<": np.less,
    "<=": np.less_equal,
    ">": np.greater,
    ">=": np.greater_equal,
}


def _compared(compare: Callable[..., np.ndarray], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """d20's comparison over int64 samples: 1 where it holds, 0 where not."""
    return compare(a, b).astype(np.int64)


_WHOLE_OPERATIONS = {
    "+": np.add,
    "-": np.subtract,
    "*": np.multiply,
    "/": np.floor_divide,
    "mod": np.mod,
    "rem": np.fmod,
    **{op: partial(_compared, compare) for op, compare in _COMPARE.items()},
}
"""Each operator over int64 samples (`np.mod` is signed as the divisor, `np.fmod` as the
dividend)."""


def _power(base: np.ndarray | Ratios, exponent: np.ndarray | Ratios) -> np.ndarray | Ratios:
    """`base ** exponent` per sample: in int64 for whole bases and powers that are never
    negative (the limits keep each power within 10**18), else as exact fractions."""
    whole_numbers = not isinstance(base, Ratios) and not isinstance(exponent, Ratios)
    if whole_numbers and not np.any(exponent < 0):
        return np.power(base, exponent)
    return _Objects(_ARITHMETIC("**", _exact(base), _exact(exponent)))


def _exact(values: np.ndarray | Ratios) -> np.ndarray:
    """Totals as an array: int64 where every one is whole, exact `Fraction`s otherwise."""
    if not isinstance(values, Ratios):
        return values
    if not isinstance(values, _Objects) and np.all(values.denominator == 1):
        return values.numerator
    return values.fractions()


_FRACTION = np.frompyfunc(lambda top, bottom: exact(Fraction(int(top), int(bottom))), 2, 1)
_ARITHMETIC = np.frompyfunc(lambda op, a, b: arithmetic(op, a, b), 3, 1)
_APPLY = np.frompyfunc(lambda function, value: apply(function, value), 2, 1)


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
