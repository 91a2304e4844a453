"""Non-player characters and enemies: a level in place of attributes, and a wound count."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tabletop.systems.dead_weight.events import Event, event
from tabletop.words import counted


class Npc(BaseModel):
    """A monster or any character the players do not control.

    It tests with its level as the score (DW-M50) and dies when it has taken more wounds
    than its sheet lists (DW-M45). Its other statistics are in the Bestiary."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["npc"] = "npc"
    name: str = Field(default="Enemy", min_length=1, max_length=200)
    level: int = Field(default=1, ge=0, le=20)
    wound_limit: int = Field(default=1, ge=0)
    """The wounds listed on its sheet: one more than this kills it."""
    wounds: int = Field(default=0, ge=0)

    @property
    def dead(self) -> bool:
        return self.wounds > self.wound_limit

    @property
    def label(self) -> str:
        return self.name


class NpcStats(BaseModel):
    """What a GM keeps of an enemy besides its name: the level it tests with (DW-M50), the
    wounds its sheet lists (DW-M45) and the wounds it has taken (DW-N02)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    level: int = Field(default=1, ge=0, le=20)
    wound_limit: int = Field(default=1, ge=0, le=100)
    wounds: int = Field(default=0, ge=0, le=1000)

    def npc(self, name: str) -> Npc:
        """The enemy as the rules test and wound it."""
        return Npc(name=name, **self.model_dump())

    def describe(self) -> str:
        limit = counted(self.wound_limit, "wound")
        return f"level {self.level}, dies past {limit}, {self.wounds} taken"


def wound_npc(npc: Npc, wounds: int) -> tuple[Npc, list[Event]]:
    """The enemy after taking `wounds` (none if armour brought them to zero or less)."""
    if wounds <= 0 or npc.dead:
        return npc, []
    hurt = npc.model_copy(update={"wounds": npc.wounds + wounds})
    events = [event("npc wounded", f"{npc.name} takes {counted(wounds, 'wound')}", wounds=wounds)]
    if hurt.dead:
        events.append(event("npc died", f"{npc.name} dies", wounds=hurt.wounds))
    return hurt, events
