"""Damage (§ Damage): the damage die explodes (a maximum rolls again and adds the new
result minus 1, for as long as maximums keep coming), armour takes off at most 3, direct
damage ignores armour. A hit then runs its aftermath (`critical.take_damage`).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, model_validator

from tabletop.dice import DiceSource, limits
from tabletop.systems.rollunder.character import MAX_HEALTH, Character, check_sheet
from tabletop.systems.rollunder.critical import CriticalDamage, take_damage
from tabletop.systems.rollunder.errors import RollUnderDataError, validated
from tabletop.systems.rollunder.flow import Procedure, RollAnswer, RollRequest, roll_for
from tabletop.systems.rollunder.omens import roll_affecting
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.records import DiceRecord, Event, Model

ARMOUR_CAP = 3
"""Armour never takes off more than this (CR-M14)."""

ROLL_DEPTH = limits.MAX_EXPLOSION_DEPTH
"""Follow-up rolls one exploding damage die may add when rolled: the engine's largest bound,
so a chain is cut only after 100 maximums in a row (once in 2¹⁰¹ rolls even on a d2)."""

MAX_DAMAGE_DICE = limits.MAX_DICE // (ROLL_DEPTH + 1)
"""Damage dice in one roll: 99, so that every die and all the follow-ups it may add stay
within the dice engine's bound on dice thrown in one roll."""
MAX_DAMAGE_SIDES = 1_000
MAX_MODIFIER = 1_000
MAX_ARMOUR = 1_000
MAX_TEXT = 40
"""Bounds on one damage roll's other numbers, and on the text that names its dice."""

_DAMAGE = re.compile(r"\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*")


class DamageDice(Model):
    """Damage dice such as `d8`, `2d6` or `d6+1`: each die explodes (CR-M13, CR-A11); the
    modifier is added once, after the explosions and before armour."""

    count: int = Field(default=1, ge=1, le=MAX_DAMAGE_DICE)
    sides: int = Field(ge=1, le=MAX_DAMAGE_SIDES)
    modifier: int = Field(default=0, ge=-MAX_MODIFIER, le=MAX_MODIFIER)

    @classmethod
    def parse(cls, text: str) -> DamageDice:
        """Read `d8`, `2d6`, `d6+1` or `2d4-1`, or refuse with one clear line."""
        found = _DAMAGE.fullmatch(text) if len(text) <= MAX_TEXT else None
        if found is None:
            shown = text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "…"
            raise RollUnderDataError(f"damage dice look like d8, 2d6 or d6+1, not {shown!r}")
        count, sides, sign, amount = found.groups()
        modifier = int(amount) * (-1 if sign == "-" else 1) if amount else 0
        return validated(
            cls,
            {"count": int(count) if count else 1, "sides": int(sides), "modifier": modifier},
            f"damage dice {text!r}",
        )

    @property
    def dice(self) -> str:
        """The dice alone, e.g. `2d6`."""
        return f"{self.count}d{self.sides}"

    def __str__(self) -> str:
        shown = f"d{self.sides}" if self.count == 1 else self.dice
        return shown + (f"{self.modifier:+d}" if self.modifier else "")

    def pool_explodes(self, options: RollUnderOptions) -> bool:
        """True when several dice explode together as one (`damage_pool="whole_pool"`)."""
        return self.sides > 1 and self.count > 1 and options.damage_pool == "whole_pool"

    def roll_expression(self, options: RollUnderOptions) -> str:
        """What the dice engine rolls: each die exploding, penetrating (`!p`), unless it
        cannot explode (a d1, CR-A11) or the pool explodes as one (rolled repeatedly)."""
        if self.sides == 1 or self.pool_explodes(options):
            return self.dice
        return f"{self.dice}!p:{ROLL_DEPTH}"

    def explodes_at(self, options: RollUnderOptions) -> int | None:
        """The pool total that rolls the pool again, when it explodes as one; else None."""
        return self.count * self.sides if self.pool_explodes(options) else None

    def roll(self, options: RollUnderOptions, dice: DiceSource) -> DiceRecord:
        """Roll these dice outside any decision (no omens): the record of every die."""
        request = RollRequest(
            kind="damage",
            expression=self.roll_expression(options),
            purpose=f"damage {self}",
            owner="",
            explodes_at=self.explodes_at(options),
        )
        return roll_for(request, dice)

    def total(self, dice_total: int) -> int:
        """The damage rolled: the dice (explosions included) plus the modifier, never below 0."""
        return max(0, dice_total + self.modifier)


def parse_damage(text: str) -> DamageDice | int:
    """Damage dice (`d8`, `2d6+1`), or a fixed amount (`3`), which never explodes."""
    cleaned = text.strip()
    if cleaned.isascii() and cleaned.isdigit() and len(cleaned) <= MAX_TEXT:
        amount = int(cleaned)
        if amount > MAX_HEALTH:
            raise RollUnderDataError(f"fixed damage is at most {MAX_HEALTH:,}")
        return amount
    return DamageDice.parse(cleaned)


def armour_reduction(damage: int, armour: int) -> int:
    """What armour takes off: its value, but never more than 3 nor more than the damage
    (CR-M14, CR-A12)."""
    return min(max(0, armour), ARMOUR_CAP, max(0, damage))


def after_armour(damage: int, armour: int, direct: bool = False) -> int:
    """Damage left after armour; direct damage ignores armour (CR-M15)."""
    damage = max(0, damage)
    return damage if direct else damage - armour_reduction(damage, armour)


class Hit(Model):
    """One instance of damage: rolled dice or a fixed amount, the target's armour, and
    whether it is direct (ignores armour)."""

    dice: DamageDice | None = None
    amount: int | None = Field(default=None, ge=0, le=MAX_HEALTH)
    armour: int = Field(default=0, ge=0, le=MAX_ARMOUR)
    direct: bool = False

    @model_validator(mode="after")
    def _dice_or_amount(self) -> Hit:
        if (self.dice is None) == (self.amount is None):
            raise ValueError("a hit has either damage dice or a fixed amount")
        return self


class HitOutcome(Model):
    character: Character
    rolled: int
    """The damage rolled (or given), before armour."""
    dealt: int
    """The damage after armour, taken from health (which stops at 0)."""
    critical: CriticalDamage


class SufferHit(Model):
    """A character takes a hit: the damage roll (which they may re-roll with an omen, as it
    directly affects them), armour, then the hit's aftermath."""

    intent: Literal["suffer_hit"] = "suffer_hit"
    character: Character
    hit: Hit

    def procedure(self, options: RollUnderOptions, log: list[Event]) -> Procedure[HitOutcome]:
        sheet = check_sheet(self.character.require_alive(), options)
        hit = self.hit
        if hit.dice is not None:
            sheet, answer = yield from roll_affecting(
                sheet, "damage", hit.dice.roll_expression(options),
                f"the damage against {sheet.name}", log, hit.dice.explodes_at(options),
            )  # fmt: skip
            damage = hit.dice.total(answer.total)
            log.append(damage_event(sheet.name, str(hit.dice), damage, answer, against=True))
        else:
            damage = hit.amount or 0
        dealt = after_armour(damage, hit.armour, hit.direct)
        log.append(armour_event(sheet.name, damage, hit.armour, hit.direct, dealt))
        sheet, critical = yield from take_damage(sheet, dealt, damage, options, log)
        return HitOutcome(character=sheet, rolled=damage, dealt=dealt, critical=critical)


def damage_event(
    name: str | None, dice: str, damage: int, answer: RollAnswer, against: bool = False
) -> Event:
    """The damage roll's line, naming whose roll it is, or whom it is rolled against."""
    whose = f"damage {dice} against {name}" if against else f"{name} rolls damage {dice}"
    return Event(
        kind="damage_roll",
        character=name,
        text=f"{whose}: {damage}",
        values={"dice": dice, "damage": damage},
        dice=answer.result,
    )


def armour_event(name: str | None, damage: int, armour: int, direct: bool, dealt: int) -> Event:
    if direct:
        text = f"direct damage to {name} ignores armour: {dealt}"
    else:
        text = f"{name}'s armour {armour} takes off {damage - dealt}: {dealt} damage"
    return Event.about(
        name, "armour", text, armour=armour, direct=direct, reduction=damage - dealt, dealt=dealt
    )


class DamageOutcome(Model):
    character: Character
    damage: int
    result: DiceRecord


class RollDamage(Model):
    """A character rolls damage they deal; an omen may re-roll it (CR-M19a)."""

    intent: Literal["roll_damage"] = "roll_damage"
    character: Character
    dice: DamageDice

    def procedure(self, options: RollUnderOptions, log: list[Event]) -> Procedure[DamageOutcome]:
        sheet = check_sheet(self.character.require_alive(), options)
        sheet, answer = yield from roll_affecting(
            sheet, "damage", self.dice.roll_expression(options), f"{sheet.name}'s damage roll",
            log, self.dice.explodes_at(options),
        )  # fmt: skip
        damage = self.dice.total(answer.total)
        log.append(damage_event(sheet.name, str(self.dice), damage, answer))
        return DamageOutcome(character=sheet, damage=damage, result=answer.result)
