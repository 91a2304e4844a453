"""What happens turn by turn: bleeding, carrying too much, actions in combat, and the
Catch Breath action that Shaken forbids (§ Afflictions, § Inventory, § Special Traits)."""

from __future__ import annotations

from tabletop.dice import DiceSource
from tabletop.systems.dead_weight.attribute_test import AttributeTest
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.body import receive_fatigue
from tabletop.systems.dead_weight.catalogue import Affliction, Trait
from tabletop.systems.dead_weight.character import Character
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import Event, event
from tabletop.systems.dead_weight.inventory import remove_item


def bleed(character: Character, attribute: Attribute) -> tuple[Character, list[Event]]:
    """Each turn a Bleeding character takes a fatigue point where the player puts it."""
    if not character.has(Affliction.BLEEDING):
        return character, []
    return receive_fatigue(character, attribute)


def encumbered_turn(
    character: Character, strength_test: AttributeTest, dice: DiceSource
) -> tuple[Character, list[Event]]:
    """An encumbered character tests STR every turn; on a failure a random item (one that
    takes a slot) is dropped (DW-M55). Give the finished test, taken from the sheet after
    it (its fatigue included)."""
    if not strength_test.finished or strength_test.verdict is None:
        raise DeadWeightError("finish the strength test first")
    if not character.encumbered or strength_test.verdict.succeeded:
        return character, []
    inventory = character.inventory
    carried = [item.name for item in inventory.counted_items()]
    if not carried:
        return character, []
    dropped = carried[dice.roll(len(carried)) - 1]
    inventory, _ = remove_item(inventory, dropped)
    return character.model_copy(update={"inventory": inventory}), [
        event("dropped", f"{character.label} drops the {dropped}", item=dropped)
    ]


def combat_actions(character: Character, base: int, kills: int = 0) -> int:
    """Actions this combat turn from the table's `base` (another book's number): one fewer
    when Nauseated, one more per kill with Battle trance."""
    actions = base - (1 if character.has(Affliction.NAUSEATED) else 0)
    if character.has(Trait.BATTLE_TRANCE):
        actions += kills
    return max(0, actions)


def can_catch_breath(character: Character) -> bool:
    """Shaken forbids the Catch Breath action (whose rule is another book's)."""
    return not character.has(Affliction.SHAKEN)
