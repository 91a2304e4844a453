"""Events: what happened, in a sentence, with every die rolled for it and who may see it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from tabletop.systems.ap2d6.records import DiceRecord

Role = Literal["gm", "player"]
"""Who is looking: the GM sees everything, a player only what the rules let them know."""


class Event(BaseModel):
    """One thing that happened: a kind for programs, a sentence for people, the dice rolled.

    `gm_only` events (the secret death DC, hidden outcomes) never reach a player's view;
    `who` names the character a line is about, where the rules that made it know, so a
    table that keeps that character's numbers from its players can keep the line (RU-N05)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    summary: str
    dice: tuple[DiceRecord, ...] = ()
    data: dict[str, Any] = {}
    gm_only: bool = False
    who: str | None = None

    def visible_to(self, role: Role) -> bool:
        return role == "gm" or not self.gm_only


def whose(events: Iterable[Event], name: str) -> list[Event]:
    """`events`, each that does not say whose it is told as `name`'s."""
    return [e if e.who is not None else e.model_copy(update={"who": name}) for e in events]


def for_role(events: list[Event] | tuple[Event, ...], role: Role) -> list[Event]:
    """The events `role` may see, in order."""
    return [event for event in events if event.visible_to(role)]
