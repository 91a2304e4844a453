"""Critical damage (§ Critical damage): damage taken at once past half current health
incapacitates; past half maximum health it also rolls on the injury table; past maximum
health the injury's ability loss and trait are permanent.

The injury table is data (`data/tables/injuries.toml`); this module gives its effects
their meaning and runs a hit's whole aftermath as a procedure (`take_damage`).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal

from pydantic import Field, TypeAdapter, ValidationError

from tabletop.data import describe
from tabletop.systems.rollunder.carrying import remove
from tabletop.systems.rollunder.character import Character, Injury
from tabletop.systems.rollunder.dying import face_death
from tabletop.systems.rollunder.errors import RollUnderDataError
from tabletop.systems.rollunder.flow import (
    ChoiceRequest,
    Procedure,
    chosen,
)
from tabletop.systems.rollunder.health import adjust_ability, die, lose_health
from tabletop.systems.rollunder.omens import roll_affecting
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.records import Event, Model
from tabletop.tables import Table, load_table


class CriticalDamage(Model):
    """Which thresholds one instance of damage crossed (CR-M16, CR-A05, CR-A06)."""

    incapacitated: bool = False
    injury: bool = False
    permanent: bool = False

    @property
    def any(self) -> bool:
        return self.incapacitated


def critical_damage(damage: int, health: int, max_health: int) -> CriticalDamage:
    """The thresholds crossed by `damage` taken at once with `health` of `max_health` before
    the hit. Halves are compared exactly (2 × damage against health) and strictly."""
    return CriticalDamage(
        incapacitated=2 * damage > health,
        injury=2 * damage > max_health,
        permanent=damage > max_health,
    )


def measured_damage(dealt: int, rolled_damage: int, health: int, options: RollUnderOptions) -> int:
    """The damage compared with the thresholds (CR-A04)."""
    if options.critical_damage_measure == "before_armour":
        return max(0, rolled_damage)
    if options.critical_damage_measure == "health_lost":
        return min(dealt, health)
    return dealt


class ItemDestroyed(Model):
    kind: Literal["item_destroyed"]
    chosen_by: Literal["gm"] = "gm"


class Disabled(Model):
    kind: Literal["disabled"]
    trait: str = Field(min_length=1)
    ability: str = Field(min_length=1)
    loss: int = Field(ge=0)


class InstantDeath(Model):
    kind: Literal["death"]


InjuryEffect = ItemDestroyed | Disabled | InstantDeath
_EFFECTS = TypeAdapter(list[InjuryEffect])


@cache
def injury_table() -> Table:
    """The injury table shipped with the system, loaded and checked once."""
    file = resources.files("tabletop.systems.rollunder") / "data" / "tables" / "injuries.toml"
    with resources.as_file(file) as path:
        table = load_table(path)
    for entry in table.entries:
        injury_effects(entry.name, [effect.model_dump() for effect in entry.effects])
    return table


def injury_effects(name: str, effects: list[dict[str, object]]) -> list[InjuryEffect]:
    """The typed effects of an injury entry, or a clear refusal naming the entry."""
    try:
        return _EFFECTS.validate_python(effects)
    except ValidationError as error:
        raise RollUnderDataError(f"injury {name!r}: {describe(error)}") from None


def take_damage(
    character: Character, dealt: int, rolled_damage: int, options: RollUnderOptions,
    log: list[Event],
) -> Procedure[tuple[Character, CriticalDamage]]:  # fmt: skip
    """`dealt` damage taken at once (after armour), and everything that follows from it:
    health loss, critical damage, an injury roll and its effects, death from ability loss."""
    sheet = character.require_alive()
    critical = critical_damage(
        measured_damage(dealt, rolled_damage, sheet.health, options), sheet.health, sheet.max_health
    )
    sheet, events = lose_health(sheet, dealt)
    log.extend(events)
    if critical.incapacitated:
        sheet = sheet.with_changes(incapacitated=True)
        log.append(
            Event.about(
                sheet.name,
                "incapacitated",
                f"{sheet.name} is incapacitated until the next stretch (critical damage)",
                damage=dealt,
            )
        )
    if critical.injury:
        sheet = yield from suffer_injury(sheet, critical.permanent, options, log)
    if sheet.alive and sheet.zero_abilities and options.ability_at_zero == "dies":
        sheet = yield from face_death(sheet, "ability loss", options, log)
    return sheet, critical


def suffer_injury(
    character: Character, permanent: bool, options: RollUnderOptions, log: list[Event]
) -> Procedure[Character]:
    """Roll on the injury table and apply the entry (CR-M17, CR-A07…A09)."""
    table = injury_table()
    sheet, answer = yield from roll_affecting(
        character, "injury", table.dice, f"{character.name}'s injury roll", log
    )
    entry = table.lookup(answer.total)
    log.append(
        Event.about(
            sheet.name,
            "injury_roll",
            f"{sheet.name}'s injury: {entry.name}",
            dice=answer.result,
            injury=entry.name,
            face=answer.total,
            permanent=permanent,
        )
    )
    for effect in injury_effects(entry.name, [e.model_dump() for e in entry.effects]):
        if isinstance(effect, Disabled):
            sheet = _disable(sheet, effect, permanent, options, log)
        elif isinstance(effect, ItemDestroyed):
            sheet = yield from _destroy_item(sheet, log)
        elif options.omen_saves_from_injury_death:
            sheet = yield from face_death(sheet, "injury", options, log, restores=False)
        else:
            sheet, events = die(sheet, "injury")
            log.extend(events)
    return sheet


def _disable(
    sheet: Character, effect: Disabled, permanent: bool, options: RollUnderOptions,
    log: list[Event],
) -> Character:  # fmt: skip
    loss_permanent = permanent or options.injury_ability_loss == "permanent"
    lost = min(effect.loss, sheet.score(effect.ability))
    injury = Injury(
        trait=effect.trait,
        ability=effect.ability,
        lost=lost,
        permanent=permanent,
        loss_permanent=loss_permanent,
    )
    log.append(
        Event.about(
            sheet.name,
            "disabled",
            f"{sheet.name} gains the trait {effect.trait} "
            f"({'permanent' if permanent else 'until downtime'})",
            trait=effect.trait,
            permanent=permanent,
        )
    )
    sheet, events = adjust_ability(sheet, effect.ability, -lost)
    log.extend(events)
    return sheet.with_changes(injuries=(*sheet.injuries, injury))


def _destroy_item(sheet: Character, log: list[Event]) -> Procedure[Character]:
    """The GM picks one carried item; it is destroyed. Stored items spill out if it was the
    clothes that held them (CR-A28)."""
    load = sheet.load
    names = tuple(dict.fromkeys(item.name for item in load.items)) if load else ()
    if load is None or not names:
        log.append(
            Event.about(
                sheet.name,
                "nothing_to_destroy",
                f"{sheet.name} carries nothing the injury could destroy",
            )
        )
        return sheet
    name = yield from chosen(
        ChoiceRequest(
            kind="destroy_item",
            chooser="GM",
            purpose=f"the GM picks which of {sheet.name}'s items is destroyed",
            choices=names,
        )
    )
    spilled: tuple[str, ...] = ()
    clothes = [item for item in load.worn if item.kind == "clothes"]
    if clothes and clothes[0].name == name and load.stored:
        spilled = tuple(item.name for item in load.stored)
        load = load.model_copy(update={"stored": ()})
    load, item = remove(load, name)
    text = f"{sheet.name}'s {item.name} is destroyed"
    if spilled:
        text += f"; without containers, {', '.join(spilled)} are dropped"
    log.append(
        Event.about(
            sheet.name, "item_destroyed", text, item=item.name, dropped=", ".join(spilled) or None
        )
    )
    return sheet.with_changes(load=load)
