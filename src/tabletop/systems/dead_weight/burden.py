"""The burden (§ 4. Roll your burden): once a session, a character may let it make their
life harder, on a decision or on a test, and earns an insight point for it (DW-M09).

Used on a test, the burden also gives that test a disadvantage and no proficiency
(`TestSetup.burden`); the once-a-session count is kept here for both uses."""

from __future__ import annotations

from tabletop.systems.dead_weight.character import Character
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import Event, event


def use_burden(character: Character, how: str = "a decision") -> tuple[Character, list[Event]]:
    """Spend this session's burden for one insight point; refused if already spent."""
    if character.expedition.burden_used_this_session:
        raise DeadWeightError("the burden can be used once per session")
    expedition = character.expedition.model_copy(update={"burden_used_this_session": True})
    updated = character.model_copy(
        update={"expedition": expedition, "insight": character.insight + 1}
    )
    text = f"{character.label}'s burden weighs on {how}: +1 insight"
    return updated, [event("burden", text)]


def begin_session(character: Character) -> tuple[Character, list[Event]]:
    """A new game session: the burden may be used again."""
    expedition = character.expedition.model_copy(update={"burden_used_this_session": False})
    return character.model_copy(update={"expedition": expedition}), [
        event("session", f"a new session: {character.label}'s burden may be used again")
    ]
