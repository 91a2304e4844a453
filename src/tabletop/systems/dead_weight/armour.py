"""Armour rolls and the Hardened trait: what stands between a blow and the body.

An armour roll throws one die per armour point (fewer if the player likes): each 4, 5 or 6
stops a wound, and each 1 or 4 costs the armour a point until repaired, so a 4 does both
(DW-M40). One piece of armour, and one part of it, defends each attack (DW-M41). Hardened
comes after the armour, as a STR test, and only if wounds are left (DW-A35).
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.dice import DiceSource
from tabletop.systems.dead_weight.attribute_test import AttributeTest, TestSetup, announce_test
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.catalogue import Skill, Trait
from tabletop.systems.dead_weight.character import Character
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.evaluation import Outcome
from tabletop.systems.dead_weight.events import Event, event
from tabletop.systems.dead_weight.inventory import ArmourPart, Item, Place, PlaceKind
from tabletop.systems.dead_weight.options import DEFAULT, Options
from tabletop.words import counted


@dataclass(frozen=True, slots=True)
class ArmourRoll:
    """The record of one armour roll."""

    faces: tuple[int, ...]
    wounds_before: int
    blocked: int
    damage: int
    part: ArmourPart
    """The part afterwards, with the damage taken off its points."""

    @property
    def wounds_after(self) -> int:
        """Wounds that get through (never below zero)."""
        return max(0, self.wounds_before - self.blocked)


def armour_roll(
    wounds: int, part: ArmourPart, dice: DiceSource, count: int | None = None
) -> ArmourRoll:
    """Roll `count` armour dice (all the part's points by default) against `wounds`."""
    count = part.points if count is None else count
    if not 0 <= count <= part.points:
        raise DeadWeightError(f"roll 0 to {part.points} armour dice, not {count}")
    faces = tuple(dice.roll(6) for _ in range(count))
    blocked = sum(1 for face in faces if face >= 4)
    damage = sum(1 for face in faces if face in (1, 4))
    damaged = part.model_copy(update={"points": part.points - damage})
    return ArmourRoll(faces, wounds, blocked, damage, damaged)


def defend(
    character: Character,
    wounds: int,
    armour: str,
    dice: DiceSource,
    *,
    part: int = 0,
    count: int | None = None,
) -> tuple[Character, int, list[Event]]:
    """Defend against `wounds` with one part of one worn piece of armour (on the torso).

    Returns the character (the armour damaged), the wounds that get through, and events."""
    item = _worn(character, armour)
    if not 0 <= part < len(item.armour):
        raise DeadWeightError(f"{armour} has {counted(len(item.armour), 'part')}")
    result = armour_roll(wounds, item.armour[part], dice, count)
    parts = list(item.armour)
    parts[part] = result.part
    through = counted(result.wounds_after, "wound")
    gets = "gets" if result.wounds_after == 1 else "get"
    text = (
        f"{armour}: {list(result.faces)} stops {result.blocked}, loses {result.damage} AP; "
        f"{through} {gets} through"
    )
    record = event(
        "armour roll",
        text,
        faces=list(result.faces),
        blocked=result.blocked,
        damage=result.damage,
        wounds=result.wounds_after,
    )
    return _with_parts(character, armour, tuple(parts)), result.wounds_after, [record]


CRAFTING_REPAIR = 2
"""Armour points a character with Crafting repairs in the camp phase (§ Skills)."""


def camp_repair(
    crafter: Character, wearer: Character, armour: str
) -> tuple[Character, list[Event]]:
    """A crafter's camp-phase repair of a worn piece of armour: two points back, part by
    part, none past a part's maximum. Other ways to repair are another book's (DW-G07)."""
    if not crafter.has(Skill.CRAFTING):
        raise DeadWeightError(f"{crafter.label} has no crafting skill to repair armour with")
    item = _worn(wearer, armour)
    left = CRAFTING_REPAIR
    parts = []
    for piece in item.armour:
        mended = min(left, piece.maximum - piece.points)
        left -= mended
        parts.append(piece.model_copy(update={"points": piece.points + mended}))
    repaired = CRAFTING_REPAIR - left
    text = f"{crafter.label} repairs {counted(repaired, 'point')} of {wearer.label}'s {armour}"
    return _with_parts(wearer, armour, tuple(parts)), [event("repair", text, repaired=repaired)]


def _worn(character: Character, armour: str) -> Item:
    """The first piece of armour called `armour` worn on the torso."""
    torso = character.inventory.place(PlaceKind.TORSO)
    for item in torso.items:
        if item.name == armour and item.armour:
            return item
    raise DeadWeightError(f"{character.label} wears no armour called {armour!r}")


def _with_parts(character: Character, armour: str, parts: tuple[ArmourPart, ...]) -> Character:
    """The character with the worn piece `armour` given these parts."""
    torso = character.inventory.place(PlaceKind.TORSO)
    index = torso.items.index(_worn(character, armour))
    worn = list(torso.items)
    worn[index] = worn[index].model_copy(update={"armour": parts})
    places = tuple(
        Place(kind=PlaceKind.TORSO, items=tuple(worn)) if p.kind == PlaceKind.TORSO else p
        for p in character.inventory.places
    )
    inventory = character.inventory.model_copy(update={"places": places})
    return character.model_copy(update={"inventory": inventory})


def hardened_test(
    character: Character, wounds: int, options: Options = DEFAULT
) -> tuple[AttributeTest, list[Event]]:
    """Announce the Hardened STR test against wounds left after armour (DW-A35)."""
    if not character.has(Trait.HARDENED):
        raise DeadWeightError(f"{character.label} is not hardened")
    if wounds <= 0:
        raise DeadWeightError("no wounds are left to resist")
    return announce_test(character, TestSetup(attribute=Attribute.STR), options=options)


def wounds_after_hardened(wounds: int, test: AttributeTest) -> int:
    """A success resists one wound, a great success two (DW-M52)."""
    if not test.finished:
        raise DeadWeightError("the Hardened test is not finished")
    resisted = {Outcome.SUCCESS: 1, Outcome.GREAT_SUCCESS: 2}.get(test.verdict, 0)  # type: ignore[arg-type]
    return max(0, wounds - resisted)
