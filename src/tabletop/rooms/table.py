"""A room's table as the fold of its log: the members, the system's state and which dice
seed is in force; what is in force and where it lies it asks its ledger (ledger.py). Pure:
the server keeps one per loaded room (restored from a snapshot, its ledger in the store),
and `verify` rebuilds one from an export to check that every event follows from the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from tabletop.errors import DataError
from tabletop.rooms import names, roomevents
from tabletop.rooms.ledger import Ledger, MemoryLedger, groups
from tabletop.rooms.log import FORMATS, GENESIS, Entry
from tabletop.rooms.readings import session_at
from tabletop.rooms.witness import Chains
from tabletop.session import TABLE, Event, Member, Role, Session


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
    format: int = 3
    """The log's format (docs/rooms.md, "The log, version 3"): 2 keeps a dice seed a session."""
    witnesses: Chains = field(default_factory=Chains)
    """Each member's witness chains: the active one, and how far each went."""
    ledger: Ledger = field(default_factory=MemoryLedger)
    """What is in force and where each resolution lies: in memory, or in the store."""
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
        form = data.get("format")
        if form not in FORMATS or isinstance(form, bool):
            raise DataError(
                f"this log is of format {data.get('format', 1)}; this installation reads "
                f"formats {' and '.join(map(str, FORMATS))}"
            )
        name = str(data["system"])
        rules = data.get("rules")
        if not isinstance(rules, int) or isinstance(rules, bool):
            raise DataError("room.created names no version of the rules")
        session = session_at(name, rules)
        options = dict(data.get("options") or {})
        if data.get("name") and names.checked(str(data["name"]), "a room's name") != data["name"]:
            raise DataError("room.created holds a room name the server would not have kept")
        expected = roomevents.created(
            str(data["room"]), name, str(data["name"]), options, session.version, int(form)
        )
        told = created.model_copy(update={"cause": None})
        if told.text == roomevents.opened_before(str(data["room"]), name, str(data["name"])):
            told = told.model_copy(update={"text": expected.text})
        if told != expected:
            raise DataError("room.created does not hold what a new room's first entry holds")
        table = cls(str(data["room"]), name, session, options, session.new(options))
        table.format = int(form)
        return table

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
            "rules": self.session.version,
            "me": me.model_dump(mode="json"),
            "members": members,
            "head": self.head,
            "dice": {
                "format": self.format,
                "session": self.dice_session,
                "commitment": self.commitment,
            },
            "state": self.session.view(self.state, me),
        }

    def last_in_force(self) -> tuple[int, int] | None:
        """The first and last seq of the latest resolution in force (what undo takes back)."""
        return self.ledger.latest(self.head)

    # folding ------------------------------------------------------------------------------

    def apply(self, entries: list[Entry]) -> None:
        """Fold one appended group: a resolution of an intent, or one room event; a room
        event must be the one the server would have made (`roomevents.rebuilt`)."""
        first = entries[0]
        if first.is_room_event:
            for entry in entries:
                if not roomevents.as_made(
                    entry.event, roomevents.rebuilt(self, entry.seq, entry.event)
                ):
                    raise DataError(f"{entry.event.type} is not what that request makes")
                self._room_event(entry)
                self.ledger.note([entry])
                self.head, self.head_hash = entry.seq, entry.hash
        else:
            self._resolution(first, [entry.event for entry in entries])
            self._witnessed(first)
            self.ledger.note(entries)
            self.head, self.head_hash = entries[-1].seq, entries[-1].hash

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

    def _witnessed(self, first: Entry) -> None:
        """Move each revealing witness's chain down to the value it revealed, which must be
        its next (less the values its header says were skipped)."""
        if first.witnessed is not None:
            self.witnesses.advance(first.witnessed)

    def _room_event(self, entry: Entry) -> None:
        event = entry.event
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
            self._undo(int(data["undoes"][0]), entry.seq)
        elif kind == "witness":
            self.witnesses.named(str(data["member"]), str(data["head"]))
        elif kind == "session-ended" and self.format >= 3:
            self.dice_session += 1

    def _update(self, member_id: str, **changes: Any) -> None:
        self.members[member_id] = self.members[member_id].model_copy(update=changes)

    def _undo(self, undone: int, at: int) -> None:
        """Take back the latest resolution in force (it starts at seq `undone`; the undo is
        entry `at`): the state is refolded without it, from the latest snapshot before it
        (from the empty table when there is none)."""
        base, after = self.ledger.base(undone)
        state = self.session.new(self.options) if base is None else base
        for events in self.ledger.in_force(after, undone, at):
            for event in events:
                state = self.session.fold(state, event)
        self.state = state


def fold(entries: list[Entry]) -> Table:
    """The table a whole log folds to."""
    table = Table.start(entries[0].event)
    table.head, table.head_hash = entries[0].seq, entries[0].hash
    for group in groups(entries[1:]):
        table.apply(group)
    return table
