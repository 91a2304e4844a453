"""Exact distributions of dice expressions, with a cost check before every step.

Sums of dice are polynomial products. They are computed with Kronecker substitution: each
distribution is packed into one big integer (one fixed-width slot per value), so that a
product of big integers -- or a single `pow` for `NdX` -- convolves all coefficients at
once in C. Keep/drop pools use a dynamic programme over faces from best to worst that
counts ordered rolls exactly. Every step checks `limits` first and raises `LimitError`
rather than start work it cannot finish.
"""

from __future__ import annotations

from bisect import insort
from collections import defaultdict
from collections.abc import Callable, Mapping
from math import comb, gcd, lcm

from tabletop.dice import limits
from tabletop.dice.cache import SizedCache
from tabletop.dice.dialects import DEFAULT_DIALECT, Dialect
from tabletop.dice.distribution import Distribution
from tabletop.dice.prepare import prepare
from tabletop.dice.roller import apply, arithmetic, exact
from tabletop.dice.spelling import shown
from tabletop.dice.syntax import (
    DIVISIONS,
    RISK_DIE_SIDES,
    BinaryOp,
    Call,
    Compare,
    ComputedDice,
    Dice,
    Explode,
    Group,
    Integer,
    Keep,
    Label,
    Name,
    Negate,
    Node,
    Number,
    PooledKeep,
    Reroll,
    RiskDice,
    UsageDie,
    limited,
)
from tabletop.errors import LimitError, RollError

_SMALL = 256
"""Below this many pairs, combining two distributions pair by pair beats packing."""


def distribution(
    expression: str | Node,
    names: Mapping[str, int] | None = None,
    *,
    dialect: str | Dialect = DEFAULT_DIALECT,
    share: int = 1,
) -> Distribution:
    """The exact distribution of a dice expression's total, read in `dialect`; `share` > 1
    allows only that part of the limit on steps (a note beside a roll must not hold it up).

    Explosions without a bound use `limits.DEFAULT_EXPLOSION_DEPTH`, exactly as rolling
    does, so the distribution is the true one for what `roll` does.
    """
    prepared = prepare(expression, names, dialect)
    return exact_distribution(prepared.tree, prepared.names, share)


def exact_distribution(tree: Node, names: Mapping[str, int], share: int = 1) -> Distribution:
    """The distribution of a prepared tree, computed once: asked again (by any entry point,
    `sample` included) it costs a dictionary look-up, and so does a refusal (one under the
    whole limits: a part of them refusing says nothing of the whole)."""
    key = (tree, tuple(sorted(names.items())))
    known = _CACHE.get(key)
    if known is None:
        try:
            known = Distribution.of_weights(_Evaluator(tree, names, share).evaluate(tree))
        except LimitError as refusal:
            if share > 1:
                raise
            known = refusal
        _CACHE.put(key, known, len(known) if isinstance(known, Distribution) else 1)
    if isinstance(known, LimitError):
        raise LimitError(str(known))
    return known


_CACHE: SizedCache[Distribution | LimitError] = SizedCache(budget=1_000_000)
"""Distributions already computed, up to a million outcomes in all (tens of megabytes)."""


Weights = dict[Number, int]


class _Evaluator:
    def __init__(self, tree: Node, names: Mapping[str, int], share: int = 1) -> None:
        self.tree = tree
        self.names = names
        self.work = 0
        self.bits = 0
        self.most_work = limits.MAX_EXACT_WORK // share

    def too_costly(self, amount: int, what: str, limit: int) -> LimitError:
        text = shown(self.tree)
        return LimitError(
            f"exact odds for {text!r} would need {amount:,} {what}, over the limit of "
            f"{limit:,}; sample it instead"
        )

    def spend(self, steps: int) -> None:
        """Count elementary steps against the budget of the whole evaluation."""
        self.work += steps
        if self.work > self.most_work:
            raise self.too_costly(self.work, "steps", self.most_work)

    def spend_bits(self, bits: int) -> None:
        """Count bits of packed integers against the budget of the whole evaluation."""
        self.bits += bits
        if self.bits > limits.MAX_EXACT_BITS:
            raise self.too_costly(self.bits, "bits of packed integers", limits.MAX_EXACT_BITS)

    def checked(self, weights: Weights) -> Weights:
        if len(weights) > limits.MAX_OUTCOMES:
            raise self.too_costly(len(weights), "outcomes", limits.MAX_OUTCOMES)
        return weights

    def evaluate(self, node: Node) -> Weights:
        if isinstance(node, Dice):
            return self.pool(node)
        if isinstance(node, Integer):
            return {node.value: 1}
        if isinstance(node, Name):
            return {self.names[node.name]: 1}
        if isinstance(node, Negate):
            return {-value: weight for value, weight in self.evaluate(node.operand).items()}
        if isinstance(node, Call):
            return self.mapped(self.evaluate(node.operand), node.function)
        if isinstance(node, Label):
            return self.evaluate(node.operand)
        if isinstance(node, Group):
            return self.group(node)
        if isinstance(node, ComputedDice):
            return self.computed(node)
        if isinstance(node, PooledKeep):
            dice = [
                dict.fromkeys(range(1, p.sides + 1), 1) for p in node.pools for _ in range(p.count)
            ]
            return self.kept_values(node.keep, _value, dice)
        if isinstance(node, BinaryOp):
            left = self.evaluate(node.left)
            right = self.evaluate(node.right)
            if node.op == "+":
                return self.convolve(left, right)
            if node.op == "-":
                return self.convolve(left, {-v: w for v, w in right.items()})
            return self.combine(node.op, left, right)
        if isinstance(node, UsageDie):
            return dict.fromkeys(range(1, node.size + 1), 1)
        if isinstance(node, RiskDice):
            safe = (RISK_DIE_SIDES - 1) ** node.count
            return {0: safe, 1: RISK_DIE_SIDES**node.count - safe}
        raise TypeError(f"not a dice expression node: {node!r}")

    # -- arithmetic ----------------------------------------------------------------------

    def combine(self, op: str, left: Weights, right: Weights) -> Weights:
        """Multiply or divide pair by pair (each pair costs about three steps of a sum)."""
        self.spend(3 * len(left) * len(right))
        if op in DIVISIONS and 0 in right:
            raise RollError(f"{shown(self.tree)!r} can divide by zero")
        if op == "**" and 0 in left and min(right) < 0:
            raise RollError(f"{shown(self.tree)!r} can raise zero to a negative power")
        result: defaultdict[Number, int] = defaultdict(int)
        for a, wa in left.items():
            for b, wb in right.items():
                result[arithmetic(op, a, b)] += wa * wb
        return self.checked(dict(result))

    def mapped(self, weights: Weights, function: str) -> Weights:
        """The distribution of a function of one outcome (floor, ceil, round, abs, trunc)."""
        self.spend(len(weights))
        result: defaultdict[Number, int] = defaultdict(int)
        for value, weight in weights.items():
            result[apply(function, value)] += weight
        return dict(result)

    def convolve(self, left: Weights, right: Weights) -> Weights:
        """The distribution of the sum of two independent outcomes."""
        if len(left) == 1 or len(right) == 1:
            point, spread = (left, right) if len(left) == 1 else (right, left)
            shift = next(iter(point))
            return {value + shift: weight for value, weight in spread.items()}
        pairs = len(left) * len(right)
        fractional = not all(isinstance(value, int) for value in (*left, *right))
        if pairs <= _SMALL or fractional:
            self.spend(pairs)
            result: defaultdict[int, int] = defaultdict(int)
            for a, wa in left.items():
                for b, wb in right.items():
                    result[exact(a + b)] += wa * wb
            return self.checked(dict(result))
        left_low, right_low = min(left), min(right)
        left_span, right_span = max(left) - left_low + 1, max(right) - right_low + 1
        span = left_span + right_span - 1
        bound = sum(left.values()) * sum(right.values())
        self.charge_packing(span, bound)
        packed = self.pack(left, left_low, left_span, bound) * self.pack(
            right, right_low, right_span, bound
        )
        return self.checked(_unpack(packed, left_low + right_low, span, _slot_bytes(bound)))

    def power(self, die: Weights, count: int) -> Weights:
        """The sum of `count` independent copies of one die."""
        if count == 1:
            return self.checked(die)
        low = min(die)
        die_span = max(die) - low + 1
        span = count * (die_span - 1) + 1
        bound = sum(die.values()) ** count
        self.charge_packing(span, bound)
        packed = pow(self.pack(die, low, die_span, bound), count)
        return self.checked(_unpack(packed, count * low, span, _slot_bytes(bound)))

    def charge_packing(self, span: int, bound: int) -> None:
        """Refuse a packed result over `span` values with weights up to `bound` past the limits."""
        if span > limits.MAX_OUTCOMES:
            raise self.too_costly(span, "values in a range", limits.MAX_OUTCOMES)
        self.spend_bits(8 * _slot_bytes(bound) * span)

    @staticmethod
    def pack(weights: Weights, low: int, span: int, bound: int) -> int:
        """Weights as one big integer, a slot per value wide enough for any sum up to `bound`."""
        width = _slot_bytes(bound)
        buffer = bytearray(width * span)
        for value, weight in weights.items():
            start = (value - low) * width
            buffer[start : start + width] = weight.to_bytes(width, "little")
        return int.from_bytes(buffer, "little")

    # -- dice ----------------------------------------------------------------------------

    def pool(self, term: Dice) -> Weights:
        if term.reroll_place is not None:
            return self.rerolled_by_place(term)
        if limited(term):
            return self.checked(self.limited_pool(term))
        if term.explode is not None and term.explode.separate:
            if term.keep is not None:
                return self.checked(self.keep_separate(term))
            if term.scored:
                return self.power(self.single_die(term, counting=True), term.count)
        if term.keep is None and term.scored:
            if term.success is None or term.failure is not None or term.deduct is not None:
                return self.power(_mapped(self.single_die(term), term.score), term.count)
            return self.successes(*self.hits_and_misses(term, term.success), term.count)
        die = self.single_die(term)
        if term.keep is None:
            return self.power(die, term.count)
        score: Callable[[int], int] = term.score if term.scored else _value
        kept = term.keep.kept_count(term.count)
        if kept == 1:
            return self.keep_one(die, term.count, term.keep.keeps_highest, score)
        return self.checked(self.keep_pool(die, term.count, kept, term.keep.keeps_highest, score))

    def limited_pool(self, term: Dice) -> Weights:
        """The sum of a pool whose re-rolls or explosions are limited to a count over the
        whole pool: the dice laid one at a time, the state how many the limit has left. (In
        law the order the tool spends the limit in does not matter: each re-roll or follow-up
        is a fresh die, and a die left waiting shows a face the rule selects.)"""
        rule = term.reroll if term.reroll is not None and term.reroll.limit is not None else None
        limit = rule.limit if rule is not None else term.explode.limit  # type: ignore[union-attr]
        assert limit is not None
        dice = {left: self.limited_die(term, left) for left in range(limit + 1)}
        scale = lcm(*(sum(sum(w.values()) for w in outcomes) for outcomes in dice.values()))
        for left, outcomes in dice.items():
            factor = scale // sum(sum(w.values()) for w in outcomes)
            dice[left] = [{value: w * factor for value, w in spent.items()} for spent in outcomes]
        states: dict[int, Weights] = {limit: {0: 1}}
        for _ in range(term.count):
            following: dict[int, Weights] = {}
            for left, total in states.items():
                for used, spent in enumerate(dice[left]):
                    if spent:
                        laid = self.convolve(total, spent)
                        known = following.get(left - used)
                        following[left - used] = laid if known is None else _added(known, laid)
            common = gcd(*(w for total in following.values() for w in total.values()))
            states = {
                left: {value: w // common for value, w in total.items()}
                for left, total in following.items()
            }
        result: Weights = {}
        for total in states.values():
            result = _added(result, total)
        return _reduced(result)

    def limited_die(self, term: Dice, left: int) -> list[Weights]:
        """One die of a limited pool when the limit has `left`: its value's weights for each
        number of re-rolls (or follow-ups) it spends, all over one common total."""
        sides, reroll, explode = term.sides, term.reroll, term.explode
        if reroll is not None and reroll.limit is not None:
            spent = _limited_rerolls(sides, reroll, left)
            if explode is None:
                return spent
            self.spend(len(spent) * sides * sides)
            return [self.exploded(first, sides, explode, None) if first else {} for first in spent]
        assert explode is not None
        first = _rerolled(sides, reroll)
        chain = min(left, explode.max_follow_ups)
        shift = -1 if explode.penetrating else 0
        self.spend(sides * sides * (chain + 1))
        going = {face: w for face, w in first.items() if explode.triggers(face, sides)}
        stopped = {face: w for face, w in first.items() if face not in going}
        if not chain:
            return [first]
        outcomes = [{value: w * sides**chain for value, w in stopped.items()}]
        for level in range(1, chain + 1):
            following: defaultdict[int, int] = defaultdict(int)
            ended: defaultdict[int, int] = defaultdict(int)
            for value, weight in going.items():
                for face in range(1, sides + 1):
                    reached = value + face + shift
                    if level < chain and explode.triggers(face, sides):
                        following[reached] += weight
                    else:
                        ended[reached] += weight
            outcomes.append({v: w * sides ** (chain - level) for v, w in ended.items()})
            going = following
        return outcomes

    def hits_and_misses(self, term: Dice, success: Compare) -> tuple[int, int]:
        """The weights of one die succeeding and failing."""
        if term.reroll is None and term.explode is None and not term.mapped:
            hits = success.count(term.sides)
            return hits, term.sides - hits
        die = self.single_die(term)
        hits = sum(weight for value, weight in die.items() if success.matches(value))
        return hits, sum(die.values()) - hits

    def successes(self, hits: int, misses: int, count: int) -> Weights:
        """How many of `count` dice succeed: the binomial weights C(n, k) hits^k misses^(n-k)."""
        common = gcd(hits, misses)
        hits, misses = hits // common, misses // common
        self.charge_packing(count + 1, (hits + misses) ** count)
        if not hits or not misses:
            return {count if hits else 0: 1}
        return {k: comb(count, k) * hits**k * misses ** (count - k) for k in range(count + 1)}

    def keep_one(
        self, die: Weights, count: int, highest: bool, score: Callable[[int], int]
    ) -> Weights:
        """The best (or worst) of `count` dice: P(best <= f) is P(one die <= f) ** count."""
        self.charge_packing(len(die), sum(die.values()) ** count)
        faces = sorted(die, reverse=not highest)
        weights: defaultdict[int, int] = defaultdict(int)
        below = 0
        for face in faces:
            reached = below + die[face]
            weights[score(face)] += reached**count - below**count
            below = reached
        return dict(weights)

    def single_die(self, term: Dice, counting: bool = False) -> Weights:
        """One die of the pool after its re-roll and explosion, as integer weights: its
        value, or (`counting`) what it and the dice it adds score in the term's count."""
        if term.sides > limits.MAX_OUTCOMES:
            raise self.too_costly(term.sides, "outcomes", limits.MAX_OUTCOMES)
        first = _rerolled(term.sides, term.reroll)
        if term.mapped:  # custom faces or bounds: no explosions
            return _reduced(_mapped(first, term.value))
        if term.explode is None:
            return _reduced(first)
        score = term.score if counting else None
        return _reduced(self.checked(self.exploded(first, term.sides, term.explode, score)))

    def exploded(
        self,
        first: Weights,
        sides: int,
        explode: Explode,
        counting: Callable[[int], int] | None,
    ) -> Weights:
        """A die and its chain of follow-ups: the sum of their values, or of the scores
        `counting` gives their values."""
        depth = explode.max_follow_ups
        shift = -1 if explode.penetrating else 0
        triggering = {face for face in range(1, sides + 1) if explode.triggers(face, sides)}
        # Level k of the chain holds about k * sides values, combined with each trigger.
        self.spend(len(triggering) * sides * depth * (depth + 1) // 2 + sides * depth)
        if counting is None:
            first_score, follow_score = _value, (lambda face: face + shift)
        else:
            first_score = counting
            follow_score = lambda face: counting(face + shift)  # noqa: E731
        fresh = dict.fromkeys(range(1, sides + 1), 1)
        # follow_up: a follow-up die allowed `level` more follow-ups; total sides**(level+1).
        follow_up: Weights = defaultdict(int)
        for face in fresh:
            follow_up[follow_score(face)] += 1
        for level in range(1, depth):
            follow_up = _chain(fresh, triggering, follow_up, sides**level, follow_score)
        return _chain(first, triggering, follow_up, sides**depth, first_score)

    def keep_separate(self, term: Dice) -> Weights:
        """Keep/drop over a pool whose explosions add dice of their own, exactly: each
        die's chain of faces is laid into the kept set one face at a time."""
        keep, explode = term.keep, term.explode
        assert keep is not None and explode is not None
        sides, depth = term.sides, explode.max_follow_ups
        shift = -1 if explode.penetrating else 0
        kept = _KeptSet(keep, term.score if term.scored else _value)
        triggering = {face for face in range(1, sides + 1) if explode.triggers(face, sides)}
        first = _rerolled(sides, term.reroll)
        states = kept.start()
        for _ in range(term.count):
            result: defaultdict[_Held, int] = defaultdict(int)
            going: defaultdict[_Held, int] = defaultdict(int)
            self.spend(len(states) * len(first))
            for state, weight in states.items():
                for face, face_weight in first.items():
                    laid = kept.lay(state, face)
                    if face in triggering and depth:
                        going[laid] += weight * face_weight
                    else:
                        result[laid] += weight * face_weight * sides**depth
            for level in range(1, depth + 1):
                self.spend(len(going) * sides)
                following: defaultdict[_Held, int] = defaultdict(int)
                for state, weight in going.items():
                    for face in range(1, sides + 1):
                        laid = kept.lay(state, face + shift)
                        if face in triggering and level < depth:
                            following[laid] += weight
                        else:
                            result[laid] += weight * sides ** (depth - level)
                going = following
            states = self.held(result)
        return kept.totals(states)

    def held(self, states: Mapping[_Held, int]) -> dict[_Held, int]:
        """Kept-set states with their common factor taken out, refused past the limit."""
        if len(states) > limits.MAX_OUTCOMES:
            raise self.too_costly(len(states), "kept-dice states", limits.MAX_OUTCOMES)
        return _reduced(dict(states))  # type: ignore[arg-type,return-value]

    def rerolled_by_place(self, term: Dice) -> Weights:
        """d20's `4d6rol1`: the dice not re-rolled are the highest (lowest) that stay, and
        the re-rolled ones fresh dice; `4d6ral1`: every die stays and one is added."""
        assert term.reroll_place is not None
        place = term.reroll_place.place
        if term.reroll_place.adds:
            return self.convolve(
                self.pool(Dice(term.count, term.sides)), self.pool(Dice(1, term.sides))
            )
        fresh = self.pool(Dice(place.count, term.sides))
        stays = term.count - place.count
        if not stays:
            return fresh
        other = "kh" if place.mode == "kl" else "kl"
        return self.convolve(
            self.pool(Dice(term.count, term.sides, keep=Keep(other, stays))), fresh
        )

    def computed(self, node: ComputedDice) -> Weights:
        """A computed pool's total: the mixture, over every count and number of sides, of
        that pool's law (each pool's weights scaled to a common total, so the mixture adds
        whole numbers)."""
        counts, sides = self.evaluate(node.count), self.evaluate(node.sides)
        if len(sides) > 1:  # the totals of every pool, spent before any is worked out
            self.spend(sum(counts) * sum(s - 1 for s in sides) + len(counts) * len(sides))
        pools = {}
        for count, count_weight in counts.items():
            for faces, faces_weight in sides.items():
                pool = self.evaluate(node.pool(int(count), int(faces)))
                pools[count, faces] = (count_weight * faces_weight, pool, sum(pool.values()))
        common = lcm(*(total for _, _, total in pools.values()))
        result: Weights = {}
        for weight, pool, total in pools.values():
            scale = weight * (common // total)
            self.spend(len(pool))
            result = _added(result, {value: w * scale for value, w in pool.items()})
        return self.checked(result)

    def group(self, node: Group) -> Weights:
        """A group's total: its members' totals, kept or dropped by value, then summed or
        counted, each member independent of the others."""
        members = [self.evaluate(member) for member in node.members]
        scored = node.scored
        if node.keep is None:
            total: Weights = {0: 1}
            for member in members:
                total = self.convolve(total, _mapped(member, scored))
            return total
        return self.kept_values(node.keep, scored, members)

    def kept_values(
        self, keep: Keep, scored: Callable[[Number], Number], members: list[Weights]
    ) -> Weights:
        """The kept values' score when independent values are laid one at a time into a
        kept set (a group's totals, or the dice of Roll20's `{4d6+3d8}k4`)."""
        kept = _KeptSet(keep, scored)
        states = kept.start()
        for member in members:
            self.spend(len(states) * len(member))
            laid: defaultdict[_Held, int] = defaultdict(int)
            for state, weight in states.items():
                for value, member_weight in member.items():
                    laid[kept.lay(state, value)] += weight * member_weight
            states = self.held(laid)
        return self.checked(kept.totals(states))

    def keep_pool(
        self,
        die: Weights,
        count: int,
        kept: int,
        highest: bool,
        score: Callable[[int], int],
    ) -> Weights:
        """Sum (or count) the `kept` best dice of `count`, counting ordered rolls exactly.

        Faces are visited from the first to be kept to the last; the state is how many dice
        have been placed and the score of the kept ones. Once `kept` dice are placed the rest
        are all worse faces and are settled at once.
        """
        faces = sorted(die, reverse=highest)
        scores = [score(face) for face in faces]
        # Each step multiplies numbers of up to `bits` bits, which costs more as they grow.
        bits = count * sum(die.values()).bit_length()
        step_cost = 1 + int((bits / 512) ** 1.6)
        worse = [0] * len(faces)
        running = 0
        for index in range(len(faces) - 1, -1, -1):
            worse[index] = running
            running += die[faces[index]]
        result: defaultdict[int, int] = defaultdict(int)
        states: dict[tuple[int, int], int] = {(0, 0): 1}
        for index, face in enumerate(faces):
            weight, value, rest_weight = die[face], scores[index], worse[index]
            self.spend(step_cost * sum(count - placed + 1 for placed, _ in states))
            rest_powers = _powers(rest_weight, count)
            following: defaultdict[tuple[int, int], int] = defaultdict(int)
            for (placed, total), ways in states.items():
                free = count - placed
                # term = ways * comb(free, showing) * weight**showing, built step by step.
                term = ways
                for showing in range(free + 1):
                    if showing:
                        term = term * (free - showing + 1) // showing * weight
                    now_placed = placed + showing
                    now_total = total + min(showing, kept - placed) * value
                    if now_placed >= kept:
                        result[now_total] += term * rest_powers[count - now_placed]
                    else:
                        following[(now_placed, now_total)] += term
            states = following
        return {total: ways for total, ways in result.items() if ways}


def _powers(base: int, most: int) -> list[int]:
    """[base**0, base**1, ..., base**most]."""
    powers = [1]
    for _ in range(most):
        powers.append(powers[-1] * base)
    return powers


def _reduced(weights: Weights) -> Weights:
    """The same distribution with its weights divided by their common factor."""
    common = gcd(*weights.values())
    return weights if common == 1 else {value: w // common for value, w in weights.items()}


def _added(left: Weights, right: Weights) -> Weights:
    """Two sets of weights over the same total, put together."""
    merged = dict(left)
    for value, weight in right.items():
        merged[value] = merged.get(value, 0) + weight
    return merged


def _limited_rerolls(sides: int, reroll: Reroll, left: int) -> list[Weights]:
    """A die's first face under a re-roll the pool may make `left` more of: its weights for
    each number of re-rolls it spends, over the total sides ** (spent most + 1)."""
    matching = set(reroll.when.faces(sides))
    standing = {face: 1 for face in range(1, sides + 1) if face not in matching}
    every = dict.fromkeys(range(1, sides + 1), 1)
    most = min(left, 1) if reroll.once else left
    matches = len(matching)
    # Spending j < most re-rolls: j matching faces, then one that stands.
    outcomes = [
        {face: matches**spent * sides ** (most - spent) for face in standing}
        for spent in range(most)
    ]
    outcomes.append({face: matches**most for face in every})  # the last face stands
    return outcomes


def _rerolled(sides: int, reroll: Reroll | None) -> Weights:
    """The first face of a die after its re-roll rule, each step applied to what the one
    before left."""
    face_weights = dict.fromkeys(range(1, sides + 1), 1)
    for step in () if reroll is None else reroll.steps:
        matching = set(step.when.faces(sides))
        moved = sum(face_weights.get(face, 0) for face in matching)
        if step.once:
            # Kept (weight times `sides`), or re-rolled once to any face (the matched weight each).
            face_weights = {
                face: (0 if face in matching else face_weights.get(face, 0) * sides) + moved
                for face in range(1, sides + 1)
            }
        else:  # re-rolled until it stands: the matched weight spread over the faces that stand
            standing = sides - len(matching)
            face_weights = {
                face: face_weights.get(face, 0) * standing + moved
                for face in range(1, sides + 1)
                if face not in matching
            }
        face_weights = _reduced({face: w for face, w in face_weights.items() if w})
    return face_weights


def _chain(
    first: Weights,
    triggering: set[int],
    follow_up: Weights,
    follow_total: int,
    score: Callable[[int], int],
) -> Weights:
    """A die scored `score(face)`, whose triggering faces add a `follow_up`'s score.

    Faces that do not trigger are scaled by the follow-up's total weight so that every
    outcome is counted over the same total."""
    result: defaultdict[Number, int] = defaultdict(int)
    for face, weight in first.items():
        if face in triggering:
            for value, follow_weight in follow_up.items():
                result[score(face) + value] += weight * follow_weight
        else:
            result[score(face)] += weight * follow_total
    return dict(result)


_Held = tuple[tuple[Number, ...], Number]
"""A kept set as it is built: the values held apart (sorted, the first to leave at the
front) and the score of the values already settled outside them."""


class _KeptSet:
    """Keep or drop over values laid one at a time: kh/kl hold the values kept so far, dh/dl
    the values dropped so far; a value pushed out is forgotten (kept sets) or settled
    (dropped sets), so a state stays as small as the keep's count."""

    def __init__(self, keep: Keep, score: Callable[[Number], Number]) -> None:
        self.size = keep.count
        self.holds_kept = keep.mode in ("kh", "kl")
        # Held kept values leave worst first; held dropped values leave best first.
        self.sign = 1 if keep.keeps_highest == self.holds_kept else -1
        self.score = score

    @staticmethod
    def start() -> dict[_Held, int]:
        return {((), 0): 1}

    def lay(self, state: _Held, value: Number) -> _Held:
        values, settled = state
        ordered = list(values)
        insort(ordered, self.sign * value)
        if len(ordered) <= self.size:
            return tuple(ordered), settled
        out = ordered.pop(0)
        if not self.holds_kept:
            settled += self.score(self.sign * out)
        return tuple(ordered), settled

    def totals(self, states: Mapping[_Held, int]) -> Weights:
        """The distribution of the kept values' score."""
        totals: defaultdict[Number, int] = defaultdict(int)
        for (values, settled), weight in states.items():
            if self.holds_kept:
                settled = sum(self.score(self.sign * key) for key in values)
            totals[exact(settled)] += weight
        return dict(totals)


def _mapped(faces: Weights, value: Callable[[Number], Number]) -> Weights:
    """The weights of each face carried to the value it is worth."""
    counts: defaultdict[Number, int] = defaultdict(int)
    for face, weight in faces.items():
        counts[value(face)] += weight
    return dict(counts)


def _value(face: int) -> int:
    return face


def _slot_bytes(bound: int) -> int:
    """Bytes per packed slot so that a coefficient up to `bound` never spills over."""
    return bound.bit_length() // 8 + 1


def _unpack(packed: int, low: int, span: int, width: int) -> Weights:
    view = memoryview(packed.to_bytes(span * width, "little"))
    result: Weights = {}
    for index in range(span):
        weight = int.from_bytes(view[index * width : (index + 1) * width], "little")
        if weight:
            result[low + index] = weight
    return result
