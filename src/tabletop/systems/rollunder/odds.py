"""Exact odds of the Core Rules, as fractions: ability rolls (alone, as a group, encumbered,
with omens), contests with their tie-breaks, exploding damage after armour and the chance
of each critical threshold, the injury table, and corruption one roll or many gains ahead.

Damage odds use the dice engine's penetrating explosion (`!p`) with a depth chosen from the
dice, so that the chains cut short carry less than 10⁻¹⁵ of the probability; the list of
outcomes stops where less than 10⁻¹⁵ remains and lumps that tail into its last value.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from tabletop.dice import Distribution, distribution, limits
from tabletop.errors import LimitError
from tabletop.systems.rollunder.abilities import Roller, passes
from tabletop.systems.rollunder.contests import Side
from tabletop.systems.rollunder.corruption import roll_against
from tabletop.systems.rollunder.critical import injury_table
from tabletop.systems.rollunder.damage import ARMOUR_CAP, DamageDice
from tabletop.systems.rollunder.options import RollUnderOptions

TAIL = Fraction(1, 10**15)
"""Probability left in the tail when a list of damage outcomes stops (the JSON contract)."""

D20_FACES = range(1, 21)
CORRUPTION_FACES = range(1, 13)
MAX_ODDS_SIDES = 8
MAX_ODDS_ROLLS = 200
MAX_CONTEST_WORK = 2_500_000
"""Sides in one exact contest calculation, rolls one side makes in it (its members times
the contest's rolls), and the steps it may take (a few seconds at most)."""
MAX_CHAIN_WORK = 3_000_000
"""Corruption states × gains one exact chain may visit."""

_DEFAULT = RollUnderOptions()


# -- ability rolls -----------------------------------------------------------------------


def pass_chance(score: int, options: RollUnderOptions = _DEFAULT) -> Fraction:
    """P(one ability roll passes): the d20 faces that pass, out of 20 (CR-P01)."""
    return Fraction(sum(passes(face, score, options) for face in D20_FACES), 20)


def collective_chance(scores: Iterable[int], options: RollUnderOptions = _DEFAULT) -> Fraction:
    """P(a group's one d20 passes): the same as the best score's chance (CR-M02)."""
    return pass_chance(max(scores), options)


def encumbered_chance(
    agility: int, strength: int, options: RollUnderOptions = _DEFAULT
) -> Fraction:
    """P(an encumbered AGI roll passes): both the AGI and the STR roll must (CR-A02)."""
    return pass_chance(agility, options) * pass_chance(strength, options)


def with_omens(chance: Fraction, omens: int, options: RollUnderOptions = _DEFAULT) -> Fraction:
    """P(pass) when each failed roll is re-rolled while omens last (CR-P07): 1 − (1 − p)^(k+1)."""
    rerolls = min(omens, 1) if not options.omen_repeat_rerolls else omens
    return 1 - (1 - chance) ** (rerolls + 1)


def encumbered_with_omens(
    agility: int, strength: int, omens: int, options: RollUnderOptions = _DEFAULT
) -> Fraction:
    """P(an encumbered AGI roll passes) re-rolling each failed die (AGI, then STR) while
    omens last: the failures before each die passes share the omens."""
    agi, strg = pass_chance(agility, options), pass_chance(strength, options)
    per_die = omens if options.omen_repeat_rerolls else min(omens, 1)
    return sum(
        (
            agi * (1 - agi) ** a * strg * (1 - strg) ** b
            for a in range(per_die + 1)
            for b in range(min(per_die, omens - a) + 1)
        ),
        Fraction(0),
    )


# -- contests ----------------------------------------------------------------------------


def member_chance(roller: Roller, options: RollUnderOptions = _DEFAULT) -> Fraction:
    """P(one of this roller's ability rolls passes), the STR roll of encumbrance included."""
    if roller.incapacitated and options.incapacitated_rolls == "fail":
        return Fraction(0)
    chance = pass_chance(roller.score, options)
    return chance if roller.strength is None else chance * pass_chance(roller.strength, options)


@dataclass(frozen=True)
class _Passes:
    """How many rolls a side passes, as integer weights over a common `total`."""

    weights: dict[int, int]
    total: int

    @classmethod
    def of(cls, chances: Sequence[Fraction], times: int) -> _Passes:
        """Every member rolling `times` rolls, each passing with its chance."""
        weights, total = {0: 1}, 1
        for chance in chances:
            hit, whole = chance.numerator, chance.denominator
            one = {
                k: math.comb(times, k) * hit**k * (whole - hit) ** (times - k)
                for k in range(times + 1)
            }
            combined: defaultdict[int, int] = defaultdict(int)
            for a, wa in weights.items():
                for b, wb in one.items():
                    combined[a + b] += wa * wb
            weights, total = {k: w for k, w in combined.items() if w}, total * whole**times
        return cls(weights, total)

    def below(self) -> Callable[[int], int]:
        """The weight of scores under `top`, for any top, from running totals."""
        values = sorted(self.weights)
        running = list(itertools.accumulate((self.weights[v] for v in values), initial=0))
        return lambda top: running[bisect.bisect_left(values, top)]

    def chances(self) -> dict[int, Fraction]:
        return {k: Fraction(w, self.total) for k, w in sorted(self.weights.items())}


@dataclass(frozen=True)
class ContestOdds:
    """Exact odds of a contest: each side's successes and chance of finishing first alone."""

    successes: dict[str, dict[int, Fraction]]
    first: dict[str, Fraction]
    shared_first: Fraction
    """P(the tie for first can never be broken; only when every result is certain)."""


def contest_odds(
    sides: Sequence[Side], rolls: int = 4, options: RollUnderOptions = _DEFAULT
) -> ContestOdds:
    """P(each side ranks first) in a contest, tie-breaks included (CR-P02, CR-A16)."""
    if not 2 <= len(sides) <= MAX_ODDS_SIDES:
        raise LimitError(f"exact contest odds take 2 to {MAX_ODDS_SIDES} sides")
    if max(len(side.members) for side in sides) * rolls > MAX_ODDS_ROLLS:
        raise LimitError(
            f"exact contest odds take at most {MAX_ODDS_ROLLS} rolls a side (members × rolls)"
        )
    per_round = 1 if options.contest_tie_break == "one_roll_each" else rolls
    _check_contest_work(sides, rolls, per_round)
    chances = {
        side.name: [member_chance(member, options) for member in side.members] for side in sides
    }
    contest = {name: _Passes.of(c, rolls) for name, c in chances.items()}
    tie_break = {name: _Passes.of(c, per_round) for name, c in chances.items()}
    names = [side.name for side in sides]

    @cache
    def wins(name: str, group: frozenset[str]) -> Fraction:
        """P(`name` comes out first of the tied `group`), rolling tie-break rounds."""
        if group == {name}:
            return Fraction(1)
        tops, whole = _top_groups(name, group - {name}, tie_break)
        again = tops.pop(group, 0)
        if again == whole:
            return Fraction(0)
        return sum((w * wins(name, tied) for tied, w in tops.items()), Fraction(0)) / (
            whole - again
        )

    first = {}
    for name in names:
        tops, whole = _top_groups(name, frozenset(names) - {name}, contest)
        first[name] = sum(
            (Fraction(w, whole) * wins(name, tied) for tied, w in tops.items()), Fraction(0)
        )
    return ContestOdds(
        successes={name: passes.chances() for name, passes in contest.items()},
        first=first,
        shared_first=1 - sum(first.values(), Fraction(0)),
    )


def _check_contest_work(sides: Sequence[Side], rolls: int, per_round: int) -> None:
    """Refuse a contest whose exact odds would take too long: each side at the top of every
    set of others, in the contest and in the tie-break groups that can follow."""
    count = len(sides)
    most = max(len(side.members) for side in sides)
    work = (
        count
        * count
        * ((most * rolls + 1) * 2 ** (count - 1) + (most * per_round + 1) * 3 ** (count - 1))
    )
    if work > MAX_CONTEST_WORK:
        raise LimitError(
            f"exact odds of that contest would take {work:,} steps, over the limit of "
            f"{MAX_CONTEST_WORK:,}: fewer sides, members or rolls"
        )


def _top_groups(
    name: str, others: frozenset[str], scores: dict[str, _Passes]
) -> tuple[dict[frozenset[str], int], int]:
    """Each set that `name` can share the top with (the rest below), as integer weights over
    the returned whole."""
    ordered = sorted(others)
    below = {other: scores[other].below() for other in ordered}
    found: defaultdict[frozenset[str], int] = defaultdict(int)
    for top, weight in scores[name].weights.items():
        for tied in _subsets(ordered):
            product = weight
            for other in ordered:
                product *= scores[other].weights.get(top, 0) if other in tied else below[other](top)
                if not product:
                    break
            if product:
                found[tied | {name}] += product
    whole = math.prod(scores[member].total for member in (name, *ordered))
    return dict(found), whole


def _subsets(items: Sequence[str]) -> Iterable[frozenset[str]]:
    for size in range(len(items) + 1):
        for chosen in itertools.combinations(items, size):
            yield frozenset(chosen)


# -- damage --------------------------------------------------------------------------------


def effective_armour(armour: int, direct: bool) -> int:
    """What armour can take off at most: its value capped at 3; nothing for direct damage."""
    return 0 if direct else min(max(0, armour), ARMOUR_CAP)


def mean_damage_dice(dice: DamageDice, options: RollUnderOptions = _DEFAULT) -> Fraction:
    """Exact mean of the exploding dice alone (no modifier), chains unbounded (CR-P03):
    (n + 2)/2 per die; a pool exploding as one: (E[pool] − p)/(1 − p), p = P(maximum)."""
    n, count = dice.sides, dice.count
    if n == 1:
        return Fraction(count)
    if dice.pool_explodes(options):
        p = Fraction(1, n**count)
        return (Fraction(count * (n + 1), 2) - p) / (1 - p)
    return Fraction(count * (n + 2), 2)


def odds_depth(dice: DamageDice, options: RollUnderOptions = _DEFAULT) -> int:
    """The least explosion depth at which the chains cut short hold less than 10⁻¹⁵ in all:
    49 for a d2, 19 for a d6, 11 for a d20; 0 for a d1, which never explodes."""
    if dice.sides == 1:
        return 0
    if dice.pool_explodes(options):
        per_level, chains = Fraction(1, dice.sides**dice.count), 1
    else:
        per_level, chains = Fraction(1, dice.sides), dice.count
    depth = 1
    while chains * per_level ** (depth + 1) >= TAIL:
        depth += 1
    return depth


def _first_cut_value(dice: DamageDice, depth: int, options: RollUnderOptions) -> int:
    """The smallest dice total (no modifier) a chain cut short at `depth` can show: every
    value below it has its exact probability."""
    n, count = dice.sides, dice.count
    if dice.pool_explodes(options):
        top = n * count
        return top + depth * (top - 1)
    return n + depth * (n - 1) + (count - 1)


def _dice_weights(dice: DamageDice, depth: int, options: RollUnderOptions) -> Distribution:
    if dice.sides == 1:
        return Distribution.point(dice.count)
    if dice.pool_explodes(options):
        pool = distribution(dice.dice).weights
        return Distribution(_pool_chain(dict(pool), dice.count * dice.sides, depth))
    return distribution(f"{dice.dice}!p:{depth}")


def _pool_chain(pool: dict[int, int], top: int, depth: int) -> dict[int, int]:
    """Integer weights of a pool that rolls again on `top`, adding the new total minus 1,
    with at most `depth` follow-ups."""
    whole = sum(pool.values())
    follow, follow_whole = pool, whole
    for _ in range(depth - 1):
        follow, follow_whole = _explode_once(pool, top, follow, follow_whole), follow_whole * whole
    return _explode_once(pool, top, follow, follow_whole)


def _explode_once(
    first: dict[int, int], top: int, follow: dict[int, int], follow_whole: int
) -> dict[int, int]:
    result: defaultdict[int, int] = defaultdict(int)
    for value, weight in first.items():
        if value == top:
            for extra, extra_weight in follow.items():
                result[value + extra - 1] += weight * extra_weight
        else:
            result[value] += weight * follow_whole
    return dict(result)


@dataclass(frozen=True)
class CriticalOdds:
    """P(one hit crosses each critical threshold) (CR-P04)."""

    incapacitated: Fraction
    injury: Fraction
    permanent: Fraction


@dataclass(frozen=True)
class DamageOdds:
    """The damage of one hit: exact distributions before and after armour.

    `rolled` and `dealt` are exact for every value below `exact_below` (after armour for
    `dealt`); the chains cut short (less than 10⁻¹⁵ in all) sit at or above it."""

    dice: DamageDice
    armour: int
    direct: bool
    rolled: Distribution
    """The damage rolled, modifier included, never below 0."""
    dealt: Distribution
    """The damage after armour."""
    exact_below: int
    depth: int
    """Follow-up rolls per die (or pool) the distributions allow."""
    mean: Fraction
    """The exact mean damage after armour, explosions unbounded."""

    def outcomes(self) -> list[tuple[int, Fraction]]:
        """Damage after armour with probabilities, stopping where less than 10⁻¹⁵ remains;
        the last value holds P(damage ≥ it)."""
        return trimmed(self.dealt)

    def critical(
        self, health: int, max_health: int, options: RollUnderOptions = _DEFAULT
    ) -> CriticalOdds:
        """P(incapacitated), P(injury roll), P(permanent injury) for a character at `health`
        of `max_health` taking this hit (CR-M16, CR-A04, CR-A05)."""
        if options.critical_damage_measure == "before_armour":
            measure = self.rolled
        elif options.critical_damage_measure == "health_lost":
            measure = mapped(self.dealt, lambda value: min(value, health))
        else:
            measure = self.dealt
        return CriticalOdds(
            incapacitated=1 - measure.at_most(health // 2),
            injury=1 - measure.at_most(max_health // 2),
            permanent=1 - measure.at_most(max_health),
        )


def mapped(dist: Distribution, change: Callable[[int], int]) -> Distribution:
    """The distribution of `change(outcome)`: weights of values that meet are added."""
    result: defaultdict[int, int] = defaultdict(int)
    for value, weight in dist.weights.items():
        result[change(value)] += weight
    return Distribution(result)


def trimmed(dist: Distribution, tail: Fraction = TAIL) -> list[tuple[int, Fraction]]:
    """Outcomes in order up to the first value past which less than `tail` remains; that
    value carries the rest of the probability."""
    whole = dist.total
    shown: list[tuple[int, Fraction]] = []
    below = 0
    for value, weight in dist.weights.items():
        remaining = whole - below
        if Fraction(remaining - weight, whole) < tail:
            shown.append((value, Fraction(remaining, whole)))
            return shown
        shown.append((value, Fraction(weight, whole)))
        below += weight
    return shown


def damage_odds(
    dice: DamageDice,
    armour: int = 0,
    direct: bool = False,
    options: RollUnderOptions = _DEFAULT,
    exact_up_to: int = 0,
) -> DamageOdds:
    """The exact odds of one hit (CR-P03, CR-P04). The depth of the chains is the least that
    leaves under 10⁻¹⁵ in chains cut short, deepened until every dealt value up to
    `exact_up_to` (and the last outcome listed) is exact, within the engine's bound of 100."""
    cap = effective_armour(armour, direct)
    depth = odds_depth(dice, options)
    while True:
        base = _dice_weights(dice, depth, options)
        cut = _first_cut_value(dice, depth, options) if dice.sides > 1 else math.inf
        rolled = mapped(base, lambda value: max(0, value + dice.modifier))
        dealt = mapped(rolled, lambda value: value - min(cap, value))
        exact_below = cut + dice.modifier - cap
        enough = trimmed(dealt)[-1][0] < exact_below and exact_up_to < exact_below
        if enough or depth >= limits.MAX_EXPLOSION_DEPTH:
            break
        depth = min(limits.MAX_EXPLOSION_DEPTH, depth + max(1, depth // 2))
    return DamageOdds(
        dice=dice,
        armour=armour,
        direct=direct,
        rolled=rolled,
        dealt=dealt,
        exact_below=int(min(exact_below, 10**9)),
        depth=depth,
        mean=_exact_mean(dice, base, cap, options),
    )


def _exact_mean(
    dice: DamageDice, base: Distribution, cap: int, options: RollUnderOptions
) -> Fraction:
    """E[max(0, T + m) − min(cap, max(0, T + m))] from E[T] and the small values (all exact)
    where the dealt damage is not simply T + m − cap."""
    linear = mean_damage_dice(dice, options) + dice.modifier - cap
    correction = Fraction(0)
    for value, probability in base:
        if value + dice.modifier >= cap:
            break
        rolled = max(0, value + dice.modifier)
        dealt = rolled - min(cap, rolled)
        correction += (dealt - (value + dice.modifier - cap)) * probability
    return linear + correction


# -- injuries --------------------------------------------------------------------------------


def injury_odds(omens: int = 0, options: RollUnderOptions = _DEFAULT) -> dict[str, Fraction]:
    """P(each injury) when the player re-rolls death while omens last (CR-P05): death
    falls to (1/8)^(k+1), the rest shares what it loses. One re-roll at most when the
    options allow a roll only one (CR-A10)."""
    omens = omens if options.omen_repeat_rerolls else min(omens, 1)
    chances = _injury_chances()
    deadly = _deadly_injuries()
    death = sum((chances[name] for name in deadly), Fraction(0))
    survive = sum(death**k for k in range(omens + 1))
    return {
        name: (chance * death**omens if name in deadly else chance * survive)
        for name, chance in chances.items()
    }


def _injury_chances() -> dict[str, Fraction]:
    """P(each injury) on one roll of the table."""
    table = injury_table()
    chances: defaultdict[str, Fraction] = defaultdict(Fraction)
    for value, probability in distribution(table.dice):
        chances[table.lookup(value).name] += probability
    return dict(chances)


def _deadly_injuries() -> frozenset[str]:
    """The injuries that kill on the spot."""
    return frozenset(
        entry.name
        for entry in injury_table().entries
        if any(effect.kind == "death" for effect in entry.effects)
    )


# -- corruption ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CorruptionOdds:
    """One corruption roll: the chance it strikes, the damage, and the critical outcomes."""

    against: int
    trigger: Fraction
    damage: dict[int, Fraction]
    """Direct damage taken: 0 when the roll misses."""
    mean_damage: Fraction
    critical: CriticalOdds | None
    """With health given: the chance of each critical threshold."""
    mutation: Fraction | None
    """With health given: P(a mutation), critical damage the character survives: every
    critical roll but the injury rolls that kill (CR-A15; no omens spent, no ability lost
    to 0)."""


def corruption_odds(
    total: int,
    gain: int,
    health: int | None = None,
    max_health: int | None = None,
    options: RollUnderOptions = _DEFAULT,
) -> CorruptionOdds:
    """The corruption roll after gaining `gain` on a total of `total` (CR-P06)."""
    against = roll_against(total, gain, options)
    damage: defaultdict[int, Fraction] = defaultdict(Fraction)
    for face in CORRUPTION_FACES:
        damage[face if face <= against else 0] += Fraction(1, 12)
    dist = Distribution({k: int(v * 12) for k, v in damage.items()})
    critical = mutation = None
    if health is not None and max_health is not None:
        measure = (
            mapped(dist, lambda value: min(value, health))
            if options.critical_damage_measure == "health_lost"
            else dist
        )
        critical = CriticalOdds(
            incapacitated=1 - measure.at_most(health // 2),
            injury=1 - measure.at_most(max_health // 2),
            permanent=1 - measure.at_most(max_health),
        )
        chances = _injury_chances()
        death = sum((chances[name] for name in _deadly_injuries()), Fraction(0))
        mutation = critical.incapacitated - critical.injury * death
    return CorruptionOdds(
        against=against,
        trigger=1 - damage.get(0, Fraction(0)),
        damage=dict(sorted(damage.items())),
        mean_damage=dist.mean,
        critical=critical,
        mutation=mutation,
    )


@dataclass(frozen=True)
class CorruptionChain:
    """Corruption after a run of equal gains, with the damage it dealt on the way."""

    totals: Distribution
    """The corruption total after the last gain."""
    mean_damage: Fraction
    """Expected direct damage over all the gains."""


def corruption_chain(
    gain: int, gains: int, start: int = 0, options: RollUnderOptions = _DEFAULT
) -> CorruptionChain:
    """Exactly where corruption stands after `gains` gains of `gain` each (CR-P06)."""
    if gain < 1 or gains < 0 or start < 0:
        raise LimitError("a corruption chain needs a gain of at least 1 and a start of 0 or more")
    work = gains * (start + gains * gain + 1)
    if work > MAX_CHAIN_WORK:
        raise LimitError(
            f"that corruption chain needs {work:,} steps, over the limit of {MAX_CHAIN_WORK:,}"
        )
    state = {start: 1}
    damage_sum = 0  # over all gains, in units of 1/12^gains
    for step in range(gains):
        following: defaultdict[int, int] = defaultdict(int)
        for total, weight in state.items():
            after = total + gain
            against = roll_against(total, gain, options)
            for face in CORRUPTION_FACES:
                if face <= against:
                    following[after - face] += weight
                    damage_sum += face * weight * 12 ** (gains - step - 1)
                else:
                    following[after] += weight
        state = dict(following)
    return CorruptionChain(totals=Distribution(state), mean_damage=Fraction(damage_sum, 12**gains))


def long_run_damage_per_gain(gain: int) -> Fraction:
    """Average direct damage per gain of `gain` over a long run: every point of corruption
    healed is a point of damage taken, so while corruption stays bounded (a gain of 6 or
    less, under either reading of CR-A14) it is the gain itself; a larger gain outruns the
    d12's average of 6.5, corruption grows without end and every roll strikes."""
    if gain < 1:
        raise LimitError("a corruption gain is at least 1")
    return min(Fraction(gain), Fraction(13, 2))


def corruption_stationary(
    gain: int, options: RollUnderOptions = _DEFAULT, tolerance: float = 1e-12
) -> np.ndarray:
    """The long-run share of time at each corruption total for repeated gains of `gain`
    (floats, by solving the chain on enough states that the rest holds under `tolerance`).
    Only a gain of 6 or less has one: larger gains grow corruption without end."""
    if not 1 <= gain <= 6:
        raise LimitError("only gains of 1 to 6 settle into a long-run pattern")
    size = 64
    while True:
        matrix = np.zeros((size, size))
        for total in range(size):
            after = total + gain
            against = roll_against(total, gain, options)
            for face in CORRUPTION_FACES:
                landing = after - face if face <= against else after
                matrix[total, min(landing, size - 1)] += 1 / 12
        system = np.vstack([matrix.T - np.eye(size), np.ones(size)])
        target = np.zeros(size + 1)
        target[-1] = 1.0
        shares, *_ = np.linalg.lstsq(system, target, rcond=None)
        if shares[-8:].sum() < tolerance or size >= 1024:
            return np.clip(shares, 0.0, 1.0)
        size *= 2
