"""Every reading of an unclear rule that a group may want to change, in one validated object.

Each default is the reading recorded in docs/rules/ap2d6.md; the field's description names
the entry. Rules take `options: Options = DEFAULTS` so the recommended game needs no setup.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Options(BaseModel):
    """A table's choices where the rules document can be read more than one way."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tie_on_set_dc: Literal["success", "failure"] = Field(
        "success",
        description="RU-A01: a roll that equals a DC with no defending character behind it.",
    )
    incapable_at_or_below: int = Field(
        -3, description="RU-A03: a score at or below this fails everything it governs."
    )
    lowered_scores_in_point_buy: int = Field(
        2, ge=0, description="RU-M08/RU-A06: standard scores point buy may lower to -1."
    )
    random_character_sp: int = Field(
        4, description="RU-M09: skill points a randomised character starts with (4 or 5)."
    )
    lost_ap_returns: Literal["on-gain", "next-round"] = Field(
        "on-gain", description="RU-A10: when a token taken off the tracker comes back."
    )
    wait_after_acting: bool = Field(
        False, description="RU-A36: may a character who has spent AP this round still wait?"
    )
    double_one_fails: bool = Field(
        True, description="RU-A12: a natural double 1 fails a check and loses a contest."
    )
    double_one_fails_death_check: bool = Field(
        False, description="RU-A12: a natural double 1 fails a death check even against DC 2."
    )
    double_six_succeeds: bool = Field(
        False, description="RU-A13: a natural double 6 succeeds whatever the DC."
    )
    double_six_damage: Literal["twice-the-dice", "twice-the-roll"] = Field(
        "twice-the-dice",
        description="RU-A13: roll twice as many damage dice, or double what the dice show.",
    )
    double_six_temp_ap: Literal["any-roll", "attacks"] = Field(
        "any-roll", description="RU-A13: which double 6s in initiative give a temp AP."
    )
    full_contest_tie: Literal["tie", "redo"] = Field(
        "tie", description="RU-M11: equal totals and equal scores: a tie, or roll again."
    )
    social_contest_ties: Literal["tie", "contest-rule"] = Field(
        "tie", description="RU-A34: equal social perception totals are a standoff by default."
    )
    interrupt_tag_waives: Literal["cost", "cost-and-contest"] = Field(
        "cost", description="RU-A14: what an [interrupt] move is spared."
    )
    unacted_initiative_tie: Literal["contest", "listed-order"] = Field(
        "contest", description="RU-A32: equal AGI between characters who have not acted yet."
    )
    requirement_deficits: Literal["sum", "largest"] = Field(
        "sum", description="RU-A15a: how several unmet weapon requirements add up."
    )
    dropped_damage_die: Literal["smallest", "largest"] = Field(
        "smallest", description="RU-A15c: which die of a mixed damage pool is dropped first."
    )
    improvised_throw_requirements: Literal["both", "range-only"] = Field(
        "both",
        description="RU-A17: does the general below-requirements rule also apply to a throw?",
    )
    repeated_consequence_status: Literal["longest", "add"] = Field(
        "longest", description="RU-A22: two [weak] or [frail] results: keep the longer or add."
    )
    lame_penalty: Literal["flat", "cumulative"] = Field(
        "flat", description="RU-A27: each later move is 1 space slower, or 1 more each time."
    )
    encumbered_agi_contests: bool = Field(
        True, description="RU-A37: does the [encumbered] -1 to AGI checks also hit AGI contests?"
    )
    players_set_difficulty: bool = Field(
        False,
        description="RU-S06: may players set DCs and bonuses, harm, heal and deal damage, "
        "which the book gives the GM?",
    )


DEFAULTS = Options()
"""The recommended readings."""
