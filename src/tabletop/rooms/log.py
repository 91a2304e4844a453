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

FORMAT = 3
"""The log format this installation writes (recorded in `room.created`): witnessed dice."""

FORMATS = (2, 3)
"""The log formats it reads: a room or an export of format 2 keeps format 2's dice."""

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


def why_part(cause: Any, salt: str, secret: dict[str, Any] | None = None) -> dict[str, Any]:
    """The cause, and (format 3) the entry's dice keys, opened with it."""
    part = {"cause": cause, "salt": salt}
    return part if secret is None else {**part, "secret": secret}


def asked_part(
    client: str | None, nonce: str | None, salt: str, asked: Asked | None = None
) -> dict[str, Any]:
    """The request's id and nonce, and (format 3) who asked and the intent as they sent it."""
    part = {"client": client, "nonce": nonce, "salt": salt}
    return part if asked is None else {**part, "intent": asked.intent, "member": asked.member}


def header_hash(
    seq: int,
    time_ms: int,
    prev: str,
    public: Public,
    seals: dict[str, str],
    witnessed: dict[str, Any] | None = None,
) -> str:
    """The entry's hash: over its header, in which each part stands as its own hash (and,
    for a witnessed roll, who witnessed it with which values)."""
    header = {"seq": seq, "time": time_ms, "prev": prev, "public": public, **seals}
    return digest(header if witnessed is None else {**header, "witnessed": witnessed})


@dataclass(frozen=True)
class Asked:
    """What a format-3 resolution's `asked` part holds beside the id and nonce."""

    member: str
    intent: dict[str, Any]
    """The intent exactly as the client sent it (its digest is in the nonce book)."""


@dataclass(frozen=True)
class Witnessed:
    """A witnessed roll's inputs besides the asked part: its keys and the header."""

    secret: dict[str, Any]
    """`{kept, open, open_at}`: the two keys and the positions of the dice drawn from the
    open one (in the `why` part, opened with the cause)."""
    header: dict[str, Any]
    """`{commitment, witnesses, reveals, absent, skipped}`, and `open` (the open key) when
    what everyone sees of the entry shows exactly the dice drawn from it."""
    asked_salt: str
    """The asked part's salt, fixed when the call was made (the call holds its hash)."""


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
    asked: Asked | None = None
    """Format 3: who asked and the intent as sent (the `asked` part besides id and nonce)."""
    secret: dict[str, Any] | None = None
    """Format 3: a witnessed roll's keys, in the `why` part (`Witnessed.secret`)."""
    witnessed: dict[str, Any] | None = None
    """Format 3: the header's record of a roll's witnesses (public)."""

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
        asked: Asked | None = None,
        witnessed: Witnessed | None = None,
    ) -> Entry:
        salt = {part: secrets.token_hex(16) for part in PARTS}
        secret, header = None, None
        if witnessed is not None:
            salt["asked"] = witnessed.asked_salt
            secret, header = witnessed.secret, witnessed.header
        shown = event.model_dump(mode="json")
        seals = {
            "told": digest(told_part(shown, salt["told"])),
            "why": digest(why_part(shown.get("cause"), salt["why"], secret)),
            "asked": digest(asked_part(client, nonce, salt["asked"], asked)),
        }
        hashed = header_hash(seq, time_ms, prev, public, seals, header)
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
            **_format3(asked, secret, header),
        }
        made = cls(
            seq,
            time_ms,
            event,
            client,
            nonce,
            prev,
            hashed,
            canonical(body),
            public,
            salt,
            asked,
            secret,
            header,
        )
        made.__dict__["seals"] = seals  # already computed: no need to hash the parts again
        return made

    @classmethod
    def from_text(cls, text: str) -> Entry:
        """An entry as stored (trusted: the store only holds what `make` wrote)."""
        body = json.loads(text)
        if "salt" not in body or not isinstance(body["salt"], dict):
            raise DataError(
                f"entry {body.get('seq')} is not of log format {FORMATS[0]} or later (an older "
                "tabletop wrote it; this installation cannot open it)"
            )
        return cls.from_body(body, text)

    @classmethod
    def from_body(cls, body: dict[str, Any], text: str = "") -> Entry:
        """An entry from a line that opens every part (stored, or checked by `verify`)."""
        asked = None
        if "member" in body:
            asked = Asked(str(body["member"]), body["intent"])
        return cls(
            body["seq"],
            body["time"],
            Event.model_validate(body["event"]),
            body.get("client"),
            body.get("nonce"),
            body["prev"],
            body["hash"],
            text,
            body["public"],
            body["salt"],
            asked,
            body.get("secret"),
            body.get("witnessed"),
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
            "why": digest(why_part(shown.get("cause"), self.salt["why"], self.secret)),
            "asked": digest(asked_part(self.client, self.nonce, self.salt["asked"], self.asked)),
        }

    @property
    def asker(self) -> str | None:
        """Who asked for this entry's resolution (or made its room event)."""
        cause = self.event.cause
        return cause.member.id if cause is not None else self.event.actor

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
        if self.witnessed is not None:
            body["witnessed"] = self.witnessed
        opened: dict[str, str] = {}
        if shown is not None:
            body["event"] = shown.model_dump(mode="json")
            if shown == self.event.model_copy(update={"cause": None}):
                opened["told"] = self.salt["told"]
        if opens_asked:
            body["client"], body["nonce"] = self.client, self.nonce
            body.update(_format3(self.asked, None, None))
            opened["asked"] = self.salt["asked"]
        body["salt"] = opened
        body["sealed"] = {part: seals[part] for part in PARTS if part not in opened}
        return canonical(body)

    def stub(self) -> str:
        """The export line for an entry a member receives nothing of: only its links."""
        return self.line(None, False)


def _format3(
    asked: Asked | None, secret: dict[str, Any] | None, witnessed: dict[str, Any] | None
) -> dict[str, Any]:
    """The fields a format-3 entry's text holds besides format 2's (none for format 2)."""
    fields: dict[str, Any] = {}
    if asked is not None:
        fields["intent"], fields["member"] = asked.intent, asked.member
    if secret is not None:
        fields["secret"] = secret
    if witnessed is not None:
        fields["witnessed"] = witnessed
    return fields
