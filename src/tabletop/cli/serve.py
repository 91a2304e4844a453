"""`tabletop serve`: the room server on this machine (uvicorn), until Ctrl-C or SIGTERM."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Annotated

import typer

from tabletop.cli.output import console
from tabletop.errors import DataError
from tabletop.rooms.access import ROOM_QUOTA, Access
from tabletop.rooms.hosts import PublicAddress, is_loopback
from tabletop.rooms.live import RATE
from tabletop.rooms.protocol import MAX_MESSAGE

PLAIN_LINE = {"markup": False, "highlight": False, "soft_wrap": True}


def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port.")] = 8000,
    data: Annotated[
        Path, typer.Option("--data", help="Directory of the embedded SQLite database.")
    ] = Path("tabletop-data"),
    database: Annotated[
        str,
        typer.Option("--database", help="A postgresql:// URL instead of SQLite.", metavar="URL"),
    ] = "",
    rate: Annotated[
        float,
        typer.Option("--rate", min=0.1, help="Requests a second per member and per socket."),
    ] = RATE,
    public_url: Annotated[
        str,
        typer.Option(
            "--public-url",
            metavar="URL",
            help="The address people open (links are built from it; a request naming "
            "another host is refused). Default: http://HOST:PORT as bound; behind a proxy, "
            "the proxy's https:// address.",
        ),
    ] = "",
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            metavar="HOST[:PORT]",
            help="Another Host a request may name (repeatable): the name a proxy forwards.",
        ),
    ] = None,
    open_: Annotated[
        bool,
        typer.Option(
            "--open",
            help="Anyone who reaches the server may open rooms, within --room-quota an hour "
            "(needed, or --key-file, unless the server is on this machine only).",
        ),
    ] = False,
    key_file: Annotated[
        Path | None,
        typer.Option(
            "--key-file",
            metavar="PATH",
            help="Opening and importing rooms need the key in this file "
            "(Authorization: Bearer KEY; the lobby asks for it once).",
        ),
    ] = None,
    room_quota: Annotated[
        int,
        typer.Option("--room-quota", min=1, help="With --open: new rooms an hour, server-wide."),
    ] = ROOM_QUOTA,
) -> None:
    """Serve rooms: a GM opens one with `tabletop room new --server URL --system S`.

    On this machine alone (a loopback address) anyone who reaches it may open rooms;
    listening or answering anywhere else needs --open or --key-file (docs/rooms.md, "Who
    may open rooms")."""
    address = PublicAddress.parse(public_url or _bound(host, port), allowed_host or ())
    access = _access(host, address, open_, key_file, room_quota)
    fresh = not database and not (data / "rooms.sqlite3").exists()
    import uvicorn  # the server's libraries load only when a server starts

    from tabletop.rooms.server import create_app

    app = create_app(data=data, database=database, rate=rate, address=address, access=access)
    where = "PostgreSQL" if database else f"SQLite in {data}"
    who = {"local": "this machine", "open": "anyone (--open)", "key": "holders of the key"}
    console.print(
        f"tabletop rooms on {address.url} ({where}; rooms opened by {who[access.mode]}); "
        "Ctrl-C stops",
        **PLAIN_LINE,
    )
    if fresh:
        console.print(
            f"create a room: tabletop room new --server {address.url} --system dice", **PLAIN_LINE
        )
    sys.stdout.flush()
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=MAX_MESSAGE,
        lifespan="on",
    )
    # uvicorn shuts down gracefully on SIGTERM and then re-raises it: let that end the
    # process as SIGTERM does, rather than the command line's one-line "terminated".
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    uvicorn.Server(config).run()


def _bound(host: str, port: int) -> str:
    """The URL of the address `serve` binds (an IPv6 address in brackets)."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _access(
    host: str, address: PublicAddress, open_: bool, key_file: Path | None, quota: int
) -> Access:
    """Who may open rooms: a server reachable from elsewhere must be told (docs/rooms.md,
    "Who may open rooms")."""
    if open_ and key_file is not None:
        raise DataError("--open and --key-file are two answers to who may open rooms: give one")
    if key_file is not None:
        return Access.from_key_file(key_file)
    if open_:
        return Access("open", quota=quota)
    if not (is_loopback(host) and address.loopback):
        raise DataError(
            f"{address.url} can be reached from other machines: say who may open rooms there, "
            "--open (anyone, within --room-quota) or --key-file PATH (holders of a key)"
        )
    return Access("local")
