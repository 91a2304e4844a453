"""Rooms on a fresh SQLite store for each test, and servers that tests start and stop."""

from __future__ import annotations

import hashlib
import itertools
import json
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tabletop.rooms import Hall, SqliteStore, Store, verify
from tabletop.rooms.allowances import RATE, Rates
from tabletop.rooms.client import RoomClient, create_room, hello, is_entry
from tabletop.rooms.errors import BadLink, TooMuch
from tabletop.rooms.nonces import read_book
from tabletop.rooms.postgres import PostgresStore
from tabletop.rooms.protocol import MAX_MESSAGE
from tabletop.rooms.server import BOT_PAUSE, create_app
from tabletop.rooms.tokens import Link
from tabletop.session import Member

TEST_SEED = bytes(range(32))


def fixed_seed() -> bytes:
    """Every dice seed of a test server's rooms (each dice session the same one, so no room
    depends on the tests before it): with the fixed client nonces (tests/conftest.py, and
    the pages' init script), each die a test sees is the same on every run, in any order."""
    return TEST_SEED


SLIPPERY = (
    "it's 100% \\ done'); DELETE FROM entries; -- $1 %s %(x)s ?\n"
    "\t\"quoted\" \\x00 é 🎲 E'\\'' $$ $tag$"
)
"""Text that would change the SQL if a store bound it wrongly, or that a bound form
could mangle (quotes, backslashes, placeholders of each kind, dollar quoting)."""


def fixed_seeds() -> Callable[[], bytes]:
    """The seeds of one test's hall: the same sequence on every run, each dice session its
    own (a new session must commit to a new seed)."""
    count = itertools.count()
    return lambda: hashlib.sha256(TEST_SEED + str(next(count)).encode()).digest()


@dataclass
class Seated:
    """A room with a GM and two players, Ada and Bo, and an observer."""

    hall: Hall
    room: str
    tokens: dict[str, str]
    """Each member's own token by name, and the invites by role."""

    def member(self, name: str) -> Member:
        return self.hall.who(self.room, self.tokens[name])


@pytest.fixture(scope="session")
def postgres():
    """A real PostgreSQL 16 (pgserver), started once per test process, stopped at the end.
    Its data lies outside pytest's own temporary directory: run as root, pgserver opens that
    directory's parents to its `pgserver` user, and every pytest session that starts on the
    machine (another engineer's, or a second worker) closes /tmp/pytest-of-<user> again, so
    PostgreSQL, started there, lost its own files mid-run (initdb's "pg_control: Permission
    denied")."""
    import pgserver

    data = Path(tempfile.mkdtemp(prefix="tabletop-pg-"))
    server = pgserver.get_server(data, cleanup_mode="stop")
    # The tests kill servers of rooms, never PostgreSQL: its own flushes to disk only slow
    # them down (stopping it took 17 s of fsync on this machine).
    server.psql("ALTER SYSTEM SET fsync = off;")
    server.psql("ALTER SYSTEM SET synchronous_commit = off;")
    server.psql("SELECT pg_reload_conf();")
    yield server
    server.cleanup()
    shutil.rmtree(data, ignore_errors=True)


def new_database(postgres: Any) -> str:
    """The URL of a fresh, empty database on the test PostgreSQL."""
    name = f"rooms_{secrets.token_hex(6)}"
    postgres.psql(f"CREATE DATABASE {name};")
    return str(postgres.get_uri(name))


def open_test_store(kind: str, request: pytest.FixtureRequest, path: Path) -> Store:
    if kind == "sqlite":
        return SqliteStore(path / "rooms.sqlite3")
    return PostgresStore(new_database(request.getfixturevalue("postgres")))


@pytest.fixture(params=["sqlite", "postgresql"])
def hall(request, tmp_path):
    store = open_test_store(request.param, request, tmp_path)
    yield Hall(store, seeds=fixed_seeds())
    store.close()


def seat(hall: Hall, system: str) -> Seated:
    made = hall.create(system, "the crypt")
    room, tokens = made.extra["room"], dict(made.extra["tokens"])
    tokens["GM"] = tokens["gm"]
    for name, invite in (("Ada", "player"), ("Bo", "player"), ("Watcher", "observer")):
        tokens[name] = hall.join(room, tokens[invite], name).extra["token"]
    return Seated(hall, room, tokens)


@pytest.fixture
def dice_room(hall) -> Seated:
    return seat(hall, "dice")


@pytest.fixture
def dead_weight_room(hall) -> Seated:
    return seat(hall, "dead-weight")


# servers ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Running:
    url: str
    stop: Callable[[], None]
    app: Any = None
    """The app served (its front is `app.state.front` once started)."""


def serve_in_thread(
    store: Store,
    rate: float = RATE,
    bot_pause: float = BOT_PAUSE,
    workers: int = 1,
    pool: int = 1,
    rates: Rates | None = None,
    trusted: tuple[str, ...] = (),
    port: int | None = None,
    **app: Any,
) -> Running:
    """The app over `store` on `port` of 127.0.0.1 (a free one by default), in a thread of
    this process, with its worker processes (one shard and one pool worker unless asked for
    more). Every test comes from 127.0.0.1, so the address allowance is wide unless `rates`
    says otherwise; its dice are fixed (`fixed_seed`) unless `app` names `seeds`; `app` goes
    to `create_app` (a public address, who may open rooms)."""
    port = port or free_port()
    app.setdefault("seeds", fixed_seed)
    rates = rates or Rates(member=rate, address=10_000, address_burst=10_000)
    served = create_app(
        store, bot_pause=bot_pause, workers=workers, pool=pool, rates=rates, trusted=trusted, **app
    )
    config = uvicorn.Config(
        served,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_max_size=MAX_MESSAGE,
        proxy_headers=False,  # as `tabletop serve` runs it
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120  # the workers start beside a busy test suite
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=10)

    return Running(f"http://127.0.0.1:{port}", stop, served)


def serve_in_process(*args: str, log: Path | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """`tabletop serve` in its own process on a free port, once it answers /health."""
    return serve_at(free_port(), *args, log=log)


def serve_at(port: int, *args: str, log: Path | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """`tabletop serve` in its own process on `port`, once it answers /health; its stderr
    goes to the file `log` if given (a pipe nobody reads would stop a server that writes
    much), else to a pipe read if it fails to start."""
    command = [sys.executable, "-c", "from tabletop.cli.app import main; main()", "serve"]
    process = subprocess.Popen(
        [*command, "--port", str(port), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE if log is None else log.open("wb"),
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120  # its workers start beside a busy test suite
    while True:
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return process, url
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            said = process.stderr.read() if log is None else log.read_bytes()
            raise RuntimeError(f"the server did not start: {said!r}")
        time.sleep(0.05)


def stop_process(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process.stderr is not None:
        process.stderr.close()


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory):
    """A server on each database for the tests of a test process (each opens rooms of its
    own): one for the session, not one a module, as each start brings up its shard and pool
    processes and the tests that use it share nothing else."""
    store = open_test_store(request.param, request, tmp_path_factory.mktemp("served"))
    running = serve_in_thread(store)
    yield running.url
    running.stop()
    store.close()


@dataclass
class Party:
    """A room on a running server: the GM's, two players' and an observer's clients, each
    keeping the nonces it sends in a book of its own."""

    url: str
    room: str
    links: dict[str, str]
    gm: RoomClient
    ada: RoomClient
    bo: RoomClient
    watcher: RoomClient

    @property
    def clients(self) -> tuple[RoomClient, ...]:
        return (self.gm, self.ada, self.bo, self.watcher)

    def verified(self) -> None:
        """Every honest room verifies (docs/rooms.md): the GM's full export through the
        rules, and each member's own, each with the nonces that member sent (`--mine`),
        once the GM has ended the dice session so that every die can be checked. A link
        the test rotated or kicked opens nothing any more, and is passed over."""
        for client in self.clients:
            try:
                me, export = self._exported(client)
            except BadLink:
                continue
            except TooMuch:  # the test spent the member's allowance: it refills in a second
                time.sleep(1.5)
                me, export = self._exported(client)
            mine = read_book(client.nonces, self.room) if client.nonces.exists() else {}
            audit = verify(export, mine, me)
            assert client is not self.gm or (audit.view == "full" and audit.ruled)

    def _exported(self, client: RoomClient) -> tuple[str, list[str]]:
        """Whose the client is and its export (the GM's once the session is ended)."""
        if client is self.gm:
            client.end_session()
        return client.view()["me"]["id"], client.export()

    def close(self, verified: bool = True) -> None:
        """The clients closed, after checking the room verifies (`verified`: a test that
        took the room's server away says False)."""
        try:
            if verified:
                self.verified()
        finally:
            for client in self.clients:
                client.close()


def party(url: str, system: str) -> Party:
    made = create_room(url, system, "the crypt")
    joined = {}
    for name, invite in (("Ada", "player"), ("Bo", "player"), ("Watcher", "observer")):
        with RoomClient(made[invite]) as inviting:
            joined[name] = inviting.join(name)
    books = Path(tempfile.mkdtemp(prefix="nonces-"))
    links = {"GM": made["gm"], **joined}
    clients = [RoomClient(link, nonces=books / f"{name}.jsonl") for name, link in links.items()]
    return Party(url, made["room"], {**made, **joined}, *clients)


class Recorder:
    """A member's live socket in a thread, keeping every frame exactly as received."""

    def __init__(self, link: str, after: int = 0, witness: str | None = None) -> None:
        parsed = Link.parse(link)
        url = parsed.server.replace("http", "ws", 1) + f"/rooms/{parsed.room}/live"
        self.frames: list[str] = []
        self.closed = threading.Event()
        self._arrived = threading.Condition()
        self._stack = ExitStack()
        self._socket = self._stack.enter_context(connect(url, max_size=None))
        self._socket.send(hello(parsed.token, after, witness))
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for frame in self._socket:
                with self._arrived:
                    self.frames.append(str(frame))
                    self._arrived.notify_all()
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            with self._arrived:
                self._arrived.notify_all()

    def send(self, message: dict[str, Any] | str) -> None:
        self._socket.send(message if isinstance(message, str) else json.dumps(message))

    def sync(self) -> None:
        """Wait until everything appended so far has reached this socket (a ping's pong
        is queued behind it)."""
        before = len(self.frames)
        self.send({"type": "ping"})
        self.wait_for(lambda f: f.get("type") == "pong", start=before)

    def wait_for(self, found: Callable[[dict[str, Any]], bool], start: int = 0) -> dict[str, Any]:
        """The first frame from `start` on that `found` accepts, waiting up to ten seconds."""
        deadline = time.monotonic() + 10
        with self._arrived:
            while True:
                for frame in self.frames[start:]:
                    if found(json.loads(frame)):
                        return json.loads(frame)
                start = len(self.frames)
                if self.closed.is_set():
                    raise AssertionError(f"the socket closed first: {self.frames[-3:]}")
                if time.monotonic() > deadline:
                    raise AssertionError(f"no such frame arrived: {self.frames[-3:]}")
                self._arrived.wait(timeout=0.5)

    def entries(self) -> list[dict[str, Any]]:
        return [json.loads(f) for f in self.frames if is_entry(json.loads(f))]

    def close(self) -> None:
        self._stack.close()
        self._thread.join(timeout=5)
