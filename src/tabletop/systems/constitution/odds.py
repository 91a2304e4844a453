"""Exact odds of a check before it is rolled, and many checks sampled at once.

The exploding d20 has no last value, so its series is summed until what is left out is
below `SERIES_REMAINDER` (the issue's contract); with `depth` the explosion chain is cut
exactly where the dice engine's `!:depth` cuts it, which is what tests enumerate against.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from tabletop.dice import distribution, sample
from tabletop.dice.distribution import Distribution
from tabletop.systems.constitution.check import (
    DEGREE_STEP,
    NATURAL_ONE_PENALTY,
    d20_expression,
    net_extra_dice,
    resolve_degree,
)
from tabletop.systems.constitution.errors import ConstitutionDataError
from tabletop.systems.constitution.health import hit_point_expression
from tabletop.systems.constitution.models import Model
from tabletop.systems.constitution.options import DEFAULT, Options
from tabletop.systems.constitution.travel import MILES_PER_ENCOUNTER_CHECK, OVERLAND_ENCOUNTER

SERIES_REMAINDER = 1e-15
"""The exploding series is summed until the probability left out is below this."""

_FIRST_DEPTH = 11
"""Explosions summed at first: 20 ** -12 is already below `SERIES_REMAINDER`."""

_MAX_DEPTH = 40
"""Safety bound on the series (reached only if the remainder test could never pass)."""


@dataclass(frozen=True)
class CheckOdds:
    """The chance of each signed degree of one check, exactly, and P(success)."""

    degrees: dict[int, Fraction]
    remainder: Fraction
    """Probability of the explosion chains left out of the series (0 when bounded)."""
    remainder_degree: int = 1
    """The lowest degree any left-out chain can have (they all lie above the series)."""

    @property
    def success(self) -> Fraction:
        """P(success), exact: the left-out chains count when they all succeed."""
        return self.at_least(1)

    def at_least(self, wanted: int) -> Fraction:
        """P(degree ≥ wanted): e.g. 5 for a direct hit (§ 5.20)."""
        summed = sum((p for d, p in self.degrees.items() if d >= wanted), Fraction(0))
        return summed + (self.remainder if self.remainder_degree >= wanted else 0)

    def to_json(self) -> dict[str, Any]:
        """The stable contract: `success` and `degrees` keyed by signed degree strings."""
        return {
            "success": float(self.success),
            "degrees": {str(d): float(p) for d, p in self.degrees.items()},
        }


def exploding_d20(depth: int, *, bounded: bool = False) -> dict[int, Fraction]:
    """Value → probability of one d20 that adds another on each 20, up to `depth` follow-ups.

    Unbounded (the rule), the chains longer than `depth` are left out; bounded (the dice
    engine's `!:depth`), the last follow-up is kept whatever it shows."""
    probabilities: dict[int, Fraction] = {}
    reach = Fraction(1)
    for follow_up in range(depth + 1):
        last_face = 20 if bounded and follow_up == depth else 19
        for face in range(1, last_face + 1):
            probabilities[20 * follow_up + face] = reach / 20
        reach /= 20
    return probabilities


def kept_d20(net: int, depth: int, *, bounded: bool = False) -> dict[int, Fraction]:
    """Value → probability of the d20 a check keeps with `net` advantage (+) or penalty (−)."""
    single = exploding_d20(depth, bounded=bounded)
    count = 1 + abs(net)
    values = sorted(single)
    if net >= 0:
        below = Fraction(0)
        kept = {}
        for value in values:
            reached = below + single[value]
            kept[value] = reached**count - below**count
            below = reached
        return kept
    above = 1 - sum(single.values())
    kept = {}
    for value in reversed(values):
        reached = above + single[value]
        kept[value] = reached**count - above**count
        above = reached
    return dict(sorted(kept.items()))


def check_odds(
    score: int,
    dc: int,
    *,
    advantage: int = 0,
    disadvantage: int = 0,
    options: Options = DEFAULT,
    depth: int | None = None,
) -> CheckOdds:
    """The exact degree distribution of 1d20 + `score` vs `dc` (§ 3.1–3.8).

    Without `depth` the exploding series runs until less than `SERIES_REMAINDER` is left
    out; with it, explosions stop after `depth` follow-ups as `1d20!:depth` does."""
    net = net_extra_dice(advantage, disadvantage)
    if depth is not None:
        kept = kept_d20(net, depth, bounded=True)
    else:
        depth = _FIRST_DEPTH
        kept = kept_d20(net, depth)
        while 1 - sum(kept.values()) >= SERIES_REMAINDER and depth < _MAX_DEPTH:
            depth += 1
            kept = kept_d20(net, depth)
    degrees: dict[int, Fraction] = {}
    for value, probability in kept.items():
        signed = resolve_degree(value, score, dc, options)
        degrees[signed] = degrees.get(signed, Fraction(0)) + probability
    left_out = 1 - sum(kept.values())
    least_left_out = 20 * (depth + 1) + 1
    return CheckOdds(
        dict(sorted(degrees.items())),
        left_out,
        resolve_degree(least_left_out, score, dc, options),
    )


def sample_degrees(
    score: int,
    dc: int,
    n: int,
    seed: int | None = None,
    *,
    advantage: int = 0,
    disadvantage: int = 0,
    options: Options = DEFAULT,
) -> np.ndarray:
    """The degrees of `n` independent checks, rolled by the dice engine's sampler."""
    die = sample(d20_expression(net_extra_dice(advantage, disadvantage)), n, seed)
    natural_one = die == 1
    margin = die + score - dc
    if options.natural_one == "minus_five":
        margin = margin - NATURAL_ONE_PENALTY * natural_one
    if options.fail_degree_rounding == "floor":
        failed = -(1 + (-margin) // DEGREE_STEP)
    else:
        failed = margin // DEGREE_STEP
    degrees = np.where(margin >= 0, 1 + margin // DEGREE_STEP, failed)
    if options.natural_one == "step":
        stepped = np.where(degrees == 1, -1, degrees - 1)
        degrees = np.where(natural_one, stepped, degrees)
    return degrees


def hit_point_odds(hit_dice: int, fatigue: int, sides: int = 6) -> Distribution:
    """HP after a re-roll: `hit_dice` + `fatigue` dice, the lowest `hit_dice` kept (§ 6.5)."""
    return distribution(hit_point_expression(hit_dice, sides, fatigue))


class InjuryOdds(Model):
    """How two injury saves at one DC may end (C3-P05)."""

    minor_wound: Fraction
    major_wound: Fraction
    dead: Fraction
    standing: Fraction


def injury_odds(
    strength: int,
    will: int,
    dc: int,
    *,
    may_take_major_wound: bool = True,
    options: Options = DEFAULT,
) -> InjuryOdds:
    """Exact chances of each injury outcome and of staying up, for save scores that already
    carry their bonuses (§ 6.6–6.8, § 6.11). The will save only counts if the character lives."""
    holds = check_odds(strength, dc, options=options).success
    stays_up = check_odds(will, dc, options=options).success
    fails = 1 - holds
    return InjuryOdds(
        minor_wound=holds,
        major_wound=fails if may_take_major_wound else Fraction(0),
        dead=Fraction(0) if may_take_major_wound else fails,
        standing=stays_up * (1 if may_take_major_wound else holds),
    )


def improvement_chance(score: int) -> Fraction:
    """P(a d20 beats the ability score) on one improvement try (§ 4.9; C3-P07)."""
    return Fraction(min(20, max(0, 20 - score)), 20)


def encounter_chance(miles: int) -> Fraction:
    """P(at least one overland encounter in a day of `miles`) (§ 13.5; C3-P09)."""
    if miles < 0:
        raise ConstitutionDataError("miles cannot be negative")
    checks = 1 + miles // MILES_PER_ENCOUNTER_CHECK
    return 1 - (1 - OVERLAND_ENCOUNTER) ** checks


def spell_improvement_mean(rating: int) -> Fraction:
    """The expected rating after one spell improvement roll (§ 12.15; C3-A20, C3-P10)."""
    if not 0 <= rating <= 100:
        raise ConstitutionDataError("a spell rating runs from 0 to 100")
    total = Fraction(0)
    for percentile in range(1, 101):
        if percentile > rating:
            total += percentile
        else:
            total += sum(Fraction(min(100, rating + gain), 6) for gain in range(1, 7))
    return total / 100


class HuntingOdds(Model):
    """A day of ranged hunting or foraging for a party of equal hunters (C3-P08)."""

    success: Fraction
    rations_per_hunter: Fraction
    """Expected rations laid down by one hunter, every extra degree taken as a ration."""
    day_lost: Fraction
    """Expected share of the day's travel lost: the worst hunter's loss counts (C3-A31)."""


def hunting_odds(score: int, dc: int, hunters: int = 1, options: Options = DEFAULT) -> HuntingOdds:
    """Exact expectations of a hunt (§ 13.8): 1d4 rations plus the extra degrees on a
    success; 1d4 × 25% of the day lost on a success, the whole day on a failure."""
    if not 1 <= hunters <= 100:
        raise ConstitutionDataError("a hunting party has 1 to 100 hunters")
    odds = check_odds(score, dc, options=options)
    success = odds.success
    rations = sum(
        (p * (Fraction(5, 2) + d - 1) for d, p in odds.degrees.items() if d > 0), Fraction(0)
    )
    below = [Fraction(0)] + [success * k / 4 for k in range(1, 4)] + [Fraction(1)]
    lost = sum(
        (Fraction(k, 4) * (below[k] ** hunters - below[k - 1] ** hunters) for k in range(1, 5)),
        Fraction(0),
    )
    return HuntingOdds(success=success, rations_per_hunter=rations, day_lost=lost)
