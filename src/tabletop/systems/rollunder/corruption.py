"""Corruption (§ Corruption): each time corruption is suffered, roll a d12; equal to or under
the current total, the roll is taken as direct damage and as much corruption heals. If
that damage is critical, the character also develops a permanent mutation.

The mutation table is in another chapter: the GM chooses, or the table supplies a table
file in tabletop's table format (see docs/rules/rollunder.md, "Mutation table").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator

from tabletop.errors import TabletopError
from tabletop.systems.rollunder.character import MAX_CORRUPTION, Character, check_sheet
from tabletop.systems.rollunder.critical import CriticalDamage, take_damage
from tabletop.systems.rollunder.errors import RollUnderDataError, RollUnderError
from tabletop.systems.rollunder.flow import Procedure
from tabletop.systems.rollunder.health import Changed
from tabletop.systems.rollunder.omens import roll_affecting
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.records import Event, Model
from tabletop.tables import load_table

CORRUPTION_DIE = "1d12"


def roll_against(before: int, gain: int, options: RollUnderOptions) -> int:
    """The total a corruption roll must equal or go under (CR-A14): the total after the
    gain, or the one before it."""
    return before + gain if options.corruption_roll_against == "new_total" else before


def load_mutation_table(source: str | Path | dict[str, Any]) -> dict[str, Any]:
    """A mutation table from a TOML/JSON table file (or its data), checked, as plain data
    that a saved `SufferCorruption` carries through JSON."""
    try:
        table = load_table(source, name="mutations")
    except TabletopError as error:
        raise RollUnderDataError(f"mutation table: {error}") from None
    return table.model_dump(mode="json")


class CorruptionOutcome(Model):
    character: Character
    roll: int
    triggered: bool
    """Whether the roll was equal to or under the total: direct damage, corruption healed."""
    critical: CriticalDamage


class SufferCorruption(Model):
    """A character suffers `gain` corruption (CR-M18, CR-A14, CR-A15)."""

    intent: Literal["suffer_corruption"] = "suffer_corruption"
    character: Character
    gain: int = Field(ge=1, le=MAX_CORRUPTION)
    mutation_table: dict[str, Any] | None = None
    """A user-supplied mutation table (see `load_mutation_table`); None: the GM chooses."""

    @field_validator("mutation_table")
    @classmethod
    def _a_valid_table(cls, data: dict[str, Any] | None) -> dict[str, Any] | None:
        if data is None:
            return None
        try:
            return load_mutation_table(data)
        except RollUnderDataError as error:
            raise ValueError(str(error)) from None

    def procedure(
        self, options: RollUnderOptions, log: list[Event]
    ) -> Procedure[CorruptionOutcome]:
        sheet = check_sheet(self.character.require_alive(), options)
        before = sheet.corruption
        total = before + self.gain
        sheet = sheet.with_changes(corruption=total)
        log.append(
            Event.about(
                sheet.name,
                "corruption_gained",
                f"{sheet.name} suffers {self.gain} corruption ({before} → {total})",
                gain=self.gain,
                before=before,
                after=total,
            )
        )
        against = roll_against(before, self.gain, options)
        sheet, answer = yield from roll_affecting(
            sheet, "corruption", CORRUPTION_DIE, f"{sheet.name}'s corruption roll", log
        )
        face = answer.total
        triggered = face <= against
        log.append(
            Event.about(
                sheet.name,
                "corruption_roll",
                f"{sheet.name} rolls {face} against corruption {against}: "
                + (f"{face} direct damage" if triggered else "no effect"),
                dice=answer.result,
                face=face,
                against=against,
                triggered=triggered,
            )
        )
        if not triggered:
            return CorruptionOutcome(
                character=sheet, roll=face, triggered=False, critical=CriticalDamage()
            )
        sheet = sheet.with_changes(corruption=sheet.corruption - face)
        log.append(
            Event.about(
                sheet.name,
                "corruption_healed",
                f"{sheet.name} heals {face} corruption ({sheet.corruption} left)",
                healed=face,
                after=sheet.corruption,
            )
        )
        sheet, critical = yield from take_damage(sheet, face, face, options, log)
        if critical.any and sheet.alive:
            sheet = yield from self.mutate(sheet, log)
        return CorruptionOutcome(character=sheet, roll=face, triggered=True, critical=critical)

    def mutate(self, sheet: Character, log: list[Event]) -> Procedure[Character]:
        """A permanent mutation: rolled on the supplied table, or left for the GM to choose."""
        if self.mutation_table is None:
            log.append(
                Event.about(
                    sheet.name,
                    "mutation_to_choose",
                    f"{sheet.name} develops a permanent mutation: the GM chooses it",
                )
            )
            return sheet.with_changes(mutations_to_choose=sheet.mutations_to_choose + 1)
        table = load_table(self.mutation_table)
        sheet, answer = yield from roll_affecting(
            sheet, "mutation", table.dice, f"{sheet.name}'s mutation roll", log
        )
        entry = table.lookup(answer.total)
        log.append(_mutation_event(sheet.name, entry.name, answer.result))
        return sheet.with_changes(mutations=(*sheet.mutations, entry.name))


def _mutation_event(name: str, mutation: str, dice: Any = None) -> Event:
    return Event.about(
        name,
        "mutation",
        f"{name} develops the permanent mutation {mutation}",
        dice=dice,
        mutation=mutation,
    )


def choose_mutation(character: Character, mutation: str) -> Changed:
    """Record the mutation the GM chose for one that corruption's critical damage caused."""
    if character.mutations_to_choose < 1:
        raise RollUnderError(f"{character.name} has no mutation waiting to be chosen")
    if not mutation.strip():
        raise RollUnderError("name the mutation")
    sheet = character.with_changes(
        mutations=(*character.mutations, mutation.strip()),
        mutations_to_choose=character.mutations_to_choose - 1,
    )
    return Changed(sheet, (_mutation_event(sheet.name, mutation.strip()),))
