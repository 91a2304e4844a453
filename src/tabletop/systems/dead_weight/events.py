"""What happened: every rule returns its new state and a list of events like these.

An event has a `kind` a program can dispatch on, a line of `text` for people, and `data`
with the facts (every die face rolled is in the data of the event that rolled it)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Event(BaseModel):
    """One thing that happened at the table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str = Field(min_length=1)
    text: str
    data: dict[str, Any] = Field(default_factory=dict)
    side: int | None = Field(default=None, exclude=True)
    """Which side of an opposed test it tells of (None: the contest itself, or no contest),
    so a table can keep one side's dice from those who may not see them; never saved."""


def event(kind: str, text: str, **data: Any) -> Event:
    """An event of `kind`, described by `text`, with `data` as its facts."""
    return Event(kind=kind, text=text, data=data)


def sided(events: list[Event], side: int) -> list[Event]:
    """`events` marked as telling of one side of an opposed test."""
    return [e.model_copy(update={"side": side}) for e in events]


def about(events: list[Event], name: str) -> list[Event]:
    """`events` each naming whom they are about: "Amber's burden: Amnesia" for a line that
    does not name her already (issue 30, item 2)."""
    return [
        e if name in e.text else e.model_copy(update={"text": f"{name}'s {e.text}"}) for e in events
    ]
