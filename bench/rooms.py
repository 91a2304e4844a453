"""The room server under load: many websocket clients across many rooms, each rolling at a
steady rate, on 127.0.0.1 only, bounded in clients and time.

For each load it reports events delivered a second, the latency from sending an intent to
each member of the room receiving its entry (p50, p99, max), errors, and entries lost or
duplicated (each member must receive seq 1..head of its room exactly once). The anchor, run
in the same way in the same run, is a bare uvicorn websocket broadcast with no rules, no
log and no database: the cost of the transport alone. Then the load steps up until p99
passes 50 ms (the goal of issue 14) or anything is lost, for one process on SQLite and two
processes on PostgreSQL.

Run: `.venv/bin/python -m bench rooms` (about 4 minutes), or
`.venv/bin/python -m bench.rooms --clients 500 --rooms 50 --seconds 15` for one load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from tests.rooms.conftest import free_port, serve_in_process, stop_process

from tabletop.rooms.client import LiveClient, create_room, tls

MAX_CLIENTS = 2_000
MAX_SECONDS = 60
GOAL_P99_MS = 50.0
STEPS = (100, 250, 500, 750, 1000, 1500)
MEMBERS_PER_ROOM = 10


@dataclass
class Load:
    clients: int
    rooms: int
    rate: float = 1.0
    """Intents a second from each client."""
    seconds: float = 15.0


@dataclass
class Result:
    name: str
    load: Load
    sent: int = 0
    acked: int = 0
    delivered: int = 0
    errors: int = 0
    lost: int = 0
    duplicated: int = 0
    latencies: list[float] = field(default_factory=list)
    elapsed: float = 0.0
    cpu: float = 0.0
    """CPU seconds the server's processes (workers included) spent while the load ran."""

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000

    @property
    def ok(self) -> bool:
        return (
            self.percentile(99) < GOAL_P99_MS
            and not (self.errors or self.lost or self.duplicated)
            and self.acked == self.sent
        )

    def row(self) -> str:
        rate = self.delivered / self.elapsed if self.elapsed else 0
        return (
            f"| {self.name} | {self.load.clients} | {self.load.rooms} | {self.sent:,} | "
            f"{rate:,.0f} | {self.percentile(50):.1f} | {self.percentile(99):.1f} | "
            f"{max(self.latencies, default=0) * 1000:.0f} | {self.errors} | {self.lost} | "
            f"{self.duplicated} | {self.cpu_per_entry():,.0f} |"
        )

    def cpu_per_entry(self) -> float:
        """The server's CPU time per delivered entry, in microseconds."""
        return self.cpu / self.delivered * 1e6 if self.delivered else float("nan")


HEADER = (
    "| server | clients | rooms | intents | deliveries/s | p50 ms | p99 ms | max ms | errors "
    "| lost | duplicated | CPU µs/entry |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
    "| ---: | ---: | ---: | ---: |"
)


# the load ---------------------------------------------------------------------------------


@dataclass
class Member:
    room: int
    socket: object
    seqs: list[int] = field(default_factory=list)


async def drive(
    name: str, links: list[list[str]], load: Load, anchor: bool, pids: Sequence[int] = ()
) -> Result:
    """Connect every member, let each send at `load.rate` for `load.seconds`, then drain;
    the CPU time of the server processes `pids` (and their workers) is counted meanwhile."""
    result = Result(name, load)
    sent_at: dict[str, float] = {}
    members: list[Member] = []
    for room, room_links in enumerate(links):
        for link in room_links:
            client = AnchorClient(link) if anchor else LiveClient(link)
            await client.open()
            members.append(Member(room, client))
    heads: Counter[int] = Counter()

    async def receive(member: Member) -> None:
        while True:
            try:
                frame = await member.socket.frame()
            except Exception:
                return
            if "seq" in frame:
                now = time.perf_counter()
                member.seqs.append(frame["seq"])
                client = frame.get("client")
                if client in sent_at:
                    result.delivered += 1
                    result.latencies.append(now - sent_at[client])
            elif frame.get("type") == "ack":
                result.acked += 1
            elif frame.get("type") == "error":
                result.errors += 1

    async def send(member: Member, number: int) -> None:
        await asyncio.sleep(random.random() / load.rate)
        ends = time.perf_counter() + load.seconds
        count = 0
        while time.perf_counter() < ends:
            id = f"b{number}x{count}"
            sent_at[id] = time.perf_counter()
            await member.socket.send_intent({"kind": "roll", "notation": "1d6"}, id=id)
            heads[member.room] += 1
            result.sent += 1
            count += 1
            await asyncio.sleep(max(0.0, sent_at[id] + 1 / load.rate - time.perf_counter()))

    readers = [asyncio.create_task(receive(m)) for m in members]
    cpu_before = tree_cpu(pids)
    start = time.perf_counter()
    await asyncio.gather(*(send(m, n) for n, m in enumerate(members)))
    deadline = time.perf_counter() + 10
    while result.acked < result.sent and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    result.elapsed = time.perf_counter() - start
    result.cpu = tree_cpu(pids) - cpu_before
    for member in members:
        received = [s for s in member.seqs if s > (0 if anchor else setup_entries(links, member))]
        expected = heads[member.room]
        result.duplicated += len(received) - len(set(received))
        result.lost += max(0, expected - len(set(received)))
    for reader in readers:
        reader.cancel()
    for member in members:
        with contextlib.suppress(Exception):
            await member.socket.close()
    return result


def tree_cpu(pids: Sequence[int]) -> float:
    """CPU seconds (user and system) spent so far by the processes `pids` and every live
    process under them, read from /proc (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    seen: set[int] = set()
    waiting = list(pids)
    total = 0
    while waiting:
        pid = waiting.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as children:
                    waiting.extend(int(child) for child in children.read().split())
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total / ticks


def setup_entries(links: list[list[str]], member: Member) -> int:
    """Entries a room's log holds before the load: its opening, commitment and joins."""
    return 2 + len(links[member.room])


# the servers ------------------------------------------------------------------------------


def tabletop_links(urls: Sequence[str], load: Load) -> list[list[str]]:
    """Rooms of MEMBERS_PER_ROOM (a GM and players), members spread over the servers."""
    per_room = max(1, load.clients // load.rooms)
    rooms = []
    with httpx.Client(timeout=30, verify=tls()) as http:
        for _ in range(load.rooms):
            made = create_room(urls[0], "dice")
            links = [made["gm"]]
            invite = made["player"].partition("#")[2]
            for number in range(per_room - 1):
                url = urls[number % len(urls)]
                answer = http.post(
                    f"{url}/rooms/{made['room']}/join",
                    json={"name": f"p{number}"},
                    headers={"Authorization": f"Bearer {invite}"},
                )
                links.append(answer.json()["link"])
            rooms.append(links)
    return rooms


def run_tabletop(name: str, load: Load, args: Sequence[str], processes: int = 1) -> Result:
    rates = ("--rate", "1000", "--address-rate", "100000")  # the load, not the bounds
    servers = [serve_in_process(*args, *rates) for _ in range(processes)]
    try:
        links = tabletop_links([url for _, url in servers], load)
        pids = [process.pid for process, _ in servers]
        return asyncio.run(drive(name, links, load, anchor=False, pids=pids))
    finally:
        for process, _ in servers:
            stop_process(process)


def run_anchor(load: Load) -> Result:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.rooms", "--anchor-server", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"ws://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        per_room = max(1, load.clients // load.rooms)
        links = [[f"{url}/{room}"] * per_room for room in range(load.rooms)]
        return asyncio.run(
            drive("anchor: bare broadcast", links, load, anchor=True, pids=[process.pid])
        )
    finally:
        process.terminate()
        process.wait()


class AnchorClient:
    """The anchor's client: the same socket library, the same JSON, no protocol."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        self.socket = await connect(self.url, max_size=None, compression=None)

    async def send_intent(self, intent: dict[str, object], id: str) -> None:
        await self.socket.send(json.dumps({"id": id, "intent": intent}))

    async def frame(self) -> dict[str, object]:
        return json.loads(await self.socket.recv())

    async def close(self) -> None:
        await self.socket.close()


def anchor_app() -> object:
    """A websocket broadcast per room: each message becomes a numbered frame to everyone in
    the room (and an ack to its sender), with nothing checked, stored or hidden."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    rooms: dict[str, list[WebSocket]] = {}
    heads: Counter[str] = Counter()

    async def health(request: object) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def live(websocket: WebSocket) -> None:
        room = websocket.path_params["room"]
        await websocket.accept()
        rooms.setdefault(room, []).append(websocket)
        try:
            while True:
                message = json.loads(await websocket.receive_text())
                heads[room] += 1
                frame = json.dumps({"seq": heads[room], "client": message["id"], "pad": "x" * 600})
                for other in list(rooms[room]):
                    with contextlib.suppress(Exception):
                        await other.send_text(frame)
                await websocket.send_text(json.dumps({"type": "ack", "id": message["id"]}))
        except WebSocketDisconnect:
            rooms[room].remove(websocket)

    return Starlette(routes=[Route("/health", health), WebSocketRoute("/{room}", live)])


# the report -------------------------------------------------------------------------------


def run(seconds: float = 15.0) -> None:
    """At each load, the anchor and tabletop on SQLite, stepping up until tabletop misses
    the goal; then two processes on PostgreSQL, the same way."""
    print("## Room server\n")
    print(f"Each client rolls once a second for {seconds:g} s; rooms of {MEMBERS_PER_ROOM}.\n")
    print(HEADER)
    anchors: dict[int, Result] = {}
    ratios = []
    with tempfile.TemporaryDirectory() as data:
        for step, clients in enumerate(STEPS):
            load = Load(clients, clients // MEMBERS_PER_ROOM, seconds=seconds)
            anchors[clients] = run_anchor(load)
            print(anchors[clients].row(), flush=True)
            args = ("--data", str(Path(data) / f"step{step}"))
            result = run_tabletop("tabletop, 1 process, SQLite", load, args)
            print(result.row(), flush=True)
            ratios.append(ratio(result, anchors[clients]))
            if not result.ok:
                break
    with tempfile.TemporaryDirectory() as pgdata:
        import pgserver

        postgres = pgserver.get_server(pgdata, cleanup_mode="stop")
        try:
            for step, clients in enumerate(STEPS):
                postgres.psql(f"CREATE DATABASE bench{step};")
                load = Load(clients, clients // MEMBERS_PER_ROOM, seconds=seconds)
                args = ("--database", postgres.get_uri(f"bench{step}"))
                result = run_tabletop("tabletop, 2 processes, PostgreSQL", load, args, 2)
                print(result.row(), flush=True)
                if clients in anchors:
                    ratios.append(ratio(result, anchors[clients]))
                if not result.ok:
                    break
        finally:
            postgres.cleanup()
    print()
    for line in ratios:
        print(f"- {line}")
    print()


def ratio(result: Result, anchor: Result) -> str:
    """tabletop's p99 against the bare broadcast's at the same load."""
    times = result.percentile(99) / anchor.percentile(99)
    return (
        f"{result.name} at {result.load.clients} clients: p99 {times:.1f}× the bare "
        f"broadcast's ({result.percentile(99):.1f} ms against {anchor.percentile(99):.1f} ms)"
    )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--anchor-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--all", action="store_true", help="The whole report, as make bench.")
    asked = parser.parse_args(argv)
    if asked.anchor_server:
        import uvicorn

        uvicorn.run(anchor_app(), host="127.0.0.1", port=asked.anchor_server, log_level="error")
        return
    if asked.all:
        run(min(asked.seconds, MAX_SECONDS))
        return
    if not 1 <= asked.clients <= MAX_CLIENTS or not 0 < asked.seconds <= MAX_SECONDS:
        sys.exit(f"--clients 1..{MAX_CLIENTS}, --seconds up to {MAX_SECONDS}")
    load = Load(asked.clients, max(1, asked.rooms), seconds=asked.seconds)
    print(HEADER)
    print(run_anchor(load).row(), flush=True)
    with tempfile.TemporaryDirectory() as data:
        print(run_tabletop("tabletop, 1 process, SQLite", load, ("--data", data)).row())


if __name__ == "__main__":
    main(sys.argv[1:])
