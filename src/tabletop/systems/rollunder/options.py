"""Every reading of an unclear rule that reasonable tables make differently, in one place.

Each field is named in docs/rules/rollunder.md next to the entry (CR-A…) it settles; the
defaults are the recommended readings, so `RollUnderOptions()` plays the rules as the
project reads them. Rules take the options as an argument and never read globals.
"""

from __future__ import annotations

from typing import Literal

from pydantic import field_validator

from tabletop.systems.rollunder.records import Model

STR, AGI, WIT = "STR", "AGI", "WIT"
"""The three abilities the Core Rules name: strength (health follows it), agility (slowed
by encumbrance) and wits (followers' loyalty)."""


class RollUnderOptions(Model):
    """The table's readings of the Core Rules; `RollUnderOptions()` is the recommended set."""

    abilities: tuple[str, ...] = (STR, AGI, WIT)
    """CR-G01 (PARTIAL): the ability list. The chapter names STR, AGI and WIT and its rules use
    all three; the rest of the game may add more, which a sheet must then carry."""

    natural_results: Literal["none", "one_passes_twenty_fails"] = "none"
    """CR-A17: a d20 face has no meaning beyond its number (none), or a 1 always passes and
    a 20 always fails."""

    incapacitated_rolls: Literal["fail", "roll"] = "fail"
    """CR-A21: an incapacitated character's ability rolls fail without a roll (they can
    neither act nor defend), or are rolled as usual."""

    encumbrance_threshold: Literal["over_half", "half_or_more"] = "over_half"
    """CR-A01: encumbered when the bulk carried is strictly over half the carry limit, or from
    exactly half."""

    moot_strength_rolls: Literal["skip", "roll"] = "skip"
    """CR-A02: when an encumbered character's AGI roll already failed, the extra STR roll is
    skipped, or rolled anyway for the record (the result is the same)."""

    two_handed: Literal["bulk_3_or_more", "weapons_and_bulk_3_or_more"] = "bulk_3_or_more"
    """CR-A03: which items need both hands to use: any item (weapon or not) whose bulk is
    3+, or every weapon whatever its bulk plus any other item whose bulk is 3+."""

    two_handed_holding: Literal["occupies_both_hands", "only_to_use"] = "occupies_both_hands"
    """CR-A26: an item needing both hands fills both hands whenever it is held, or only
    while it is used (it can be held in one hand next to another item)."""

    contest_tie_break: Literal["one_roll_each", "full_set"] = "one_roll_each"
    """CR-A16: tied contestants (every member of a tied team) make one more ability roll each
    per round, or another full set of the contest's rolls."""

    loyalty_roller: Literal["leader", "follower"] = "leader"
    """CR-A23: the WIT roll that convinces a follower or keeps their loyalty is made by the
    player character who leads them, or by the follower."""

    damage_pool: Literal["each_die", "whole_pool"] = "each_die"
    """CR-A11: with several damage dice, each die explodes on its own maximum, or the pool
    explodes as one die when its total is the maximum."""

    critical_damage_measure: Literal["after_armour", "before_armour", "health_lost"] = (
        "after_armour"
    )
    """CR-A04: the damage compared with the critical thresholds: dealt after armour (before
    health stops at 0), rolled before armour, or the health actually lost."""

    injury_ability_loss: Literal["until_downtime", "permanent"] = "until_downtime"
    """CR-A07: an injury's ability loss lasts until downtime like its trait unless the damage
    exceeded maximum health, or is always permanent."""

    dying_deadline: Literal["next_activation", "own_next_activation"] = "next_activation"
    """CR-A13: a character at 0 dies when the first activation to begin after they fell
    (anyone's) is over, or when their own next activation is over."""

    ability_at_zero: Literal["dies", "dying"] = "dies"
    """CR-A22: a character whose ability drops to 0 dies at once unless they spend an omen,
    or is dying like a character at 0 health (dies at the same deadline unless saved)."""

    corruption_roll_against: Literal["new_total", "old_total"] = "new_total"
    """CR-A14: the corruption d12 is compared with the total after adding the new corruption,
    or with the total before it."""

    omen_repeat_rerolls: bool = True
    """CR-A10: the same roll may be re-rolled again with another omen (True), or only once."""

    omen_saves_from_injury_death: bool = False
    """CR-A09: the omen's death save also cancels the injury table's instant death (True),
    or only death from health or ability loss, leaving the re-roll as the way out (False)."""

    death_save_scope: Literal["everything_at_zero", "one_per_omen"] = "everything_at_zero"
    """CR-A18: one omen brings health and every ability at 0 back to 1, or one omen per
    score at 0."""

    followers_of_the_dead: Literal["follow_replacement", "leave"] = "follow_replacement"
    """CR-A24: when a player character dies, their followers pass to the player's
    replacement character, or leave the company."""

    attack_roll: Literal["none", "attacker"] = "none"
    """CR-F01: an attack has no roll to hit of its own and its damage is rolled at once
    (none), or the attacker first makes an ability roll that must pass (attacker)."""

    players_set_difficulty: bool = False
    """CR-S10: what the chapter gives the GM (the challenge level, the scores a roll is made
    against, the damage, ability loss, corruption and healing a character takes outside a
    rule that deals them) stays the GM's (False), or the players may set it too (True)."""

    @field_validator("abilities")
    @classmethod
    def _named_abilities(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        for name in names:
            if not name or not name.isupper() or not name.isalpha() or len(name) > 8:
                raise ValueError(f"ability names are short capitals such as STR, not {name!r}")
        if len(set(names)) != len(names):
            raise ValueError("an ability is listed twice")
        for needed, why in (
            (STR, "health follows it"),
            (AGI, "encumbrance and the injury table use it"),
            (WIT, "followers and the injury table use it"),
        ):
            if needed not in names:
                raise ValueError(f"the ability list must include {needed} ({why})")
        return names
