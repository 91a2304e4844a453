"""Snapshots: a room's folded table kept in the store every `SNAPSHOT_EVERY` entries, so
that loading a room, and an undo that reaches back, folds only what came after one.

A snapshot is the table after entry `seq` as canonical JSON: the system's state
(`Session.load` reads it back) and everything else `Table` keeps (members, kicked, the
dice session and commitment, whether the next event may commit, the latest nonce, the
head and its hash). It is stored with that seq and the hash of entry `seq`; before one is
used, the log's entry at that seq must have that hash, and the snapshot must be of this
installation's snapshot version and rules: otherwise it is passed over (the server's log
says so) for an earlier one, or for the whole log. An undo drops the snapshots at or after
what it takes back (store.py), so each snapshot left is the fold of the resolutions in
force up to its seq.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

from pydantic import BaseModel, ValidationError

from tabletop.data import canonical
from tabletop.errors import DataError
from tabletop.rooms.errors import UnknownRoom
from tabletop.rooms.ledger import Ledger, groups
from tabletop.rooms.log import Entry
from tabletop.rooms.store import Store
from tabletop.rooms.table import Table
from tabletop.rooms.witness import Chains
from tabletop.session import Event, Member

SNAPSHOT_EVERY = 200
"""Entries between a room's snapshots: loading a room folds at most about this many (and
an undo that reaches back before the latest snapshot refolds from the one before it)."""

VERSION = 1
"""The shape of a snapshot's JSON; a snapshot of another version is passed over."""

READ_BATCH = 500
"""Entries read from the store at once while folding a tail or an undo's refold."""

log = logging.getLogger("tabletop.rooms")


def encode(table: Table) -> str:
    """The snapshot of `table` at its head, as canonical JSON."""
    return canonical(
        {
            "version": VERSION,
            "room": table.room,
            "system": table.system,
            "rules": table.session.version,
            "state": table.state.model_dump(mode="json"),
            "members": [m.model_dump(mode="json") for m in table.members.values()],
            "kicked": sorted(table.kicked),
            "dice_session": table.dice_session,
            "commitment": table.commitment,
            "committing": table.committing,
            "latest_nonce": table.latest_nonce,
            "witnesses": table.witnesses.encode(),
            "head": table.head,
            "head_hash": table.head_hash,
        }
    )


def decode(created: Event, seq: int, hashed: str, body: str, ledger: Ledger) -> Table:
    """The table a snapshot kept at entry `seq` (whose hash is `hashed`) holds, for the
    room whose log opens with `created`; a `DataError` when it is not a snapshot this
    installation can use there."""
    table = Table.start(created)
    try:
        data = json.loads(body)
        if data["version"] != VERSION:
            raise DataError(f"it is of snapshot version {data['version']}, not {VERSION}")
        if (data["head"], data["head_hash"]) != (seq, hashed):
            raise DataError(f"it holds the table after entry {data['head']}, not {seq}")
        if (data["room"], data["system"]) != (table.room, table.system):
            raise DataError("it is of another room")
        if data["rules"] != table.session.version:
            raise DataError(f"it was made under version {data['rules']} of the rules")
        table.state = table.session.load(data["state"])
        members = [Member.model_validate(m) for m in data["members"]]
        table.members = {m.id: m for m in members}
        table.kicked = {str(m) for m in data["kicked"]}
        table.dice_session = int(data["dice_session"])
        table.commitment = str(data["commitment"])
        table.committing = bool(data["committing"])
        table.latest_nonce = str(data["latest_nonce"])
        table.witnesses = Chains.decode(data.get("witnesses") or {"heads": {}, "lasts": {}})
        table.head, table.head_hash = int(data["head"]), str(data["head_hash"])
    except (ValueError, KeyError, TypeError, ValidationError) as problem:
        raise DataError(f"it does not hold a table ({str(problem)[:200]})") from None
    table.ledger = ledger
    return table


def read(store: Store, room: str, before: int) -> Iterator[tuple[int, str, str]]:
    """Each snapshot of `room` before seq `before` that matches the log, latest first, as
    its seq, hash and body; one that does not is passed over and the server's log says so."""
    while True:
        found = store.snapshot_before(room, before)
        if found is None:
            return
        seq, hashed, _ = found
        bodies = store.entries(room, seq - 1, seq)
        if not bodies or Entry.from_text(bodies[0]).hash != hashed:
            log.warning(
                "room %s: the snapshot at entry %d does not match the log there; "
                "folding from an earlier one",
                room,
                seq,
            )
        else:
            yield found
        before = seq


def passed_over(room: str, seq: int, problem: DataError) -> None:
    """Say in the server's log that a snapshot matched the log but cannot be used."""
    log.warning("room %s: the snapshot at entry %d is passed over: %s", room, seq, problem)


class StoreLedger:
    """The history of a loaded room, read from the store: the index of resolutions beside
    the log (written in each append's transaction) and the snapshots."""

    def __init__(self, store: Store, room: str, created: Event) -> None:
        self.store = store
        self.room = room
        self.created = created

    def note(self, group: list[Entry]) -> None:
        """Nothing to keep: the append that wrote the group indexed it (hall.py)."""

    def latest(self, as_of: int) -> tuple[int, int] | None:
        return self.store.latest_in_force(self.room, as_of)

    def last_of(self, first: int) -> int:
        found = self.store.last_of(self.room, first)
        return first if found is None else found

    def base(self, before: int) -> tuple[BaseModel | None, int]:
        for seq, hashed, body in read(self.store, self.room, before):
            try:
                return decode(self.created, seq, hashed, body, self).state, seq
            except DataError as problem:
                passed_over(self.room, seq, problem)
        return None, 0

    def in_force(self, after: int, before: int, as_of: int) -> Iterator[list[Event]]:
        spans = self.store.spans_in_force(self.room, after, before, as_of)
        starts = {first: last for first, last in spans}
        for batch in _batches(self.store, self.room, after, before - 1):
            for group in groups(batch):
                if starts.get(group[0].seq) == group[-1].seq:
                    yield [entry.event for entry in group]


def load(store: Store, room: str) -> tuple[Table, int]:
    """The room's table at its latest usable snapshot, its ledger in the store, and that
    snapshot's seq (0: none, the table as the log opens it); `tail` has what follows."""
    bodies = store.entries(room, 0, 1)
    if not bodies:
        raise UnknownRoom(f"there is no room {room!r} on this server")
    created = Entry.from_text(bodies[0])
    ledger = StoreLedger(store, room, created.event)
    for seq, hashed, body in read(store, room, store.head(room) + 1):
        try:
            return decode(created.event, seq, hashed, body, ledger), seq
        except DataError as problem:
            passed_over(room, seq, problem)
    table = Table.start(created.event)
    table.ledger = ledger
    table.head, table.head_hash = created.seq, created.hash
    return table, 0


def tail(store: Store, room: str, after: int) -> Iterator[list[Entry]]:
    """The groups appended after seq `after`, read in batches (a group never split)."""
    for batch in _batches(store, room, after, None):
        yield from groups(batch)


def _batches(store: Store, room: str, after: int, upto: int | None) -> Iterator[list[Entry]]:
    """The entries after seq `after` (to `upto`), a batch at a time, each ending where a
    group ends (so that `groups` never splits one)."""
    held: list[Entry] = []
    while True:
        end = after + READ_BATCH if upto is None else min(after + READ_BATCH, upto)
        bodies = store.entries(room, after, end) if end > after else []
        if not bodies:
            if held:
                yield held
            return
        batch = held + [Entry.from_text(body) for body in bodies]
        after = batch[-1].seq
        found = groups(batch)
        held = found.pop()
        if found:
            yield [entry for group in found for entry in group]


def write(store: Store, room: str, table: Table) -> bool:
    """Keep a snapshot of `room`'s `table` at its head, unless the log has grown past it
    meanwhile (another process appended: it is not the fold of the log there any more) or
    one is kept there already. Whether one was written."""
    with store.locked(room):
        if store.head(room) != table.head:
            return False
        found = store.snapshot_before(room, table.head + 1)
        if found is not None and found[0] == table.head:
            return False
        store.add_snapshot(room, table.head, table.head_hash, encode(table))
    return True
