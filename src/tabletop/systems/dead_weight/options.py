"""The readings of unclear rules, as one validated options object.

Every field is a named option from docs/rules/dead-weight.md; its default is the reading
the docs recommend. Pass an `Options` to any rule that depends on one of them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Options(BaseModel):
    """How this table reads the rules the book leaves open (defaults: the recommended ones)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    insight_reroll: Literal["up_to_two_dice", "whole_roll"] = "up_to_two_dice"
    """DW-A02: what one insight point re-rolls in a life-path roll."""

    take_lowest_eval: Literal["kept", "all"] = "kept"
    """DW-A06: in a zero-or-fewer-dice roll, whether only the kept (lowest) die counts for
    fatigue, critical failure and great success, or every die thrown."""

    gm_auto_fail_at_minus_two: bool = False
    """DW-M37: the GM's optional rule that a pool of -2 or fewer simply fails."""

    main_may_modify_help_die: bool = False
    """DW-A09: whether the main roller's proficiency and advantage may re-roll a helper's die."""

    extra_effort_pool: Literal["available_before_paying", "available_after_paying"] = (
        "available_before_paying"
    )
    """DW-A11: extra effort adds one die to the pool counted before (net +1) or after
    (net 0) paying its fatigue point."""

    mortal_excess_same_instance: Literal["discard", "kill"] = "discard"
    """DW-A15: lethal points left over in the same damage after a mortal wound."""

    wake_on: Literal["risk_triggers", "risk_not_triggered"] = "risk_triggers"
    """DW-A17: the fainted character's 1d! wakes them when it triggers (a 1), or unless it does."""

    spell_critical_forgets: bool = True
    """DW-A19: a critical failure after a spell also forgets the spell (and rolls a mishap)."""

    desperate_plea_needs_test: bool = True
    """DW-A22: a desperate plea is prayed with an ordinary PRE test."""

    proficiency_distinct_dice: bool = False
    """DW-A24: each proficiency point must re-roll a different die (True) or any die,
    including one already re-rolled (False)."""

    doomed_stacking: Literal["per_doomed_adventurer", "once"] = "per_doomed_adventurer"
    """DW-A34: a doom advance moves one extra point for each Doomed adventurer present, or one
    extra point however many are Doomed."""

    max_score: int | None = Field(default=None, ge=0)
    """DW-G10: the largest attribute score after creation (None: no limit in this book)."""

    max_proficiency: int | None = Field(default=None, ge=0)
    """DW-G10: the largest proficiency after creation (None: no limit in this book)."""

    players_set_difficulty: bool = False
    """DW-T01: the players may set what the book gives the GM (advantage and disadvantage,
    a check instead of a test, more than one helper, harm and healing) on their own
    characters' tests and sheets; off, only the GM does."""


DEFAULT = Options()
