"""Attacks and defence (§ 5.12–5.22): armour class, the attack roll, damage, active defence,
firing into mêlée and morale. Pure functions; the combat tracker strings them together."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.dice import DiceSource, parse, roll
from tabletop.errors import TabletopError
from tabletop.systems.constitution.check import Check, check
from tabletop.systems.constitution.errors import ConstitutionDataError
from tabletop.systems.constitution.models import DiceRecord, Model
from tabletop.systems.constitution.options import DEFAULT, Options

UNARMOURED_AC = 20
"""An unarmoured, unconstrained human (§ 5.15)."""

DIRECT_HIT_DEGREE = 5
"""Four extra degrees, i.e. beating the AC by 20, make a direct hit (§ 5.20)."""

DEFAULT_DAMAGE = "1d6"
"""A regular armed attack from a human (§ 5.18)."""


class Armour(Model):
    """A class of armour (§ 14.15): stones worn, AC, price in sp."""

    name: str
    stones: int = Field(ge=0)
    ac: int
    price_sp: int = Field(ge=0)


ArmourName = Literal["leather", "half-chain", "full chain", "half-plate", "full plate"]
"""The general classes of armour § 14.15 names, as a pick-list offers them."""

ARMOUR: dict[str, Armour] = {
    armour.name: armour
    for armour in (
        Armour(name="leather", stones=0, ac=22, price_sp=25),
        Armour(name="half-chain", stones=1, ac=24, price_sp=50),
        Armour(name="full chain", stones=3, ac=26, price_sp=100),
        Armour(name="half-plate", stones=2, ac=28, price_sp=500),
        Armour(name="full plate", stones=4, ac=30, price_sp=1000),
    )
}
"""The five general classes of armour (§ 14.15); "leather" stands for leather or hide."""


def armour_class(
    armour: str | None = None,
    *,
    blind: bool = False,
    constrained: bool = False,
    unaware: bool = False,
    bonus: int = 0,
) -> int:
    """AC of a creature (§ 5.15, § 14.15): 20, or the armour's AC; −5 blind, −5 constrained,
    −10 unaware; `bonus` for reach and initiations (§ 5.16, § 7.5–7.7)."""
    if armour is not None and armour not in ARMOUR:
        raise ConstitutionDataError(f"unknown armour {armour!r}; choose from {', '.join(ARMOUR)}")
    ac = ARMOUR[armour].ac if armour else UNARMOURED_AC
    return ac + state_ac_change(blind=blind, constrained=constrained, unaware=unaware) + bonus


def state_ac_change(*, blind: bool, constrained: bool, unaware: bool) -> int:
    """What the target's state does to its AC (§ 5.15): −5 blind, −5 constrained, −10 unaware."""
    return -5 * blind - 5 * constrained - 10 * unaware


def damage_expression(expression: str) -> str:
    """A damage expression, checked: it must parse as dice notation."""
    try:
        parse(expression)
    except TabletopError as error:
        raise ConstitutionDataError(f"damage {expression!r}: {error}") from None
    return expression


class Attack(Model):
    """An attack roll against an AC (§ 5.14) and, on a hit, its damage."""

    roll: Check
    direct_hit: bool
    damage: int = Field(default=0, ge=0)
    damage_roll: DiceRecord | None = None

    @property
    def hit(self) -> bool:
        return self.roll.success


def attack(
    strength_score: int,
    target_ac: int,
    dice: DiceSource,
    *,
    damage: str = DEFAULT_DAMAGE,
    with_damage: bool = True,
    advantage: int = 0,
    disadvantage: int = 0,
    options: Options = DEFAULT,
) -> Attack:
    """A strength check against the target's AC (§ 5.14); on a hit, roll damage (§ 5.18)
    unless it is stored (§ 5.22). Five degrees make it a direct hit (§ 5.20)."""
    rolled = check(
        strength_score,
        target_ac,
        dice,
        advantage=advantage,
        disadvantage=disadvantage,
        options=options,
    )
    direct = rolled.degree >= DIRECT_HIT_DEGREE
    if not rolled.success or not with_damage:
        return Attack(roll=rolled, direct_hit=direct)
    amount, record = roll_damage(damage, dice)
    return Attack(roll=rolled, direct_hit=direct, damage=amount, damage_roll=record)


def roll_damage(expression: str, dice: DiceSource) -> tuple[int, DiceRecord]:
    """Roll damage (never below 0) and keep the record."""
    rolled = roll(damage_expression(expression), dice)
    return max(0, rolled.total), DiceRecord.of(rolled)


def active_defence(
    strength_score: int, ac: int, dice: DiceSource, options: Options = DEFAULT
) -> tuple[int, Check]:
    """Defend actively (§ 5.17): a strength check whose total replaces the AC if higher."""
    rolled = check(strength_score, ac, dice, options=options)
    return max(ac, rolled.total), rolled


FiringPosition = Literal["behind_closer", "behind_further", "side"]
"""Where a shooter stands relative to a mêlée (§ 5.21): straight behind the nearer or the
farther of the two, or off to the side."""

_CHANCE_IN_TEN: dict[str, int] = {"behind_closer": 9, "behind_further": 1, "side": 6}


class StrayShot(Model):
    """Which of two fighters in mêlée a hit lands on (§ 5.21; C3-A35)."""

    chance_in_ten: int = Field(ge=1, le=10)
    roll: DiceRecord
    on_chosen_target: bool


def stray_shot(position: FiringPosition, dice: DiceSource, *, aimed_tenths: int = 0) -> StrayShot:
    """After a ranged hit into mêlée, a d10 decides whom it struck; aiming a full round adds
    up to 2 in 10 toward the chosen target (C3-A35)."""
    if not 0 <= aimed_tenths <= 2:
        raise ConstitutionDataError("aiming improves the chance by 0, 1 or 2 in ten")
    chance = min(10, _CHANCE_IN_TEN[position] + aimed_tenths)
    rolled = roll("1d10", dice)
    return StrayShot(
        chance_in_ten=chance, roll=DiceRecord.of(rolled), on_chosen_target=rolled.total <= chance
    )


class Morale(Model):
    """A morale check (§ 5.13): 2d6 at or under the score holds."""

    score: int = Field(ge=2, le=12)
    roll: DiceRecord

    @property
    def holds(self) -> bool:
        return self.roll.total <= self.score


def morale_check(score: int, dice: DiceSource) -> Morale:
    """Roll 2d6 against a morale score of 2–12; when to call for it is the referee's
    judgement (the trigger list is missing from the seed, C3-A15)."""
    if not 2 <= score <= 12:
        raise ConstitutionDataError(f"morale runs from 2 to 12, not {score}")
    return Morale(score=score, roll=DiceRecord.of(roll("2d6", dice)))
