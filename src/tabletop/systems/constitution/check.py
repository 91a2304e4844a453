"""The ability check (article 3): d20 + score vs DC, signed degrees, exploding 20s, natural 1s.

A degree is a signed whole number, never 0: 1, 2, … are degrees of success and −1, −2, …
degrees of failure. Advantage and disadvantage dice cancel one for one (C3-A09); each d20
explodes on its own before the best or worst is kept (C3-A08).
"""

from __future__ import annotations

import math
from fractions import Fraction

from pydantic import Field

from tabletop.dice import DiceSource, roll
from tabletop.systems.constitution.errors import ConstitutionDataError
from tabletop.systems.constitution.models import DiceRecord, Model, Piece, joined, theirs
from tabletop.systems.constitution.options import DEFAULT, Options

DEGREE_STEP = 5
"""Points of margin per extra degree (§ 3.2)."""

MAX_EXTRA_DICE = 20
"""Advantage or disadvantage dice one check may roll after cancelling: a documented bound."""

NORMAL_DC = 20
"""The DC of "normal" difficulty (§ 3.6): a check's when nobody names another."""

NATURAL_ONE_PENALTY = 5
"""The −5 a natural 1 counts as under the `minus_five` reading (§ 3.5)."""


def net_extra_dice(advantage: int, disadvantage: int) -> int:
    """Advantage minus disadvantage dice (C3-A09): positive keeps the best, negative the worst."""
    if advantage < 0 or disadvantage < 0:
        raise ConstitutionDataError("advantage and disadvantage dice cannot be negative")
    net = advantage - disadvantage
    if abs(net) > MAX_EXTRA_DICE:
        raise ConstitutionDataError(
            f"{abs(net)} extra dice after cancelling; at most {MAX_EXTRA_DICE} are allowed"
        )
    return net


def d20_expression(net: int) -> str:
    """The dice engine's expression for a check's d20: every die explodes, then keep one."""
    if net == 0:
        return "1d20!"
    return f"{1 + abs(net)}d20!{'kh1' if net > 0 else 'kl1'}"


def degree(margin: int | Fraction, options: Options = DEFAULT) -> int:
    """The signed degree for total − DC (§ 3.2; C3-A05 for failures by a multiple of 5)."""
    if margin >= 0:
        return 1 + int(margin // DEGREE_STEP)
    if options.fail_degree_rounding == "floor":
        return -(1 + int(-margin // DEGREE_STEP))
    return int(margin // DEGREE_STEP)


def resolve_degree(die: int, score: int, dc: int, options: Options = DEFAULT) -> int:
    """The degree of a check whose kept d20 (with its explosions) came to `die` (§ 3.2–3.5).

    A kept die worth 1 is a natural 1: exploded dice are always worth 21 or more."""
    natural_one = die == 1
    margin = die + score - dc
    if natural_one and options.natural_one == "minus_five":
        margin -= NATURAL_ONE_PENALTY
    result = degree(margin, options)
    if natural_one and options.natural_one == "step":
        return -1 if result == 1 else result - 1
    return result


class Check(Model):
    """A finished ability check, with the dice that decided it."""

    score: int = Field(description="ability (or skill-modified ability) plus every modifier")
    dc: int
    advantage: int = Field(ge=0)
    disadvantage: int = Field(ge=0)
    die: int = Field(ge=1, description="the kept d20 with its explosions")
    total: int
    """The die plus the score; under the `minus_five` reading a natural 1 counts as −4."""
    natural_one: bool
    degree: int
    roll: DiceRecord

    @property
    def success(self) -> bool:
        return self.degree > 0

    @property
    def extra_degrees(self) -> int:
        """Degrees of success beyond the first (§ 5.19): 0 on a failure."""
        return max(0, self.degree - 1)

    @property
    def margin(self) -> int:
        return self.total - self.dc

    def describe(self) -> str:
        """One line for the table: the dice, the total against the DC, the degree."""
        return joined(self.told(""))

    def told(
        self, roller: str, against: str | None = None, verdict: str | None = None
    ) -> tuple[Piece, ...]:
        """`describe`'s line in pieces, each with whose it is: the dice, the total and the
        degree are `roller`'s; the DC is `against`'s (the target whose AC it is; the
        roller's when None); whether it succeeded, and by how many degrees, is `verdict`'s
        (None: anyone may see whether it succeeded, as whether a blow landed, and the degrees
        are the roller's)."""
        against = roller if against is None else against
        sign = "+" if self.score >= 0 else "−"
        note = " (natural 1)" if self.natural_one else ""
        shown = self.total - self.score
        face = f"−{-shown}" if shown < 0 else str(shown)
        if shown != self.die:
            note = f" (natural 1, scored as {face})"
        degrees = abs(self.degree)
        counted = f"{degrees} degree{'s' if degrees > 1 else ''}{note}"
        outcome = "success" if self.success else "failure"
        judged: tuple[Piece, ...] = (
            (theirs(f"{outcome}, {counted}", verdict),)
            if verdict is not None
            else (f"{outcome}, ", theirs(counted, roller))
        )
        pieces = (
            theirs(f"{self.roll.text}; {face} {sign} {abs(self.score)} = {self.total}", roller),
            " vs DC ",
            theirs(self.dc, against),
            ": ",
            *judged,
        )
        return (theirs(joined(pieces), roller),) if against == verdict == roller else pieces


def check(
    score: int,
    dc: int,
    dice: DiceSource,
    *,
    advantage: int = 0,
    disadvantage: int = 0,
    options: Options = DEFAULT,
) -> Check:
    """Roll an ability check or save (§ 3.1–3.8): 1d20 + `score` against `dc`."""
    net = net_extra_dice(advantage, disadvantage)
    rolled = roll(d20_expression(net), dice)
    die = rolled.total
    scored_as_minus_four = die == 1 and options.natural_one == "minus_five"
    return Check(
        score=score,
        dc=dc,
        advantage=advantage,
        disadvantage=disadvantage,
        die=die,
        total=die + score - (NATURAL_ONE_PENALTY if scored_as_minus_four else 0),
        natural_one=die == 1,
        degree=resolve_degree(die, score, dc, options),
        roll=DiceRecord.of(rolled),
    )


def reroll(previous: Check, dice: DiceSource, options: Options = DEFAULT) -> Check:
    """Roll the same check again and keep the new result (§ 9.1; C3-A34)."""
    return check(
        previous.score,
        previous.dc,
        dice,
        advantage=previous.advantage,
        disadvantage=previous.disadvantage,
        options=options,
    )


def skill_score(ability: int, rating: int, options: Options = DEFAULT) -> int:
    """An ability scaled by a 0–100 skill rating (§ 4.10), rounded per C3-A11."""
    if not 0 <= rating <= 100:
        raise ConstitutionDataError(f"a skill rating runs from 0 to 100, not {rating}")
    exact = Fraction(ability * rating, 100)
    if options.skill_rounding == "floor":
        return math.floor(exact)
    return math.floor(exact + Fraction(1, 2))
