"""The messages on the wire: what clients send (validated here, refused with the first
problem named) and the control frames the server sends besides log entries.

A websocket carries, from the client, one `Hello` first and then `SendIntent`, `Say` or
`Ping`; from the server, `welcome`, then log entries (each a JSON object with a `seq`,
exactly as `GET /rooms/{room}/log` gives them) interleaved with `ack`, `error` and `bye`
frames (each with a `type`). docs/rooms.md has the whole protocol.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from tabletop.rooms.fairdice import MOST_SKIPPED
from tabletop.session import MAX_NAME, MAX_TEXT, Role

MAX_MESSAGE = 64 * 1024
"""Bytes in one HTTP body or websocket message (an imported log has its own bound)."""

MAX_IMPORT = 16 * 1024 * 1024
"""Bytes in an imported log."""

MAX_SEQ = 2**53
"""The largest seq a client may name: JSON's exact integers (the stores' integers are 64-bit;
a larger number is refused in one line before it reaches one)."""

ClientId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
"""The id a client gives a request, so that a retry of it is applied once."""

Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]

Hex = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
"""32 bytes as lowercase hex: a chain's head or value, a call, a digest."""


class Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class NewRoom(Message):
    system: str = Field(min_length=1, max_length=40, examples=["dice"])
    name: str = Field(default="", max_length=MAX_NAME)
    options: dict[str, Any] = Field(default_factory=dict, max_length=40)
    """The system's readings of unclear rules, as `--option` takes them."""
    gm: Name = "GM"
    """The GM's name in the room."""


class Join(Message):
    name: Name


class SendIntent(Message):
    type: Literal["intent"] = "intent"
    id: ClientId
    intent: dict[str, Any]
    """Any intent of the room's system (`GET /rooms/{room}/legal` lists them)."""
    nonce: ClientId | None = None
    """Names this intent's dice: unguessable (128 random bits), never used twice by one
    member; the server draws one when none is given (then `verify --mine` cannot check it)."""
    digest: Hex | None = None
    """The digest of `intent` as the client's nonce book keeps it (a resend sends it): the
    server refuses an intent that does not match it."""


class Say(Message):
    type: Literal["say"] = "say"
    id: ClientId | None = None
    text: str = Field(min_length=1, max_length=MAX_TEXT)
    to: list[Name] = Field(default_factory=list, max_length=64)
    """Names to whisper to (the GM sees every whisper); empty: everyone."""


class MemberName(Message):
    member: Name


class Rename(Message):
    member: Name
    name: Name


class Promote(Message):
    member: Name
    role: Literal[Role.GM, Role.PLAYER, Role.OBSERVER]


class TextAllowance(Message):
    text: int = Field(ge=0, le=2**40)
    """Bytes the room's members other than its GMs may type (texts.py bounds it)."""


class Hello(Message):
    type: Literal["hello"] = "hello"
    token: str = Field(min_length=1, max_length=200)
    after: int = Field(default=0, ge=0, le=MAX_SEQ)
    """The last seq this client saw: it receives every entry after it, then live ones."""
    witness: Hex | None = None
    """The head of this client's hash chain: it witnesses the room's rolls (format 3)."""


class Ping(Message):
    type: Literal["ping"] = "ping"


class SendReveal(Message):
    """A witness's answer to a roll's call: the next value down its chain."""

    type: Literal["reveal"] = "reveal"
    call: Hex
    value: Hex
    passed: list[Hex] = Field(default_factory=list, max_length=MOST_SKIPPED)
    """The calls of the values this witness revealed since the last its room's log holds
    (each for a call whose roll did not use it), oldest first: the roll names them."""


Incoming = TypeAdapter(Annotated[SendIntent | Say | Ping | SendReveal, Field(discriminator="type")])
"""What a client may send on a socket after its `Hello`."""


class Ack(Message):
    """What one request appended: the seqs, and this member's view of each entry."""

    type: Literal["ack"] = "ack"
    id: str | None = None
    seqs: list[int]
    duplicate: bool = False
    """True when the request was a retry of one already applied (nothing new appended)."""
    entries: list[dict[str, Any]] = Field(default_factory=list)
    extra: dict[str, Any] = Field(default_factory=dict)


class RoomLinks(Message):
    room: str
    gm: str
    player: str
    observer: str


class Problem(Message):
    """Every refusal: one line saying what was wrong."""

    error: str
