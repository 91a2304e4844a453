"""Every reading of an unclear article that reasonable tables make differently, in one place.

Each field is named in docs/rules/constitution.md next to the entry (C3-A…) it settles; the
defaults are the recommended readings. Rules take an `Options` and never read globals.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field, field_validator

from tabletop.dice import parse
from tabletop.errors import TabletopError
from tabletop.systems.constitution.models import Model


class Options(Model):
    """The table's house readings; `Options()` is the recommended set."""

    fail_degree_rounding: Literal["floor", "ceil"] = "floor"
    """C3-A05: failing by exactly 5 is a second degree of failure (floor) or still the first."""

    natural_one: Literal["step", "minus_five", "ignore"] = "step"
    """C3-A06: a natural 1 moves the result one degree down (step), counts as −5, or nothing."""

    skill_rounding: Literal["floor", "nearest"] = "floor"
    """C3-A11: ability × skill% rounded down, or to the nearest whole number (halves up)."""

    xp_scale: Literal["standard", "tenth"] = "standard"
    """C3-M06: level 2 at 1500 XP and doubling, or the notes' one-tenth thresholds (150, …)."""

    xp_per_sp: Fraction = Field(default=Fraction(1), ge=0)
    """C3-G01 (ASSUMPTION): XP per silver piece of treasure; the amendment giving it is lost."""

    fighter_bonus_scope: Literal["combat", "attack_and_defence"] = "combat"
    """C3-A37: the fighter's level counts on injury saves too (combat), or only on
    initiative, attack and defence (as first played)."""

    superior_initiative_ties: Literal["nobody", "all_tied"] = "nobody"
    """C3-A12: when the highest initiative is tied, nobody gets the superior turn, or all do."""

    overspend_initiative: Literal["clamp", "refuse"] = "clamp"
    """C3-A13: paying more initiative than you have leaves you at 0, or is refused."""

    extra_action_cost: int = Field(default=10, ge=1, le=20)
    """C3-A14: initiative paid for an extra action (bow training halves it)."""

    forced_bout_hp_loss: str = "0"
    """C3-G07: HP each combatant loses when a bout is forced on (a dice expression or 0)."""

    direct_hit_injury_dc: Literal["damage", "flat"] = "damage"
    """C3-A16: a direct hit's injury DC is 20 + the damage rolled, or a flat 20."""

    fatigue_without_reroll: bool = True
    """C3-A18: a short rest adds fatigue even when the character keeps their HP."""

    research_time: Literal["per_level", "multiplied"] = "per_level"
    """C3-A21: 4d6 days rolled once per spell level and summed, or one 4d6 times the level."""

    starvation_threshold: Literal["strength", "three"] = "strength"
    """C3-A23: strain days before starving: round(STR / 3) (at least 1), or always 3."""

    starvation_penalty_start: Literal["after_trigger", "with_trigger"] = "after_trigger"
    """C3-A24: the day of strain that starts starvation adds no −2 (after), or does."""

    encumbrance_rounding: Literal["nearest", "floor"] = "nearest"
    """C3-A25: STR × 2/3 (the encumbered limit) rounded to nearest like STR / 3, or down."""

    dehydration: Literal["latest", "cumulative"] = "latest"
    """C3-A27: each dry day's save sets the penalty (latest), or adds to it."""

    players_set_difficulty: bool = False
    """C3-S07: players set their own checks' DC, bonuses and advantage dice, and the state of
    an attack's target, as the GM does; off: the GM's alone (asked for with `ask-roll`)."""

    @field_validator("forced_bout_hp_loss")
    @classmethod
    def _is_dice(cls, expression: str) -> str:
        try:
            parse(expression)
        except TabletopError as error:
            raise ValueError(str(error)) from None
        return expression


DEFAULT = Options()
"""The recommended readings."""
