"""A room's table as the fold of its log: the members, the system's state, what was undone
and which dice seed is in force. Pure: the server keeps one per loaded room, and `verify`
rebuilds one from an export to check that every event follows from the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from tabletop.errors import DataError, TabletopError
from tabletop.rooms.errors import SystemUnavailable
from tabletop.rooms.log import GENESIS, Entry
from tabletop.session import Event, Member, Role, Session
from tabletop.systems.registry import system


def load_session(name: str) -> Session[Any]:
    """The session of system `name`, or a one-line error when this installation cannot
    play it in a room (unknown, or its session does not import)."""
    try:
        return system(name).session
    except TabletopError as problem:
        raise SystemUnavailable(str(problem)) from None
    except (ImportError, AttributeError) as problem:
        raise SystemUnavailable(
            f"{name} cannot be played in a room yet: its session does not load ({problem})"
        ) from None


@dataclass
class Table:
    """Everything the log says about a room now."""

    system: str
    session: Session[Any]
    options: dict[str, Any]
    state: BaseModel
    members: dict[str, Member] = field(default_factory=dict)
    kicked: set[str] = field(default_factory=set)
    played: list[tuple[int, int, list[Event]]] = field(default_factory=list)
    """Each resolution still in force: its first and last seq, and its events."""
    resolutions: dict[int, int] = field(default_factory=dict)
    """First seq → last seq of every appended resolution (for acknowledging retries)."""
    dice_session: int = 0
    commitment: str = ""
    head: int = 0
    head_hash: str = GENESIS

    @classmethod
    def start(cls, created: Event) -> Table:
        """The table a `room.created` event opens."""
        name = created.data["system"]
        session = load_session(name)
        options = dict(created.data.get("options") or {})
        return cls(name, session, options, session.new(options))

    def member(self, member_id: str) -> Member:
        return self.members[member_id]

    def by_name(self, name: str) -> Member | None:
        return next((m for m in self.members.values() if m.name == name), None)

    def view(self, room: str, me: Member) -> dict[str, Any]:
        """`me`'s view of the room: who is in it, the dice commitment and the system's state."""
        members = [
            {"id": m.id, "name": m.name, "role": str(m.role)}
            for m in self.members.values()
            if m.id not in self.kicked
        ]
        return {
            "room": room,
            "system": self.system,
            "me": me.model_dump(mode="json"),
            "members": members,
            "head": self.head,
            "dice": {"session": self.dice_session, "commitment": self.commitment},
            "state": self.session.view(self.state, me),
        }

    def last_in_force(self) -> tuple[int, int, list[Event]] | None:
        return self.played[-1] if self.played else None

    # folding ------------------------------------------------------------------------------

    def apply(self, entries: list[Entry]) -> None:
        """Fold one appended group: a resolution of an intent, or one room event."""
        first, last = entries[0], entries[-1]
        if first.is_room_event:
            for entry in entries:
                self._room_event(entry.seq, entry.event)
        else:
            events = [entry.event for entry in entries]
            for event in events:
                self.state = self.session.fold(self.state, event)
            self.played.append((first.seq, last.seq, events))
        self.resolutions[first.seq] = last.seq
        self.head, self.head_hash = last.seq, last.hash

    def _room_event(self, seq: int, event: Event) -> None:
        data = event.data
        kind = event.type.removeprefix("room.")
        if kind == "joined":
            self.members[data["member"]] = Member(
                id=data["member"], role=Role(data["role"]), name=data["name"]
            )
        elif kind == "renamed":
            self._update(data["member"], name=data["name"])
        elif kind == "promoted":
            self._update(data["member"], role=Role(data["role"]))
        elif kind == "kicked":
            self.kicked.add(data["member"])
        elif kind == "dice-committed":
            self.dice_session, self.commitment = data["session"], data["commitment"]
        elif kind == "undo":
            self._undo(data["undoes"])

    def _update(self, member_id: str, **changes: Any) -> None:
        self.members[member_id] = self.members[member_id].model_copy(update=changes)

    def _undo(self, undoes: list[int]) -> None:
        """Take back the latest resolution in force: the state is refolded without it."""
        first, _, _ = self.played.pop()
        if first != undoes[0]:
            raise DataError(f"undo names entry {undoes[0]}, but the latest in force is {first}")
        state = self.session.new(self.options)
        for _, _, events in self.played:
            for event in events:
                state = self.session.fold(state, event)
        self.state = state


def groups(entries: list[Entry]) -> list[list[Entry]]:
    """Entries split into what was appended together: each resolution of an intent (its
    first event carries the cause; the others follow it) and each room event alone."""
    found: list[list[Entry]] = []
    for entry in entries:
        follows = (
            found
            and not entry.is_room_event
            and entry.event.cause is None
            and not found[-1][0].is_room_event
        )
        if follows:
            found[-1].append(entry)
        else:
            found.append([entry])
    return found
