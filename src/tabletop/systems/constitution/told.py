"""The Constitution rules' events in the shape of the session protocol."""

from __future__ import annotations

from tabletop.session import Event
from tabletop.systems.constitution.models import Event as RulesEvent


def protocol_events(events: list[RulesEvent]) -> list[Event]:
    """The rules' events in the protocol's shape (nothing in the articles is secret)."""
    return [
        Event(
            type=e.kind,
            text=e.message,
            data={"dice": [d.model_dump(mode="json") for d in e.dice]},
        )
        for e in events
    ]
