"""The room server's endpoints: thin HTTP handlers and one websocket per member, on the
front's event loop, which only moves bytes (front.py): each request is charged to its
allowance, then sent to the room's shard worker or to the pool, and its answer written
back. A request names its room in the path and carries its link's token as
`Authorization: Bearer <token>`; a socket sends the token in its first message, never in
a URL. docs/rooms.md ("Design") says which process does what.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import pickle
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, StreamingResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from tabletop.errors import TabletopError
from tabletop.rooms.access import Access
from tabletop.rooms.allowances import RATE, Rates, body_cost
from tabletop.rooms.databases import kind_of, open_store
from tabletop.rooms.errors import Relayed, RoomError, SlowBody, TooMuch, status_of
from tabletop.rooms.fairdice import new_seed
from tabletop.rooms.front import BOT_PAUSE, Front, Settings, cores, shards_for
from tabletop.rooms.hosts import HostCheck, PublicAddress
from tabletop.rooms.http import NDJSON, Client, Credentials, Here, Seqs, Token, paged
from tabletop.rooms.leases import LEASE
from tabletop.rooms.live import CLOSE, RETRY, Socket
from tabletop.rooms.messages import (
    Answer,
    Caller,
    Chat,
    Check,
    Export,
    ImportRoom,
    JoinRoom,
    OpenRoom,
    Page,
    Plan,
    Read,
    Resolve,
    UseTool,
)
from tabletop.rooms.origins import NoStore, SameOrigin
from tabletop.rooms.protocol import (
    MAX_IMPORT,
    MAX_MESSAGE,
    Ack,
    Hello,
    Incoming,
    Join,
    MemberName,
    NewRoom,
    Ping,
    Problem,
    Promote,
    Rename,
    RoomLinks,
    Say,
    SendIntent,
    SendReveal,
    TextAllowance,
)
from tabletop.rooms.store import Store
from tabletop.rooms.texts import ROOM_TEXT
from tabletop.rooms.tokens import Link, new_room_id
from tabletop.rooms.witness import WITNESS_WAIT
from tabletop.session import first_problem

IN_FLIGHT = 16
"""Requests of one socket waiting for their answers at once: the socket reads no more until
one is answered (its reveals, read meanwhile, answer nothing and wait for nothing)."""

HELLO_WAIT = 10.0
"""Seconds a new socket has to say hello."""

BODY_WAIT = 30.0
"""Seconds a request's body has to arrive whole (16 MiB at 4.5 Mbit/s): a slower one is
refused, so that half-sent bodies hold nothing for long."""

LARGE_BODIES = ("/import", "/verify")
"""Paths whose body is a whole log, bounded by `MAX_IMPORT` instead of `MAX_MESSAGE`."""

ERRORS: dict[int, dict[str, Any]] = {
    code: {"model": Problem} for code in (400, 401, 403, 404, 405, 408, 413, 422, 429)
}

FRAMEWORK = {404: "no such endpoint", 405: "not allowed on this endpoint"}
"""What Starlette's own refusals say, as one line that names the request."""

READ = 0.25
"""What a read costs a member's allowance (allowances.READ_COST)."""

HEAD = 200
"""Characters of a refused message read for what names it."""

NAMED = re.compile(r'\{\s*"id"\s*:\s*"([A-Za-z0-9_.:-]{1,64})"')
"""A message that opens with its id, as a page writes one (`protocol.ClientId`)."""

OWED = re.compile(r'\{\s*"type"\s*:\s*"reveal"\s*,\s*"call"\s*:\s*"([0-9a-f]{64})"')
"""A reveal that opens with its call, as a page and `RoomClient` write one."""

__all__ = ["BOT_PAUSE", "create_app"]


class _DenialNoise(logging.Filter):
    """uvicorn's default websocket protocol (websockets-sansio) logs "ASGI callable returned
    without completing handshake" after every denial response, though the denial went out
    whole (uvicorn pull request 3138): a room moving between processes would fill the log
    with errors. The live endpoint either accepts or denies, so the line says nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "ASGI callable returned without completing handshake."


logging.getLogger("uvicorn.error").addFilter(_DenialNoise())


def create_app(
    store: Store | None = None,
    data: Path | None = None,
    database: str = "",
    rate: float = RATE,
    bot_pause: float = BOT_PAUSE,
    workers: int | None = None,
    pool: int | None = None,
    rates: Rates | None = None,
    trusted: tuple[str, ...] = (),
    address: PublicAddress | None = None,
    access: Access | None = None,
    seeds: Callable[[], bytes] = new_seed,
    lease: float = LEASE,
    witness_wait: float = WITNESS_WAIT,
    room_text: int = ROOM_TEXT,
) -> FastAPI:
    """The ASGI app over the rooms in `store` (or in the database `database`/`data` name,
    opened at startup, which creates or migrates the schema). At startup it starts
    `workers` shard processes (`front.shards_for` the store by default) and a `pool` (the
    number of cores), which open the same store themselves; `rate` (or `rates`) bounds each
    member's and each address's requests a second; `trusted` proxies name clients in
    `X-Forwarded-For`. `address` is where people reach it (links and the hosts a request
    may name; loopback only by default), `access` who may open and import rooms (anyone
    who reaches it, by default); with PostgreSQL a room's `lease` lasts that many
    seconds, and a room's text allowance is `room_text` bytes until its GM changes it.
    `seeds` makes each dice session's secret seed: only test fixtures replace it, to fix
    the dice (never a `serve` option)."""
    address = address or PublicAddress(None)
    access = access or Access()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened = store or open_store(database or None, data or Path("tabletop-data"))
        address = opened.address
        if store is None:
            opened.close()  # the schema is there: the workers open their own connections
        settings = Settings(
            address=address,
            workers=workers or shards_for(address),
            pool=pool or cores(),
            rates=rates or Rates(member=rate),
            trusted=trusted,
            bot_pause=bot_pause,
            seeds=seeds,
            lease=lease,
            witness_wait=witness_wait,
            room_text=room_text,
        )
        front = app.state.front = Front(settings)
        await front.start()
        try:
            yield
        finally:
            await front.stop()

    app = FastAPI(
        title="tabletop rooms",
        version="1",
        summary="A shared table: rooms, members, an audited log and live sockets.",
        lifespan=lifespan,
        responses=ERRORS,
        redirect_slashes=False,  # a redirect would be built from the request's Host
    )
    app.add_middleware(BodyLimit)

    @app.exception_handler(TabletopError)
    async def refused(request: Request, error: TabletopError) -> JSONResponse:
        return problem(error)

    @app.exception_handler(HTTPException)
    async def framework(request: Request, error: HTTPException) -> JSONResponse:
        said = FRAMEWORK.get(error.status_code, str(error.detail))
        line = f"{said}: {request.method} {request.url.path}"[:300]
        return JSONResponse({"error": line}, error.status_code, headers=error.headers)

    @app.exception_handler(Exception)
    async def failed(request: Request, error: Exception) -> JSONResponse:
        kind = type(error).__name__
        return JSONResponse({"error": f"the server failed on this request ({kind})"}, 500)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        """A request of the wrong shape (a huge number, a malformed body): one line, and a
        request of its address's allowance."""
        here: Front = request.app.state.front
        peer = request.client.host if request.client else None
        here.allowances.failed(here.allowances.client(peer, request.headers.get("x-forwarded-for")))
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(part) for part in first.get("loc", ()))
        return JSONResponse({"error": f"{where}: {first.get('msg')}"[:300]}, status_code=422)

    def base(request: Request) -> str:
        """The start of every link: the public URL, never the request's own Host."""
        return str(request.state.base)

    def links(request: Request, room: str, tokens: dict[str, str]) -> RoomLinks:
        made = {role: str(Link(base(request), room, value)) for role, value in tokens.items()}
        return RoomLinks(room=room, **made)

    async def answered(
        here: Front, room: str, ask: Any, key: str, client: str, id: str | None = None
    ) -> Ack:
        """A change's answer as the protocol's ack (new tokens never in it)."""
        done: Answer = await here.ask(room, ask, key, client)
        return Ack(
            id=id,
            seqs=done.seqs,
            duplicate=done.duplicate,
            entries=[json.loads(line) for line in done.lines],
            extra={k: v for k, v in done.extra.items() if k not in ("token", "tokens")},
        )

    @app.get("/health")
    async def health(here: Here) -> dict[str, Any]:
        """200 once the server and its workers serve."""
        database = kind_of(here.settings.address)
        return {"status": "ok", "database": database, "create": access.mode}

    @app.post("/rooms", status_code=201)
    async def new_room(
        request: Request, asked: NewRoom, key: Credentials, here: Here, client: Client
    ) -> RoomLinks:
        """Open a room for a system: the GM's link and the player and observer invites
        (with the server's key as the bearer, on a server that asks for one)."""
        here.allowances.take_address(client)
        with access.new_room(key.credentials if key else None):
            room = new_room_id()
            ask = OpenRoom(asked.system, asked.name, asked.options, asked.gm)
            made = await here.ask(room, ask)
        return links(request, room, made.extra["tokens"])

    @app.post("/rooms/{room}/join")
    async def join(
        request: Request, room: str, asked: Join, invite: Token, here: Here, client: Client
    ) -> dict[str, str]:
        """Join with an invite's token: this member's own link."""
        here.allowances.take_address(client)
        made = await here.ask(room, JoinRoom(invite, asked.name), address=client)
        link = Link(base(request), room, made.extra["token"])
        return {"link": str(link), "member": made.extra["member"]}

    @app.get("/rooms/{room}")
    async def view(room: str, key: Token, here: Here, client: Client) -> dict[str, Any]:
        """This member's view of the room: who is in it and the system's state."""
        return await here.ask(room, Read(Caller(key), "view"), key, client, READ)

    @app.get("/rooms/{room}/legal")
    async def legal(room: str, key: Token, here: Here, client: Client) -> dict[str, Any]:
        """What this member may ask for now."""
        return await here.ask(room, Read(Caller(key), "legal"), key, client, READ)

    @app.post("/rooms/{room}/intents")
    async def act(room: str, asked: SendIntent, key: Token, here: Here, client: Client) -> Ack:
        """Resolve any intent of the room's system with the room's fair dice."""
        ask = Resolve(Caller(key), asked.intent, asked.id, asked.nonce, digest=asked.digest)
        return await answered(here, room, ask, key, client, asked.id)

    @app.post("/rooms/{room}/say")
    async def say(room: str, asked: Say, key: Token, here: Here, client: Client) -> Ack:
        """Chat to everyone, or whisper to the members named."""
        ask = Chat(Caller(key), asked.text, tuple(asked.to), asked.id or "")
        return await answered(here, room, ask, key, client, asked.id)

    @app.post("/rooms/{room}/undo")
    async def undo(room: str, key: Token, here: Here, client: Client) -> Ack:
        """Take back the latest resolution still in force (the GM); the log keeps both."""
        return await answered(here, room, UseTool(Caller(key), "undo"), key, client)

    @app.post("/rooms/{room}/end-session")
    async def end_session(room: str, key: Token, here: Here, client: Client) -> Ack:
        """Reveal this session's dice seed and commit to the next (the GM)."""
        return await answered(here, room, UseTool(Caller(key), "end-session"), key, client)

    @app.post("/rooms/{room}/kick")
    async def kick(room: str, asked: MemberName, key: Token, here: Here, client: Client) -> Ack:
        """Remove a member (the GM): their link and open sockets stop at once."""
        ask = UseTool(Caller(key), "kick", asked.member)
        return await answered(here, room, ask, key, client)

    @app.post("/rooms/{room}/rename")
    async def rename(room: str, asked: Rename, key: Token, here: Here, client: Client) -> Ack:
        """Give a member another name (the GM)."""
        ask = UseTool(Caller(key), "rename", asked.member, asked.name)
        return await answered(here, room, ask, key, client)

    @app.post("/rooms/{room}/promote")
    async def promote(room: str, asked: Promote, key: Token, here: Here, client: Client) -> Ack:
        """Give a member another role (the GM); a room always keeps a GM."""
        ask = UseTool(Caller(key), "promote", asked.member, str(asked.role))
        return await answered(here, room, ask, key, client)

    @app.post("/rooms/{room}/invites")
    async def rotate_invites(
        request: Request, room: str, key: Token, here: Here, client: Client
    ) -> RoomLinks:
        """New invite links (the GM); the old ones stop working at once."""
        made = await here.ask(room, UseTool(Caller(key), "invites"), key, client)
        return links(request, room, {"gm": key, **made.extra["tokens"]})

    @app.post("/rooms/{room}/allowance")
    async def allowance(
        room: str, asked: TextAllowance, key: Token, here: Here, client: Client
    ) -> dict[str, Any]:
        """Give the room another allowance for what its members type (the GM): what is used
        of it, and of each invite's share, as the GM's view shows it."""
        done: Answer = await here.ask(
            room, UseTool(Caller(key), "allowance", size=asked.text), key, client
        )
        return dict(done.extra)

    @app.post("/rooms/{room}/link")
    async def rotate_link(
        request: Request, room: str, key: Token, here: Here, client: Client
    ) -> dict[str, str]:
        """A new link for this member; the old one stops working at once."""
        made = await here.ask(room, UseTool(Caller(key), "link"), key, client)
        return {"link": str(Link(base(request), room, made.extra["token"]))}

    @app.get("/rooms/{room}/log", response_class=PlainTextResponse)
    async def log(
        request: Request, room: str, key: Token, here: Here, client: Client, seqs: Seqs
    ) -> PlainTextResponse:
        """This member's view of one page of the log, one JSON object a line: the first
        entries after `after`, or the last ones before `before`; a `Link` header names the
        next page (`rel="next"`) and, for a `before` page, the one before (`rel="prev"`)."""
        ask = Read(Caller(key), "log", seqs.after, before=seqs.before)
        found: Page = await here.ask(room, ask, key, client, READ)
        here.read(room, key, len(found.text))
        return paged(request, found, seqs)

    @app.get("/rooms/{room}/export", response_class=StreamingResponse)
    async def export(room: str, key: Token, here: Here, client: Client) -> StreamingResponse:
        """The log to verify offline: the GM's in full, a player's as they may see it,
        streamed a chunk at a time at any size (its last line names the head)."""
        plan: Export = await here.ask(room, Plan(Caller(key), "export"), key, client)
        return StreamingResponse(here.export(plan), media_type=NDJSON)

    @app.post("/import", status_code=201)
    async def import_log(
        request: Request, key: Credentials, here: Here, client: Client
    ) -> RoomLinks:
        """A new room from a GM's full export (the body, JSON lines) that verifies in full
        (with the server's key as the bearer, on a server that asks for one); the pool
        checks it, the new room's shard writes it."""
        bearer = key.credentials if key else None
        here.allowances.take_address(client)  # before the key: guesses are metered
        access.allow_new_room(bearer)
        body = await request.body()  # within BODY_WAIT (BodyLimit)
        if len(body) > MAX_IMPORT:
            raise TooMuch(f"an imported log has at most {MAX_IMPORT} bytes")
        here.allowances.take_address(client, body_cost(len(body)) - 1)
        checked = await here.pooled(pickle.dumps(Check(body, "import")), "anyone", raw=True)
        with access.new_room(bearer):  # the quota counts a room only while it is written
            room = new_room_id()
            made = await here.ask(room, ImportRoom(checked))
        return links(request, room, made.extra["tokens"])

    @app.websocket("/rooms/{room}/live")
    async def live(websocket: WebSocket, room: str) -> None:
        """This member's view of each new entry, in order, after the backlog they missed.
        With PostgreSQL, a room another process serves is refused before the socket is
        accepted (503 with Retry-After), so that a proxy tries the next process."""
        front: Front = websocket.app.state.front
        client = front.allowances.client(
            websocket.client.host if websocket.client else None,
            websocket.headers.get("x-forwarded-for"),
        )
        try:
            await front.claim(room, client)
        except TabletopError as refused:
            await websocket.send_denial_response(problem(refused))
            return
        await websocket.accept()
        with contextlib.suppress(WebSocketDisconnect):
            await serve_socket(websocket.app.state.front, websocket, room)

    from tabletop.rooms.pages import add_pages  # the pages' endpoints, on the same front

    add_pages(app)
    app.add_middleware(NoStore)
    app.add_middleware(SameOrigin)  # after the Host check, whose Host it compares Origin with
    app.add_middleware(HostCheck, address=address)  # outermost: before anything reads Host
    return app


def problem(error: TabletopError) -> JSONResponse:
    """A refusal as the one-line JSON every client shows."""
    body: dict[str, Any] = {"error": str(error)[:500]}
    seq = getattr(error, "seq", None)
    if seq is not None:
        body["seq"] = seq
    status = status_of(error)
    retry_after = getattr(error, "retry_after", None) or (1.0 if status == 503 else None)
    if retry_after is None:
        return JSONResponse(body, status_code=status)
    headers = {"Retry-After": str(max(1, math.ceil(retry_after)))}
    return JSONResponse(body, status_code=status, headers=headers)


async def serve_socket(front: Front, websocket: WebSocket, room: str) -> None:
    client = front.allowances.client(
        websocket.client.host if websocket.client else None,
        websocket.headers.get("x-forwarded-for"),
    )
    socket = Socket(room)
    try:
        first = await asyncio.wait_for(websocket.receive(), HELLO_WAIT)
        if first["type"] == "websocket.disconnect":
            return
        if first.get("text") is None:
            front.allowances.failed(client)
            raise RoomError("send JSON text frames, not binary ones")
        hello = Hello.model_validate_json(_bounded(first["text"]))
        attached = await front.attach(socket, hello.token, hello.after, client, hello.witness)
    except (TimeoutError, ValidationError, TabletopError) as error:
        if not isinstance(error, TabletopError):
            front.allowances.failed(client)  # a malformed or missing hello costs its address
        await _refuse(websocket, error)
        return
    welcome = {"type": "welcome", "member": attached.member, "head": attached.head}
    member = attached.member["id"]
    try:
        await websocket.send_text(json.dumps(welcome))
        sender = asyncio.create_task(_send(websocket, socket))
        asking: set[asyncio.Task[str]] = set()
        try:
            # its messages are read once it has caught up: an ack or a pong comes after
            # every entry appended before it was asked for
            await _caught_up(front, socket, sender)
            while not sender.done():
                received = asyncio.create_task(websocket.receive())
                done, _ = await asyncio.wait(
                    {received, sender}, return_when=asyncio.FIRST_COMPLETED
                )
                if sender in done:
                    received.cancel()
                    break
                message = received.result()
                if message["type"] == "websocket.disconnect":
                    break
                answer = _handle(front, room, member, message)
                if isinstance(answer, str):
                    if answer:
                        socket.put(answer)
                    continue
                _answer_later(socket, asking, answer)
                if len(asking) >= IN_FLIGHT:
                    await asyncio.wait(asking, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sender.cancel()
            for task in asking:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
    finally:
        if front.listeners.close(socket):
            front.detach(room, member, hello.witness is not None)


async def _caught_up(front: Front, socket: Socket, sender: asyncio.Task[None]) -> None:
    """The socket's backlog, a page at a time, unless its sender ends first (its client
    left, or it was closed); a page refused (the room moved, a worker restarted) closes
    it, and its client resumes from its last seq."""
    catching = asyncio.ensure_future(front.catch_up(socket))
    done, _ = await asyncio.wait({catching, sender}, return_when=asyncio.FIRST_COMPLETED)
    if catching not in done:
        catching.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await catching
        return
    failed = catching.exception()
    if isinstance(failed, TabletopError):
        socket.close(str(failed), retry=True)
    elif failed is not None:
        raise failed


def _answer_later(socket: Socket, asking: set[asyncio.Task[str]], ask: Awaitable[str]) -> None:
    """Wait for a request's answer beside the socket's reading, which goes on (a witness's
    reveal must be read while its own roll waits for it); its ack is sent when it comes."""
    task = asyncio.ensure_future(ask)
    asking.add(task)

    def done(finished: asyncio.Task[str]) -> None:
        asking.discard(finished)
        if not finished.cancelled():
            socket.put(finished.result())

    task.add_done_callback(done)


def _handle(front: Front, room: str, member: str, message: dict[str, Any]) -> str | Awaitable[str]:
    """One message from a socket: the frame to send back now ("" for none), or, for an
    intent or a chat line, what waits for its ack or its error frame."""
    text = message.get("text")
    try:
        front.allowances.take(room, member)
    except TooMuch as error:
        head = (text or "")[:HEAD]
        if not front.asked_for(room, member, _named(OWED, head)):
            return _slow_down(error, _named(NAMED, head))
        front.allowances.charge(room, member)
    try:
        if text is None:
            raise RoomError("send JSON text frames, not binary ones")
        asked = Incoming.validate_json(_bounded(text))
    except ValidationError as error:
        return json.dumps({"type": "error", "id": None, "error": first_problem(error)})
    except TabletopError as error:
        return _error_frame(None, error)
    if isinstance(asked, Ping):
        return json.dumps({"type": "pong"})
    if isinstance(asked, SendReveal):
        front.reveal(room, member, asked.call, asked.value, tuple(asked.passed))
        return ""
    caller = Caller(member=member)
    if isinstance(asked, SendIntent):
        ask: Any = Resolve(
            caller, asked.intent, asked.id, asked.nonce, lines=False, digest=asked.digest
        )
    else:
        assert isinstance(asked, Say)
        ask = Chat(caller, asked.text, tuple(asked.to), asked.id or "", lines=False)
    return _acked(front, room, ask, asked.id)


async def _acked(front: Front, room: str, ask: Any, id: str | None) -> str:
    try:
        done: Answer = await front.ask(room, ask)
    except TabletopError as error:
        return _error_frame(id, error)
    return Ack(id=id, seqs=done.seqs, duplicate=done.duplicate).model_dump_json()


def _error_frame(id: str | None, error: TabletopError) -> str:
    frame = {"type": "error", "id": id, "error": str(error)}
    if getattr(error, "seq", None) is not None:
        frame["seq"] = error.seq  # type: ignore[attr-defined]
    return json.dumps(frame)


def _slow_down(error: TooMuch, id: str | None) -> str:
    """The allowance's refusal of one message, naming the message it refused (its `id`)
    and when to send it again, so a page that pressed fast sends it again rather than
    waiting for an answer that never comes."""
    frame: dict[str, Any] = {"type": "error", "id": id, "error": str(error), "status": 429}
    if error.retry_after is not None:
        frame["retry_after"] = round(error.retry_after, 3)
    return json.dumps(frame)


def _named(name: re.Pattern[str], head: str) -> str | None:
    """What names a refused message, read from its first bytes only: a refusal costs no
    parse of what it refuses."""
    found = name.match(head)
    return found[1] if found else None


def _bounded(text: str) -> str:
    if len(text) > MAX_MESSAGE:
        raise TooMuch(f"a message has at most {MAX_MESSAGE} bytes")
    return text


async def _send(websocket: WebSocket, socket: Socket) -> None:
    """Send queued lines until the queue says close; then say why and close (`retry`: the
    client should connect again and resume from its last seq)."""
    while True:
        line = await socket.queue.get()
        if line == CLOSE:
            bye = {"type": "bye", "reason": socket.reason, "retry": socket.retry}
            await websocket.send_text(json.dumps(bye))
            await websocket.close(code=RETRY if socket.retry else 4403)
            return
        socket.sent(line)
        await websocket.send_text(line)


async def _refuse(websocket: WebSocket, error: Exception) -> None:
    if isinstance(error, ValidationError):
        message = f"the first message must be a hello: {first_problem(error)}"
    elif isinstance(error, TimeoutError):
        message = f"no hello within {HELLO_WAIT:g} seconds"
    else:
        message = str(error)
    status = error.status if isinstance(error, RoomError | Relayed) else 400
    with contextlib.suppress(Exception):
        frame = {"type": "error", "id": None, "error": message, "status": status}
        await websocket.send_text(json.dumps(frame))
        await websocket.close(code=4000 + status)


class BodyLimit:
    """Refuse an HTTP body past `MAX_MESSAGE` bytes (`MAX_IMPORT` for a log) with 413,
    before any of it reaches a handler: a declared length is checked at once (the HTTP
    server holds the body to it), a chunked body is read up to the bound first and handed
    on whole."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        receive = _in_time(receive)
        limit = MAX_IMPORT if scope["path"] in LARGE_BODIES else MAX_MESSAGE
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None:
            if not declared.isdigit() or int(declared) > limit:
                await _too_large(limit)(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        chunks, seen = [], 0
        while True:
            try:
                message = await receive()
            except SlowBody as slow:
                await problem(slow)(scope, receive, send)
                return
            if message["type"] != "http.request":
                return  # the client left before it finished sending
            chunks.append(message.get("body", b""))
            seen += len(chunks[-1])
            if seen > limit:
                await _too_large(limit)(scope, receive, send)
                return
            if not message.get("more_body"):
                break
        whole: dict[str, Any] | None = {"type": "http.request", "body": b"".join(chunks)}

        async def replayed() -> dict[str, Any]:
            nonlocal whole
            if whole is not None:
                message, whole = whole, None
                return message
            return dict(await receive())

        await self.app(scope, replayed, send)


def _in_time(receive: Any) -> Callable[[], Awaitable[dict[str, Any]]]:
    """`receive` for a request whose body must arrive whole within `BODY_WAIT` seconds
    (a slower one is refused with `SlowBody`); once it has, as it was (a streamed answer
    listens on it for the client leaving)."""
    deadline = asyncio.get_running_loop().time() + BODY_WAIT
    whole = False

    async def timed() -> dict[str, Any]:
        nonlocal whole
        if whole:
            return dict(await receive())
        try:
            async with asyncio.timeout_at(deadline):
                message = dict(await receive())
        except TimeoutError:
            raise SlowBody(f"a request's body must arrive within {BODY_WAIT:g} seconds") from None
        whole = message["type"] != "http.request" or not message.get("more_body")
        return message

    return timed


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse({"error": f"a request body has at most {limit} bytes"}, status_code=413)
