"""Requests from another site, and answers no cache may keep.

A page on another site can make a member's browser send a request to this server (a form
posted, a `fetch` without reading the answer): to a server on 127.0.0.1 too. Browsers say
where such a request comes from, in `Origin` and `Sec-Fetch-Site`; a client that is not a
browser sends neither. So a request that changes anything (any method but GET and HEAD),
and any socket, is refused when it comes from another site: `Sec-Fetch-Site` says
`cross-site` or `same-site`, or `Origin` (`null` included) names another host than the one
the request was sent to (which `hosts.HostCheck` has checked). And every answer but a
static file says `Cache-Control: no-store`: a room's view, its log and an export hold
secrets no cache or shared computer should keep.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})

FOREIGN_SITES = frozenset({b"cross-site", b"same-site"})

CACHED = "/static/"
"""Paths whose answers a browser may keep (the pages' scripts and styles)."""


def from_another_site(headers: dict[bytes, bytes]) -> bool:
    """Whether a browser says this request comes from a page of another site."""
    if headers.get(b"sec-fetch-site", b"").lower() in FOREIGN_SITES:
        return True
    origin = headers.get(b"origin")
    if origin is None:
        return False
    host = headers.get(b"host", b"").decode("latin-1").strip().lower()
    parts = urlsplit(origin.decode("latin-1").strip().lower())
    return parts.scheme not in ("http", "https") or parts.netloc != host


class SameOrigin:
    """Refuse, with 403 and one line, a request that changes something (or a socket) from
    a page of another site, before any handler runs."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        kind = scope["type"]
        changes = kind == "websocket" or (kind == "http" and scope["method"] not in SAFE)
        if not changes or not from_another_site(dict(scope.get("headers", []))):
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        line = "this server takes no request that changes anything from another site's page"
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [(b"content-type", b"application/json"), *NO_STORE],
            }
        )
        await send({"type": "http.response.body", "body": json.dumps({"error": line}).encode()})


NO_STORE = [(b"cache-control", b"no-store")]


class NoStore:
    """`Cache-Control: no-store` on every HTTP answer but a static file's (unless it says
    otherwise itself)."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"].startswith(CACHED):
            await self.app(scope, receive, send)
            return

        async def sending(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(name.lower() == b"cache-control" for name, _ in headers):
                    message = {**message, "headers": [*headers, *NO_STORE]}
            await send(message)

        await self.app(scope, receive, sending)
