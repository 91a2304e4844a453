"""Trackers, usage and risk dice, light and darkness (§ Trackers, § Light, § Dice Notation).

A tracker fills one segment per advance and triggers when full (DW-M58); what a triggered
decay, doom or omens tracker does, and how big each is, are rules of another book (DW-G04),
so sizes are given by the GM and a trigger is an event. Usage and risk dice are the dice
engine's `Ud8` and `2d!`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tabletop.dice import USAGE_DIE_SIZES, DiceSource, Roll, RolledRisk, RolledUsage, roll
from tabletop.systems.dead_weight.afflictions import gain_affliction
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.body import receive_fatigue
from tabletop.systems.dead_weight.catalogue import Affliction, Trait
from tabletop.systems.dead_weight.character import Character
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import Event, event
from tabletop.systems.dead_weight.options import DEFAULT, Options

MAX_SEGMENTS = 100
"""Segments one tracker may have."""

MAX_RISK_DICE = 100
"""Risk dice one roll may throw."""


class TrackerKind(StrEnum):
    DECAY = "decay"
    DOOM = "doom"
    OMENS = "omens"
    CUSTOM = "custom"


class Tracker(BaseModel):
    """A circle of segments the GM fills; `visible` when the players may see it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    kind: TrackerKind = TrackerKind.CUSTOM
    segments: int = Field(ge=1, le=MAX_SEGMENTS)
    filled: int = Field(default=0, ge=0)
    visible: bool = True

    @model_validator(mode="after")
    def _filled_fits(self) -> Tracker:
        if self.filled >= self.segments:
            raise ValueError(f"{self.filled} filled of {self.segments}: a full tracker triggers")
        return self


def advance(tracker: Tracker, points: int = 1) -> tuple[Tracker, list[Event]]:
    """Fill `points` segments (a negative number empties them, never below zero). Each time
    the circle fills it triggers and starts again empty (DW-X04)."""
    if points < 0:
        filled = max(0, tracker.filled + points)
        return tracker.model_copy(update={"filled": filled}), [
            event("tracker", f"{tracker.name} goes back to {filled}/{tracker.segments}")
        ]
    filled = tracker.filled + points
    events: list[Event] = []
    while filled >= tracker.segments:
        filled -= tracker.segments
        events.append(
            event(
                "tracker triggered",
                f"{tracker.name} is full and triggers",
                tracker=tracker.name,
                tracker_kind=tracker.kind,
            )
        )
    events.insert(
        0, event("tracker", f"{tracker.name} advances {points} to {filled}/{tracker.segments}")
    )
    return tracker.model_copy(update={"filled": filled}), events


def advance_doom(
    tracker: Tracker, points: int, adventurers: list[Character], options: Options = DEFAULT
) -> tuple[Tracker, list[Event]]:
    """Advance the doom tracker: Doomed adventurers make it move further (DW-A34)."""
    if tracker.kind != TrackerKind.DOOM:
        raise DeadWeightError(f"{tracker.name} is not a doom tracker")
    doomed = sum(1 for a in adventurers if a.has(Affliction.DOOMED))
    if points > 0 and doomed:
        points += doomed if options.doomed_stacking == "per_doomed_adventurer" else 1
    return advance(tracker, points)


def can_see(tracker: Tracker, character: Character) -> bool:
    """Visible trackers are seen by all; the omens tracker also by the Third eye."""
    return tracker.visible or (tracker.kind == TrackerKind.OMENS and character.has(Trait.THIRD_EYE))


# usage and risk dice -----------------------------------------------------------------


class UsageDie(BaseModel):
    """A consumable's usage die: roll it on each use; a 1 or 2 steps it down the chain,
    and on a d4 that means the last one is gone (DW-M26)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    size: int

    @model_validator(mode="after")
    def _on_the_chain(self) -> UsageDie:
        if self.size not in USAGE_DIE_SIZES:
            raise ValueError(f"a usage die is a d4, d6, d8, d10, d12 or d20, not d{self.size}")
        return self

    def use(self, dice: DiceSource) -> tuple[UsageDie | None, Roll]:
        """Roll the die: the die afterwards (None when used up) and the roll."""
        rolled = roll(f"Ud{self.size}", dice)
        usage = rolled.pools()[0]
        assert isinstance(usage, RolledUsage)
        after = usage.next_size
        return (UsageDie(size=after) if after else None), rolled

    def __str__(self) -> str:
        return f"Ud{self.size}"


def risk(count: int, dice: DiceSource) -> tuple[bool, Roll]:
    """Roll `count` risk dice: the thing happens if any shows a 1 (DW-M27)."""
    if not 1 <= count <= MAX_RISK_DICE:
        raise DeadWeightError(f"roll 1 to {MAX_RISK_DICE} risk dice, not {count}")
    rolled = roll(f"{count}d!", dice)
    risky = rolled.pools()[0]
    assert isinstance(risky, RolledRisk)
    return risky.triggered, rolled


# light --------------------------------------------------------------------------------


class LightKind(StrEnum):
    TORCH = "torch"
    CANDLE = "candle"
    LANTERN = "lantern"
    LIGHT_SPELL = "light spell"


LIGHT: dict[LightKind, tuple[Literal["close", "nearby"], int | None]] = {
    LightKind.TORCH: ("nearby", 4),
    LightKind.CANDLE: ("close", 6),
    LightKind.LANTERN: ("nearby", 8),
    LightKind.LIGHT_SPELL: ("nearby", None),
}
"""How far each light reaches and its usage die per decay (the spell lasts one decay)."""


class LightSource(BaseModel):
    """A lit light: its usage die (None for the light spell, which lasts one decay), and
    whether it goes out at the start of next turn."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: LightKind
    usage: UsageDie | None = None
    going_out: bool = False

    @property
    def reach(self) -> str:
        return LIGHT[self.kind][0]


def light(kind: LightKind) -> LightSource:
    """A freshly lit light source with its full usage die."""
    size = LIGHT[kind][1]
    return LightSource(kind=kind, usage=UsageDie(size=size) if size else None)


def decay_lights(
    lights: list[LightSource], dice: DiceSource
) -> tuple[list[LightSource], list[Event]]:
    """A decay happens: every light tests its usage die; one used up goes out next turn
    (the light spell goes out after its one decay)."""
    after: list[LightSource] = []
    events: list[Event] = []
    for source in lights:
        if source.going_out:
            after.append(source)
            continue
        if source.usage is None:
            after.append(source.model_copy(update={"going_out": True}))
            events.append(event("light", f"the {source.kind} will be gone next turn"))
            continue
        usage, rolled = source.usage.use(dice)
        text = f"{source.kind}: {rolled}" + ("; it will be gone next turn" if usage is None else "")
        events.append(event("light", text, roll=rolled.to_json()))
        after.append(
            source.model_copy(update={"usage": usage or source.usage, "going_out": usage is None})
        )
    return after, events


def new_turn(lights: list[LightSource]) -> list[LightSource]:
    """The lights still burning as a turn starts (those going out are gone)."""
    return [source for source in lights if not source.going_out]


def refuel(lantern: LightSource) -> LightSource:
    """Oil in the lantern: its usage die is a d8 again (the oil itself is an item)."""
    if lantern.kind != LightKind.LANTERN:
        raise DeadWeightError(f"only a lantern is refuelled, not a {lantern.kind}")
    return lantern.model_copy(update={"usage": UsageDie(size=8), "going_out": False})


def end_turn_in_darkness(
    character: Character, choice: Literal["fatigue", "terrified"], dice: DiceSource
) -> tuple[Character, list[Event]]:
    """Ending a turn in the dark: a presence fatigue or Terrified, the player's choice (DW-M60)."""
    if choice == "fatigue":
        return receive_fatigue(character, Attribute.PRE)
    if choice == "terrified":
        return gain_affliction(character, Affliction.TERRIFIED, dice)
    raise DeadWeightError("in the dark, choose a presence fatigue or Terrified")
