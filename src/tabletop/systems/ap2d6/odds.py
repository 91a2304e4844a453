"""Exact odds for checks, contests, death checks, social reads and random scores.

Every figure comes from walking the 36 faces of 2d6 (or pairs of them) through the same
decision functions the rules use, so the odds follow the options exactly. `simulate_death`
samples whole death-check episodes with numpy for cross-checking and for designers.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import numpy as np

from tabletop.dice import distribution
from tabletop.errors import LimitError
from tabletop.systems.ap2d6.checks import outcome, succeeds
from tabletop.systems.ap2d6.death import CHECKS_TO_END, check_succeeds
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.options import DEFAULTS, Options
from tabletop.systems.ap2d6.records import TwoDice
from tabletop.systems.ap2d6.scores import RANDOM_SCHEMES, Score, incapable, passive, raise_cost
from tabletop.systems.ap2d6.social import Band, band

FACES = range(1, 7)
ONE_IN_36 = Fraction(1, 36)
MAX_SIMULATED_EPISODES = 10_000_000


@cache
def _faces() -> tuple[TwoDice, ...]:
    """The 36 equally likely results of 2d6."""
    return tuple(
        TwoDice(expression="2d6", faces=(a, b), total=a + b)
        for a, b in itertools.product(FACES, FACES)
    )


@cache
def _kinds() -> dict[tuple[int, bool], int]:
    """The 36 results of 2d6 by what a contest looks at: (total, double 1s) → ways."""
    kinds: dict[tuple[int, bool], int] = {}
    for rolled in _faces():
        key = (rolled.total, rolled.double_one)
        kinds[key] = kinds.get(key, 0) + 1
    return kinds


def check_odds(
    score: Score,
    dc: int,
    *,
    modifier: int = 0,
    defender_wins_ties: bool = False,
    options: Options = DEFAULTS,
) -> dict[str, Fraction]:
    """P(success), P(double 1s), P(double 6s) of 2d6 + score + modifier against `dc` (RU-P01).
    Success follows every option, including double 1s failing (RU-A12)."""
    if incapable(score, options):
        success = Fraction(0)
    else:
        assert score is not None
        success = ONE_IN_36 * sum(
            succeeds(rolled, score + modifier, dc, defender_wins_ties, options)
            for rolled in _faces()
        )
    return {"success": success, "double_one": ONE_IN_36, "double_six": ONE_IN_36}


def double_six_chance(rolls: int) -> Fraction:
    """P(at least one natural double 6 in `rolls` rolls): a temp AP's chance (RU-P05)."""
    if not 0 <= rolls <= 1000:
        raise Ap2d6Error("count from 0 to 1000 rolls")
    return 1 - (1 - ONE_IN_36) ** rolls


def contest_odds(
    first: Score,
    second: Score,
    *,
    first_modifier: int = 0,
    second_modifier: int = 0,
    redo_full_ties: bool | None = None,
    score_breaks_ties: bool = True,
    options: Options = DEFAULTS,
) -> dict[str, Fraction]:
    """P(first wins), P(second wins), P(tie) of a contest (RU-P02); with redone ties the tie
    chance is spread over the redo, so it is 0."""
    redo = options.full_contest_tie == "redo" if redo_full_ties is None else redo_full_ties
    blocked = (incapable(first, options), incapable(second, options))
    if any(blocked):
        tie = Fraction(all(blocked))
        won = Fraction(0) if tie else Fraction(1)
        return {
            "first": Fraction(0) if blocked[0] else won,
            "second": Fraction(0) if blocked[1] else won,
            "tie": tie,
        }
    counts = {"first": 0, "second": 0, None: 0}
    for (a, ways_a), (b, ways_b) in itertools.product(_kinds().items(), repeat=2):
        winner, _ = outcome(
            (a[0] + first + first_modifier, first, a[1]),
            (b[0] + second + second_modifier, second, b[1]),
            score_breaks_ties,
            options,
        )
        counts[winner] += ways_a * ways_b
    total = 36 * 36
    if redo and counts[None] < total:
        total -= counts[None]
        counts[None] = 0
    return {
        "first": Fraction(counts["first"], total),
        "second": Fraction(counts["second"], total),
        "tie": Fraction(counts[None], total),
    }


# -- death checks ------------------------------------------------------------------------------


def death_check_success(dc: int, *, modifier: int = 0, options: Options = DEFAULTS) -> Fraction:
    """P(one death check succeeds) against a known DC (the GM's figure)."""
    return ONE_IN_36 * sum(check_succeeds(rolled, modifier, dc, options) for rolled in _faces())


def stabilise_chance(
    dc: int | None = None,
    *,
    successes: int = 0,
    failures: int = 0,
    options: Options = DEFAULTS,
) -> Fraction:
    """P(reaching 3 successes before 3 failures) from a tally (RU-P03). Without a DC the DC
    is averaged over its 2d6, which is what anyone who does not know it can say; checks are
    not independent, because they all face the same hidden DC."""
    if not (0 <= successes < CHECKS_TO_END and 0 <= failures < CHECKS_TO_END):
        raise Ap2d6Error(f"tallies run from 0 to {CHECKS_TO_END - 1} while checks go on")
    if dc is not None:
        return _from(death_check_success(dc, options=options), successes, failures)
    weights = distribution("2d6")
    return sum(
        (
            chance * _from(death_check_success(value, options=options), successes, failures)
            for value, chance in weights
        ),
        Fraction(0),
    )


def _from(p: Fraction, successes: int, failures: int) -> Fraction:
    if successes == CHECKS_TO_END:
        return Fraction(1)
    if failures == CHECKS_TO_END:
        return Fraction(0)
    return p * _from(p, successes + 1, failures) + (1 - p) * _from(p, successes, failures + 1)


def failure_margins(options: Options = DEFAULTS) -> dict[int, Fraction]:
    """P(a single check fails by m), m = DC - roll, over a fresh 2d6 DC (RU-P03)."""
    margins: dict[int, Fraction] = {}
    for dc_roll, rolled in itertools.product(_faces(), _faces()):
        if not check_succeeds(rolled, 0, dc_roll.total, options):
            margin = max(dc_roll.total - rolled.total, 1)
            margins[margin] = margins.get(margin, Fraction(0)) + ONE_IN_36 * ONE_IN_36
    return dict(sorted(margins.items()))


def simulate_death(episodes: int, seed: int | None = None) -> float:
    """The share of `episodes` sampled death-check runs that stabilise (default options)."""
    if not 0 < episodes <= MAX_SIMULATED_EPISODES:
        raise LimitError(f"simulate from 1 to {MAX_SIMULATED_EPISODES:,} episodes")
    rng = np.random.default_rng(seed)
    dc = rng.integers(1, 7, size=episodes) + rng.integers(1, 7, size=episodes)
    most = 2 * CHECKS_TO_END - 1
    rolls = rng.integers(1, 7, size=(episodes, most)) + rng.integers(1, 7, size=(episodes, most))
    successes = (rolls >= dc[:, None]).sum(axis=1)
    return float((successes >= CHECKS_TO_END).mean())


# -- social and random scores ------------------------------------------------------------------


def reading_bands(
    perception: Score, target_social: int, *, modifier: int = 0, options: Options = DEFAULTS
) -> dict[Band, Fraction]:
    """P(each band) reading someone with DC 6 + their SOCIAL (RU-P04)."""
    return reading_bands_against(
        perception, passive(target_social), modifier=modifier, options=options
    )


def reading_bands_against(
    perception: Score, dc: int, *, modifier: int = 0, options: Options = DEFAULTS
) -> dict[Band, Fraction]:
    """P(each band) of a social perception check against `dc`."""
    bands: dict[Band, Fraction] = dict.fromkeys(
        ("complete-success", "moderate-success", "moderate-failure", "catastrophic-failure"),
        Fraction(0),
    )
    if incapable(perception, options):
        bands["moderate-failure"] = Fraction(1)
        return bands
    assert perception is not None
    for rolled in _faces():
        success = succeeds(rolled, perception + modifier, dc, True, options)
        margin = rolled.total + perception + modifier - dc
        bands[band(success, margin)] += ONE_IN_36
    return bands


def random_score_odds(scheme: str) -> dict[int, Fraction]:
    """The distribution of one score rolled with `scheme` (RU-P07)."""
    return dict(distribution(RANDOM_SCHEMES[scheme]))


def sp_equivalent(scheme: str) -> Fraction:
    """The mean SP a rolled score is worth at point-buy prices (RU-A05, RU-P07): a raise
    costs `raise_cost`; a score below 0 is worth -1 SP per point, as lowering refunds."""
    return sum(
        (
            chance * (raise_cost(0, value) if value >= 0 else value)
            for value, chance in random_score_odds(scheme).items()
        ),
        Fraction(0),
    )
