"""The room's log: append-only entries, each naming the one before it by hash.

An entry is one `Event` of the session protocol with its place in the log:

    {"seq": 7, "time": 1767225600000, "event": {...}, "client": "c-41", "nonce": "n-41",
     "salt": "<128 random bits>", "prev": "<hash of entry 6>", "hash": "<this entry's hash>"}

`hash` is the SHA-256 of the entry without `hash`, as canonical JSON (keys sorted, no spaces,
UTF-8). `client` is the id the client gave the intent (a retry with the same id is applied
once); `nonce` is what the client mixed into the dice (`fairdice`). `salt` makes the hash
of an entry a player sees only in part impossible to guess from what they do see: without
it a blind d20 roll could be found by hashing twenty candidates.

Entries are stored as their canonical JSON text, and that text is what the GM's export and
every member who sees the event in full receive, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

from tabletop.data import canonical
from tabletop.session import Event

GENESIS = "0" * 64
"""The `prev` of a room's first entry."""

ROOM = "room."
"""The prefix of the types of events the room itself makes (joins, chat, undo, dice seeds);
systems' events never start with it."""


def entry_hash(body: dict[str, Any]) -> str:
    """The hash of an entry: over every field but `hash` itself."""
    unhashed = {key: value for key, value in body.items() if key != "hash"}
    return hashlib.sha256(canonical(unhashed).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Entry:
    """One appended event, with its canonical text kept so it is never re-spelled."""

    seq: int
    time: int
    """Milliseconds since the epoch, when the server appended it."""
    event: Event
    client: str | None
    nonce: str | None
    prev: str
    hash: str
    text: str

    @classmethod
    def make(
        cls,
        seq: int,
        time_ms: int,
        event: Event,
        prev: str,
        client: str | None = None,
        nonce: str | None = None,
    ) -> Entry:
        body: dict[str, Any] = {
            "seq": seq,
            "time": time_ms,
            "event": event.model_dump(mode="json"),
            "client": client,
            "nonce": nonce,
            "salt": secrets.token_hex(16),
            "prev": prev,
        }
        unhashed = canonical(body)
        digest = hashlib.sha256(unhashed.encode("utf-8")).hexdigest()
        # Sorted, "hash" falls between "event" and "nonce": the last top-level ',"nonce":'
        # (nothing after it holds one), so the text is spelled once, not twice.
        before, key, after = unhashed.rpartition(',"nonce":')
        text = f'{before},"hash":"{digest}"{key}{after}'
        return cls(seq, time_ms, event, client, nonce, prev, digest, text)

    @classmethod
    def from_text(cls, text: str) -> Entry:
        """An entry as stored (trusted: the store only holds what `make` wrote)."""
        body = json.loads(text)
        event = Event.model_validate(body["event"])
        return cls(
            body["seq"],
            body["time"],
            event,
            body["client"],
            body["nonce"],
            body["prev"],
            body["hash"],
            text,
        )

    @property
    def is_room_event(self) -> bool:
        return self.event.type.startswith(ROOM)

    def redacted(self, shown: Event) -> str:
        """The line for a member who sees `shown` instead of the event: no salt, no nonce,
        nothing of the event but what they may see, and the links of the chain."""
        return canonical(
            {
                "seq": self.seq,
                "time": self.time,
                "event": shown.model_dump(mode="json"),
                "redacted": True,
                "prev": self.prev,
                "hash": self.hash,
            }
        )

    def stub(self) -> str:
        """The export line for an entry a member receives nothing of: only its links."""
        return canonical({"seq": self.seq, "redacted": True, "prev": self.prev, "hash": self.hash})
