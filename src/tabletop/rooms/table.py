"""A room's table as the fold of its log: the members, the system's state, what was undone
and which dice seed is in force. Pure: the server keeps one per loaded room, and `verify`
rebuilds one from an export to check that every event follows from the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from tabletop.errors import DataError, TabletopError
from tabletop.rooms import names, roomevents
from tabletop.rooms.errors import SystemUnavailable
from tabletop.rooms.log import FORMAT, GENESIS, Entry
from tabletop.session import TABLE, Event, Member, Role, Session
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

    room: str
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
    committing: bool = True
    """Whether the next room event may commit to a new dice seed (after the room opens, a
    session ends or the room is imported)."""
    latest_nonce: str = ""
    """The latest nonce a member's resolution used: the table's own moves mix it in."""
    head: int = 0
    head_hash: str = GENESIS

    @classmethod
    def start(cls, created: Event) -> Table:
        """The table a `room.created` event opens, refusing a log of another format or of
        rules this installation does not have."""
        if created.type != "room.created":
            raise DataError("a room's log opens with room.created")
        data = created.data
        if data.get("format") != FORMAT:
            raise DataError(
                f"this log is of format {data.get('format', 1)}; this installation reads "
                f"format {FORMAT} only"
            )
        name = str(data["system"])
        session = load_session(name)
        if data.get("rules") != session.version:
            raise DataError(
                f"this log was written under version {data.get('rules')} of {name}'s rules; "
                f"this installation has version {session.version}"
            )
        options = dict(data.get("options") or {})
        if data.get("name") and names.checked(str(data["name"]), "a room's name") != data["name"]:
            raise DataError("room.created holds a room name the server would not have kept")
        expected = roomevents.created(
            str(data["room"]), name, str(data["name"]), options, session.version
        )
        if created.model_copy(update={"cause": None}) != expected:
            raise DataError("room.created does not hold what a new room's first entry holds")
        return cls(str(data["room"]), name, session, options, session.new(options))

    def member(self, member_id: str) -> Member:
        return self.members[member_id]

    def present(self, member_id: str) -> Member:
        """A member still in the room (not kicked), or `DataError`."""
        if member_id not in self.members or member_id in self.kicked:
            raise DataError(f"no member {member_id[:64]!r} is in the room")
        return self.members[member_id]

    def gms(self) -> list[Member]:
        return [m for m in self.members.values() if m.is_gm and m.id not in self.kicked]

    def by_name(self, name: str) -> Member | None:
        """The current member called `name` (as a room keeps names: NFC, stripped)."""
        wanted = names.normalised(name)
        present = (m for m in self.members.values() if m.id not in self.kicked)
        return next((m for m in present if m.name == wanted), None)

    def check_name(self, name: str, member: str | None = None) -> str:
        """`name` as the room keeps it for a new member (or for `member`, renamed), or
        `BadName`: it must not look like another current member's (docs/rooms.md, "Roles
        and links")."""
        kept = names.checked(name)
        others = [
            m.name for m in self.members.values() if m.id not in self.kicked and m.id != member
        ]
        names.check_unlike(kept, others)
        return kept

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
        """Fold one appended group: a resolution of an intent, or one room event; a room
        event must be the one the server would have made (`roomevents.rebuilt`)."""
        first, last = entries[0], entries[-1]
        if first.is_room_event:
            for entry in entries:
                if entry.event != roomevents.rebuilt(self, entry.seq, entry.event):
                    raise DataError(f"{entry.event.type} is not what that request makes")
                self._room_event(entry.event)
        else:
            self._resolution(first, [entry.event for entry in entries])
        self.resolutions[first.seq] = last.seq
        self.head, self.head_hash = last.seq, last.hash

    def _resolution(self, first: Entry, events: list[Event]) -> None:
        cause = first.event.cause
        if cause is None:
            raise DataError("a resolution's first event carries its cause")
        asker = cause.member
        if asker != TABLE and asker != self.present(asker.id):
            raise DataError(f"the cause names {asker.name or asker.id} as they were not then")
        for event in events:
            self.state = self.session.fold(self.state, event)
        self.committing = False
        if asker != TABLE and first.nonce is not None:
            self.latest_nonce = first.nonce
        if cause.refused is None:
            self.played.append((first.seq, first.seq + len(events) - 1, events))

    def _room_event(self, event: Event) -> None:
        data = event.data
        kind = event.type.removeprefix("room.")
        self.committing = kind in ("session-ended", "imported")
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
            self._undo()

    def _update(self, member_id: str, **changes: Any) -> None:
        self.members[member_id] = self.members[member_id].model_copy(update=changes)

    def _undo(self) -> None:
        """Take back the latest resolution in force: the state is refolded without it."""
        self.played.pop()
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


def fold(entries: list[Entry]) -> Table:
    """The table a whole log folds to."""
    table = Table.start(entries[0].event)
    table.resolutions[1] = 1
    table.head, table.head_hash = entries[0].seq, entries[0].hash
    for group in groups(entries[1:]):
        table.apply(group)
    return table
