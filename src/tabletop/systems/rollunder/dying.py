"""Death's door (§ Health loss, § Spending omens): a dying character dies once the next
activation is over, if not healed or saved first; an ability lost to 0 kills unless an omen saves.

Time is abstract here (CR-G04): the caller says when an activation begins and ends.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.systems.rollunder.character import MAX_SCORE, Character, check_sheet
from tabletop.systems.rollunder.flow import DIE, SAVE, ChoiceRequest, Procedure, chosen
from tabletop.systems.rollunder.health import Changed, adjust_ability, die
from tabletop.systems.rollunder.omens import omens_to_save, save_from_death, spend_omens
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.records import Event, Model


def face_death(
    character: Character, cause: str, options: RollUnderOptions, log: list[Event],
    restores: bool = True,
) -> Procedure[Character]:  # fmt: skip
    """Death is here: the player may spend an omen to be saved if they hold enough, else the
    character dies. `restores` is False for a death the save only cancels (CR-A09)."""
    cost = omens_to_save(character, options) if restores else 1
    omens = "an omen" if cost == 1 else f"{cost} omens"
    if character.omens >= cost:
        choice = yield from chosen(
            ChoiceRequest(
                kind="death_save",
                chooser=character.name,
                purpose=f"{character.name} faces death ({cause}): spend {omens} to live, or die",
                choices=(SAVE, DIE),
            )
        )
        if choice == SAVE:
            if restores:
                sheet, events = save_from_death(character, options)
            else:
                sheet, events = spend_omens(character, 1, f"cheat death ({cause})")
            log.extend(events)
            return sheet
    sheet, events = die(character, cause)
    log.extend(events)
    return sheet


def _counts(actor: str, character: Character, options: RollUnderOptions) -> bool:
    """Whether `actor`'s activation is the one the dying character's deadline waits for."""
    return options.dying_deadline == "next_activation" or actor == character.name


def begin_activation(character: Character, actor: str, options: RollUnderOptions) -> Changed:
    """An activation begins: a dying character's deadline is now the end of this one
    (CR-A13)."""
    if not (character.at_deaths_door and not character.deadline_started):
        return Changed(character)
    if not _counts(actor, character, options):
        return Changed(character)
    sheet = character.with_changes(deadline_started=True)
    text = f"{sheet.name} dies at the end of {actor}'s activation unless saved"
    return Changed(sheet, (Event.about(sheet.name, "dying_deadline", text, actor=actor),))


class Survival(Model):
    """What is left of a character after a rule that can kill."""

    character: Character


class EndOfActivation(Model):
    """An activation ends: a dying character whose deadline it was dies, unless they spend
    an omen (CR-M11, CR-M19b, CR-A13)."""

    intent: Literal["end_of_activation"] = "end_of_activation"
    character: Character
    actor: str = Field(min_length=1, max_length=60)

    def procedure(self, options: RollUnderOptions, log: list[Event]) -> Procedure[Survival]:
        sheet = self.character
        if sheet.at_deaths_door and sheet.deadline_started and _counts(self.actor, sheet, options):
            cause = "health loss" if sheet.health == 0 else "ability loss"
            sheet = yield from face_death(sheet, cause, options, log)
        return Survival(character=sheet)


class LoseAbility(Model):
    """A character loses ability points from any source (CR-M12 for STR, CR-A22 at 0)."""

    intent: Literal["lose_ability"] = "lose_ability"
    character: Character
    ability: str
    amount: int = Field(ge=1, le=MAX_SCORE)

    def procedure(self, options: RollUnderOptions, log: list[Event]) -> Procedure[Survival]:
        sheet = check_sheet(self.character.require_alive(), options)
        sheet, events = adjust_ability(sheet, self.ability, -self.amount)
        log.extend(events)
        if sheet.zero_abilities and options.ability_at_zero == "dies":
            sheet = yield from face_death(sheet, "ability loss", options, log)
        return Survival(character=sheet)
