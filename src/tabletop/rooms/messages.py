"""The messages between a server's front and its worker processes, and how they travel.

The front (the event loop: HTTP, sockets, allowances, fan-out) sends each request that
touches a room to the room's shard as a `Call` holding one *ask*; the shard answers with a
`Reply` (a value, or a `Failure` carrying the one-line refusal and its status), and sends
a `Fanout` for every append: each new entry's lines, one copy per distinct line, with the
members who receive it (a round's messages go together, as one list). Work for the pool
(a bot's decision, verify, an import's check, an export) travels as a pickled *job*, opaque
to the front, which only queues it by priority: a shard's `PoolAsk` comes back as a
`PoolDone`; the front's own jobs answer the front.

Every message is a frozen dataclass of plain values, pickled and framed with its length on
a socket pair (`Channel` in the workers; `frame` and `Frames` on the front's event loop). Only
the server's own processes are at either end.
"""

from __future__ import annotations

import pickle
import socket
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, Literal, TypeVar

from tabletop.rooms.fairdice import new_seed
from tabletop.rooms.witness import WITNESS_WAIT

HEADER = struct.Struct("!Q")
"""Each frame: its length, then the pickled message."""

M = TypeVar("M")


def message(cls: type[M]) -> type[M]:
    """A frozen dataclass with slots that pickles as its class and its fields' values in
    order: a slotted dataclass's own pickling asks `dataclasses.fields` of every object it
    pickles and unpickles, a tenth of a front's time at 500 clients."""
    made = dataclass(frozen=True, slots=True)(cls)
    names = [f.name for f in fields(made)]  # type: ignore[arg-type]
    values = (
        attrgetter(*names)
        if len(names) > 1
        else lambda self: tuple(getattr(self, name) for name in names)
    )
    made.__reduce__ = lambda self: (made, values(self))  # type: ignore[method-assign,assignment]
    return made


Tool = Literal["undo", "end-session", "kick", "rename", "promote", "invites", "link", "allowance"]
Reading = Literal["view", "legal", "advice", "whoami", "member", "as", "as-log", "log"]
Priority = Literal["think", "member", "anyone"]
"""Pool queues, served in this order: a bot's decision holds its room; a member's export
holds only them; anyone's verify or import check holds nobody."""


# asks: what a request wants of a room (front → shard, inside a Call) -----------------------


@message
class Caller:
    """Who asks: a link's token (HTTP), or a member a socket already said hello as."""

    token: str = ""
    member: str = ""


@message
class OpenRoom:
    system: str
    name: str
    options: dict[str, Any]
    gm: str


@message
class JoinRoom:
    invite: str
    name: str


@message
class Resolve:
    caller: Caller
    intent: dict[str, Any]
    client: str
    nonce: str | None = None
    lines: bool = True
    """Whether the reply carries the caller's lines (a socket has them as entry frames)."""
    digest: str | None = None
    """The digest of the intent the client's nonce book keeps for this id (a resend's)."""


@message
class Chat:
    caller: Caller
    text: str
    to: tuple[str, ...]
    client: str
    lines: bool = True


@message
class UseTool:
    """One of the GM's tools, or a member's new link (`link`)."""

    caller: Caller
    tool: Tool
    member: str = ""
    value: str = ""
    size: int = 0
    """For `allowance`: the room's text allowance, in bytes."""


@message
class Read:
    """A read of the room: `member` names whom the GM looks as (`as`, `as-log`); a read of
    the log is one page after seq `after`, or (with `before`) the last page before it."""

    caller: Caller
    what: Reading
    after: int = 0
    member: str = ""
    before: int = 0


@message
class Plan:
    """An export or a game record: the shard checks the caller and answers with a pool job
    (the room is not held while the pool builds it; the entries it reads never change)."""

    caller: Caller
    what: Literal["export", "record"]


@message
class Attach:
    """A socket's hello: its backlog after `after`, then every new entry's line; with
    `witness`, the head of its client's hash chain (it witnesses the room's rolls)."""

    token: str
    after: int
    witness: str | None = None


@message
class Detach:
    """A socket of `member` closed (no reply); `witness`: it was a witness."""

    member: str
    witness: bool = False


@message
class Reveal:
    """A witness's value for a roll's call (no reply: the roll's line says what was used)."""

    member: str
    call: str
    value: str
    passed: tuple[str, ...] = ()


@message
class ImportRoom:
    checked: bytes
    """The pool's answer to the export's `Check`, passed on unread by the front: the
    `hall.Importing` plan and the lines, or why the export cannot be imported."""


@message
class Claim:
    """Whether this process serves the room (with PostgreSQL: holds its lease, taking it if
    it is free), asked before a socket is accepted, so that a proxy can send the socket to
    the process that does; answered with whether the room exists."""


Ask = OpenRoom | JoinRoom | Resolve | Chat | UseTool | Read | Plan | Attach | ImportRoom | Claim


# envelopes -----------------------------------------------------------------------------------


@message
class Call:
    number: int
    room: str
    ask: Ask | Detach | Reveal


@message
class Reply:
    number: int
    value: Any
    member: str = ""
    """The member the caller's token opened, so the front charges their allowance next
    time without asking."""


@message
class Failure:
    """A refusal, as one line and the status it answers with."""

    problem: str
    status: int = 400
    seq: int | None = None
    line: int | None = None
    """For a log that does not verify: its first failing line."""
    retry_after: float | None = None
    """For a 503: seconds after which the request is worth sending again."""


@message
class Answer:
    """What one request appended: the seqs, the caller's lines of them, and what else it
    returns (new links, a revealed seed)."""

    seqs: list[int]
    duplicate: bool = False
    lines: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


@message
class Page:
    """One page of a member's lines of the log (reading.py): the lines of the entries from
    seq `first` to `last` that they receive, and the head when it was read."""

    lines: list[str]
    first: int
    last: int
    head: int

    @property
    def more(self) -> bool:
        """Whether entries followed this page when it was read."""
        return self.last < self.head

    @property
    def text(self) -> str:
        return "".join(f"{line}\n" for line in self.lines)


@message
class Attached:
    """A socket's welcome: who it is, the head, and the first page of its backlog."""

    member: dict[str, Any]
    head: int
    page: Page


@message
class Delegate:
    """A reply that is work for the pool: the front runs `payload` there and answers the
    request with its result (an export, a game record)."""

    payload: bytes
    priority: Priority = "member"


@message
class Delivery:
    """One new entry as its receivers see it: each distinct line and who receives it; and
    the member whose link it ends (a kick, a new link), whose sockets close."""

    seq: int
    lines: tuple[tuple[str, tuple[str, ...]], ...]
    ends: str | None = None
    why: str = ""


@message
class Fanout:
    room: str
    deliveries: tuple[Delivery, ...]


@message
class Moved:
    """The shard no longer serves `room` (another process holds its lease now): the front
    closes the room's sockets, saying to reconnect (the proxy sends them to the new owner)."""

    room: str
    reason: str


@message
class PoolAsk:
    """A shard's job for the pool (a bot's decision), answered with `PoolDone`."""

    job: int
    payload: bytes


@message
class PoolDone:
    job: int
    result: bytes


@message
class Job:
    number: int
    payload: bytes


@message
class ShardConfig:
    """What a shard worker starts with."""

    index: int
    address: str
    """The store (`Store.address`) the shard opens its own connection to."""
    bot_pause: float
    """Seconds a bot's seat waits before it moves."""
    owner: str = ""
    """Who holds this shard's rooms' leases (PostgreSQL): the same for a shard started
    again in its place, so that it takes them back at once."""
    lease: float = 0.0
    """Seconds a room's lease lasts (leases.py); 0: no leases (SQLite, one process)."""
    seeds: Callable[[], bytes] = new_seed
    """What makes each dice session's secret seed (fixed only by test fixtures)."""
    witness_wait: float = WITNESS_WAIT
    """Seconds a roll's call waits for its witnesses (witness.py; a test server's is short)."""
    room_text: int = 8 * 1024 * 1024
    """A room's text allowance unless its GM gives it another (texts.ROOM_TEXT)."""


@message
class Calling:
    """A roll's call, for every socket of the room (witnesses answer it with a `Reveal`);
    its digest and witnesses, for the front to let their reveals past the allowance."""

    room: str
    frame: str
    call: str
    witnesses: tuple[str, ...]


@message
class Notice:
    """Something the members `to` should be told on their sockets (their room's text
    allowance spent)."""

    room: str
    to: tuple[str, ...]
    text: str


@message
class Ready:
    pid: int


@message
class Stop:
    pass


# pool jobs (pickled inside PoolAsk, PoolDone and Job) ----------------------------------------


@message
class Think:
    thinking: Any
    """A `hall.Thinking`."""


@message
class Check:
    """Verify an export (the request's body, as sent): for `POST /verify` (checking.py), or
    to import it (`hall.importing`)."""

    body: bytes
    purpose: Literal["verify", "import"]
    json_body: bool = False
    """`POST /verify` sent JSON (the export with the page's nonces and an entry to look at)."""


@message
class Export:
    """One chunk of an export (the shard fixes the head; the front asks the pool for each
    chunk after `after` in turn, and answers with them as they come: server.py)."""

    address: str
    room: str
    system: str
    rules: int
    member: Any
    head: int
    after: int = 0


@message
class Chunk:
    """A chunk of an export's lines, the seq of its last entry and that entry's hash."""

    text: str
    last: int
    hash: str


@message
class Record:
    system: str
    rules: int
    state: Any
    member: Any


@message
class Qr:
    text: str


@message
class Finished:
    value: Any


# framing -----------------------------------------------------------------------------------


def frame(message: Any) -> bytes:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


class Frames:
    """Bytes as they arrive from a socket, taken apart into whole messages."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def __bool__(self) -> bool:
        return bool(self._buffer)

    def feed(self, data: bytes) -> list[Any]:
        """The messages `data` completes, in order (a partial one waits for the rest)."""
        self._buffer += data
        found, start, end = [], 0, len(self._buffer)
        with memoryview(self._buffer) as view:
            while end - start >= HEADER.size:
                (size,) = HEADER.unpack_from(view, start)
                if end - start < HEADER.size + size:
                    break
                found.append(pickle.loads(view[start + HEADER.size : start + HEADER.size + size]))
                start += HEADER.size + size
        del self._buffer[:start]  # once for all the messages taken out, not once each
        return found


class Channel:
    """A worker's end of its socket pair: blocking, one sender at a time."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._sending = threading.Lock()
        self._frames = Frames()

    def send(self, message: Any) -> None:
        data = frame(message)
        with self._sending:
            self.sock.sendall(data)

    def receive(self) -> Any:
        """The next message; EOFError once the front has gone."""
        (size,) = HEADER.unpack(self._exactly(HEADER.size))
        return pickle.loads(self._exactly(size))

    def receive_ready(self) -> list[Any]:
        """Every whole message the socket holds now, without waiting for more (after
        `select` said it is readable); EOFError once the front has gone."""
        found: list[Any] = []
        while True:
            try:
                chunk = self.sock.recv(1 << 20, socket.MSG_DONTWAIT)
            except (BlockingIOError, InterruptedError):
                return found
            if not chunk:
                if found:
                    return found
                raise EOFError("the server's front has gone")
            found += self._frames.feed(chunk)
            if len(chunk) < 1 << 20:
                return found

    def _exactly(self, size: int) -> bytes:
        buffer = bytearray(size)
        view, got = memoryview(buffer), 0
        while got < size:
            count = self.sock.recv_into(view[got:], size - got)
            if not count:
                raise EOFError("the server's front has gone")
            got += count
        return bytes(buffer)
