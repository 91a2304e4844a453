"""Non-player characters and enemies: a level in place of attributes, and a wound count."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tabletop.systems.dead_weight.events import Event, event


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


def wound_npc(npc: Npc, wounds: int) -> tuple[Npc, list[Event]]:
    """The enemy after taking `wounds` (none if armour brought them to zero or less)."""
    if wounds <= 0 or npc.dead:
        return npc, []
    hurt = npc.model_copy(update={"wounds": npc.wounds + wounds})
    events = [event("npc wounded", f"{npc.name} takes {wounds} wound(s)", wounds=wounds)]
    if hurt.dead:
        events.append(event("npc died", f"{npc.name} dies", wounds=hurt.wounds))
    return hurt, events
