"""`tabletop serve`: the room server on this machine (uvicorn), until Ctrl-C or SIGTERM."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Annotated

import typer

from tabletop.cli.output import console
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
) -> None:
    """Serve rooms: a GM opens one with `tabletop room new --server URL --system S`."""
    fresh = not database and not (data / "rooms.sqlite3").exists()
    import uvicorn  # the server's libraries load only when a server starts

    from tabletop.rooms.server import create_app

    app = create_app(data=data, database=database, rate=rate)
    address = f"http://{host}:{port}"
    where = "PostgreSQL" if database else f"SQLite in {data}"
    console.print(f"tabletop rooms on {address} ({where}); Ctrl-C stops", **PLAIN_LINE)
    if fresh:
        console.print(
            f"create a room: tabletop room new --server {address} --system dice", **PLAIN_LINE
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
