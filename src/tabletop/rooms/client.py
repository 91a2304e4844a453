"""The Python client of the room protocol: the command line, the tests and the load
benchmark use it, and anything it does a page or a bot can do with the same messages.

`RoomClient` speaks HTTP for one link (each write carries a client-chosen id, so a retry
after a lost answer is applied once; a 503 — the room is moving to another server process,
or the server asks for a request again — is sent again after its `Retry-After`, for up to
`RETRY_FOR` seconds) and follows the live socket, resuming from the last seq it saw when
the connection drops or the server says to connect again. `LiveClient` is the asynchronous
socket alone, for programs that hold many at once.
"""

from __future__ import annotations

import functools
import json
import secrets
import ssl
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as connect_async
from websockets.exceptions import ConnectionClosed, InvalidURI, WebSocketException
from websockets.sync.client import connect

from tabletop.rooms.errors import BadLink, NotAllowed, RoomError, TooMuch, UnknownRoom
from tabletop.rooms.fairdice import digest
from tabletop.rooms.log import lines_of
from tabletop.rooms.nonces import keep
from tabletop.rooms.protocol import MAX_MESSAGE
from tabletop.rooms.tokens import Link
from tabletop.rooms.witnessing import Witnessing

RETRIES = 3
"""Attempts at a request whose connection failed (a write is retried with the same id)."""

RETRY_FOR = 30.0
"""Seconds a request answered 503 (or 502/504 by a proxy) keeps being sent again: long
enough for a dead server process's rooms to move to another (a few seconds' lease)."""

RETRY_STATUSES = (502, 503, 504)

ERRORS: dict[int, type[RoomError]] = {
    401: BadLink,
    403: NotAllowed,
    404: UnknownRoom,
    413: TooMuch,
    429: TooMuch,
}


@functools.cache
def tls() -> ssl.SSLContext:
    """One TLS context for every client of this process (building one reads the system's
    certificates, which is slow next to a request on 127.0.0.1)."""
    return ssl.create_default_context()


def new_id() -> str:
    return secrets.token_hex(8)


def new_nonce() -> str:
    """128 bits nobody can guess: once a session's seed is revealed, a hidden entry's dice
    stay secret only as long as its nonce does."""
    return secrets.token_hex(16)


def hello(token: str, after: int, witness: str | None = None) -> str:
    """A socket's first message: who this is, the last seq they saw, and the head of the
    chain they witness the room's rolls with (if they do)."""
    said: dict[str, Any] = {"type": "hello", "token": token, "after": after}
    if witness is not None:
        said["witness"] = witness
    return json.dumps(said)


def is_entry(frame: Mapping[str, Any]) -> bool:
    """Log entries carry a `seq`; control frames (welcome, ack, error, bye, presence) a `type`."""
    return "seq" in frame and "type" not in frame


class RoomClient:
    """One member's (or invite's) link to one room."""

    def __init__(
        self,
        link: str | Link,
        timeout: float = 10.0,
        nonces: Path | None = None,
        witness: tuple[Path, Path] | None = None,
    ) -> None:
        self.link = link if isinstance(link, Link) else Link.parse(link)
        self.nonces = nonces
        """Where each intent's id, nonce and digest are written down before it is sent."""
        self.witness = witness
        """Where `follow` keeps its chain and the heads it receives: it witnesses rolls."""
        self._http = httpx.Client(
            base_url=self.link.server,
            timeout=timeout,
            headers={"Authorization": f"Bearer {self.link.token}"},
            verify=tls(),
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> RoomClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # reading ------------------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        return self._call("GET", "").json()

    def legal(self) -> dict[str, Any]:
        return self._call("GET", "/legal").json()

    def log(self, after: int = 0) -> list[str]:
        """This member's view of the log after `after`, each line exactly as sent, read a
        page at a time (each answer's `Link` names the next)."""
        lines: list[str] = []
        while True:
            answer = self._call("GET", "/log", params={"after": after})
            lines += lines_of(answer.text)
            following = answer.links.get("next", {}).get("url")
            if not following:
                return lines
            after = int(parse_qs(urlsplit(following).query)["after"][0])

    def export(self) -> list[str]:
        return lines_of(self._call("GET", "/export").text)

    def follow(self, after: int = 0, reconnect: bool = True) -> Iterator[str]:
        """Every frame the live socket sends, as sent; after a dropped connection, resume
        from the last seq received, so nothing is missed or repeated."""
        url = self.link.server.replace("http", "ws", 1) + f"/rooms/{self.link.room}/live"
        witnessing = None if self.witness is None else Witnessing(self.link.room, *self.witness)
        while True:
            try:
                with connect(url, max_size=None, open_timeout=10) as socket:
                    head = None if witnessing is None else witnessing.chain.head
                    socket.send(hello(self.link.token, after, head))
                    for text in socket:
                        frame = json.loads(text)
                        if witnessing is not None:
                            reveal = witnessing.answer(frame)
                            if reveal is not None:
                                socket.send(reveal)
                            if is_entry(frame):
                                witnessing.received(frame)
                            for alarm in witnessing.alarms:
                                yield json.dumps({"type": "alarm", "text": alarm})
                            witnessing.alarms.clear()
                        if frame.get("type") == "error":
                            status = frame.get("status", 400)
                            if status in RETRY_STATUSES and reconnect:
                                break  # the room is moving: connect again
                            raise ERRORS.get(status, RoomError)(str(frame["error"]))
                        if is_entry(frame):
                            after = frame["seq"]
                        yield str(text)
                        if frame.get("type") == "bye":
                            if frame.get("retry") and reconnect:
                                break
                            return
            except (ConnectionClosed, OSError, TimeoutError, InvalidURI, WebSocketException):
                if not reconnect:
                    raise RoomError(f"lost the connection to {self.link.server}") from None
            time.sleep(0.5)

    # writing ------------------------------------------------------------------------------

    def act(
        self, intent: Mapping[str, Any], id: str | None = None, nonce: str | None = None
    ) -> dict[str, Any]:
        """Ask for any intent of the room's system; the ack with this member's view."""
        body = {"id": id or new_id(), "intent": dict(intent), "nonce": nonce or new_nonce()}
        body["digest"] = digest(body["intent"])
        if self.nonces is not None:
            keep(self.nonces, self.link.room, body["id"], body["nonce"], body["intent"])
        return self._call("POST", "/intents", json=body).json()

    def roll(self, notation: str, mode: str = "public", label: str = "") -> dict[str, Any]:
        return self.act({"kind": "roll", "notation": notation, "mode": mode, "label": label})

    def say(self, text: str, to: list[str] | None = None, id: str | None = None) -> dict[str, Any]:
        body = {"id": id or new_id(), "text": text, "to": list(to or [])}
        return self._call("POST", "/say", json=body).json()

    def undo(self) -> dict[str, Any]:
        return self._call("POST", "/undo", retry=False).json()

    def end_session(self) -> dict[str, Any]:
        return self._call("POST", "/end-session", retry=False).json()

    def kick(self, name: str) -> dict[str, Any]:
        return self._call("POST", "/kick", json={"member": name}).json()

    def rename(self, name: str, new_name: str) -> dict[str, Any]:
        return self._call("POST", "/rename", json={"member": name, "name": new_name}).json()

    def promote(self, name: str, role: str) -> dict[str, Any]:
        return self._call("POST", "/promote", json={"member": name, "role": role}).json()

    def rotate_invites(self) -> dict[str, str]:
        return self._call("POST", "/invites", retry=False).json()

    def rotate_link(self) -> str:
        return str(self._call("POST", "/link", retry=False).json()["link"])

    def join(self, name: str) -> str:
        """Join through this invite link: the new member's own link."""
        return str(self._call("POST", "/join", json={"name": name}, retry=False).json()["link"])

    # inside -------------------------------------------------------------------------------

    def _call(self, method: str, path: str, *, retry: bool = True, **kwargs: Any) -> httpx.Response:
        return request(self._http, method, f"/rooms/{self.link.room}{path}", retry, **kwargs)


def create_room(
    server: str,
    system: str,
    name: str = "",
    options: Mapping[str, Any] | None = None,
    gm: str = "GM",
    key: str | None = None,
) -> dict[str, str]:
    """Open a room: `{"room", "gm", "player", "observer"}` (the three are links); `key` is
    the server's, for a server that asks for one."""
    body = {"system": system, "name": name, "options": dict(options or {}), "gm": gm}
    with httpx.Client(base_url=server.rstrip("/"), timeout=10, verify=tls()) as http:
        return request(http, "POST", "/rooms", False, json=body, headers=_key(key)).json()


def import_log(server: str, lines: list[str], key: str | None = None) -> dict[str, str]:
    """A new room on `server` from a GM's export: its links, as `create_room` gives."""
    content = "".join(f"{line}\n" for line in lines).encode("utf-8")
    with httpx.Client(base_url=server.rstrip("/"), timeout=60, verify=tls()) as http:
        return request(http, "POST", "/import", False, content=content, headers=_key(key)).json()


def _key(key: str | None) -> dict[str, str]:
    """The header that carries a server's key, when there is one."""
    return {"Authorization": f"Bearer {key}"} if key else {}


def request(
    http: httpx.Client, method: str, path: str, retry: bool, **kwargs: Any
) -> httpx.Response:
    """One request, retried when it is safe to: on a failed connection, and, for up to
    `RETRY_FOR` seconds, on a 503 after its `Retry-After` (the server did nothing and asks
    for it again: the room is moving to another process), and a read answered 429 with when
    the member's allowance holds it again. A refusal becomes the room error
    its status means, with the server's one line."""
    deadline = time.monotonic() + RETRY_FOR
    while True:
        answer = _attempt(http, method, path, retry, **kwargs)
        paced = method == "GET" and answer.status_code == 429 and "retry-after" in answer.headers
        if not retry or (answer.status_code not in RETRY_STATUSES and not paced):
            break
        pause = _retry_after(answer)
        if time.monotonic() + pause > deadline:
            break
        time.sleep(pause)
    if answer.status_code >= 400:
        try:
            message = str(answer.json()["error"])
        except (ValueError, KeyError, TypeError):
            message = f"the server answered {answer.status_code}"
        raise ERRORS.get(answer.status_code, RoomError)(message)
    return answer


def _attempt(
    http: httpx.Client, method: str, path: str, retry: bool, **kwargs: Any
) -> httpx.Response:
    """The answer to one request, sent again on a failed connection when `retry`."""
    for attempt in range(RETRIES if retry else 1):
        try:
            return http.request(method, path, **kwargs)
        except httpx.TransportError as problem:
            if attempt == (RETRIES if retry else 1) - 1:
                raise RoomError(f"cannot reach {http.base_url}: {problem}") from None
            time.sleep(0.2 * (attempt + 1))
    raise AssertionError("unreachable")


def _retry_after(answer: httpx.Response) -> float:
    """The seconds a 503 or 429 asks to wait (at least a tenth, at most five)."""
    try:
        return min(max(float(answer.headers.get("retry-after", "0.5")), 0.1), 5.0)
    except ValueError:
        return 0.5


class LiveClient:
    """One member's live socket, asynchronous: for programs that hold many."""

    def __init__(self, link: str | Link) -> None:
        self.link = link if isinstance(link, Link) else Link.parse(link)
        self.socket: ClientConnection | None = None

    async def open(self, after: int = 0) -> dict[str, Any]:
        """Connect and say hello; the welcome frame."""
        url = self.link.server.replace("http", "ws", 1) + f"/rooms/{self.link.room}/live"
        self.socket = await connect_async(url, max_size=None, compression=None)
        await self.socket.send(
            json.dumps({"type": "hello", "token": self.link.token, "after": after})
        )
        return json.loads(await self.socket.recv())

    async def send_intent(
        self, intent: Mapping[str, Any], id: str | None = None, nonce: str | None = None
    ) -> str:
        """Send an intent; its id (the ack comes as a frame)."""
        assert self.socket is not None, "open the socket first"
        id = id or new_id()
        message = {
            "type": "intent",
            "id": id,
            "intent": dict(intent),
            "nonce": nonce or new_nonce(),
        }
        await self.socket.send(json.dumps(message)[:MAX_MESSAGE])
        return id

    async def frame(self) -> dict[str, Any]:
        assert self.socket is not None, "open the socket first"
        return json.loads(await self.socket.recv())

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
