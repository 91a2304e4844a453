"""Social play: the reputation scale, social rolls that shift an attitude, reading people,
lying, and social contests.

A bias toward a character is added to their social roll (RU-M44); passing the DC lifts the
interaction one level, passing it by more than 3 two levels (RU-M45). Reading someone is a
check the defender wins on a tie, graded into four bands by the margin (RU-M46).
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict

from tabletop.dice import DiceSource
from tabletop.systems.ap2d6.checks import Check, Contest, check, check_against, contest
from tabletop.systems.ap2d6.datafiles import shipped
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.options import DEFAULTS, Options
from tabletop.systems.ap2d6.scores import Score

LOWEST_LEVEL, HIGHEST_LEVEL = -6, 6
BAND_WIDTH = 3
"""Margins beyond 3 either way are the complete success and the catastrophic failure."""

Band = Literal["complete-success", "moderate-success", "moderate-failure", "catastrophic-failure"]


@cache
def reputation_levels() -> dict[int, str]:
    """Each level of the scale, -6 to +6, and its name (data/reputation.toml)."""
    return {int(level): name for level, name in shipped("reputation.toml")["levels"].items()}


def check_level(level: int) -> int:
    if not LOWEST_LEVEL <= level <= HIGHEST_LEVEL:
        raise Ap2d6Error(f"a reputation or bias is from {LOWEST_LEVEL} to +{HIGHEST_LEVEL}")
    return level


def reputation_name(level: int) -> str:
    """`-3` → `Loathed`."""
    return reputation_levels()[check_level(level)]


class SocialRoll(BaseModel):
    """A social roll against someone's bias: the check, the shift it earned, where it lands."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    check: Check
    bias: int
    shift: Literal[0, 1, 2]

    @property
    def level(self) -> int:
        """The level the interaction is treated at, kept on the scale."""
        return max(LOWEST_LEVEL, min(HIGHEST_LEVEL, self.bias + self.shift))

    def __str__(self) -> str:
        return (
            f"{self.check}\ntreated as {self.level:+d} ({reputation_name(self.level)}), "
            f"from {self.bias:+d} ({reputation_name(self.bias)})"
        )


def social_roll(
    social: Score,
    bias: int,
    dc: int,
    dice: DiceSource,
    *,
    modifier: int = 0,
    options: Options = DEFAULTS,
) -> SocialRoll:
    """2d6 + SOCIAL + bias (+ skills as `modifier`) against the GM's DC (RU-M44, RU-M45).

    The person being swayed is a defender, so a tie fails (RU-A02)."""
    check_level(bias)
    rolled = check(
        social, dc, dice, modifier=bias + modifier, defender_wins_ties=True, options=options
    )
    shift: Literal[0, 1, 2] = 0
    if rolled.success:
        shift = 2 if (rolled.margin or 0) > BAND_WIDTH else 1
    return SocialRoll(check=rolled, bias=bias, shift=shift)


def band(success: bool, margin: int | None) -> Band:
    """The four outcomes of reading someone (RU-M46). A failure forced by double 1s or an
    unusable score counts as a failure by 0: moderate (RU-A44)."""
    if success:
        return "complete-success" if (margin or 0) > BAND_WIDTH else "moderate-success"
    if margin is None or margin >= -BAND_WIDTH:
        return "moderate-failure"
    return "catastrophic-failure"


class Reading(BaseModel):
    """A social perception check and its band."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    check: Check

    @property
    def band(self) -> Band:
        return band(self.check.success, self.check.margin)

    def __str__(self) -> str:
        return f"{self.check}\n{self.band.replace('-', ' ')}"


def read(
    perception: Score,
    dc: int,
    dice: DiceSource,
    *,
    modifier: int = 0,
    options: Options = DEFAULTS,
) -> Reading:
    """Read someone against a DC: 6 + their SOCIAL (see `passive`), or the total of the lie
    they told (RU-M46, RU-M47). The one being read wins ties."""
    return Reading(
        check=check(
            perception, dc, dice, modifier=modifier, defender_wins_ties=True, options=options
        )
    )


class Lie(BaseModel):
    """A lie told: the liar's check against the listener's passive social perception."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    check: Check

    @property
    def suspicious(self) -> bool:
        """A failed lie comes across as highly suspicious (RU-M47)."""
        return not self.check.success

    @property
    def read_dc(self) -> int | None:
        """The DC for reading this liar later: the lie's total, if it succeeded (RU-M47)."""
        return self.check.total if self.check.success else None


def lie(
    social: Score,
    listener_perception: int,
    dice: DiceSource,
    *,
    modifier: int = 0,
    options: Options = DEFAULTS,
) -> Lie:
    """Tell a lie: 2d6 + SOCIAL (+ skills) against 6 + the listener's social perception."""
    return Lie(
        check=check_against(social, listener_perception, dice, modifier=modifier, options=options)
    )


class SocialContest(BaseModel):
    """A social perception contest: who came out ahead and by how much (RU-M48)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    contest: Contest

    @property
    def degree(self) -> Literal["complete", "moderate"] | None:
        """Complete when the totals are more than 3 apart; None for a standoff."""
        if self.contest.winner is None:
            return None
        difference = self.contest.difference
        return "complete" if difference is not None and abs(difference) > BAND_WIDTH else "moderate"

    def __str__(self) -> str:
        if self.degree is None:
            return f"{self.contest}\na standoff"
        return f"{self.contest}\na {self.degree} success for the {self.contest.winner} side"


def social_contest(
    first: Score,
    second: Score,
    dice: DiceSource,
    *,
    first_modifier: int = 0,
    second_modifier: int = 0,
    options: Options = DEFAULTS,
) -> SocialContest:
    """Both sides read each other; equal totals are a standoff unless the table uses the
    general contest rule for ties (RU-A34)."""
    general = options.social_contest_ties == "contest-rule"
    return SocialContest(
        contest=contest(
            first,
            second,
            dice,
            first_modifier=first_modifier,
            second_modifier=second_modifier,
            full_tie=options.full_contest_tie if general else "tie",
            score_breaks_ties=general,
            options=options,
        )
    )
