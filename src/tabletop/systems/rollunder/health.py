"""Health (§ Health loss): health stops at 0, a character at 0 is dying, STR changes move
maximum and current health together, healing lifts a dying character back up.

Each rule takes a sheet and returns `Changed`: the new sheet and what happened.
"""

from __future__ import annotations

from typing import NamedTuple

from tabletop.systems.rollunder.character import MAX_SCORE, Character
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.options import STR
from tabletop.systems.rollunder.records import Event


class Changed(NamedTuple):
    """A rule's result: the new sheet and the events that made it."""

    character: Character
    events: tuple[Event, ...] = ()


def lose_health(character: Character, amount: int) -> Changed:
    """Health goes down by `amount` but never below 0; reaching 0 starts dying (CR-M11)."""
    if amount < 0:
        raise RollUnderError("health lost cannot be negative; use heal")
    before = character.health
    after = max(0, before - amount)
    sheet = character.with_changes(health=after)
    events = [
        Event.about(
            sheet.name,
            "health_lost",
            f"{sheet.name} loses {before - after} health ({before} → {after})",
            damage=amount,
            before=before,
            after=after,
        )
    ]
    if before > 0 and after == 0:
        events.append(_dying(sheet))
    return Changed(sheet, tuple(events))


def _dying(sheet: Character) -> Event:
    text = f"{sheet.name} is dying: they die once the next activation is over, unless saved"
    return Event.about(sheet.name, "dying", text, health=sheet.health)


def heal(character: Character, amount: int) -> Changed:
    """Health up by `amount`, to at most the maximum; healed above 0, a character is no longer
    dying (CR-M11, CR-G10: how much healing happens is for the rest of the game)."""
    if amount < 1:
        raise RollUnderError("healing must be at least 1")
    sheet = character.require_alive()
    after = min(sheet.max_health, sheet.health + amount)
    text = f"{sheet.name} heals {after - sheet.health} ({sheet.health} → {after})"
    event = Event.about(sheet.name, "healed", text, before=sheet.health, after=after)
    return Changed(sheet.with_changes(health=after), (event,))


def adjust_ability(character: Character, ability: str, change: int) -> Changed:
    """An ability score moved by `change` (never below 0). A change of STR moves maximum and
    current health by the same amount (CR-M12), which never counts as critical damage and
    stops at 0 like any health loss."""
    score = character.score(ability)
    after = min(MAX_SCORE, max(0, score + change))
    moved = after - score
    if moved == 0:
        return Changed(character)
    changes: dict[str, object] = {"abilities": {**character.abilities, ability: after}}
    word = "gains" if moved > 0 else "loses"
    events = [
        Event.about(
            character.name,
            "ability_gained" if moved > 0 else "ability_lost",
            f"{character.name} {word} {abs(moved)} {ability} ({score} → {after})",
            ability=ability,
            before=score,
            after=after,
        )
    ]
    if ability == STR:
        maximum = max(0, character.max_health + moved)
        health = min(maximum, max(0, character.health + moved))
        changes.update(max_health=maximum, health=health)
        events.append(
            Event.about(
                character.name,
                "health_adjusted",
                f"{character.name}'s health follows STR: {health} of {maximum} "
                "(never critical damage)",
                health=health,
                max_health=maximum,
                change=moved,
            )
        )
    sheet = character.with_changes(**changes)
    if sheet.health == 0 and character.health > 0:
        events.append(_dying(sheet))
    return Changed(sheet, tuple(events))


def gain_ability(character: Character, ability: str, amount: int) -> Changed:
    """An ability raised by `amount` (STR raises health with it, CR-M12)."""
    if amount < 1:
        raise RollUnderError("an ability gain must be at least 1; losses go through LoseAbility")
    return adjust_ability(character.require_alive(), ability, amount)


def die(character: Character, cause: str) -> Changed:
    """The character dies (§ Death): their player makes a replacement (see `death`)."""
    sheet = character.require_alive().with_changes(death=cause, deadline_started=False)
    return Changed(
        sheet, (Event.about(sheet.name, "died", f"{sheet.name} dies ({cause})", cause=cause),)
    )
