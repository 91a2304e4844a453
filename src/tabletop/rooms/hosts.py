"""Where people reach this server: links are built from its public URL, never from a
request's `Host` header, and a request naming a host that is not this server's is refused
before any handler sees it (a link echoing `Host: evil.example` would send a member's token
to whoever owns that name; a DNS-rebinding page would reach a server on 127.0.0.1).

`tabletop serve` passes `--public-url` (default: the address it binds) and any
`--allowed-host`, or with `--lan` this machine's address on its network (`lan_address`); an
app made without a public URL (tests, embedding) answers to loopback names only, on any
port, and builds links from the host it was reached at.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from tabletop.errors import DataError

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
"""Names every loopback server also answers to (a browser may say localhost for 127.0.0.1)."""

DEFAULT_PORTS = {"http": 80, "https": 443}

PROBE = "10.255.255.254"
"""A private address `lan_address` asks the way to: wherever there is a default route (a
router hands one out with or without internet) the way is through the LAN's interface."""


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address, without a port) is this machine only."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def outgoing_address(target: str) -> str | None:
    """The address this machine would send from to reach `target`, or None with no way
    there: "connecting" a UDP socket only asks the system for a route, and sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect((target, 9))  # the discard port: nothing is sent to it anyway
            return str(probe.getsockname()[0])
        except OSError:
            return None


def addresses_to_try() -> Iterator[str | None]:
    """Where this machine sends from on its default route, then the addresses its own name
    stands for (some systems name their LAN address so, with or without a router)."""
    yield outgoing_address(PROBE)
    try:
        yield from socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return


def lan_address(
    candidates: Callable[[], Iterable[str | None]] = addresses_to_try,
) -> str | None:
    """This machine's IPv4 address on its network, the one phones beside it can open, or
    None when it is on no network (no Wi-Fi, no cable: its only address is its own)."""
    for found in candidates():
        if found is not None and _on_a_network(found):
            return found
    return None


def _on_a_network(address: str) -> bool:
    """Whether another machine could reach `address`: not this machine's own, not "any",
    not a self-assigned link-local one (a network with no router to hand out addresses)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def split_host(value: str, default_port: int | None = None) -> tuple[str, int | None]:
    """`host[:port]` (an IPv6 address in brackets) as its lowercased name and its port."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        port = rest.removeprefix(":") if rest.startswith(":") else ""
        if rest and not rest.startswith(":"):
            raise ValueError(value)
    else:
        name, _, port = value.rpartition(":") if value.count(":") == 1 else (value, "", "")
    if port and not port.isdigit():
        raise ValueError(value)
    return name, int(port) if port else default_port


@dataclass(frozen=True)
class PublicAddress:
    """The URL links are built from and the hosts a request may name."""

    url: str | None
    """`scheme://host[:port]`, or None: loopback names only, links from the request."""
    allowed: frozenset[tuple[str, int | None]] = frozenset()
    """More `(host, port)` a request may name (`--allowed-host`); port None: any port."""

    @classmethod
    def parse(cls, url: str | None, allowed: Iterable[str] = ()) -> PublicAddress:
        """From `--public-url` and `--allowed-host`, or `DataError` naming what is wrong."""
        hosts = set()
        for value in allowed:
            try:
                hosts.add(split_host(value))
            except ValueError:
                raise DataError(f"--allowed-host {value[:80]!r} is not HOST or HOST:PORT") from None
        if url is None:
            return cls(None, frozenset(hosts))
        parts = urlsplit(url.strip())
        try:
            port = parts.port
        except ValueError:
            port = -1
        bad_path = parts.path not in ("", "/") or parts.query or parts.fragment
        if parts.scheme not in DEFAULT_PORTS or not parts.hostname or port == -1 or bad_path:
            raise DataError(
                f"--public-url {url[:80]!r} is not http(s)://HOST[:PORT] (rooms are served "
                "at the root of the address, without a path)"
            )
        host = parts.hostname
        if host in ("0.0.0.0", "::"):
            raise DataError(
                f"{host} means every address of this machine, not one people can open: "
                "say which with --public-url http://HOST:PORT"
            )
        shown = f"[{host}]" if ":" in host else host
        base = f"{parts.scheme}://{shown}" + (f":{port}" if port is not None else "")
        return cls(base, frozenset(hosts))

    @classmethod
    def on_lan(cls, lan: str, port: int, allowed: Iterable[str] = ()) -> PublicAddress:
        """`--lan`: links name this machine's address on its network, and its loopback names
        are still answered on that port, so the GM's links on 127.0.0.1 (and the invites their
        browser keeps for them) go on working."""
        loopback = (f"{name}:{port}" for name in ("127.0.0.1", "localhost"))
        return cls.parse(f"http://{lan}:{port}", [*allowed, *loopback])

    @property
    def own(self) -> tuple[str, int | None] | None:
        """The host and port of the public URL."""
        if self.url is None:
            return None
        parts = urlsplit(self.url)
        return str(parts.hostname), parts.port or DEFAULT_PORTS[parts.scheme]

    @property
    def loopback(self) -> bool:
        """Whether every host this server answers to is this machine alone."""
        own = self.own
        return (own is None or is_loopback(own[0])) and all(
            is_loopback(host) for host, _ in self.allowed
        )

    def accepts(self, host_header: str) -> bool:
        """Whether a request naming `host_header` is meant for this server: the public
        URL's host (or, for a loopback one, any loopback name) or an allowed host, on its
        port or on none (a proxy in front names the host alone)."""
        try:
            name, port = split_host(host_header)
        except ValueError:
            return False
        for allowed, allowed_port in self.allowed:
            if name == allowed and (port is None or allowed_port in (None, port)):
                return True
        own = self.own
        if own is None:
            return is_loopback(name)
        names = {own[0]} | (LOOPBACK_NAMES if is_loopback(own[0]) else set())
        return name.strip("[]") in names and port in (None, own[1])

    def base(self, host_header: str, scheme: str = "http") -> str:
        """The start of every link: the public URL, or (with none) the loopback host the
        request reached, which `accepts` has checked."""
        return self.url or f"{scheme}://{host_header.strip().lower()}"


class HostCheck:
    """Refuse with 400 `{"error": …}` an HTTP request or a socket whose `Host` names
    another server, before any handler runs."""

    def __init__(self, app: Callable[..., Awaitable[None]], address: PublicAddress) -> None:
        self.app = app
        self.address = address

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        host = headers.get(b"host", b"").decode("latin-1")
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        if self.address.accepts(host):
            scope.setdefault("state", {})["base"] = self.address.base(host, scheme)
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        where = self.address.url or "a loopback address"
        body = json.dumps({"error": f"this server answers to {where} only (Host header)"})
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body.encode()})
