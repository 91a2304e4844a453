"""The pages `tabletop serve` gives browsers, and the few endpoints they need beyond the
protocol: a lobby at `/`, one room page at `/rooms/{room}` (the link a GM, a player or an
invite opens), the help page on checking a log, and static files shipped in the package.

A browser asking for `/rooms/{room}` gets the page; the page reads the link's token from
the URL fragment (never sent to the server) and speaks the same protocol as every client.
docs/rooms.md, "In the browser", lists what each endpoint here adds to the protocol.
"""

from __future__ import annotations

import io
import re
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any

import segno
from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import Field

from tabletop.errors import TabletopError
from tabletop.rooms.checking import check, read_request
from tabletop.rooms.errors import NotAllowed, RoomError, TooMuch, UnknownSystemName
from tabletop.rooms.protocol import MAX_IMPORT, Message
from tabletop.rooms.server import Server, Token
from tabletop.rooms.table import load_session
from tabletop.rooms.tokens import MAX_LINK
from tabletop.session import Member
from tabletop.systems.registry import SYSTEMS, System, UnknownSystem, system

STATIC = files("tabletop.rooms") / "static"

ROOM_PAGE = re.compile(r"^/rooms/[A-Za-z0-9_-]{1,64}$")
"""A room's link path: a browser navigating to it gets the page, not the JSON view."""

SECURITY = {
    "content-security-policy": (
        "default-src 'self'; img-src 'self' data: blob:; connect-src 'self' ws: wss:; "
        "style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'"
    ),
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
    "vary": "Accept, Authorization",
}
"""Headers on every page: nothing from elsewhere runs, a link never leaks as a referrer, and a
room's page is never answered from a cache to a request for its JSON view (same URL)."""


class QrText(Message):
    text: str = Field(min_length=1, max_length=MAX_LINK)


def page(name: str) -> FileResponse:
    """One of the HTML pages, with the headers every page carries."""
    return FileResponse(str(STATIC / name), media_type="text/html", headers=SECURITY)


def add_pages(app: FastAPI, server: Callable[[], Server]) -> None:
    """Mount the pages, their static files and the endpoints they need on `app`."""
    app.add_middleware(RoomPage)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("lobby.html")

    @app.get("/help/verify", include_in_schema=False)
    async def how_to_verify() -> FileResponse:
        return page("verify.html")

    @app.get("/systems")
    async def systems() -> list[dict[str, Any]]:
        """Every system, and whether this installation can play it in a room (and why not)."""
        listed = []
        for known in SYSTEMS:
            try:
                load_session(known.name)
                problem = ""
            except TabletopError as refused:
                problem = str(refused)
            listed.append({"name": known.name, "title": known.title, "unavailable": problem})
        return listed

    @app.get("/systems/{name}/intents")
    async def intents(name: str) -> dict[str, Any]:
        """The JSON Schema of every intent of a system: a page builds its forms from it."""
        return load_session(_named(name).name).intent_schema()

    @app.get("/systems/{name}/options")
    async def options(name: str) -> dict[str, Any]:
        """The JSON Schema of a system's rule options: the lobby's "Rules of this table"."""
        model = _named(name).options
        return model.model_json_schema() if model else {"type": "object", "properties": {}}

    @app.get("/rooms/{room}/whoami")
    async def whoami(room: str, token: Token) -> dict[str, Any]:
        """What a link opens: a member's own link, or an invite and the role it joins as."""
        hall = server().hall
        role = hall.invite_role(room, token)
        table = hall.table(room)
        found = None if role is not None else hall.who(room, token).model_dump(mode="json")
        return {
            "room": room,
            "name": hall.room_name(room),
            "system": table.system,
            "invite": None if role is None else str(role),
            "member": found,
        }

    @app.get("/rooms/{room}/advice")
    async def advice(room: str, key: Token) -> dict[str, Any]:
        """The system's advisor for this member's open choice (exact odds), if it has one."""
        me, table = server().member(room, key), server().hall.table(room)
        advise = getattr(table.session, "advice", None)
        return {"advice": advise(table.state, me) if advise is not None else None}

    @app.get("/rooms/{room}/record")
    async def record(room: str, key: Token) -> dict[str, Any]:
        """A finished game's own record (the board game's log and the board after each
        decision), for systems that keep one."""
        me, table = server().member(room, key), server().hall.table(room)
        keep = getattr(table.session, "game_record", None)
        if keep is None:
            raise RoomError(f"{table.system} keeps no game record; export the room's log")
        return dict(keep(table.state, me))

    @app.get("/rooms/{room}/as/{member}")
    async def view_as(room: str, member: str, key: Token) -> dict[str, Any]:
        """The GM's "view as player": exactly what that member's own view holds."""
        target = _seen_by_gm(server(), room, member, key)
        return server().hall.table(room).view(room, target)

    @app.get("/rooms/{room}/as/{member}/log")
    async def log_as(room: str, member: str, key: Token) -> Response:
        """The GM's "view as player" of the log: exactly the lines that member receives."""
        target, hall = _seen_by_gm(server(), room, member, key), server().hall
        lines = (hall.project(room, e, target) for e in hall.entries(room))
        body = "".join(f"{line}\n" for line in lines if line is not None)
        return Response(body, media_type="application/x-ndjson")

    @app.get("/rooms/{room}/presence")
    async def presence(room: str, key: Token) -> dict[str, list[str]]:
        """The members with a live socket open to this server process now (any member may
        ask; each socket is also sent a `presence` frame when this changes)."""
        server().member(room, key)
        return {"connected": server().listeners.connected(room)}

    @app.post("/qr", response_class=Response)
    async def qr(asked: QrText) -> Response:
        """A QR code of a link, as SVG, made here so the link never goes to a third party."""
        buffer = io.BytesIO()
        segno.make(asked.text, error="m").save(
            buffer, kind="svg", scale=4, border=2, xmldecl=False, svgns=True, title="QR code"
        )
        return Response(buffer.getvalue(), media_type="image/svg+xml")

    @app.post("/verify")
    async def check_export(request: Request) -> dict[str, Any]:
        """`tabletop room verify` on an export sent as the body (or as JSON with the nonces
        this browser kept and an entry to look at closely): ok and the summary, or the
        first failing line and why (rooms/checking.py)."""
        body = await request.body()
        if len(body) > MAX_IMPORT:
            raise TooMuch(f"an export has at most {MAX_IMPORT} bytes")
        json_body = request.headers.get("content-type", "").startswith("application/json")
        return check(read_request(body, json_body))


def _named(name: str) -> System:
    """The system a URL names, or a one-line 404."""
    try:
        return system(name)
    except UnknownSystem:
        raise UnknownSystemName(f"no system {name[:64]!r}; GET /systems lists them") from None


def _seen_by_gm(server: Server, room: str, member: str, key: str) -> Member:
    """The member `member` names, for a GM asking to see as them."""
    if not server.member(room, key).is_gm:
        raise NotAllowed("only the GM may view the room as another member")
    table = server.hall.table(room)
    if member not in table.members or member in table.kicked:
        raise RoomError(f"no member {member[:64]!r} in this room")
    return table.member(member)


class RoomPage:
    """Give a browser navigating to a room's link the room page; every other request
    (the JSON view a client asks for with its token) goes on to the app."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            headers = dict(scope.get("headers", []))
            navigating = b"text/html" in headers.get(b"accept", b"")
            if navigating and b"authorization" not in headers and ROOM_PAGE.match(scope["path"]):
                await page("room.html")(scope, receive, send)
                return
        await self.app(scope, receive, send)
