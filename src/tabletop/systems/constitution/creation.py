"""Making a character (§ 4.2–4.3): five abilities 3d6 in order, level 1, a first HP roll."""

from __future__ import annotations

from tabletop.dice import DiceSource, roll
from tabletop.systems.constitution.character import ABILITIES, Abilities, Character
from tabletop.systems.constitution.health import short_rest
from tabletop.systems.constitution.initiations import CharacterClass
from tabletop.systems.constitution.models import DiceRecord, Event, build


def roll_abilities(dice: DiceSource, name: str = "") -> tuple[Abilities, list[Event]]:
    """3d6 for each ability, in the order of § 4.1, no swapping (§ 4.2), told as `name`'s."""
    whose = f"{name}: " if name else ""
    scores = {}
    events = []
    for ability in ABILITIES:
        rolled = roll("3d6", dice)
        scores[ability] = rolled.total
        events.append(
            Event(
                kind="ability",
                message=f"{whose}{ability} {rolled.total}",
                dice=(DiceRecord.of(rolled),),
            )
        )
    return Abilities(**scores), events


def new_character(
    name: str,
    dice: DiceSource,
    character_class: CharacterClass | None = None,
    initiation: str | None = None,
) -> tuple[Character, list[Event]]:
    """A level-1 character with its one initiation (if chosen) and a first HP roll (§ 6.1)."""
    abilities, events = roll_abilities(dice, name)
    character = build(
        Character,
        {
            "name": name,
            "character_class": character_class,
            "abilities": abilities,
            "initiations": (initiation,) if initiation else (),
            "has_spell_book": initiation == "goetia",
        },
    )
    rested, rest_events = short_rest(character, dice, gain_fatigue=False)
    return rested, events + rest_events


def unusual_concept_allowed(dice: DiceSource) -> tuple[bool, DiceRecord]:
    """A non-standard concept already used once is allowed only on a 1 on a d6 (§ 4.8)."""
    rolled = roll("1d6", dice)
    return rolled.total == 1, DiceRecord.of(rolled)
