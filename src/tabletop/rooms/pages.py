"""The pages `tabletop serve` gives browsers, and the few endpoints they need beyond the
protocol: a lobby at `/`, one room page at `/rooms/{room}` (the link a GM, a player or an
invite opens), the help page on checking a log, and static files shipped in the package.

A browser asking for `/rooms/{room}` gets the page; the page reads the link's token from
the URL fragment (never sent to the server) and speaks the same protocol as every client.
docs/rooms.md, "In the browser", lists what each endpoint here adds to the protocol.
"""

from __future__ import annotations

import functools
import pickle
import re
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import Field

from tabletop.errors import TabletopError
from tabletop.rooms.allowances import body_cost
from tabletop.rooms.errors import TooMuch, UnknownSystemName
from tabletop.rooms.hosts import is_loopback
from tabletop.rooms.http import Client, Here, Seqs, Token, paged
from tabletop.rooms.messages import Caller, Check, Plan, Qr, Read
from tabletop.rooms.protocol import MAX_IMPORT, Message
from tabletop.rooms.readings import load_session, session_at
from tabletop.rooms.tokens import MAX_LINK
from tabletop.systems.registry import SYSTEMS, System, UnknownSystem, system

STATIC = files("tabletop.rooms") / "static"

ROOM_PAGE = re.compile(r"^/rooms/[A-Za-z0-9_-]{1,64}$")
"""A room's link path: a browser navigating to it gets the page, not the JSON view."""

READ = 0.25
"""What a read costs a member's allowance (allowances.READ_COST)."""

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


def add_pages(app: FastAPI) -> None:
    """Mount the pages, their static files and the endpoints they need on `app`."""
    app.add_middleware(RoomPage)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("lobby.html")

    @app.get("/help/verify", include_in_schema=False)
    async def how_to_verify() -> FileResponse:
        return page("verify.html")

    @app.get("/address")
    async def address(request: Request) -> dict[str, Any]:
        """Where people reach this server now: the URL every link is built from (the public
        URL, never the request's Host), and whether only this computer can open it. The GM's
        page builds the invites it keeps from it, so a restart at a new address moves them."""
        url = str(request.state.base)
        return {"url": url, "this_machine_only": is_loopback(urlsplit(url).hostname or "")}

    @app.get("/systems")
    async def systems() -> list[dict[str, Any]]:
        """Every system, and whether this installation can play it in a room (and why not)."""
        return _systems()

    @app.get("/systems/{name}/intents")
    async def intents(name: str, rules: int | None = Query(None, ge=1, le=1000)) -> dict[str, Any]:
        """The JSON Schema of every intent of a system (under the version of its rules a
        room was made with, today's by default): a page builds its forms from it."""
        return _intent_schema(_named(name).name, rules)

    @app.get("/systems/{name}/options")
    async def options(name: str) -> dict[str, Any]:
        """The JSON Schema of a system's rule options: the lobby's "Rules of this table"."""
        return _options_schema(_named(name).name)

    @app.get("/rooms/{room}/whoami")
    async def whoami(room: str, token: Token, here: Here, client: Client) -> dict[str, Any]:
        """What a link opens: a member's own link, or an invite and the role it joins as."""
        return await here.ask(room, Read(Caller(token), "whoami"), token, client, READ)

    @app.get("/rooms/{room}/advice")
    async def advice(room: str, key: Token, here: Here, client: Client) -> dict[str, Any]:
        """The system's advisor for this member's open choice (exact odds), if it has one."""
        return await here.ask(room, Read(Caller(key), "advice"), key, client, READ)

    @app.get("/rooms/{room}/record")
    async def record(room: str, key: Token, here: Here, client: Client) -> dict[str, Any]:
        """A finished game's own record (the board game's log and the board after each
        decision), for systems that keep one."""
        return await here.ask(room, Plan(Caller(key), "record"), key, client)

    @app.get("/rooms/{room}/as/{member}")
    async def view_as(
        room: str, member: str, key: Token, here: Here, client: Client
    ) -> dict[str, Any]:
        """The GM's "view as player": exactly what that member's own view holds."""
        return await here.ask(room, Read(Caller(key), "as", member=member), key, client, READ)

    @app.get("/rooms/{room}/as/{member}/log")
    async def log_as(
        request: Request, room: str, member: str, key: Token, here: Here, client: Client, seqs: Seqs
    ) -> Response:
        """The GM's "view as player" of the log: exactly the lines that member receives, a
        page at a time as `GET /rooms/{room}/log` gives them."""
        ask = Read(Caller(key), "as-log", seqs.after, member, seqs.before)
        found = await here.ask(room, ask, key, client, READ)
        here.read(room, key, len(found.text))
        return paged(request, found, seqs)

    @app.get("/rooms/{room}/presence")
    async def presence(room: str, key: Token, here: Here, client: Client) -> dict[str, list[str]]:
        """The members with a live socket open to this server process now (any member may
        ask; each socket is also sent a `presence` frame when this changes)."""
        await here.ask(room, Read(Caller(key), "member"), key, client, READ)
        return {"connected": here.listeners.connected(room)}

    @app.post("/qr", response_class=Response)
    async def qr(asked: QrText, here: Here, client: Client) -> Response:
        """A QR code of a link, as SVG, made here so the link never goes to a third party."""
        here.allowances.take_address(client)
        drawn = await here.pooled(pickle.dumps(Qr(asked.text)), "anyone")
        return Response(drawn, media_type="image/svg+xml")

    @app.post("/verify")
    async def check_export(request: Request, here: Here, client: Client) -> dict[str, Any]:
        """`tabletop room verify` on an export sent as the body (or as JSON with the nonces
        this browser kept and an entry to look at closely): ok and the summary, or the
        first failing line and why (rooms/checking.py, in the pool)."""
        body = await request.body()
        if len(body) > MAX_IMPORT:
            raise TooMuch(f"an export has at most {MAX_IMPORT} bytes")
        here.allowances.take_address(client, body_cost(len(body)))
        json_body = request.headers.get("content-type", "").startswith("application/json")
        job = pickle.dumps(Check(body, "verify", json_body))
        checked: dict[str, Any] = await here.pooled(job, "anyone")
        return checked


@functools.cache
def _systems() -> list[dict[str, Any]]:
    """Every system and why it cannot be played here, if it cannot (found once)."""
    listed = []
    for known in SYSTEMS:
        try:
            load_session(known.name)
            problem = ""
        except TabletopError as refused:
            problem = str(refused)
        listed.append({"name": known.name, "title": known.title, "unavailable": problem})
    return listed


@functools.cache
def _intent_schema(name: str, rules: int | None) -> dict[str, Any]:
    """The intents' schema, with the words a page shows for their ids (`x-words`)."""
    session = load_session(name) if rules is None else session_at(name, rules)
    return {**session.intent_schema(), "x-words": session.words.model_dump(mode="json")}


@functools.cache
def _options_schema(name: str) -> dict[str, Any]:
    """The rule options' schema, with each option's words and its listed values' (`x-words`)."""
    model = system(name).options
    schema = model.model_json_schema() if model else {"type": "object", "properties": {}}
    words = load_session(name).words
    said: dict[str, dict[str, Any]] = {}
    for option in schema["properties"]:
        wording = words.options.get(option)
        values = words.values.get(option)
        if wording or values:
            said[option] = {**(wording.model_dump() if wording else {}), "values": values or {}}
    return {**schema, "x-words": said}


def _named(name: str) -> System:
    """The system a URL names, or a one-line 404."""
    try:
        return system(name)
    except UnknownSystem:
        raise UnknownSystemName(f"no system {name[:64]!r}; GET /systems lists them") from None


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
