"""`tabletop serve`: the room server on this machine (uvicorn), until Ctrl-C or SIGTERM."""

from __future__ import annotations

import errno
import ipaddress
import os
import signal
import socket
import sys
import textwrap
from pathlib import Path
from typing import Annotated

import typer

from tabletop.cli.output import console
from tabletop.errors import DataError, TabletopError
from tabletop.rooms.access import ROOM_QUOTA, Access, own_key_file
from tabletop.rooms.allowances import (
    ADDRESS_BURST,
    ADDRESS_RATE,
    IPV6_PREFIX,
    RATE,
    READ_COST,
    Rates,
)
from tabletop.rooms.budgets import MAX_ROOM_DICE
from tabletop.rooms.errors import RoomError
from tabletop.rooms.front import cores, shards_for
from tabletop.rooms.hosts import PublicAddress, is_loopback, lan_address
from tabletop.rooms.leases import IDLE_IN_TRANSACTION, LEASE, RENEWALS
from tabletop.rooms.live import MAX_QUEUED, MAX_SOCKETS
from tabletop.rooms.protocol import MAX_IMPORT, MAX_MESSAGE
from tabletop.rooms.texts import ROOM_TEXT

PLAIN_LINE = {"markup": False, "highlight": False, "soft_wrap": True}

LOOPBACK = "127.0.0.1"

BACKLOG = 2048
"""Connections waiting to be accepted on each listening socket (uvicorn's own default)."""

KEY_NAME = "server-key"
"""The file in --data where `--lan` keeps its server key, unless --key-file names another."""

HELP = "\n\n".join(
    textwrap.fill(" ".join(paragraph.split()), 76)  # within an 80-column terminal
    for paragraph in (
        """Serve rooms: a GM opens one in the lobby (the address it prints) or with `tabletop
        room new --server URL --system S`.""",
        """Phones and other computers on your network: `tabletop serve --lan` finds this
        computer's address there, listens on it and on 127.0.0.1 (nowhere else), puts it in
        every link and QR code, and makes a server key in --data (or at --key-file) that
        opening a room then needs. Without --lan the server is on this computer alone.""",
        """On this machine alone (a loopback address) anyone who reaches it may open rooms;
        listening or answering anywhere else needs --open or --key-file (docs/rooms.md, "Who
        may open rooms").""",
        """One process: its event loop moves bytes (HTTP, sockets, allowances); --workers
        shard processes each own the rooms that hash to them (rules, dice, folding, the
        store), one request of a room at a time in arrival order; a --pool of
        lower-priority processes thinks for bots and verifies, imports and exports logs.""",
        """One process, SQLite: `tabletop serve` (127.0.0.1:8000, rooms in --data; on a
        LAN add --lan, or say it all: --host 0.0.0.0 --public-url http://ADDRESS:8000
        --key-file KEY). SQLite takes no leases: one process only.""",
        """Several processes behind nginx, one PostgreSQL: start each on its own loopback
        port with the same --database, e.g. `tabletop serve --port 8001 --database
        postgresql://tabletop@/rooms --public-url https://tables.example.org --key-file
        /etc/tabletop/key --trust-proxy 127.0.0.1` and again with --port 8002
        (deploy/tabletop@.service is the systemd unit, one instance per port), and put
        nginx in front with deploy/nginx.conf (TLS there; `hash $room consistent` sends a
        room's requests and sockets to one process; a 503 sends them to the next). Each
        room is served by one process at a time, the holder of its lease (--lease); a
        process asked for a room another live process holds answers 503 with
        Retry-After. docs/rooms.md, "Running a server for many tables".""",
        f"""Bounds: an intent throws at most {MAX_ROOM_DICE} dice, counting every explosion
        a die may add and every re-roll (refused whole before any die); MCTS bots think
        2,000 simulations a decision at most; messages and bodies
        {MAX_MESSAGE // 1024} KiB, /import and /verify {MAX_IMPORT // 2**20} MiB (exports
        stream at any size). Each member: --rate requests a second over all
        their sockets and HTTP together (bursts of twice that; a read costs
        {READ_COST:g}), {MAX_SOCKETS} sockets, {MAX_QUEUED // 2**20} MiB waiting for a slow
        socket. Each client address: --address-rate a second (bursts of
        {ADDRESS_BURST:g}) to open, join, import or verify rooms or with links that open
        nothing (a body costs one more a MiB); an IPv6 client's allowance is its
        --ipv6-prefix network's (a /64 by default). X-Forwarded-For is read only from a
        --trust-proxy address. With PostgreSQL, each room's lease: --lease
        seconds (default {LEASE:g}), renewed {RENEWALS} times a lease; a dead process's
        rooms move after at most one lease; a session paused inside a transaction is
        ended by PostgreSQL after {IDLE_IN_TRANSACTION} leases; an idle room's lease is
        given up after a minute.""",
    )
)


def serve_command(
    host: Annotated[
        str | None,
        typer.Option(
            "--host", help="Address to listen on (default 127.0.0.1: this computer alone)."
        ),
    ] = None,
    lan: Annotated[
        bool,
        typer.Option(
            "--lan",
            help="Reach it from phones on this network: listen on this computer's address "
            "there and on 127.0.0.1, build links from it, and make (or reuse) a server key.",
        ),
    ] = False,
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
        typer.Option(
            "--rate", min=0.1, help="Requests a second per member, over all their sockets and HTTP."
        ),
    ] = RATE,
    address_rate: Annotated[
        float,
        typer.Option(
            "--address-rate",
            min=0.1,
            help="Requests a second per client address to open, join, import or verify rooms.",
        ),
    ] = ADDRESS_RATE,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            max=64,
            help="Shard processes (default: the number of cores with PostgreSQL, 1 with SQLite; "
            "several servers on one machine share its cores out).",
        ),
    ] = None,
    pool: Annotated[
        int | None,
        typer.Option(
            "--pool",
            min=1,
            max=64,
            help="Low-priority processes for bots, verify, import and export (default: cores).",
        ),
    ] = None,
    lease: Annotated[
        float,
        typer.Option(
            "--lease",
            min=1.0,
            max=600.0,
            metavar="SECONDS",
            help="With PostgreSQL: how long a room's lease lasts (a dead process's rooms "
            "move after at most this long).",
        ),
    ] = LEASE,
    trust_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trust-proxy",
            metavar="ADDR",
            help="A reverse proxy (IP or network) whose X-Forwarded-For names the client; repeat.",
        ),
    ] = None,
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
    room_text: Annotated[
        float,
        typer.Option(
            "--room-text",
            min=1.0,
            max=1024.0,
            metavar="MIB",
            help="What a room's members (not its GMs) may type in all, chat and notes and "
            "labels, until its GM gives it another allowance.",
        ),
    ] = ROOM_TEXT / 2**20,
    ipv6_prefix: Annotated[
        int,
        typer.Option(
            "--ipv6-prefix",
            min=48,
            max=128,
            metavar="BITS",
            help="IPv6 clients share an address allowance per network of this prefix.",
        ),
    ] = IPV6_PREFIX,
) -> None:
    allowed = tuple(allowed_host or ())
    found, said = _lan(host, public_url, open_) if lan else (None, [])
    if found is not None:
        key_file = key_file or data / KEY_NAME
        said.append(_key_line(key_file, own_key_file(key_file)))
    listen = (found, LOOPBACK) if found else (host or LOOPBACK,)
    address = _address(found, listen[0], public_url, port, allowed)
    access = _access(listen[0], address, open_, key_file, room_quota)
    fresh = not database and not (data / "rooms.sqlite3").exists()
    import uvicorn  # the server's libraries load only when a server starts

    from tabletop.rooms.allowances import proxy_network
    from tabletop.rooms.databases import open_store
    from tabletop.rooms.memory import quiet_collector
    from tabletop.rooms.server import create_app

    trusted = tuple(trust_proxy or ())
    for proxy in trusted:
        proxy_network(proxy)  # a mistyped proxy is one line now, not a failed start
    try:  # the schema, migrated once, before any worker opens the store
        opened = open_store(database or None, data)
        store = opened.address
        opened.close()
    except TabletopError:
        raise
    except Exception as problem:  # the database's own error (unreachable, no such file…)
        first = str(problem).strip().splitlines()[0] if str(problem).strip() else ""
        why = first or type(problem).__name__
        raise RoomError(f"cannot open the rooms' database: {why}") from None
    sockets = _listen(listen, port)
    if port == 0:  # the port the system chose, in links and in the names requests give
        port = sockets[0].getsockname()[1]
        address = _address(found, listen[0], public_url, port, allowed)
    if found is not None:
        said[:0] = _listening(found, port)
    shards, helpers = workers or shards_for(store), pool or cores()
    rates = Rates(member=rate, address=address_rate, ipv6_prefix=ipv6_prefix)
    app = create_app(
        data=data,
        database=database,
        rates=rates,
        workers=shards,
        pool=helpers,
        trusted=trusted,
        address=address,
        access=access,
        lease=lease,
        room_text=int(room_text * 2**20),
    )
    where = "PostgreSQL" if database else f"SQLite in {data}"
    who = {"local": "this machine", "open": "anyone (--open)", "key": "holders of the key"}
    for line in said:
        console.print(line, **PLAIN_LINE)
    console.print(
        f"tabletop rooms on {address.url} ({where}, {shards} shard and {helpers} pool "
        f"workers; rooms opened by {who[access.mode]}); Ctrl-C stops",
        **PLAIN_LINE,
    )
    for line in _reach(address, found):
        console.print(line, **PLAIN_LINE)
    if fresh:
        keyed = f" --key-file {key_file}" if access.mode == "key" else ""
        console.print(
            f"create a room: tabletop room new --server {address.url} --system dice{keyed}",
            **PLAIN_LINE,
        )
    sys.stdout.flush()
    config = uvicorn.Config(
        app,
        host=listen[0],
        port=port,
        log_level="warning",
        ws_max_size=MAX_MESSAGE,
        lifespan="on",
        proxy_headers=False,  # X-Forwarded-For is read by the front, from --trust-proxy only
    )
    # uvicorn shuts down gracefully on SIGTERM and then re-raises it: let that end the
    # process as SIGTERM does, rather than the command line's one-line "terminated".
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    quiet_collector()
    uvicorn.Server(config).run(sockets=sockets)


serve_command.__doc__ = HELP


def _bound(host: str, port: int) -> str:
    """The URL of the address `serve` binds (an IPv6 address in brackets)."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _lan(host: str | None, public_url: str, open_: bool) -> tuple[str | None, list[str]]:
    """`--lan`: this computer's address on its network, or None and the line that says it
    serves this computer alone for now; `DataError` for an option that says otherwise."""
    for given, option, what in (
        (host, "--host", "listens on this computer's network address and 127.0.0.1"),
        (public_url, "--public-url", "puts this computer's network address in links"),
        (open_, "--open", "opens rooms for holders of the server key it makes"),
    ):
        if given:
            raise DataError(f"--lan {what}: give --lan or {option}, not both")
    found = lan_address()
    if found is None:
        return None, [
            "--lan: this computer is on no network (it has no address but its own: is Wi-Fi "
            "on, or a cable in?), so for now it serves this computer alone"
        ]
    return found, []


def _address(
    found: str | None, host: str, public_url: str, port: int, allowed: tuple[str, ...]
) -> PublicAddress:
    """Where links point: this computer's network address with --lan, else --public-url
    or the address bound."""
    if found is not None:
        return PublicAddress.on_lan(found, port, allowed)
    return PublicAddress.parse(public_url or _bound(host, port), allowed)


def _listen(hosts: tuple[str, ...], port: int) -> list[socket.socket]:
    """A listening socket on each of `hosts`, all on one port (the first one's, when the
    system picks it), or `DataError` in one line before the server starts."""
    sockets: list[socket.socket] = []
    for host in hosts:
        name = host.strip("[]")
        listening = socket.socket(socket.AF_INET6 if ":" in name else socket.AF_INET)
        sockets.append(listening)
        try:
            if os.name == "posix":  # as uvicorn does: a restart need not wait out TIME_WAIT
                listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listening.bind((name, port))
            listening.listen(BACKLOG)
        except OSError as problem:
            for made in sockets:
                made.close()
            why = problem.strerror or type(problem).__name__
            busy = problem.errno == errno.EADDRINUSE
            hint = " (another server is on it: pick another with --port)" if busy else ""
            raise DataError(f"cannot listen on {host} port {port}: {why}{hint}") from None
        port = sockets[0].getsockname()[1]
    return sockets


def _key_line(key_file: Path, made: bool) -> str:
    """What `--lan` did with the server key, and where the key is."""
    kept = key_file.resolve()
    return (
        f"--lan: {'made a' if made else 'using the'} server key in {kept} (only you can read "
        "it); opening a room asks for it: the lobby once a tab, or `tabletop room new "
        f"--key-file {kept}`"
    )


def _listening(found: str, port: int) -> list[str]:
    """Where `--lan` listens, and what an internet address there means."""
    lines = [
        f"--lan: this computer is {found} on its network; listening there and on "
        f"{LOOPBACK} (this computer), port {port}, and on no other address"
    ]
    if ipaddress.ip_address(found).is_global:
        lines.append(
            f"--lan: {found} is an internet address, not a private one: anyone who can reach "
            "this computer can reach the server (opening a room still needs the key)"
        )
    return lines


def _reach(address: PublicAddress, found: str | None) -> list[str]:
    """Who can open the links, in the terminal: a new GM's first question."""
    if found is not None:
        return [
            "phones and computers on the same network open its invite links and QR codes; "
            "rooms opened before keep their invites, now at this address (the GM's page "
            "shows them)"
        ]
    if not address.loopback or address.own is None:
        return []
    return [
        f"only this computer can open its links: they point at {address.own[0]}, which on a "
        "phone or another computer means that device itself. To play with people on your "
        "network, stop it (Ctrl-C) and start `tabletop serve --lan`: rooms and their "
        "invites carry over"
    ]


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
