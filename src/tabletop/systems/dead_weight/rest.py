"""Rest and the interlude: what the core book says they clear, and nothing it leaves to
other books (how much fatigue and how many wounds a rest heals is DW-G09's, the GM's call).

At camp, exhausted prayers are ready again (§ Prayers), Shaken ends ("rest in the camp
phase") and so does Sleepy ("camp"), unless a coffee addict has had no coffee this
expedition (quirk 6) or a loud snorer keeps it instead of adding an ambush die (quirk 4,
DW-X22). The interlude heals Nauseated (§ Afflictions) and, since the adventurers have
escaped the dungeon alive to reach it, ends Hopeless (DW-X23).
"""

from __future__ import annotations

from typing import Literal

from tabletop.systems.dead_weight.afflictions import Remedy, remove_affliction, stays_sleepy
from tabletop.systems.dead_weight.catalogue import Affliction, QuirkRule
from tabletop.systems.dead_weight.character import Character
from tabletop.systems.dead_weight.events import Event, event

Change = tuple[Character, list[Event]]

Snore = Literal["ambush", "sleepy"]
"""A loud snorer's choice in camp: one more ambush die, or stay Sleepy (quirk 4)."""


def rest_at_camp(character: Character, snore: Snore = "ambush") -> Change:
    """A night at camp: prayers ready again, Shaken and Sleepy gone (§ Prayers, Afflictions)."""
    magic = character.magic.model_copy(update={"prayers_exhausted": ()})
    character = character.model_copy(update={"magic": magic})
    events = [event("rest", f"{character.label} rests at camp: prayers are ready again")]
    if character.has(Affliction.SHAKEN):
        character, more = remove_affliction(character, Affliction.SHAKEN, Remedy.REST_IN_CAMP)
        events += more
    if character.has(Affliction.SLEEPY):
        character, more = _wake_up_rested(character, snore)
        events += more
    return character, events


def _wake_up_rested(character: Character, snore: Snore) -> Change:
    """Sleepy ends at camp unless a quirk keeps it (DW-X22)."""
    if stays_sleepy(character):
        return character, [
            event("still sleepy", f"{character.label} stays Sleepy: no coffee this expedition")
        ]
    if character.has(QuirkRule.LOUD_SNORE):
        if snore == "sleepy":
            return character, [
                event("still sleepy", f"{character.label} snores and stays Sleepy (loud snore)")
            ]
        character, events = remove_affliction(character, Affliction.SLEEPY, Remedy.CAMP)
        snored = event(
            "ambush die", f"{character.label} snores: one more ambush die tonight", ambush_dice=1
        )
        return character, [*events, snored]
    return remove_affliction(character, Affliction.SLEEPY, Remedy.CAMP)


def interlude(character: Character) -> Change:
    """Back from the expedition: Nauseated heals and Hopeless ends (DW-X23)."""
    events = [event("interlude", f"{character.label} is back for the interlude")]
    if character.has(Affliction.NAUSEATED):
        character, more = remove_affliction(character, Affliction.NAUSEATED, Remedy.INTERLUDE)
        events += more
    if character.has(Affliction.HOPELESS):
        character, more = remove_affliction(
            character, Affliction.HOPELESS, Remedy.ESCAPE_THE_DUNGEON
        )
        events += more
    return character, events
