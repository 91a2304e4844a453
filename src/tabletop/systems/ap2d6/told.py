"""The rules' events in the shared table's shape: what is the GM's stays the GM's, and a
hidden NPC's own lines are told as its own (RU-M37, RU-N05)."""

from __future__ import annotations

from tabletop import kept
from tabletop.session import Event, Visibility
from tabletop.systems.ap2d6.events import Event as RulesEvent
from tabletop.systems.ap2d6.owners import NOBODY, Owners
from tabletop.systems.ap2d6.table_npcs import npc_line


def told(
    events: list[RulesEvent], owners: Owners = NOBODY, subject: str | None = None
) -> list[Event]:
    """The rules' events in the protocol's shape: the GM's alone stay the GM's (RU-M37). A
    line that is a hidden NPC's own (it says whose, or it is of `subject`'s step and marks
    nobody's part) is told as its own (`npc_line`, RU-N05); a line that marks parts is
    settled by the session."""
    shaped = []
    for e in events:
        name = e.who or subject
        owner = owners.kept_id(name)
        text, hint, gm_only = e.summary, "", e.gm_only
        if name is not None and owner is not None and not kept.owners(text):
            text, hint, gm_only = npc_line(e, name, owner)
        shaped.append(
            Event(
                type=e.kind,
                text=text,
                data={**e.data, "dice": [d.model_dump(mode="json") for d in e.dice]},
                visibility=Visibility.GM if gm_only else Visibility.PUBLIC,
                hint=hint,
            )
        )
    return shaped


def plain(event: Event) -> Event:
    """`event` with no part marked: a roll only its maker and the GM see keeps nothing."""
    return event.model_copy(update={"text": kept.plain(event.text)})
