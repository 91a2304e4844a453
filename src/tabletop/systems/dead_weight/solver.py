"""The re-roll exchange as a game tree, solved exactly under the canonical policy.

A position is the multiset of faces (grouped into classes of faces the rules cannot tell
apart), the re-rolls each side has left, whose turn it is and whether the last move was a
pass. The player maximises, lexicographically, P(success), P(great success), then
minimises P(fatigue), P(critical failure) and the helpers' fatigue; the GM minimises the
same key. Sides alternate starting with the player, and the test ends when both pass in a
row (a side with nothing to re-roll passes).

Every position with the same dice counts is solved at once with numpy, layer by layer in
order of re-rolls left. Values are integers scaled by 6 per re-roll left (and by 36 more
when Dauntless dice may follow), so every probability comes out as an exact fraction.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from tabletop.errors import LimitError
from tabletop.systems.dead_weight.evaluation import succeeds, tires

PLAYER, GM = 0, 1

MAX_SOLVER_POSITIONS = 60_000
"""Distinct dice positions one solution may hold (8 dice and a helper's die need 2,475)."""

MAX_SOLVER_REROLLS = 18
"""Re-rolls left, all sides together, that one solution may plan for."""

SUCCESS, GREAT, FATIGUE, CRITICAL, HELPERS = range(5)
"""Columns of a value: P(success), P(great success), P(fatigue), P(critical failure), the
helpers' expected fatigue points, then each helper's P(fatigue)."""

CANONICAL = ((SUCCESS, 1), (GREAT, 1), (FATIGUE, -1), (CRITICAL, -1), (HELPERS, -1))
"""The player's key: most success, then most great success, least fatigue, fewest
critical failures, least fatigue for the helpers. The GM minimises the same key."""

CAUTIOUS = ((SUCCESS, 1), (FATIGUE, -1), (GREAT, 1), (CRITICAL, -1), (HELPERS, -1))
"""A player who values staying fresh over a great success (the notes' DW-P03 policy)."""

Key = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class HelperSpec:
    """A helper's share of the roll."""

    dice: int
    hopeless: bool = False
    fatigue_counts: bool = True


@dataclass(frozen=True, slots=True)
class Spec:
    """Everything the exchange's odds depend on (hashable: solutions are cached by it)."""

    own_dice: int
    budgets: tuple[int, ...]
    """Re-rolls per resource, in the order of `Spec.resources`."""
    take_lowest: bool = False
    count_all_thrown: bool = False
    helpers: tuple[HelperSpec, ...] = ()
    terrified: bool = False
    hopeless: bool = False
    fatigue_counts: bool = True
    keep_safe: bool = False
    dauntless: bool = False
    distinct: bool = False
    """Proficiency may re-roll each die once (DW-A24 option): dice carry a mark."""
    helper_dice_open_to_roller: bool = False
    key: Key = CANONICAL
    """The policy: columns in order of importance to the player, with +1 to maximise."""

    @property
    def resources(self) -> tuple[Resource, ...]:
        """The re-roll resources, each with its side, the dice it may target and whether
        using it marks the die: the roller's (proficiency, with advantage merged in unless
        dice are marked), advantage (only when marked), each helper's proficiency, and the
        GM's disadvantage."""
        roller_targets = (
            (0, *range(1, len(self.helpers) + 1)) if (self.helper_dice_open_to_roller) else (0,)
        )
        found = [Resource(PLAYER, roller_targets, self.distinct)]
        if self.distinct:
            found.append(Resource(PLAYER, roller_targets, False))
        found.extend(Resource(PLAYER, (owner,), self.distinct) for owner in self.owners[1:])
        found.append(Resource(GM, self.owners, False))
        return tuple(found)

    @property
    def owners(self) -> tuple[int, ...]:
        return tuple(range(len(self.helpers) + 1))


@dataclass(frozen=True, slots=True)
class Resource:
    side: int
    owners: tuple[int, ...]
    marks: bool


@dataclass(frozen=True, slots=True)
class FaceClass:
    """Faces that count the same for one owner's dice: they are one chance outcome."""

    faces: tuple[int, ...]
    success: bool
    six: bool
    one: bool
    tiring: bool

    @property
    def weight(self) -> int:
        return len(self.faces)


def face_classes(terrified: bool, hopeless: bool) -> tuple[FaceClass, ...]:
    """Adjacent faces with the same properties merged (adjacent, so the lowest is kept)."""
    classes: list[FaceClass] = []
    for face in range(1, 7):
        props = (succeeds(face, terrified), face == 6, face == 1, tires(face, hopeless))
        last = classes[-1] if classes else None
        if last is not None and (last.success, last.six, last.one, last.tiring) == props:
            classes[-1] = FaceClass((*last.faces, face), *props)
        else:
            classes.append(FaceClass((face,), *props))
    return tuple(classes)


@dataclass(frozen=True, slots=True)
class Moves:
    """Re-rolls of one owner's dice with one resource: for each die type, where it is
    legal (type, position), the position of the other dice once it is lifted (type,
    position) and the slot it lands in; for each landing slot, the position each class
    leads to from every lifted position (class, lifted position)."""

    types: tuple[int, ...]
    valid: np.ndarray
    down: np.ndarray
    targets: tuple[int, ...]
    ups: dict[int, np.ndarray]
    weights: np.ndarray


@dataclass(frozen=True, slots=True)
class Slot:
    """Dice of one owner, marked or not (marks exist only under distinct proficiency)."""

    owner: int
    marked: bool


class Solution:
    """Values of every position of one exchange, under the canonical policy."""

    def __init__(self, spec: Spec) -> None:
        if len(spec.budgets) != len(spec.resources):
            raise ValueError(f"{len(spec.resources)} re-roll budgets expected")
        if sum(spec.budgets) > MAX_SOLVER_REROLLS:
            raise LimitError(
                f"{sum(spec.budgets)} re-rolls in one test is more than the odds can plan "
                f"for (at most {MAX_SOLVER_REROLLS})"
            )
        self.spec = spec
        self.classes = [face_classes(spec.terrified, spec.hopeless)] + [
            face_classes(spec.terrified, helper.hopeless) for helper in spec.helpers
        ]
        marks = (False, True) if spec.distinct else (False,)
        self.slots = [Slot(owner, mark) for owner in spec.owners for mark in marks]
        self.types = [
            (s, k)
            for s, slot in enumerate(self.slots)
            for k in range(len(self.classes[slot.owner]))
        ]
        self._enumerate_positions()
        self.dauntless_options: tuple[np.ndarray, np.ndarray] | None = None
        self.leaf = self._leaf_values()
        self.dauntless_scale = 36 if spec.dauntless else 1
        self.values: dict[tuple[tuple[int, ...], int, int], np.ndarray] = {}
        self._solve()

    # positions -------------------------------------------------------------------------

    def _enumerate_positions(self) -> None:
        spec = self.spec
        self.sizes = [spec.own_dice] + [helper.dice for helper in spec.helpers]
        self.widths = [
            sum(1 for s, _ in self.types if self.slots[s].owner == owner)
            for owner in range(len(self.sizes))
        ]
        total = math.prod(
            _composition_count(n, w) for n, w in zip(self.sizes, self.widths, strict=True)
        )
        if total > MAX_SOLVER_POSITIONS:
            raise LimitError(
                f"this test has {total:,} distinct dice positions, more than the odds can "
                f"weigh (at most {MAX_SOLVER_POSITIONS:,}); use fewer dice or helpers"
            )
        radices = [self.sizes[self.slots[s].owner] + 1 for s, _ in self.types]
        if math.prod(radices) >= 2**62:
            raise LimitError("this test has too many kinds of dice for the odds to weigh")
        self.powers = np.array(
            [math.prod(radices[:t]) for t in range(len(radices))], dtype=np.int64
        )
        self.counts, self.keys, self.lookup = self._space(self.sizes)
        self.index = {tuple(row): i for i, row in enumerate(self.counts.tolist())}
        self.reduced = [
            self._space([n - (o == owner) for o, n in enumerate(self.sizes)])
            for owner in range(len(self.sizes))
        ]

    def _space(self, sizes: list[int]) -> tuple[np.ndarray, np.ndarray, Any]:
        """Every position with these dice per owner: counts, packed keys, and a function
        from packed keys to position indexes."""
        per_owner = [_compositions(n, w) for n, w in zip(sizes, self.widths, strict=True)]
        rows = [sum(parts, ()) for parts in itertools.product(*per_owner)]
        counts = np.array(rows, dtype=np.int64).reshape(len(rows), len(self.types))
        keys = counts @ self.powers
        order = np.argsort(keys)
        ordered = keys[order]

        def lookup(wanted: np.ndarray) -> np.ndarray:
            return order[np.minimum(np.searchsorted(ordered, wanted), len(order) - 1)]

        return counts, keys, lookup

    def position(self, dice: list[tuple[int, int, bool]]) -> int:
        """The index of a position given as (owner, face, marked) for every die."""
        counts = [0] * len(self.types)
        lookup = {
            (self.slots[s].owner, self.slots[s].marked, face): t
            for t, (s, k) in enumerate(self.types)
            for face in self.classes[self.slots[s].owner][k].faces
        }
        for owner, face, marked in dice:
            counts[lookup[(owner, marked, face)]] += 1
        return self.index[tuple(counts)]

    def class_of(self, owner: int, face: int) -> int:
        return next(k for k, c in enumerate(self.classes[owner]) if face in c.faces)

    def type_of(self, owner: int, marked: bool, face: int) -> int:
        slot = self.slots.index(Slot(owner, marked))
        return self.types.index((slot, self.class_of(owner, face)))

    # judging the final dice --------------------------------------------------------------

    def _prop(self, name: str) -> np.ndarray:
        return np.array(
            [getattr(self.classes[self.slots[s].owner][k], name) for s, k in self.types],
            dtype=np.int64,
        )

    def _owner_mask(self, owner: int) -> np.ndarray:
        return np.array([self.slots[s].owner == owner for s, _ in self.types])

    def _leaf_values(self) -> np.ndarray:
        """The judged outcome of every position, before any scaling: 0/1 columns (or
        counts out of 36 where Dauntless dice may be added)."""
        spec, counts = self.spec, self.counts
        success, six, one, tiring = (self._prop(n) for n in ("success", "six", "one", "tiring"))
        own = self._owner_mask(0)
        own_counts = counts[:, own]
        if spec.take_lowest:
            classes = self.classes[0]
            by_class = np.zeros((len(counts), len(classes)), dtype=np.int64)
            for t in np.flatnonzero(own):
                by_class[:, self.types[t][1]] += counts[:, t]
            kept = np.argmax(by_class > 0, axis=1)
            kept_props = {
                name: np.array([getattr(c, name) for c in classes], dtype=np.int64)[kept]
                for name in ("success", "six", "one", "tiring")
            }
            own_success = kept_props["success"] > 0
            if spec.count_all_thrown:
                own_sixes = own_counts @ six[own]
                own_one = own_counts @ one[own] > 0
                own_tired = own_counts @ tiring[own] > 0
            else:
                own_sixes = kept_props["six"]
                own_one = kept_props["one"] > 0
                own_tired = kept_props["tiring"] > 0
        else:
            own_success = own_counts @ success[own] > 0
            own_sixes = own_counts @ six[own]
            own_one = own_counts @ one[own] > 0
            own_tired = own_counts @ tiring[own] > 0
        any_success, sixes, any_one = own_success, own_sixes, own_one
        helper_tired = []
        for owner, helper in enumerate(self.spec.helpers, start=1):
            mask = self._owner_mask(owner)
            part = counts[:, mask]
            any_success = any_success | (part @ success[mask] > 0)
            sixes = sixes + part @ six[mask]
            any_one = any_one | (part @ one[mask] > 0)
            helper_tired.append((part @ tiring[mask] > 0) & helper.fatigue_counts)
        great = any_success & (sixes >= 2)
        critical = ~any_success & any_one
        fatigue = own_tired & spec.fatigue_counts & ~(spec.keep_safe & any_success)
        columns = [any_success, great, fatigue, critical]
        helpers = [tired.astype(np.int64) for tired in helper_tired]
        total = sum(helpers) if helpers else np.zeros(len(counts), dtype=np.int64)
        leaf = np.stack([c.astype(np.int64) for c in columns] + [total, *helpers], axis=1)
        if spec.dauntless:
            leaf = self._with_dauntless(leaf, any_success, sixes, own_tired)
        return leaf

    def _with_dauntless(
        self, leaf: np.ndarray, success: np.ndarray, sixes: np.ndarray, tired: np.ndarray
    ) -> np.ndarray:
        """After a success, the player adds two dice if that is better by the key."""
        spec = self.spec
        declined = leaf * 36
        rolled = declined.copy()
        rolled[:, GREAT] = 0
        rolled[:, FATIGUE] = 0
        for first, second in itertools.product(range(1, 7), repeat=2):
            extra_sixes = (first == 6) + (second == 6)
            extra_tired = tires(first, spec.hopeless) or tires(second, spec.hopeless)
            rolled[:, GREAT] += success & (sixes + extra_sixes >= 2)
            rolled[:, FATIGUE] += (
                success & (tired | extra_tired) & spec.fatigue_counts & (not spec.keep_safe)
            )
        self.dauntless_options = (declined, rolled)
        better = success.astype(bool) & _prefers(rolled, declined, PLAYER, spec.key)
        return np.where(better[:, None], rolled, declined)

    # the exchange -----------------------------------------------------------------------

    def _solve(self) -> None:
        spec = self.spec
        self.resources = spec.resources
        self.weights = [
            np.array([c.weight for c in classes], dtype=np.int64) for classes in self.classes
        ]
        self.moves = self._moves()
        budgets = sorted(
            itertools.product(*(range(b + 1) for b in spec.budgets)), key=lambda b: (sum(b), b)
        )
        for budget in budgets:
            scale = self.scale(budget)
            ended = self.leaf * 6 ** sum(budget)
            rerolls = {side: self._reroll_values(budget, side) for side in (PLAYER, GM)}
            for side in (PLAYER, GM):
                self.values[(budget, side, 1)] = _best(ended, *rerolls[side], side, spec.key, scale)
            for side in (PLAYER, GM):
                passed = self.values[(budget, 1 - side, 1)]
                self.values[(budget, side, 0)] = _best(
                    passed, *rerolls[side], side, spec.key, scale
                )

    def _moves(self) -> dict[int, list[Moves]]:
        """For each resource, its moves grouped by the owner of the dice they re-roll.

        Re-rolling a die of type t at position m lands on m - t + j for each class j, so
        its value is U[m - t], where U[r] sums w_j V[r + j] over the positions r with one
        die fewer: U serves every type at once, which makes a layer cheap."""
        moves: dict[int, list[Moves]] = {}
        for r, resource in enumerate(self.resources):
            groups = []
            for owner in resource.owners:
                _, reduced_keys, reduced_lookup = self.reduced[owner]
                types, valid, down, targets = [], [], [], []
                for t, (s, _) in enumerate(self.types):
                    slot = self.slots[s]
                    if slot.owner != owner or (resource.marks and slot.marked):
                        continue
                    types.append(t)
                    legal = self.counts[:, t] > 0
                    valid.append(legal)
                    down.append(np.where(legal, reduced_lookup(self.keys - self.powers[t]), 0))
                    targets.append(self.slots.index(Slot(owner, slot.marked or resource.marks)))
                ups = {
                    target: np.stack(
                        [
                            self.lookup(reduced_keys + self.powers[self.types.index((target, j))])
                            for j in range(len(self.classes[owner]))
                        ]
                    )
                    for target in set(targets)
                }
                groups.append(
                    Moves(
                        tuple(types),
                        np.stack(valid),
                        np.stack(down),
                        tuple(targets),
                        ups,
                        self.weights[owner],
                    )
                )
            moves[r] = groups
        return moves

    def _landed(self, group: Moves, child_values: np.ndarray) -> dict[int, np.ndarray]:
        """U for each landing slot: the value once the die lands, by the other dice."""
        weights = group.weights.tolist()
        return {
            target: sum(w * child_values[up[j]] for j, w in enumerate(weights))
            for target, up in group.ups.items()
        }

    def _reroll_values(
        self, budget: tuple[int, ...], side: int
    ) -> tuple[np.ndarray, np.ndarray] | tuple[None, None]:
        """The values of every re-roll `side` may make, stacked (move, position, column),
        and where each is legal (move, position)."""
        values, valid = [], []
        for r, resource in enumerate(self.resources):
            if resource.side != side or budget[r] == 0:
                continue
            after = list(budget)
            after[r] -= 1
            child_values = self.values[(tuple(after), 1 - side, 0)]
            for group in self.moves[r]:
                landed = self._landed(group, child_values)
                for i, target in enumerate(group.targets):
                    values.append(landed[target][group.down[i]])
                valid.append(group.valid)
        if not values:
            return None, None
        return np.stack(values), np.concatenate(valid)

    # answers --------------------------------------------------------------------------

    def scale(self, budget: tuple[int, ...]) -> int:
        return 6 ** sum(budget) * self.dauntless_scale

    def value(self, position: int, budget: tuple[int, ...], side: int, passes: int) -> np.ndarray:
        """The value of a position with `passes` passes just made (0 or 1; 2 is the end)."""
        if passes >= 2:
            return self.leaf[position] * 6 ** sum(budget)
        return self.values[(budget, side, passes)][position]

    def reroll_value(
        self, position: int, budget: tuple[int, ...], resource: int, die_type: int
    ) -> np.ndarray:
        """The value of re-rolling one die of `die_type` with `resource`, at `position`."""
        side = self.resources[resource].side
        after = list(budget)
        after[resource] -= 1
        child_values = self.values[(tuple(after), 1 - side, 0)]
        for group in self.moves[resource]:
            if die_type in group.types:
                i = group.types.index(die_type)
                if group.valid[i, position]:
                    up = group.ups[group.targets[i]][:, group.down[i, position]]
                    return np.tensordot(group.weights, child_values[up], axes=1)
        raise ValueError("that die cannot be re-rolled with that resource here")

    def opening(self) -> tuple[Fraction, ...]:
        """The exact odds before any die is thrown (columns as in the values)."""
        spec = self.spec
        budget = spec.budgets
        values = self.values[(budget, PLAYER, 0)]
        sizes = [spec.own_dice] + [h.dice for h in spec.helpers]
        total_dice = sum(sizes)
        weights = np.array(
            [[c.weight for c in self.classes[self.slots[s].owner]][k] for s, k in self.types],
            dtype=object,
        )
        unmarked = np.array([not self.slots[s].marked for s, _ in self.types])
        sums = [0] * values.shape[1]
        for i, row in enumerate(self.counts):
            if np.any(row[~unmarked] > 0):
                continue
            ways = 1
            for owner, size in enumerate(sizes):
                mask = self._owner_mask(owner)
                ways *= _multinomial(size, row[mask]) * math.prod(
                    int(w) ** int(c) for w, c in zip(weights[mask], row[mask], strict=True)
                )
            for column in range(values.shape[1]):
                sums[column] += ways * int(values[i, column])
        denominator = 6**total_dice * self.scale(budget)
        return tuple(Fraction(value, denominator) for value in sums)


def _composition_count(total: int, parts: int) -> int:
    return math.comb(total + parts - 1, parts - 1)


@lru_cache(maxsize=256)
def _compositions(total: int, parts: int) -> tuple[tuple[int, ...], ...]:
    """Every way to write `total` as `parts` non-negative counts (stars and bars)."""
    found = []
    for bars in itertools.combinations(range(total + parts - 1), parts - 1):
        edges = (-1, *bars, total + parts - 1)
        found.append(tuple(b - a - 1 for a, b in itertools.pairwise(edges)))
    return tuple(found)


def _multinomial(total: int, counts: np.ndarray) -> int:
    result = math.factorial(total)
    for count in counts:
        result //= math.factorial(int(count))
    return result


def _prefers(a: np.ndarray, b: np.ndarray, side: int, key: Key) -> np.ndarray:
    """Where `side` strictly prefers values `a` to `b` under the lexicographic key."""
    better = np.zeros(len(a), dtype=bool)
    undecided = np.ones(len(a), dtype=bool)
    for column, sign in key:
        signed = sign if side == PLAYER else -sign
        ahead = a[:, column] * signed > b[:, column] * signed
        better |= undecided & ahead
        undecided &= a[:, column] == b[:, column]
    return better


def _best(
    passing: np.ndarray,
    rerolls: np.ndarray | None,
    valid: np.ndarray | None,
    side: int,
    key: Key,
    scale: int,
) -> np.ndarray:
    """The side's best of passing and each legal re-roll, position by position; on a full
    tie the earliest stands (passing first, then re-rolls in order).

    Where the key's columns fit in one integer (each is at most `scale`), they are packed
    and compared at once; otherwise they narrow the candidates column by column."""
    if rerolls is None or valid is None:
        return passing
    candidates = np.concatenate([passing[None], rerolls])
    alive = np.concatenate([np.ones((1, len(passing)), dtype=bool), valid])
    floor = np.iinfo(np.int64).min
    positions = np.arange(len(passing))
    base = scale + 1
    if candidates.shape[2] == HELPERS + 1 and base ** (len(key) - 1) < 2**62:
        packed = np.zeros(alive.shape, dtype=np.int64)
        for column, sign in key:
            if column == HELPERS:
                continue
            upward = sign if side == PLAYER else -sign
            part = candidates[:, :, column] if upward > 0 else scale - candidates[:, :, column]
            packed = packed * base + part
        packed = np.where(alive, packed, -1)
        return candidates[packed.argmax(axis=0), positions]
    for column, sign in key:
        signed = candidates[:, :, column] * (sign if side == PLAYER else -sign)
        signed = np.where(alive, signed, floor)
        alive &= signed == signed.max(axis=0)
    return candidates[alive.argmax(axis=0), positions]


@lru_cache(maxsize=64)
def solve(spec: Spec) -> Solution:
    """The solved exchange for `spec` (cached: a test asks many times while it is open)."""
    return Solution(spec)
