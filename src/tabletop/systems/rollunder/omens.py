"""Omens (§ Spending omens): spent to re-roll a die that directly affects the character
(the re-roll itself is part of every roll request, see `flow`), to be saved from death by
health or ability loss, or to cast a sacred spell; recovered in downtime.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.systems.rollunder.character import Character, check_sheet
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.flow import (
    Procedure,
    RollAnswer,
    RollKind,
    RollRequest,
    omens_spent_by,
    rolled,
)
from tabletop.systems.rollunder.health import Changed, adjust_ability
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.records import DiceRecord, Event, Model
from tabletop.words import counted


def roll_affecting(
    character: Character, kind: RollKind, expression: str, purpose: str, log: list[Event],
    explodes_at: int | None = None,
) -> Procedure[tuple[Character, RollAnswer]]:  # fmt: skip
    """A roll that directly affects the character, who may re-roll it with omens (CR-M19a):
    the sheet with those omens paid, and every result."""
    answer = yield from rolled(
        RollRequest(
            kind=kind,
            expression=expression,
            purpose=purpose,
            owner=character.name,
            payers={character.name: character.omens},
            explodes_at=explodes_at,
        ),
        log,
    )
    spent = omens_spent_by(character.name, answer)
    return (character.with_changes(omens=character.omens - spent) if spent else character), answer


def spend_omens(character: Character, count: int, use: str) -> Changed:
    """Spend `count` omens on `use`, or refuse if the character holds too few."""
    sheet = character.require_alive()
    if count > sheet.omens:
        raise RollUnderError(f"{sheet.name} has {sheet.omens} omens, not the {count} needed")
    if count == 0:
        return Changed(sheet)
    event = Event.about(sheet.name, "omen_spent", f"{sheet.name} spends an omen to {use}", use=use)
    return Changed(sheet.with_changes(omens=sheet.omens - count), (event,) * count)


def omens_to_save(character: Character, options: RollUnderOptions) -> int:
    """Omens a death save costs now (CR-A18): one, or one per score at 0."""
    if options.death_save_scope == "everything_at_zero":
        return 1
    return len(character.zero_abilities) + (character.health == 0)


def save_from_death(character: Character, options: RollUnderOptions) -> Changed:
    """Spend an omen so health and every ability at 0 go back to 1 (CR-M19b, CR-A18).

    Abilities come back first: STR back to 1 lifts health with it (CR-M12). An ability
    brought back early also shortens what its temporary injury returns at downtime, so the
    score never ends above where it was before the injury (CR-A27)."""
    sheet = character.require_alive()
    if not sheet.at_deaths_door:
        raise RollUnderError(f"{sheet.name} is not dying: nothing to be saved from")
    cost = omens_to_save(sheet, options)
    sheet, paid = spend_omens(sheet, cost, "be saved from death")
    events = list(paid)
    restored = []
    for ability in sheet.zero_abilities:
        sheet, moved = adjust_ability(sheet, ability, 1)
        events.extend(moved)
        sheet = _shorten_temporary_loss(sheet, ability)
        restored.append(ability)
    if sheet.health == 0:
        sheet = sheet.with_changes(health=1, max_health=max(1, sheet.max_health))
        restored.append("health")
    events.append(
        Event.about(
            sheet.name,
            "saved_from_death",
            f"{sheet.name} is saved from death: {', '.join(restored)} back to 1",
            restored=", ".join(restored),
            omens=cost,
        )
    )
    return Changed(sheet, tuple(events))


def _shorten_temporary_loss(sheet: Character, ability: str) -> Character:
    injuries = list(sheet.injuries)
    for index, injury in enumerate(injuries):
        if injury.ability == ability and injury.lost > 0 and not injury.loss_permanent:
            injuries[index] = injury.model_copy(update={"lost": injury.lost - 1})
            return sheet.with_changes(injuries=tuple(injuries))
    return sheet


def cast_sacred_spell(character: Character, spell: str) -> Changed:
    """Spend an omen to cast a sacred spell (CR-G09: the spells are in another chapter)."""
    if not spell.strip():
        raise RollUnderError("name the sacred spell being cast")
    sheet, paid = spend_omens(character, 1, f"cast {spell}")
    text = f"{sheet.name} casts the sacred spell {spell}"
    return Changed(sheet, (*paid, Event.about(sheet.name, "sacred_spell", text, spell=spell)))


def recover_omens(character: Character) -> Changed:
    """Every spent omen comes back (downtime)."""
    back = character.max_omens - character.omens
    if back == 0:
        return Changed(character)
    text = f"{character.name} recovers {counted(back, 'omen')}"
    event = Event.about(character.name, "recovered", text, omens=back)
    return Changed(character.with_changes(omens=character.max_omens), (event,))


class ChanceOutcome(Model):
    character: Character
    result: DiceRecord


class ChanceRoll(Model):
    """Any other roll that directly affects the character, which an omen may re-roll
    (CR-M19a): a roll left to chance, a table roll, or a roll another chapter calls for."""

    intent: Literal["chance_roll"] = "chance_roll"
    character: Character
    expression: str = Field(min_length=1, max_length=200)
    purpose: str = Field(default="a chance roll", min_length=1, max_length=200)
    kind: RollKind = "chance"

    def procedure(self, options: RollUnderOptions, log: list[Event]) -> Procedure[ChanceOutcome]:
        sheet = check_sheet(self.character.require_alive(), options)
        sheet, answer = yield from roll_affecting(
            sheet, self.kind, self.expression, f"{sheet.name}'s {self.purpose}", log
        )
        log.append(
            Event.about(
                sheet.name,
                "chance_roll",
                f"{sheet.name}'s {self.purpose}: {answer.total}",
                dice=answer.result,
                total=answer.total,
            )
        )
        return ChanceOutcome(character=sheet, result=answer.result)
