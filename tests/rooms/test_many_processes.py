"""Many processes behind nginx on one PostgreSQL, as deploy/nginx.conf runs them: two
`tabletop serve` processes (leases of three seconds), nginx as a child of the test with the
shipped configuration on loopback ports, and a GM and a player playing Dead Weight through
the proxy with `tabletop.rooms.client`.

- The room's owner is killed mid-scene (SIGKILL, the whole process group): the other takes
  the room once the lease expires, the scene finishes there, no acknowledged entry is lost,
  the player's socket resumes from its last seq, and the export verifies.
- The owner is frozen (SIGSTOP) inside an append, past its lease; the other takes the room;
  the owner wakes (SIGCONT) and its append is refused by the lease check in its own
  transaction (fencing): nothing of it is in the log.

Nothing waits on a fixed sleep: every wait is for a condition (the database's lease row,
a backend waiting on a lock, a frame) with a generous deadline.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import connect

from tabletop.rooms import verify
from tabletop.rooms.client import RoomClient, create_room, hello, is_entry
from tabletop.rooms.tokens import Link
from tests.rooms.conftest import free_port, new_database
from tests.rooms.test_durability import moved

NGINX = Path("/usr/sbin/nginx")
SHIPPED = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"

LEASE = 3.0
"""Seconds a room's lease lasts in these tests: short, so that rooms move within seconds,
and long enough that a live process's renewals (every 0.6 s) are not late on a busy
machine."""

DEADLINE = 60.0
"""Seconds any awaited condition may take on a busy two-core machine."""

SHEET = {"name": "Amber", "attributes": {"DEX": {"score": 3}}}


def until(condition: Callable[[], Any], what: str, deadline: float = DEADLINE) -> Any:
    """The first truthy value of `condition`, polled until `deadline` seconds pass."""
    ends = time.monotonic() + deadline
    while True:
        found = condition()
        if found:
            return found
        assert time.monotonic() < ends, f"waited {deadline:g} s for {what}"
        time.sleep(0.05)


# nginx ---------------------------------------------------------------------------------------


def proxy_config(upstreams: list[int], port: int, redirect: int) -> str:
    """deploy/nginx.conf as shipped, but on loopback ports: its upstream lists the test's
    processes (however many, each written as its first server line is), its TLS server
    listens on `port` without TLS (the test has no certificate), its redirect on `redirect`.
    Every change must apply exactly once, so a reshaped file fails here rather than being
    tested half."""
    text = SHIPPED.read_text()
    lines = re.findall(r"^[ \t]*server 127\.0\.0\.1:\d+ [^\n]*\n", text, re.M)
    shipped = "".join(lines)
    assert lines and text.count(shipped) == 1, "deploy/nginx.conf lists its processes together"
    listed = "".join(
        re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{each}", lines[0]) for each in upstreams
    )
    text = text.replace(shipped, listed)
    changes = [
        (r"\n\s*listen \[::\]:80;", ""),
        (r"\n\s*listen \[::\]:443 ssl;", ""),
        (r"listen 80;", f"listen 127.0.0.1:{redirect};"),
        (r"listen 443 ssl;", f"listen 127.0.0.1:{port};"),
        (r"\n\s*ssl_certificate [^;]+;", ""),
        (r"\n\s*ssl_certificate_key [^;]+;", ""),
    ]
    for pattern, replacement in changes:
        text, count = re.subn(pattern, replacement, text)
        assert count == 1, f"deploy/nginx.conf: {pattern!r} matched {count} times"
    return text


@dataclass
class Proxy:
    url: str
    process: subprocess.Popen[bytes]
    folder: Path

    def log(self) -> str:
        return (self.folder / "access.log").read_text()


def start_nginx(upstreams: list[int], port: int, folder: Path, connections: int = 256) -> Proxy:
    """nginx in the foreground (`daemon off;`) on `port`, a child of the test, with its
    own configuration, pid file, logs and temporary files under `folder`; `connections` is
    its worker's bound on open connections (a proxied socket holds two: bench/rooms.py asks
    for more)."""
    if not NGINX.exists():
        pytest.fail("the many-processes tests need nginx: run `make nginx` (apt-get install nginx)")
    redirect = free_port()
    (folder / "tabletop.conf").write_text(proxy_config(upstreams, port, redirect))
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (folder / "nginx.conf").write_text(
        f"""daemon off;
master_process off;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} info;
events {{ worker_connections {connections}; }}
http {{
    log_format upstreams '$request_method $uri $status [$upstream_addr] [$upstream_status]';
    access_log {folder / "access.log"} upstreams;
{temp}
    include {folder / "tabletop.conf"};
}}
"""
    )
    process = subprocess.Popen(
        [str(NGINX), "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", "stderr"],
        stdout=subprocess.DEVNULL,
        stderr=open(folder / "stderr.log", "wb"),  # noqa: SIM115 (the child holds it)
    )

    def listening() -> bool:
        assert process.poll() is None, (folder / "stderr.log").read_text()
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) == 0

    try:
        until(listening, "nginx to listen")
    except BaseException:
        stop(process)
        raise
    return Proxy(f"http://127.0.0.1:{port}", process, folder)


def stop(process: subprocess.Popen[bytes], group: bool = False) -> None:
    if process.poll() is None:
        if group:
            for sent in (signal.SIGCONT, signal.SIGTERM):
                with_group(process, sent)
        else:
            process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with_group(process, signal.SIGKILL) if group else process.kill()
            process.wait()
    if group:
        with_group(process, signal.SIGKILL)  # any worker left behind


def with_group(process: subprocess.Popen[bytes], sent: signal.Signals) -> None:
    with suppress(ProcessLookupError):
        os.killpg(process.pid, sent)


# servers -------------------------------------------------------------------------------------


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def start_server(database: str, public: str, folder: Path) -> Server:
    """`tabletop serve` behind the proxy at `public` (its links name the proxy), in a
    process group of its own (so the test can kill or freeze it with its workers, as a
    crash or a paused machine would); `healthy` waits until it answers /health."""
    port = free_port()
    command = [sys.executable, "-c", "from tabletop.cli.app import main; main()", "serve"]
    options = ["--port", str(port), "--database", database, "--lease", str(LEASE)]
    options += ["--public-url", public, "--allowed-host", f"127.0.0.1:{port}"]  # its /health
    options += ["--workers", "1", "--pool", "1", "--trust-proxy", "127.0.0.1"]
    process = subprocess.Popen(
        [*command, *options, "--rate", "1000"],
        stdout=subprocess.DEVNULL,
        stderr=open(folder / f"server-{port}.log", "wb"),  # noqa: SIM115 (the child holds it)
        start_new_session=True,
    )
    return Server(port, process)


def healthy(server: Server, folder: Path) -> None:
    """Wait until `server` answers /health."""

    def answers() -> bool:
        log = folder / f"server-{server.port}.log"
        assert server.process.poll() is None, log.read_text()
        try:
            return httpx.get(f"{server.url}/health", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    until(answers, "a server to start", 120)


@dataclass
class Cluster:
    database: str
    servers: list[Server]
    proxy: Proxy

    def lease(self, room: str) -> tuple[str, int, bool] | None:
        """The room's lease row: its owner, its epoch, whether it has expired."""
        with psycopg.connect(self.database, autocommit=True) as db:
            row = db.execute(
                "SELECT owner, epoch, expires <= clock_timestamp() FROM leases WHERE room = %s",
                (room,),
            ).fetchone()
        return None if row is None else (str(row[0]), int(row[1]), bool(row[2]))

    def owner(self, room: str) -> Server:
        """The server process whose shard holds the room's lease (owners are named
        host/pid/…)."""
        row = until(lambda: self.lease(room), "the room to have a lease")
        pid = int(row[0].split("/")[1])
        (found,) = [server for server in self.servers if server.process.pid == pid]
        return found

    def other(self, server: Server) -> Server:
        (found,) = [each for each in self.servers if each is not server]
        return found


@pytest.fixture
def cluster(postgres, tmp_path) -> Iterator[Cluster]:
    database = new_database(postgres)
    servers: list[Server] = []
    proxy = None
    port = free_port()
    try:
        # Both start at once (each kept as it starts, so a failed start stops the other).
        for _ in range(2):
            servers.append(start_server(database, f"http://127.0.0.1:{port}", tmp_path))
        for server in servers:
            healthy(server, tmp_path)
        proxy = start_nginx([server.port for server in servers], port, tmp_path)
        yield Cluster(database, servers, proxy)
    finally:
        if proxy is not None:
            stop(proxy.process)
        for server in servers:
            stop(server.process, group=True)


# clients -------------------------------------------------------------------------------------


class Follower:
    """A member's live socket through the proxy, in a thread, that connects again whenever
    it drops or is told to (resuming from the last seq it received), as a page does."""

    def __init__(self, link: str) -> None:
        self.link = Link.parse(link)
        self.entries: list[dict[str, Any]] = []
        self.connections = 0
        self._stopping = threading.Event()
        self._current: Any = None
        self._lock = threading.Condition()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        url = self.link.server.replace("http", "ws", 1) + f"/rooms/{self.link.room}/live"
        while not self._stopping.is_set():
            after = self.entries[-1]["seq"] if self.entries else 0
            try:
                with ExitStack() as stack:
                    self._current = stack.enter_context(connect(url, open_timeout=10))
                    self._current.send(hello(self.link.token, after))
                    self.connections += 1
                    for text in self._current:
                        frame = json.loads(text)
                        if is_entry(frame):
                            with self._lock:
                                self.entries.append(frame)
                                self._lock.notify_all()
                        elif frame.get("type") in ("bye", "error"):
                            break
            except (ConnectionClosed, OSError, TimeoutError, WebSocketException):
                pass
            self._stopping.wait(0.2)

    def wait_for_seq(self, seq: int) -> None:
        with self._lock:
            ends = time.monotonic() + DEADLINE
            while not (self.entries and self.entries[-1]["seq"] >= seq):
                assert time.monotonic() < ends, f"the socket never received seq {seq}"
                self._lock.wait(timeout=0.5)

    def close(self) -> None:
        self._stopping.set()
        current = self._current
        if current is not None:
            current.close()
        self._thread.join(timeout=20)


class Acked:
    """Every entry an ack named, by seq, with the hash it was acknowledged with."""

    def __init__(self) -> None:
        self.hashes: dict[int, str] = {}
        self._lock = threading.Lock()

    def __call__(self, answer: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            for entry in answer["entries"]:
                assert self.hashes.setdefault(entry["seq"], entry["hash"]) == entry["hash"]
        return answer


def offers(client: RoomClient, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    return [
        offer["intents"][0]
        for offer in client.legal()["offers"]
        if offer["kind"] in kinds and offer["intents"]
    ]


def scene(gm: RoomClient, ada: RoomClient, acked: Acked) -> Iterator[None]:
    """A scripted Dead Weight scene, one request a step: a character, a doom tracker, two
    DEX tests each run die by die through the re-roll exchange, chat between."""
    yield acked(ada.act({"kind": "import-character", "sheet": SHEET}))
    tracker = {"kind": "new-tracker", "name": "the flood", "segments": 6, "tracker_kind": "doom"}
    yield acked(gm.act(tracker))
    for round_ in range(2):
        yield acked(gm.act({"kind": "advance-tracker", "name": "the flood"}))
        yield acked(ada.say(f"Amber wades in ({round_ + 1})"))
        yield acked(ada.act({"kind": "test", "roller": "c1", "setup": {"attribute": "DEX"}}))
        for _ in range(12):
            choices = [(ada, i) for i in offers(ada, ("reroll", "pass"))]
            choices += [(gm, i) for i in offers(gm, ("reroll", "pass"))]
            if not choices:
                break
            client, intent = choices[-1]
            yield acked(client.act(intent))
        yield acked(gm.say("the water rises"))


def the_flood(cluster: Cluster) -> tuple[dict[str, str], str]:
    """A Dead Weight room opened through the proxy, and Ada's link once she has joined."""
    made = create_room(cluster.proxy.url, "dead-weight", "the flood")
    with RoomClient(made["player"]) as invite:
        return made, invite.join("Ada")


def head(client: RoomClient) -> int:
    return int(client.view()["head"])


def lines_by_seq(lines: list[str]) -> dict[int, str]:
    found = {}
    for line in lines:
        entry = json.loads(line)
        if is_entry(entry):
            found[entry["seq"]] = entry["hash"]
    return found


# (a) a dead owner's room moves ---------------------------------------------------------------


def test_a_scene_goes_on_when_the_rooms_process_is_killed(cluster):
    made, ada_link = the_flood(cluster)
    room = made["room"]
    acked = Acked()
    follower = Follower(ada_link)
    with RoomClient(made["gm"]) as gm, RoomClient(ada_link) as ada:
        steps = scene(gm, ada, acked)
        for _ in range(6):
            next(steps)
        owner = cluster.owner(room)
        survivor = cluster.other(owner)
        _, epoch, _ = cluster.lease(room) or ("", 0, True)
        follower.wait_for_seq(max(acked.hashes))

        # an intent on its way as the owner dies: acknowledged once, by whichever kept it
        in_flight: list[dict[str, Any]] = []
        sender = threading.Thread(
            target=lambda: in_flight.append(acked(ada.roll("2d6", label="as it dies")))
        )
        sender.start()
        with_group(owner.process, signal.SIGKILL)
        owner.process.wait(timeout=30)
        sender.join(timeout=DEADLINE)
        assert in_flight, "the intent sent as the owner died was never acknowledged"

        for _ in steps:  # the rest of the scene, through the proxy, on the survivor
            pass
        gm.end_session()
        assert cluster.owner(room) is survivor
        assert cluster.lease(room)[1] > epoch  # type: ignore[index]
        last = head(gm)
        follower.wait_for_seq(last)
        export = gm.export()
        ada_export = ada.export()
    follower.close()

    audit = verify(export)
    assert audit.ruled and audit.view == "full"
    kept = lines_by_seq(export)
    assert sorted(kept) == list(range(1, last + 1))
    lost = {seq: h for seq, h in acked.hashes.items() if kept.get(seq) != h}
    assert not lost, f"acknowledged entries missing or changed: {lost}"
    rolls = [json.loads(line) for line in export if "as it dies" in line]
    assert len(rolls) == 1  # sent again after the owner died, applied once

    # the socket resumed from its last seq on the survivor: every entry once, in order,
    # exactly as the player's own export has it
    seqs = [entry["seq"] for entry in follower.entries]
    assert seqs == sorted(set(seqs)) == list(range(1, last + 1))
    assert follower.connections >= 2
    assert {e["seq"]: e["hash"] for e in follower.entries} == lines_by_seq(ada_export)
    assert f":{owner.port}, 127.0.0.1:{survivor.port}]" in cluster.proxy.log()


# (b) a paused owner cannot append ------------------------------------------------------------


def test_an_owner_paused_past_its_lease_cannot_append_when_it_wakes(cluster):
    made, ada_link = the_flood(cluster)
    room = made["room"]
    acked = Acked()
    with RoomClient(made["gm"]) as gm, RoomClient(ada_link) as ada:
        steps = scene(gm, ada, acked)
        for _ in range(4):
            next(steps)
        owner = cluster.owner(room)
        other = cluster.other(owner)
        owner_name, epoch, _ = cluster.lease(room) or ("", 0, True)
        before = head(gm)

        # Hold the room's row from the test, so that the owner's append of the next intent
        # waits inside its transaction: then freeze the owner there.
        locker = psycopg.connect(cluster.database)
        locker.execute("SELECT id FROM rooms WHERE id = %s FOR UPDATE", (room,))
        token = Link.parse(ada_link).token
        body = {"id": "in-flight", "intent": {"kind": "roll", "notation": "3d6"}, "nonce": "n1"}
        answers: list[httpx.Response] = []

        def send() -> None:
            answers.append(
                httpx.post(
                    f"{owner.url}/rooms/{room}/intents",
                    json=body,
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=DEADLINE * 2,
                )
            )

        sender = threading.Thread(target=send)
        sender.start()
        until(lambda: waiting_on_the_room(cluster.database, owner_name), "the owner to wait")
        with_group(owner.process, signal.SIGSTOP)
        try:
            until(lambda: cluster.lease(room)[2], "the frozen owner's lease to expire")  # type: ignore[index]
            # the other process takes the room (a read through it folds it from the store)
            with RoomClient(moved(ada_link, other.url)) as on_other:
                assert on_other.view()["head"] == before
            taker, taken, _ = cluster.lease(room) or ("", 0, True)
            assert taker != owner_name and taken > epoch
            locker.rollback()  # the frozen append gets the room's row, and waits to wake
        finally:
            with_group(owner.process, signal.SIGCONT)
        sender.join(timeout=DEADLINE * 2)
        locker.close()

        (refused,) = answers
        assert refused.status_code == 503, refused.text
        assert "no longer serves room" in refused.json()["error"]
        assert refused.headers["retry-after"] == "1"
        with psycopg.connect(cluster.database, autocommit=True) as db:
            found = db.execute(
                "SELECT count(*) FROM entries WHERE room = %s AND (client = %s OR nonce = %s)",
                (room, "in-flight", "n1"),
            ).fetchone()
        assert found == (0,)
        assert head(gm) == before

        # the woken owner dropped the room: asked directly, it says another process serves it
        # (or, had that one's lease lapsed meanwhile, it took the room back and read it anew)
        again = httpx.get(f"{owner.url}/rooms/{room}", headers={"Authorization": f"Bearer {token}"})
        if again.status_code == 503:
            assert "another server process" in again.json()["error"]
        else:
            assert again.status_code == 200 and again.json()["head"] == before

        # the same intent, sent again through the proxy, reaches the new owner: kept once
        sent_again = acked(ada.act(body["intent"], id="in-flight", nonce="n1"))
        assert sent_again["seqs"] == [before + 1] and not sent_again["duplicate"]
        for _ in steps:
            pass
        gm.end_session()
        export = gm.export()
    audit = verify(export)
    assert audit.ruled
    kept = lines_by_seq(export)
    assert all(kept.get(seq) == h for seq, h in acked.hashes.items())
    assert sum('"in-flight"' in line for line in export) == 1


def waiting_on_the_room(database: str, owner: str) -> bool:
    """Whether a session of the owner's (its application_name names it) waits on a lock."""
    with psycopg.connect(database, autocommit=True) as db:
        row = db.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND application_name LIKE %s",
            (f"tabletop {owner.rsplit('/', 1)[0]}%",),
        ).fetchone()
    return bool(row and row[0])
