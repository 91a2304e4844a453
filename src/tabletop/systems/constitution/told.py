"""The Constitution rules' events in the shape of the session protocol."""

from __future__ import annotations

from collections.abc import Collection

from tabletop import kept
from tabletop.session import Event, Visibility
from tabletop.systems.constitution.models import Event as RulesEvent


def protocol_events(events: list[RulesEvent], hiding: Collection[str] = ()) -> list[Event]:
    """The rules' events in the protocol's shape. Where a line tells the numbers or verdict
    of someone in `hiding` (a combatant whose numbers the players may not see, C3-N05),
    that part is marked as theirs (`kept.secret`); a line with their dice and nothing of
    theirs to mark reaches the players in its words alone, without the dice."""
    told = []
    for event in events:
        text = _marked(event, hiding)
        protocol = Event(
            type=event.kind,
            text=text,
            data={"dice": [d.model_dump(mode="json") for d in event.dice]},
        )
        if event.roller in hiding and text == event.message:
            protocol = protocol.model_copy(update={"visibility": Visibility.HIDDEN, "hint": text})
        told.append(protocol)
    return told


def _marked(event: RulesEvent, hiding: Collection[str]) -> str:
    """The event's message with each part that none but those in `hiding` own marked."""
    pieces, at = [], 0
    for part in event.parts:
        if all(owner in hiding for owner in part.owners):
            shown = event.message[part.start : part.end]
            pieces += [event.message[at : part.start], kept.secret(part.owners[0], shown)]
            at = part.end
    return "".join([*pieces, event.message[at:]])
