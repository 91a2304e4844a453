"""The room server under load: many websocket clients in rooms of ten, each rolling `1d6` once
a second, on 127.0.0.1 only, bounded in clients, processes and time.

For each load and each server it reports deliveries a second, the latency from sending an
intent to each member of the room receiving its entry (p50, p99, max), entries lost or
duplicated (each member must receive seq 1..head of its room exactly once), errors, and
the server's CPU time per delivered entry (its front, shards and pool, read from /proc).
The anchor, run the same way at each load in the same run, is a bare uvicorn websocket
broadcast with no rules, no log and no database: the cost of the transport alone. The
servers, at every load:

- one `tabletop serve` process on SQLite;
- two processes behind nginx on one PostgreSQL (pgserver), and four where the machine has
  four cores or more;
- and, at 100 clients, one process on SQLite while two board rooms of MCTS bots play.

Then a table of the goals of issue 22 and whether each holds.

Run: `.venv/bin/python -m bench rooms` (about 6 minutes on two cores), or
`.venv/bin/python -m bench.rooms --loads 500 --parts anchor,sqlite` for some of it, or
`.venv/bin/python -m bench.rooms --quick` (one small load, seconds: the shape of the report).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import gc
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from tests.rooms.conftest import free_port, serve_at, serve_in_process, stop_process
from websockets.exceptions import ConnectionClosed

from tabletop.rooms.client import LiveClient, RoomClient, create_room, tls

HOST = "127.0.0.1"
"""Every server and client of the benchmark: nothing listens beyond this machine."""
MAX_CLIENTS = 2_000
MAX_SECONDS = 60
"""Seconds of rolling a load may ask for (each run then drains for at most MAX_DRAIN)."""
MAX_PROCESSES = 4
STALL = 5.0
MAX_DRAIN = 60.0
"""After the last intent, a run waits for every entry to reach every member while any
arrives (until STALL seconds pass with none, MAX_DRAIN at most): an entry still missing
then is counted lost, one that was only slow counts in the latencies."""
MEMBERS_PER_ROOM = 10
LOADS = (100, 250, 500, 750, 1000)
SECONDS = 15.0
QUICK_LOADS = (20,)
QUICK_SECONDS = 2.0

GOAL_P99_MS = 50.0
"""p99 at GOAL_CLIENTS on one process, and at BOT_CLIENTS while the bots play."""
GOAL_CLIENTS = 500
GOAL_TIMES = 1.5
GOAL_PLUS_MS = 10.0
"""Two processes behind nginx: p99 at most GOAL_TIMES × one SQLite process's + GOAL_PLUS_MS."""

BOT_ROOMS = 2
BOT = "mcts:2000"
BOT_SEATS = 4
BOT_CLIENTS = 100

PARTS = ("anchor", "sqlite", "nginx2", "nginx4", "bots")
"""What a run may measure: the anchor, one SQLite process, two or four processes behind
nginx on PostgreSQL, and one SQLite process beside the bots (at BOT_CLIENTS, or the
smallest load asked for when that is fewer)."""
QUICK_PARTS = ("anchor", "sqlite")


@dataclass
class Load:
    clients: int
    rate: float = 1.0
    """Intents a second from each client."""
    seconds: float = SECONDS

    @property
    def rooms(self) -> int:
        return max(1, self.clients // MEMBERS_PER_ROOM)


@dataclass
class Result:
    part: str
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
    cpu: Cpu = field(default_factory=lambda: Cpu())
    """CPU seconds the server's processes (front, shards, pool) spent while the load ran."""
    cpu_client: float = 0.0
    """CPU seconds the load itself (this process: every client) spent meanwhile."""
    beside: dict[str, float] = field(default_factory=dict)
    """CPU seconds spent meanwhile by what the servers use and is not in `cpu`: nginx and
    PostgreSQL (with its backends) when they were used."""
    bot_moves: int = 0
    cut: bool = False
    """The wait after the last intent ran out (MAX_DRAIN) while entries still arrived: what
    it counts lost was late, not known to be lost."""
    closed: int = 0
    """Sockets closed while the load ran; each connected again, resuming from its last seq,
    and sent again what had not been acknowledged, as a client does."""
    byes: Counter[str] = field(default_factory=Counter)
    """Why: the server's reasons, or the client's (its keepalive ping unanswered)."""
    said: list[str] = field(default_factory=list)
    """What the server processes wrote to stderr (a worker that stopped, say)."""

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000

    @property
    def p99(self) -> float:
        return self.percentile(99)

    @property
    def clean(self) -> bool:
        """Nothing lost, duplicated or refused, and every intent acknowledged (a socket the
        server closed resumes, as a client's does)."""
        return not (self.errors or self.lost or self.duplicated) and self.acked == self.sent

    def cpu_per_entry(self) -> float:
        """The server's CPU time per delivered entry, in microseconds."""
        return self.per_entry(self.cpu.total)

    def per_entry(self, seconds: float) -> float:
        """CPU `seconds` per delivered entry, in microseconds."""
        return seconds / self.delivered * 1e6 if self.delivered else float("nan")

    def row(self, anchor: Result | None) -> str:
        rate = self.delivered / self.elapsed if self.elapsed else 0
        if anchor is None or anchor is self:
            ratios = "| | |"
        else:
            cpu = self.cpu_per_entry() / anchor.cpu_per_entry()
            ratios = f"| {self.p99 / anchor.p99:.1f}× | {cpu:.1f}× |"
        return (
            f"| {self.name} | {self.load.clients:,} | {self.sent:,} | {rate:,.0f} | "
            f"{self.percentile(50):.1f} | {self.p99:.1f} | "
            f"{max(self.latencies, default=0) * 1000:.0f} | {self.lost} | {self.duplicated} | "
            f"{self.errors + self.sent - self.acked} | {self.cpu_per_entry():,.0f} {ratios} "
            f"{self.client_per_entry():,.0f} |"
        )

    def client_per_entry(self) -> float:
        """The load's own CPU time (every client's) per delivered entry, in microseconds."""
        return self.cpu_client / self.delivered * 1e6 if self.delivered else float("nan")


HEADER = (
    "| server | clients | intents | deliveries/s | p50 ms | p99 ms | max ms | lost "
    "| duplicated | errors | CPU µs/entry | p99 ÷ anchor | CPU ÷ anchor | clients' CPU µs/entry |\n"
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
    "| ---: |"
)
"""errors counts refusals and intents never acknowledged; CPU µs/entry is the server's CPU
time per entry delivered to a member; clients' CPU, the load generator's (it shares the
machine with the server)."""


# the load ---------------------------------------------------------------------------------


@dataclass
class Member:
    room: int
    socket: Any
    seqs: list[int] = field(default_factory=list)
    pending: dict[str, None] = field(default_factory=dict)
    """Ids sent and not acknowledged yet, in order."""
    open: bool = True


async def drive(
    result: Result,
    links: list[list[str]],
    anchor: bool,
    pids: Sequence[int] = (),
    heads: Any = None,
    beside: dict[str, int] | None = None,
) -> Result:
    """Connect every member, let each send at the load's rate for its seconds, then wait
    until every entry has reached every member (or arrivals stall); the CPU time of the server
    processes `pids` (and every process under them) is counted meanwhile. `heads(room)` is
    the server's head of each room afterwards (the anchor's is what was sent to it)."""
    load = result.load
    sent_at: dict[str, float] = {}
    members: list[Member] = []
    for room, room_links in enumerate(links):
        for link in room_links:
            client = AnchorClient(link) if anchor else LiveClient(link)
            await client.open()
            members.append(Member(room, client))
    sent: Counter[int] = Counter()
    per_room = Counter(member.room for member in members)

    roll = {"kind": "roll", "notation": "1d6"}
    acked: set[str] = set()

    async def receive(member: Member) -> None:
        while True:
            try:
                frame = await member.socket.frame()
            except asyncio.CancelledError:
                raise
            except Exception as closed:
                # who closed it and how: the server (after a bye), or this end (the
                # client's keepalive ping unanswered, say)
                by = "server" if isinstance(closed, ConnectionClosed) and closed.rcvd else "client"
                result.byes[f"closed by the {by}: {closed}"] += 1
                if anchor or not await resume(member):
                    return
                continue
            if "seq" in frame:
                now = time.perf_counter()
                member.seqs.append(frame["seq"])
                client = frame.get("client")
                if client in sent_at:
                    result.delivered += 1
                    result.latencies.append(now - sent_at[client])
            elif frame.get("type") == "ack":
                member.pending.pop(frame.get("id"), None)
                if frame.get("id") in sent_at:
                    acked.add(frame["id"])
                    result.acked = len(acked)
                else:
                    warm.add(frame.get("id"))
            elif frame.get("type") == "error":
                result.errors += 1
            elif frame.get("type") == "bye":
                result.byes[str(frame.get("reason"))] += 1

    async def resume(member: Member) -> bool:
        """As a client does when the server closes its socket: connect again with the last
        seq received, then send again (same ids) what was not acknowledged."""
        result.closed += 1
        member.open = False
        for _ in range(40):
            try:
                await member.socket.open(after=max(member.seqs, default=0))
                break
            except Exception:
                await asyncio.sleep(0.25)
        else:
            return False
        member.open = True
        for id in list(member.pending):
            with contextlib.suppress(Exception):
                await member.socket.send_intent(roll, id=id)
        return True

    async def send(member: Member, number: int) -> None:
        await asyncio.sleep(random.random() / load.rate)
        ends = start + load.seconds
        count = 0
        while time.perf_counter() < ends:
            id = f"b{number}x{count}"
            sent_at[id] = time.perf_counter()
            member.pending[id] = None
            if member.open:
                with contextlib.suppress(Exception):  # if not, it is sent again on resuming
                    await member.socket.send_intent(roll, id=id)
            sent[member.room] += 1
            result.sent += 1
            count += 1
            await asyncio.sleep(max(0.0, sent_at[id] + 1 / load.rate - time.perf_counter()))

    # a first roll in each room, not counted: the room is loaded and its paths are warm
    warm: set[str] = set()
    readers = [asyncio.create_task(receive(m)) for m in members]
    firsts = {member.room: member for member in reversed(members)}
    for room, member in firsts.items():
        await member.socket.send_intent(roll, id=f"warm{room}")
        sent[room] += 1
    deadline = time.perf_counter() + MAX_DRAIN
    while len(warm) < len(firsts) and time.perf_counter() < deadline:
        await asyncio.sleep(0.02)
    expected_before = sum(sent[room] * per_room[room] for room in sent)
    # the load generator's own full collections (50 ms and more with its sockets open)
    # would be counted as the server's latency: what exists now is put out of their sight
    gc.collect()
    gc.freeze()
    cpu_before = tree_cpu(pids)
    client_before = time.process_time()
    beside = beside or {}
    beside_before = {name: tree_cpu([pid]).total for name, pid in beside.items()}
    start = time.perf_counter()
    await asyncio.gather(*(send(m, n) for n, m in enumerate(members)))
    expected = sum(sent[room] * per_room[room] for room in sent) - expected_before
    deadline = time.perf_counter() + MAX_DRAIN
    progress, stalled = (-1, -1), time.perf_counter() + STALL
    while result.acked < result.sent or result.delivered < expected:
        now = time.perf_counter()
        if (result.acked, result.delivered) != progress:
            progress, stalled = (result.acked, result.delivered), now + STALL
        if now > stalled:
            break
        if now > deadline:
            result.cut = True
            break
        await asyncio.sleep(0.02)
    result.elapsed = time.perf_counter() - start
    cpu_after = tree_cpu(pids)
    result.cpu_client = time.process_time() - client_before
    result.beside = {
        name: tree_cpu([pid]).total - beside_before[name] for name, pid in beside.items()
    }
    result.cpu = cpu_after - cpu_before
    await asyncio.sleep(0.2)  # anything arriving late (a duplicate) is counted too
    gc.unfreeze()
    for reader in readers:
        reader.cancel()
    final = {room: sent[room] if heads is None else heads(room) for room in range(len(links))}
    for member in members:
        result.duplicated += len(member.seqs) - len(set(member.seqs))
        result.lost += len(set(range(1, final[member.room] + 1)) - set(member.seqs))
    for member in members:
        with contextlib.suppress(Exception):
            await member.socket.close()
    return result


@dataclass(frozen=True)
class Cpu:
    """CPU seconds (user and system) spent so far by a server's processes, by role."""

    front: float = 0.0
    """The processes asked for: each server's front (its event loop)."""
    shards: float = 0.0
    """Every process under them that is not niced: the shard workers."""
    pool: float = 0.0
    """Every niced one: the pool (bots' decisions, verify, exports)."""

    @property
    def total(self) -> float:
        return self.front + self.shards + self.pool

    def __sub__(self, before: Cpu) -> Cpu:
        return Cpu(self.front - before.front, self.shards - before.shards, self.pool - before.pool)


def tree_cpu(pids: Sequence[int]) -> Cpu:
    """What the processes `pids` and every live process under them have spent so far, read
    from /proc (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    seen: set[int] = set()
    waiting = list(pids)
    spent = Counter[str]()
    while waiting:
        pid = waiting.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
            role = "front" if pid in pids else "pool" if int(fields[16]) > 0 else "shards"
            spent[role] += int(fields[11]) + int(fields[12])  # utime, stime; 16: nice
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as children:
                    waiting.extend(int(child) for child in children.read().split())
        except (FileNotFoundError, ProcessLookupError):
            continue
    return Cpu(spent["front"] / ticks, spent["shards"] / ticks, spent["pool"] / ticks)


# the servers ------------------------------------------------------------------------------


def tabletop_links(url: str, load: Load) -> list[list[str]]:
    """Rooms of MEMBERS_PER_ROOM (a GM and players), opened and joined through `url`."""
    return asyncio.run(_open_rooms(url, load))


async def _open_rooms(url: str, load: Load) -> list[list[str]]:
    per_room = max(1, load.clients // load.rooms)
    lanes = asyncio.Semaphore(8)
    async with httpx.AsyncClient(base_url=url, timeout=60, verify=tls()) as http:

        async def post(path: str, body: dict[str, Any], **headers: str) -> dict[str, Any]:
            """As a client does: a 503 (the room is another process's, or moving) or a
            429 is sent again after its Retry-After; any other refusal stops the run."""
            for _ in range(20):
                answer = await http.post(path, json=body, headers=headers)
                if answer.status_code not in (429, 503):
                    break
                await asyncio.sleep(min(5.0, float(answer.headers.get("Retry-After", 1))))
            if answer.status_code >= 400:
                raise RuntimeError(f"POST {path}: {answer.status_code} {answer.text}")
            return dict(answer.json())

        async def room(number: int) -> list[str]:
            async with lanes:
                made = await post("/rooms", {"system": "dice", "name": "bench"})
                links = [made["gm"]]
                invite = made["player"].partition("#")[2]
                for player in range(per_room - 1):
                    body = {"name": f"p{player}"}
                    joined = await post(
                        f"/rooms/{made['room']}/join", body, Authorization=f"Bearer {invite}"
                    )
                    links.append(joined["link"])
                return links

        return list(await asyncio.gather(*(room(n) for n in range(load.rooms))))


def server_heads(links: list[list[str]]) -> Any:
    """The head of each room, asked of the server by its GM's link."""

    def head(room: int) -> int:
        with RoomClient(links[room][0], timeout=30) as gm:
            return int(gm.view()["head"])

    return head


RATES = ("--rate", "1000", "--address-rate", "100000")
"""The load's own pace is measured, not the allowances that bound members and addresses."""


def run_sqlite(result: Result, data: Path, bots: int = 0) -> Result:
    """One `tabletop serve` on SQLite in `data`, its defaults but the allowances; with
    `bots` board rooms of BOT_SEATS MCTS bots playing throughout."""
    log = data.with_suffix(".log")
    process, url = serve_in_process("--data", str(data), *RATES, log=log)
    try:
        boards = [start_bots(url) for _ in range(bots)]
        before = [board_head(board) for board in boards]
        links = tabletop_links(url, result.load)
        asyncio.run(drive(result, links, False, [process.pid], server_heads(links)))
        result.bot_moves = sum(
            bot_moves(board, head) for board, head in zip(boards, before, strict=True)
        )
        return result
    finally:
        stop_process(process)
        result.said = said([log])


def said(logs: Sequence[Path]) -> list[str]:
    """The distinct lines the servers wrote to stderr, most frequent first (at most 5)."""
    lines = Counter(
        line.strip()
        for log in logs
        if log.exists()
        for line in log.read_text(errors="replace").splitlines()
        if line.strip()
    )
    return [f"{line} (×{count})" for line, count in lines.most_common(5)]


def start_bots(url: str) -> str:
    """A board room whose every seat is an MCTS bot, started and playing (its first move
    made); the GM's link."""
    board = create_room(url, "deadweight-board", "bots")
    with RoomClient(board["gm"], timeout=30) as gm:
        for _ in range(BOT_SEATS):
            gm.act({"kind": "seat-bot", "bot": BOT})
        gm.act({"kind": "start"})
        started = gm.view()["head"]
        deadline = time.monotonic() + 60
        while gm.view()["head"] == started:
            if time.monotonic() > deadline:
                raise RuntimeError("the bots did not move within a minute")
            time.sleep(0.1)
    return board["gm"]


def board_head(link: str) -> int:
    with RoomClient(link, timeout=30) as gm:
        return int(gm.view()["head"])


def bot_moves(link: str, after: int) -> int:
    """The bots' decisions in a board room's log after seq `after`."""
    with RoomClient(link, timeout=30) as gm:
        causes = [json.loads(line)["event"].get("cause") for line in gm.log(after)]
    return sum(1 for cause in causes if cause and cause["member"]["id"] == "table")


def run_behind_nginx(
    result: Result, processes: int, database: str, workers: int | None = None
) -> Result:
    """`processes` tabletop servers on one PostgreSQL database behind nginx, each with
    `workers` shards and pool processes: by default the machine's cores shared out among
    them, as deploy/tabletop@.service advises."""
    assert 1 <= processes <= MAX_PROCESSES
    each = workers or max(1, (os.cpu_count() or 1) // processes)
    sizes = ("--workers", str(each), "--pool", str(each))
    args = ("--database", database, *sizes, *RATES)
    with behind_nginx(processes, args) as (url, pids, proxy, logs):
        try:
            links = tabletop_links(url, result.load)
            beside = {"nginx": proxy}
            with contextlib.suppress(OSError, ValueError, IndexError):
                beside["PostgreSQL"] = postgres_pid(database)
            asyncio.run(drive(result, links, False, pids, server_heads(links), beside))
        finally:
            result.said = said(logs)
        return result


def postgres_pid(database: str) -> int:
    """The postmaster's process id of the pgserver that `database` (a URL naming its socket
    folder, which is its data folder) is served by: its backends are its children."""
    folder = database.partition("host=")[2].partition("&")[0]
    return int((Path(folder) / "postmaster.pid").read_text().split()[0])


@contextlib.contextmanager
def behind_nginx(
    processes: int, args: Sequence[str]
) -> Iterator[tuple[str, list[int], int, list[Path]]]:
    """`processes` servers started with `args` (at once) and nginx in front of them, as
    deploy/nginx.conf runs them but on 127.0.0.1 (tests/rooms/test_many_processes.py
    starts it): nginx's URL, the servers' process ids, nginx's, and the servers' stderr."""
    from tests.rooms.test_many_processes import start_nginx
    from tests.rooms.test_many_processes import stop as stop_nginx

    port = free_port()
    public = ("--public-url", f"http://{HOST}:{port}", "--trust-proxy", HOST)
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-nginx-")))

        def serve(port: int) -> tuple[subprocess.Popen[bytes], str]:
            # its own address too, where serve_at asks for /health
            log = folder / f"server-{port}.log"
            return serve_at(port, *args, *public, "--allowed-host", f"{HOST}:{port}", log=log)

        with ThreadPoolExecutor(processes) as starting:
            started = list(starting.map(serve, [free_port() for _ in range(processes)]))
        for process, _ in started:
            stack.callback(stop_process, process)
        upstreams = [int(url.rpartition(":")[2]) for _, url in started]
        proxy = start_nginx(upstreams, port, folder, connections=2 * MAX_CLIENTS + 256)
        stack.callback(stop_nginx, proxy.process)
        logs = [folder / f"server-{port}.log" for port in upstreams]
        yield proxy.url, [process.pid for process, _ in started], proxy.process.pid, logs


def run_anchor(result: Result) -> Result:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.rooms", "--anchor-server", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"ws://{HOST}:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(f"http://{HOST}:{port}/health", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        load = result.load
        per_room = max(1, load.clients // load.rooms)
        links = [[f"{url}/{room}"] * per_room for room in range(load.rooms)]
        return asyncio.run(drive(result, links, True, [process.pid]))
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

NAMES = {
    "anchor": "anchor: bare broadcast",
    "sqlite": "tabletop, 1 process, SQLite",
    "nginx2": "tabletop, 2 processes, nginx, PostgreSQL",
    "nginx4": "tabletop, 4 processes, nginx, PostgreSQL",
    "bots": f"tabletop, 1 process, SQLite, {BOT_ROOMS} board rooms of {BOT} bots playing",
}


@dataclass
class Report:
    loads: tuple[int, ...]
    seconds: float
    parts: tuple[str, ...]
    results: list[Result] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def add(self, result: Result) -> None:
        """Keep a run, and show it on stderr at once (the report comes at the end)."""
        self.results.append(result)
        print(result.row(self.anchor(result)), file=sys.stderr, flush=True)

    def find(self, part: str, clients: int) -> Result | None:
        for result in self.results:
            if result.part == part and result.load.clients == clients:
                return result
        return None

    def anchor(self, result: Result) -> Result | None:
        return self.find("anchor", result.load.clients)

    def goals(self) -> list[tuple[str, str, str]]:
        """Each goal of issue 22: what it asks, what was measured, and whether it holds
        (yes, no, or not measured: a goal at a load this run did not measure)."""
        goals = []
        one = self.find("sqlite", GOAL_CLIENTS)
        goals.append(
            (
                f"p99 < {GOAL_P99_MS:g} ms at {GOAL_CLIENTS} clients on one process (SQLite)",
                f"{one.p99:.1f} ms" if one else "",
                verdict(None if one is None else one.p99 < GOAL_P99_MS),
            )
        )
        pairs = [(self.find("sqlite", c), self.find("nginx2", c)) for c in self.loads]
        pairs = [(one, two) for one, two in pairs if one and two]
        missed = [two.load.clients for one, two in pairs if not within(two, one)]
        every = {two.load.clients for _, two in pairs} >= set(LOADS)
        goals.append(
            (
                f"2 processes behind nginx on PostgreSQL: p99 ≤ {GOAL_TIMES:g} × one SQLite "
                f"process's + {GOAL_PLUS_MS:g} ms, at every load",
                "; ".join(
                    f"{two.load.clients}: {two.p99:.1f} ≤ {GOAL_TIMES * one.p99 + GOAL_PLUS_MS:.1f}"
                    for one, two in pairs
                )
                + (" ms" if pairs else ""),
                verdict(None if not (missed or every) else not missed, missed),
            )
        )
        bots = next((r for r in self.results if r.part == "bots"), None)
        goals.append(
            (
                f"p99 < {GOAL_P99_MS:g} ms at {BOT_CLIENTS} clients while {BOT_ROOMS} board "
                f"rooms of {BOT} bots play",
                f"{bots.p99:.1f} ms at {bots.load.clients} clients; the bots made "
                f"{bots.bot_moves} moves meanwhile (the pool: {bots.cpu.pool:.1f} CPU s)"
                if bots
                else "",
                verdict(
                    None
                    if bots is None or bots.load.clients != BOT_CLIENTS
                    else bots.p99 < GOAL_P99_MS
                ),
            )
        )
        tabletop = [r for r in self.results if r.part != "anchor"]
        dirty = [r for r in self.results if not r.clean]
        goals.append(
            (
                "nothing lost or duplicated, no errors, every intent acknowledged (a socket "
                "the server closes resumes from its last seq, as a client's does)",
                f"{sum(r.lost for r in self.results)} lost, "
                f"{sum(r.duplicated for r in self.results)} duplicated, "
                f"{sum(r.errors + r.sent - r.acked for r in self.results)} errors, in "
                f"{len(self.results)} runs; {sum(r.closed for r in self.results)} sockets "
                "closed"
                + "".join(
                    f"; at {r.load.clients:,} clients ({r.name}) the wait ran out while "
                    "entries still arrived"
                    for r in self.results
                    if r.cut
                ),
                verdict(not dirty if tabletop else None),
            )
        )
        return goals

    def capacity(self) -> list[str]:
        """What one core of the server holds at the CPU cost each server measured: its cost
        at the largest load whose p99 met the goal (or its smallest load)."""
        lines = []
        for part in ("anchor", "sqlite", "nginx2", "nginx4"):
            runs = [r for r in self.results if r.part == part and r.delivered]
            if not runs:
                continue
            met = [r for r in runs if r.p99 < GOAL_P99_MS]
            chosen = max(met, key=lambda r: r.load.clients) if met else runs[0]
            cost, cpu = chosen.cpu_per_entry(), chosen.cpu
            roles = (
                f"front {chosen.per_entry(cpu.front):,.0f}, shards "
                f"{chosen.per_entry(cpu.shards):,.0f}, pool {chosen.per_entry(cpu.pool):,.0f}"
            )
            if part == "anchor":
                roles = "one process"
            for name, seconds in chosen.beside.items():
                roles += f"; and {name} {chosen.per_entry(seconds):,.0f} more"
            lines.append(
                f"{chosen.name}, at {chosen.load.clients:,} clients: {cost:,.0f} µs of server "
                f"CPU an entry delivered ({roles}), so a core delivers {1e6 / cost:,.0f} "
                f"entries a second, {1e6 / cost / MEMBERS_PER_ROOM:,.0f} clients rolling once "
                f"a second in rooms of {MEMBERS_PER_ROOM}, at full use"
            )
        return lines

    def print(self) -> None:
        print(HEADER)
        for result in self.results:
            print(result.row(self.anchor(result)))
        print()
        notes = list(self.skipped)
        for result in self.results:
            heard = [f"{why} (×{count})" for why, count in result.byes.most_common(3)]
            heard += result.said
            if result.cut:
                heard.append(
                    f"entries were still arriving when the wait after the last intent ended "
                    f"({MAX_DRAIN:g} s): the {result.lost:,} counted lost and the "
                    f"{result.sent - result.acked:,} unacknowledged were late, not known lost"
                )
            if heard:
                notes.append(
                    f"{result.name} at {result.load.clients:,} clients: "
                    f"{result.closed} sockets closed; " * bool(result.closed) + "; ".join(heard)
                )
        for line in notes:
            print(f"- {line}")
        if notes:
            print()
        print("| goal | measured | holds |\n| --- | --- | --- |")
        for goal in self.goals():
            print(f"| {' | '.join(goal)} |")
        print()
        if capacity := self.capacity():
            print("What a core of the server holds at the CPU cost measured:\n")
            for line in capacity:
                print(f"- {line}")
            print()


def within(two: Result, one: Result) -> bool:
    return two.p99 <= GOAL_TIMES * one.p99 + GOAL_PLUS_MS


def verdict(holds: object, where: Sequence[int] = ()) -> str:
    if holds is None:
        return "not measured"
    if holds:
        return "yes"
    return f"no (at {', '.join(map(str, where))} clients)" if where else "no"


def measure(
    loads: Sequence[int], seconds: float, parts: Sequence[str], workers: int | None = None
) -> Report:
    """At each load in turn, each part asked for (so the machine's other work falls on all
    of them alike); then the bots beside BOT_CLIENTS clients (or the smallest load)."""
    report = Report(tuple(loads), seconds, tuple(parts))
    cores = os.cpu_count() or 1
    processes = [n for n in (2, 4) if f"nginx{n}" in parts]
    if 4 in processes and cores < 4:
        processes.remove(4)
        report.skipped.append(
            f"4 processes behind nginx: not run, this machine has {cores} cores (a process "
            "a core at the least)"
        )
    with contextlib.ExitStack() as stack:
        data = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-rooms-")))
        postgres = stack.enter_context(start_postgres(data / "pg")) if processes else None
        for step, clients in enumerate(loads):
            load = Load(clients, seconds=seconds)

            def new(part: str, load: Load = load) -> Result:
                return Result(part, NAMES[part], load)

            if "anchor" in parts:
                report.add(run_anchor(new("anchor")))
            if "sqlite" in parts:
                report.add(run_sqlite(new("sqlite"), data / f"sqlite{step}"))
            for count in processes:
                name = f"bench{step}x{count}"
                postgres.psql(f"CREATE DATABASE {name};")
                database = postgres.get_uri(name)
                report.add(run_behind_nginx(new(f"nginx{count}"), count, database, workers))
        if "bots" in parts:
            load = Load(min(BOT_CLIENTS, *loads), seconds=seconds)
            if "anchor" in parts and load.clients not in loads:
                report.add(run_anchor(Result("anchor", NAMES["anchor"], load)))
            bots = Result("bots", NAMES["bots"], load)
            report.add(run_sqlite(bots, data / "bots", bots=BOT_ROOMS))
    return report


@contextlib.contextmanager
def start_postgres(where: Path) -> Iterator[Any]:
    """PostgreSQL 16 (pgserver) in `where` for the run, stopped at the end."""
    import warnings

    import pgserver

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR, /tmp it is
        server = pgserver.get_server(where, cleanup_mode="stop")
    try:
        yield server
    finally:
        server.cleanup()


def run(
    loads: Sequence[int] = LOADS,
    seconds: float = SECONDS,
    parts: Sequence[str] = PARTS,
    workers: int | None = None,
) -> Report:
    """`python -m bench rooms`: every part at every load, then the goals."""
    print("## Room server\n")
    before = os.getloadavg()
    started = datetime.datetime.now().astimezone()
    print(
        f"Each client rolls `1d6` once a second for {seconds:g} s, in rooms of "
        f"{MEMBERS_PER_ROOM}; {os.cpu_count()} cores ({platform.machine()}); started "
        f"{started:%Y-%m-%d %H:%M %Z}, load average {before[0]:.1f}.\n",
        flush=True,
    )
    report = measure(loads, seconds, parts, workers)
    report.print()
    after = os.getloadavg()
    minutes = (datetime.datetime.now().astimezone() - started).total_seconds() / 60
    print(f"Took {minutes:.1f} minutes; load average {after[0]:.1f} at the end.\n")
    return report


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--loads",
        default=",".join(map(str, LOADS)),
        help=f"Clients at each load, comma-separated (up to {MAX_CLIENTS:,}).",
    )
    parser.add_argument("--seconds", type=float, default=SECONDS, help="Of rolling, a load.")
    parser.add_argument(
        "--parts", default=",".join(PARTS), help=f"Some of {', '.join(PARTS)} (comma-separated)."
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_SECONDS:g} s at {QUICK_LOADS[0]} clients, {' and '.join(QUICK_PARTS)} "
        "unless --parts says otherwise: the report's shape in seconds.",
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="Shards and pool processes of each process behind nginx (default: the cores "
        "shared out among them).",
    )
    parser.add_argument("--anchor-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    asked = parser.parse_args(argv)
    if asked.anchor_server:
        import uvicorn

        uvicorn.run(anchor_app(), host=HOST, port=asked.anchor_server, log_level="error")
        return
    given = {arg.split("=")[0] for arg in argv}
    loads = QUICK_LOADS if asked.quick and "--loads" not in given else _numbers(asked.loads)
    seconds = QUICK_SECONDS if asked.quick and "--seconds" not in given else asked.seconds
    parts = QUICK_PARTS if asked.quick and "--parts" not in given else asked.parts.split(",")
    if not all(1 <= clients <= MAX_CLIENTS for clients in loads):
        sys.exit(f"--loads: each from 1 to {MAX_CLIENTS:,} clients")
    if not 0 < seconds <= MAX_SECONDS:
        sys.exit(f"--seconds: more than 0, up to {MAX_SECONDS}")
    if unknown := set(parts) - set(PARTS):
        sys.exit(f"--parts: unknown {', '.join(sorted(unknown))}; choose from {', '.join(PARTS)}")
    if asked.workers is not None and not 1 <= asked.workers <= 64:
        sys.exit("--workers: from 1 to 64")
    run(loads, seconds, [part for part in PARTS if part in parts], asked.workers)


def _numbers(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(n) for n in text.split(",") if n.strip())
    except ValueError:
        sys.exit(f"--loads: whole numbers separated by commas, not {text!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
