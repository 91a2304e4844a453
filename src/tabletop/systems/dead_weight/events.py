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


def event(kind: str, text: str, **data: Any) -> Event:
    """An event of `kind`, described by `text`, with `data` as its facts."""
    return Event(kind=kind, text=text, data=data)
