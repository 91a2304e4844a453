"""The room's log: append-only entries, each naming the one before it by hash, each made
of a public header and three sealed parts so that every member can check what they see.

An entry as stored (and as a member who sees all of it receives it):

    {"seq": 7, "time": 1767225600000, "prev": "<hash of entry 6>", "public": "all",
     "event": {..., "cause": {...}}, "client": "c-41", "nonce": "n-41",
     "salt": {"told": "…", "why": "…", "asked": "…"}, "hash": "…"}

The three parts, each with its own 128-bit salt, are `told` (the event without its cause),
`why` (the cause: who asked, the intent, every die drawn) and `asked` (the request's
`client` id and dice `nonce`). `hash` is the SHA-256 of the canonical JSON of the header
`{seq, time, prev, public, told, why, asked}` where each part stands as the SHA-256 of its
own canonical JSON (`{"event", "salt"}`, `{"cause", "salt"}`, `{"client", "nonce",
"salt"}`). `public` is what a member with no standing receives (`"all"`, `"event"`, a hint
event, or null). A member who may not see a part receives its hash under `sealed` instead
of its content and salt, so each line is checked as far as its reader may see it and the
salt keeps a sealed part from being guessed (a blind d20 from twenty candidates).
docs/rooms.md, "The log, version 2", is the specification.
"""

from __future__ import annotations

import functools
import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

from tabletop.data import canonical
from tabletop.errors import DataError
from tabletop.session import Event, Member, Role

FORMAT = 2
"""The log format this installation writes and reads (recorded in `room.created`)."""

GENESIS = "0" * 64
"""The `prev` of a room's first entry."""

ROOM = "room."
"""The prefix of the types of events the room itself makes (joins, chat, undo, dice seeds);
systems' events never start with it."""

PARTS = ("told", "why", "asked")

OUTSIDER = Member(id="-", role=Role.OBSERVER, name="")
"""A member with no standing: what they receive of an entry is its public part."""

Public = str | dict[str, Any] | None
"""`"all"`, `"event"`, a hint event (JSON), or None: what every member receives."""


def lines_of(text: str) -> list[str]:
    """The lines of an export or a log, split at newlines only: canonical JSON keeps U+2028,
    U+2029 and U+0085 as they are inside strings, where `str.splitlines` would cut a line
    (and a chat holding one would make every export fail to verify)."""
    lines = text.split("\n")
    return lines[:-1] if lines and not lines[-1] else lines


def digest(value: Any) -> str:
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def told_part(event: dict[str, Any], salt: str) -> dict[str, Any]:
    return {"event": {k: v for k, v in event.items() if k != "cause"}, "salt": salt}


def why_part(cause: Any, salt: str) -> dict[str, Any]:
    return {"cause": cause, "salt": salt}


def asked_part(client: str | None, nonce: str | None, salt: str) -> dict[str, Any]:
    return {"client": client, "nonce": nonce, "salt": salt}


def header_hash(seq: int, time_ms: int, prev: str, public: Public, seals: dict[str, str]) -> str:
    """The entry's hash: over its header, in which each part stands as its own hash."""
    return digest({"seq": seq, "time": time_ms, "prev": prev, "public": public, **seals})


def public_of(event: Event, shown: Event | None) -> Public:
    """How an outsider's view `shown` of `event` is written in the header."""
    if shown is None:
        return None
    if shown == event:
        return "all"
    if shown == event.model_copy(update={"cause": None}):
        return "event"
    return shown.model_dump(mode="json")


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
    public: Public
    salt: dict[str, str]

    @classmethod
    def make(
        cls,
        seq: int,
        time_ms: int,
        event: Event,
        prev: str,
        public: Public,
        client: str | None = None,
        nonce: str | None = None,
    ) -> Entry:
        salt = {part: secrets.token_hex(16) for part in PARTS}
        shown = event.model_dump(mode="json")
        seals = {
            "told": digest(told_part(shown, salt["told"])),
            "why": digest(why_part(shown.get("cause"), salt["why"])),
            "asked": digest(asked_part(client, nonce, salt["asked"])),
        }
        hashed = header_hash(seq, time_ms, prev, public, seals)
        body = {
            "seq": seq,
            "time": time_ms,
            "prev": prev,
            "public": public,
            "event": shown,
            "client": client,
            "nonce": nonce,
            "salt": salt,
            "hash": hashed,
        }
        made = cls(seq, time_ms, event, client, nonce, prev, hashed, canonical(body), public, salt)
        made.__dict__["seals"] = seals  # already computed: no need to hash the parts again
        return made

    @classmethod
    def from_text(cls, text: str) -> Entry:
        """An entry as stored (trusted: the store only holds what `make` wrote)."""
        body = json.loads(text)
        if "salt" not in body or not isinstance(body["salt"], dict):
            raise DataError(
                f"entry {body.get('seq')} is not of log format {FORMAT} (an older tabletop "
                "wrote it; this installation cannot open it)"
            )
        return cls(
            body["seq"],
            body["time"],
            Event.model_validate(body["event"]),
            body["client"],
            body["nonce"],
            body["prev"],
            body["hash"],
            text,
            body["public"],
            body["salt"],
        )

    @property
    def is_room_event(self) -> bool:
        return self.event.type.startswith(ROOM)

    @functools.cached_property
    def seals(self) -> dict[str, str]:
        """Each part's hash, as the header holds it."""
        shown = self.event.model_dump(mode="json")
        return {
            "told": digest(told_part(shown, self.salt["told"])),
            "why": digest(why_part(shown.get("cause"), self.salt["why"])),
            "asked": digest(asked_part(self.client, self.nonce, self.salt["asked"])),
        }

    def line(self, shown: Event | None, opens_asked: bool) -> str:
        """The line for a member who sees `shown` of the event (all of it, the event
        without its cause, or the public hint; None: a stub that only links the chain),
        with the `asked` part opened when `opens_asked` (the member who asked)."""
        if shown is not None and shown == self.event:
            return self.text
        seals = self.seals
        body: dict[str, Any] = {
            "seq": self.seq,
            "time": self.time,
            "prev": self.prev,
            "public": self.public,
            "hash": self.hash,
        }
        opened: dict[str, str] = {}
        if shown is not None:
            body["event"] = shown.model_dump(mode="json")
            if shown == self.event.model_copy(update={"cause": None}):
                opened["told"] = self.salt["told"]
        if opens_asked:
            body["client"], body["nonce"] = self.client, self.nonce
            opened["asked"] = self.salt["asked"]
        body["salt"] = opened
        body["sealed"] = {part: seals[part] for part in PARTS if part not in opened}
        return canonical(body)

    def stub(self) -> str:
        """The export line for an entry a member receives nothing of: only its links."""
        return self.line(None, False)
