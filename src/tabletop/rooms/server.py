"""The room server: thin HTTP endpoints and one websocket per member over the `Hall`.

Every handler runs on the event loop (no threads), so a room's changes are made one at a
time in the order they arrive; the store is fast and synchronous (docs/rooms.md, "Design").
A request names its room in the path and carries its link's token as `Authorization:
Bearer <token>`; a socket sends the token in its first message, never in a URL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from tabletop.errors import PermissionDenied, TabletopError
from tabletop.rooms.access import Access
from tabletop.rooms.errors import BadLink, RefusedOnRecord, RoomError, TooMuch
from tabletop.rooms.fairdice import new_seed
from tabletop.rooms.hall import Appended, Hall
from tabletop.rooms.hosts import HostCheck, PublicAddress
from tabletop.rooms.live import CLOSE, RATE, Bucket, Listeners
from tabletop.rooms.log import Entry, lines_of
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
)
from tabletop.rooms.store import Store, open_store
from tabletop.rooms.tokens import Link
from tabletop.session import Member, Role, first_problem

NDJSON = "application/x-ndjson"
HELLO_WAIT = 10.0
"""Seconds a new socket has to say hello."""

LARGE_BODIES = ("/import", "/verify")
"""Paths whose body is a whole log, bounded by `MAX_IMPORT` instead of `MAX_MESSAGE`."""

ERRORS: dict[int, dict[str, Any]] = {
    code: {"model": Problem} for code in (400, 401, 403, 404, 405, 413, 422, 429)
}

FRAMEWORK = {404: "no such endpoint", 405: "not allowed on this endpoint"}
"""What Starlette's own refusals say, as one line that names the request."""


BEARER = HTTPBearer(auto_error=False, description="The token after the # of a room link.")


def bearer(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]) -> str:
    """The token of the link a request carries."""
    if credentials is None or not credentials.credentials.strip():
        raise BadLink("send the link's token as 'Authorization: Bearer <token>'")
    return credentials.credentials.strip()


Token = Annotated[str, Depends(bearer)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]


BOT_PAUSE = 0.6
"""Seconds a bot's seat waits before it moves, so the people at the table can follow it."""

SWEEP_EVERY = 60.0
"""Seconds between looks for rooms idle long enough to be let go (hall.py)."""


class Server:
    """What the app holds: the store, the hall, the sockets and the per-member rates."""

    def __init__(
        self,
        store: Store,
        rate: float = RATE,
        bot_pause: float = BOT_PAUSE,
        seeds: Callable[[], bytes] = new_seed,
    ) -> None:
        self.store = store
        self.rate_per_second = rate
        self.bot_pause = bot_pause
        self.hall = Hall(store, seeds=seeds)
        self.listeners = Listeners(self.hall)
        self.rates: dict[tuple[str, str], Bucket] = {}
        self.moving: set[str] = set()
        """Rooms whose table move (a bot's) is waiting out its pause."""
        self._stop_store: Callable[[], None] | None = None
        self._sweeping: asyncio.TimerHandle | None = None
        self.hall.listeners.append(self._after_append)

    def _after_append(self, room: str, entries: list[Entry]) -> None:
        """After a move, when the table is to move by itself (a bot's seat decides), move
        after a pause. Room events (chat, the end of a dice session) start no bot: after
        `end-session` the bots wait until someone at the table asks one to move."""
        table = self.hall.table(room)
        if room in self.moving or entries[0].is_room_event:
            return
        if table.session.table_move(table.state) is None:
            return
        self.moving.add(room)
        loop = asyncio.get_running_loop()
        loop.call_later(self.bot_pause, self._table_move, room, table.dice_session)

    def _table_move(self, room: str, dice_session: int) -> None:
        """One table move, unless the dice session ended during the pause; its append calls
        `_after_append`, which schedules the next."""
        self.moving.discard(room)
        if self.hall.table(room).dice_session != dice_session:
            return
        with contextlib.suppress(TabletopError):
            self.hall.table_move(room)

    def start(self) -> None:
        """Catch up with other processes' appends as PostgreSQL announces them, and let go
        of idle rooms even while nobody asks for any."""
        loop = asyncio.get_running_loop()
        self._stop_store = self.store.start(
            lambda room: loop.call_soon_threadsafe(self._caught_up, room)
        )
        self._sweeping = loop.call_later(SWEEP_EVERY, self._sweep)

    def _sweep(self) -> None:
        with contextlib.suppress(TabletopError):
            self.hall.let_go_idle()
        self._sweeping = asyncio.get_running_loop().call_later(SWEEP_EVERY, self._sweep)

    def _caught_up(self, room: str) -> None:
        with contextlib.suppress(TabletopError):
            self.hall.catch_up(room)

    def stop(self) -> None:
        if self._sweeping is not None:
            self._sweeping.cancel()
        if self._stop_store is not None:
            self._stop_store()
        for sockets in self.listeners.rooms.values():
            for socket in sockets:
                socket.close("the server is stopping")
        with contextlib.suppress(TabletopError):
            self.hall.let_go_all()  # each room snapshotted: a restart folds nothing

    def member(self, room: str, token: str) -> Member:
        return self.hall.who(room, token)

    def rate(self, room: str, member: str) -> None:
        self.rates.setdefault((room, member), self.bucket()).take()

    def bucket(self) -> Bucket:
        """A fresh allowance of requests (one per member over HTTP, one per socket)."""
        return Bucket(self.rate_per_second, 2 * self.rate_per_second)

    def ack(
        self,
        room: str,
        member: Member,
        done: Appended,
        id: str | None = None,
        entries: bool = True,
    ) -> Ack:
        """What one request appended, as this member sees it (a socket has already been sent
        the entries themselves, so its ack names only their seqs)."""
        lines = [self.hall.project(room, entry, member) for entry in done.entries]
        return Ack(
            id=id,
            seqs=[entry.seq for entry in done.entries],
            duplicate=done.duplicate,
            entries=[json.loads(line) for line in lines if line is not None] if entries else [],
            extra={k: v for k, v in done.extra.items() if k not in ("token", "tokens")},
        )


def create_app(
    store: Store | None = None,
    data: Path | None = None,
    database: str = "",
    rate: float = RATE,
    bot_pause: float = BOT_PAUSE,
    address: PublicAddress | None = None,
    access: Access | None = None,
    seeds: Callable[[], bytes] = new_seed,
) -> FastAPI:
    """The ASGI app over `store` (or the store that `database`/`data` name, opened at
    startup, which creates or migrates the schema); `rate` bounds each member's requests
    and each socket's messages a second. `address` is where people reach it (links and the
    hosts a request may name; loopback only by default), `access` who may open and import
    rooms (anyone who reaches it, by default). `seeds` makes each dice session's secret
    seed: only test fixtures replace it, to fix the dice (never a `serve` option)."""
    holder: dict[str, Server] = {}
    address = address or PublicAddress(None)
    access = access or Access()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened = store or open_store(database or None, data or Path("tabletop-data"))
        server = holder["server"] = Server(opened, rate, bot_pause, seeds)
        server.start()
        try:
            yield
        finally:
            server.stop()
            if store is None:
                opened.close()

    app = FastAPI(
        title="tabletop rooms",
        version="1",
        summary="A shared table: rooms, members, an audited log and live sockets.",
        lifespan=lifespan,
        responses=ERRORS,
        redirect_slashes=False,  # a redirect would be built from the request's Host
    )
    app.add_middleware(BodyLimit)

    def server() -> Server:
        return holder["server"]

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
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(part) for part in first.get("loc", ()))
        return JSONResponse({"error": f"{where}: {first.get('msg')}"[:300]}, status_code=422)

    def base(request: Request) -> str:
        """The start of every link: the public URL, never the request's own Host."""
        return str(request.state.base)

    def links(request: Request, room: str, tokens: dict[str, str]) -> RoomLinks:
        made = {role: str(Link(base(request), room, value)) for role, value in tokens.items()}
        return RoomLinks(room=room, **made)

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """200 once the server can serve."""
        kind = type(server().store).__name__.removesuffix("Store").lower()
        return {"status": "ok", "database": kind, "create": access.mode}

    @app.post("/rooms", status_code=201)
    async def new_room(request: Request, asked: NewRoom, key: Credentials) -> RoomLinks:
        """Open a room for a system: the GM's link and the player and observer invites
        (with the server's key as the bearer, on a server that asks for one)."""
        access.allow_new_room(key.credentials if key else None)
        made = server().hall.create(asked.system, asked.name, asked.options, asked.gm)
        access.opened()
        return links(request, made.extra["room"], made.extra["tokens"])

    @app.post("/rooms/{room}/join")
    async def join(request: Request, room: str, asked: Join, invite: Token) -> dict[str, str]:
        """Join with an invite's token: this member's own link."""
        made = server().hall.join(room, invite, asked.name)
        link = Link(base(request), room, made.extra["token"])
        return {"link": str(link), "member": made.extra["member"]}

    @app.get("/rooms/{room}")
    async def view(room: str, key: Token) -> dict[str, Any]:
        """This member's view of the room: who is in it and the system's state."""
        return server().hall.table(room).view(room, server().member(room, key))

    @app.get("/rooms/{room}/legal")
    async def legal(room: str, key: Token) -> dict[str, Any]:
        """What this member may ask for now."""
        me, table = server().member(room, key), server().hall.table(room)
        offers = table.session.legal(table.state, me)
        return {"offers": [o.model_dump(mode="json") for o in offers]}

    @app.post("/rooms/{room}/intents")
    async def act(room: str, asked: SendIntent, key: Token) -> Ack:
        """Resolve any intent of the room's system with the room's fair dice."""
        me = server().member(room, key)
        server().rate(room, me.id)
        done = server().hall.act(room, me.id, asked.intent, asked.id, asked.nonce)
        return server().ack(room, me, done, asked.id)

    @app.post("/rooms/{room}/say")
    async def say(room: str, asked: Say, key: Token) -> Ack:
        """Chat to everyone, or whisper to the members named."""
        me = server().member(room, key)
        server().rate(room, me.id)
        done = server().hall.say(room, me.id, asked.text, tuple(asked.to), asked.id or "")
        return server().ack(room, me, done, asked.id)

    @app.post("/rooms/{room}/undo")
    async def undo(room: str, key: Token) -> Ack:
        """Take back the latest resolution still in force (the GM); the log keeps both."""
        me = server().member(room, key)
        return server().ack(room, me, server().hall.undo(room, me.id))

    @app.post("/rooms/{room}/end-session")
    async def end_session(room: str, key: Token) -> Ack:
        """Reveal this session's dice seed and commit to the next (the GM)."""
        me = server().member(room, key)
        return server().ack(room, me, server().hall.end_session(room, me.id))

    @app.post("/rooms/{room}/kick")
    async def kick(room: str, asked: MemberName, key: Token) -> Ack:
        """Remove a member (the GM): their link and open sockets stop at once."""
        me = server().member(room, key)
        return server().ack(room, me, server().hall.kick(room, me.id, asked.member))

    @app.post("/rooms/{room}/rename")
    async def rename(room: str, asked: Rename, key: Token) -> Ack:
        """Give a member another name (the GM)."""
        me = server().member(room, key)
        done = server().hall.rename(room, me.id, asked.member, asked.name)
        return server().ack(room, me, done)

    @app.post("/rooms/{room}/promote")
    async def promote(room: str, asked: Promote, key: Token) -> Ack:
        """Give a member another role (the GM); a room always keeps a GM."""
        me = server().member(room, key)
        done = server().hall.promote(room, me.id, asked.member, Role(asked.role))
        return server().ack(room, me, done)

    @app.post("/rooms/{room}/invites")
    async def rotate_invites(request: Request, room: str, key: Token) -> RoomLinks:
        """New invite links (the GM); the old ones stop working at once."""
        me = server().member(room, key)
        made = server().hall.rotate_invites(room, me.id)
        return links(request, room, {"gm": key, **made.extra["tokens"]})

    @app.post("/rooms/{room}/link")
    async def rotate_link(request: Request, room: str, key: Token) -> dict[str, str]:
        """A new link for this member; the old one stops working at once."""
        me = server().member(room, key)
        made = server().hall.rotate_link(room, me.id)
        return {"link": str(Link(base(request), room, made.extra["token"]))}

    @app.get("/rooms/{room}/log", response_class=PlainTextResponse)
    async def log(room: str, key: Token, after: int = 0) -> PlainTextResponse:
        """This member's view of every entry after `after`, one JSON object a line."""
        me, hall = server().member(room, key), server().hall
        lines = (hall.project(room, e, me) for e in hall.entries(room, max(after, 0)))
        return PlainTextResponse(
            "".join(f"{line}\n" for line in lines if line is not None), media_type=NDJSON
        )

    @app.get("/rooms/{room}/export", response_class=PlainTextResponse)
    async def export(room: str, key: Token) -> PlainTextResponse:
        """The log to verify offline: the GM's in full, a player's as they may see it."""
        me = server().member(room, key)
        lines = server().hall.export(room, me)
        return PlainTextResponse("".join(f"{line}\n" for line in lines), media_type=NDJSON)

    @app.post("/import", status_code=201)
    async def import_log(request: Request, key: Credentials) -> RoomLinks:
        """A new room from a GM's full export (the body, JSON lines) that verifies in full
        (with the server's key as the bearer, on a server that asks for one)."""
        access.allow_new_room(key.credentials if key else None)
        body = await request.body()
        if len(body) > MAX_IMPORT:
            raise TooMuch(f"an imported log has at most {MAX_IMPORT} bytes")
        try:
            lines = lines_of(body.decode("utf-8"))
        except UnicodeDecodeError:
            raise RoomError("an export is UTF-8 text") from None
        made = server().hall.import_log(lines)
        access.opened()
        return links(request, made.extra["room"], made.extra["tokens"])

    @app.websocket("/rooms/{room}/live")
    async def live(websocket: WebSocket, room: str) -> None:
        """This member's view of each new entry, in order, after the backlog they missed."""
        await websocket.accept()
        with contextlib.suppress(WebSocketDisconnect):
            await serve_socket(server(), websocket, room)

    from tabletop.rooms.pages import add_pages  # the pages build on this module

    add_pages(app, server)
    app.add_middleware(HostCheck, address=address)  # outermost: before anything reads Host
    return app


def problem(error: TabletopError) -> JSONResponse:
    """A refusal as the one-line JSON every client shows."""
    if isinstance(error, RoomError):
        status = error.status
    elif isinstance(error, PermissionDenied):
        status = 403
    else:
        status = 400
    body: dict[str, Any] = {"error": str(error)[:500]}
    if isinstance(error, RefusedOnRecord):
        body["seq"] = error.seq
    return JSONResponse(body, status_code=status)


async def serve_socket(server: Server, websocket: WebSocket, room: str) -> None:
    try:
        first = await asyncio.wait_for(websocket.receive_text(), HELLO_WAIT)
        hello = Hello.model_validate_json(_bounded(first))
        me = server.member(room, hello.token)
        socket = server.listeners.open(room, me.id, hello.after)
    except (TimeoutError, ValidationError, TabletopError) as error:
        await _refuse(websocket, error)
        return
    welcome = {"type": "welcome", "member": me.model_dump(mode="json")}
    welcome["head"] = server.hall.table(room).head
    await websocket.send_text(json.dumps(welcome))
    sender = asyncio.create_task(_send(websocket, socket.queue.get, lambda: socket.reason))
    bucket = server.bucket()
    try:
        while not sender.done():
            received = asyncio.create_task(websocket.receive_text())
            done, _ = await asyncio.wait({received, sender}, return_when=asyncio.FIRST_COMPLETED)
            if sender in done:
                received.cancel()
                break
            reply = _handle(server, room, me.id, received.result(), bucket)
            socket.put(reply)
    finally:
        server.listeners.close(socket)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


def _handle(server: Server, room: str, member: str, text: str, bucket: Bucket) -> str:
    """One message from a socket: the ack or the error frame to send back."""
    asked: Any = None
    try:
        bucket.take()
        asked = Incoming.validate_json(_bounded(text))
        me = server.hall.table(room).member(member)
        if isinstance(asked, Ping):
            return json.dumps({"type": "pong"})
        if isinstance(asked, SendIntent):
            done = server.hall.act(room, member, asked.intent, asked.id, asked.nonce)
        else:
            assert isinstance(asked, Say)
            done = server.hall.say(room, member, asked.text, tuple(asked.to), asked.id or "")
        return server.ack(room, me, done, asked.id, entries=False).model_dump_json()
    except ValidationError as error:
        return json.dumps({"type": "error", "id": None, "error": first_problem(error)})
    except TabletopError as error:
        frame = {"type": "error", "id": getattr(asked, "id", None), "error": str(error)}
        if isinstance(error, RefusedOnRecord):
            frame["seq"] = error.seq
        return json.dumps(frame)


def _bounded(text: str) -> str:
    if len(text) > MAX_MESSAGE:
        raise TooMuch(f"a message has at most {MAX_MESSAGE} bytes")
    return text


async def _send(
    websocket: WebSocket, get: Callable[[], Awaitable[str]], reason: Callable[[], str]
) -> None:
    """Send queued lines until the queue says close; then say why and close."""
    while True:
        line = await get()
        if line == CLOSE:
            await websocket.send_text(json.dumps({"type": "bye", "reason": reason()}))
            await websocket.close(code=4403)
            return
        await websocket.send_text(line)


async def _refuse(websocket: WebSocket, error: Exception) -> None:
    if isinstance(error, ValidationError):
        message = f"the first message must be a hello: {first_problem(error)}"
    elif isinstance(error, TimeoutError):
        message = f"no hello within {HELLO_WAIT:g} seconds"
    else:
        message = str(error)
    status = error.status if isinstance(error, RoomError) else 400
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
            message = await receive()
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


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse({"error": f"a request body has at most {limit} bytes"}, status_code=413)
