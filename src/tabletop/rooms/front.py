"""The server's front: the event loop that moves bytes. It starts the worker processes —
shards, which own the rooms that hash to them (shards.py), and the pool, which thinks for
bots and checks and builds logs (pool.py) — and talks to them over socket pairs, charging
every request to its allowance first (allowances.py) and writing the shards' fan-out to the
sockets it holds (live.py). It never runs rules or SQL.

A request that touches a room goes to the room's shard (`shard_of`: the same room, the same
shard, in arrival order); work for the pool is queued here by priority (`Priority`), so
that a bot's decision, which holds its room, never waits behind a stranger's verify, and
strangers' checks are bounded in number. A worker that dies is started again: requests it
held are refused with a one-line 503, and the sockets of its rooms are closed (clients
resume from their last seq).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import itertools
import multiprocessing
import os
import pickle
import secrets
import socket
import sys
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from tabletop.errors import TabletopError
from tabletop.rooms.allowances import READ_COST, Allowances, Rates
from tabletop.rooms.databases import kind_of
from tabletop.rooms.errors import Relayed, RoomError, TooMuch
from tabletop.rooms.fairdice import new_seed
from tabletop.rooms.leases import LEASE
from tabletop.rooms.lines import trailer
from tabletop.rooms.live import Listeners, Socket
from tabletop.rooms.messages import (
    Ask,
    Attach,
    Attached,
    Call,
    Caller,
    Calling,
    Chunk,
    Claim,
    Delegate,
    Detach,
    Export,
    Failure,
    Fanout,
    Finished,
    Frames,
    Job,
    Moved,
    Notice,
    Page,
    PoolAsk,
    PoolDone,
    Priority,
    Read,
    Ready,
    Reply,
    Reveal,
    ShardConfig,
    Stop,
    frame,
)
from tabletop.rooms.texts import ROOM_TEXT
from tabletop.rooms.witness import WITNESS_WAIT

BOT_PAUSE = 0.6
"""Seconds a bot's seat waits before it moves, so the people at the table can follow it."""

START_WAIT = 120.0
"""Seconds a worker process has to start (import, open the store) and say it is ready."""

STOP_WAIT = 10.0
"""Seconds the workers have to finish and exit when the server stops."""

MAX_WAITING = 8
"""Jobs of anyone (verify, import checks, QR codes) waiting for the pool at once, per pool
process; past it, a one-line 429."""

PRIORITIES: tuple[Priority, ...] = ("think", "member", "anyone")

POOL_NICE = 10
"""How much lower than the shards the pool runs (`os.nice`): the shards answer every room."""


def shard_of(room: str, shards: int) -> int:
    """The shard that owns `room`: the same in every process and after every restart."""
    return int.from_bytes(hashlib.sha256(room.encode("utf-8")).digest()[:8], "big") % shards


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def shards_for(address: str) -> int:
    """How many shards a store serves best: one per core on PostgreSQL, whose row locks let
    them append side by side; one on SQLite, which has one writer at a time (the rules run
    inside the append's transaction, so more shards would only take turns at its lock)."""
    return cores() if address.startswith(("postgresql://", "postgres://")) else 1


@dataclass(frozen=True)
class Settings:
    """How a server runs (`tabletop serve`'s options)."""

    address: str
    """The store every worker opens (`Store.address`)."""
    workers: int = field(default_factory=cores)
    pool: int = field(default_factory=cores)
    rates: Rates = field(default_factory=Rates)
    trusted: tuple[str, ...] = ()
    """Reverse proxies whose `X-Forwarded-For` names the client (`--trust-proxy`)."""
    bot_pause: float = BOT_PAUSE
    seeds: Callable[[], bytes] = new_seed
    """Each dice session's secret seed: only test fixtures replace it (never an option)."""
    lease: float = LEASE
    """Seconds a room's lease lasts with PostgreSQL (leases.py); SQLite takes none."""
    witness_wait: float = WITNESS_WAIT
    """Seconds a roll's call waits for its witnesses (a test server's is short)."""
    room_text: int = ROOM_TEXT
    """A room's text allowance unless its GM gives it another (`--room-text`)."""

    @property
    def leased(self) -> bool:
        """Whether rooms are held by lease: several processes may share the store."""
        return self.lease > 0 and kind_of(self.address) == "postgres"


class Worker:
    """The front's end of one worker process."""

    def __init__(self, front: Front, kind: str, index: int) -> None:
        self.front, self.kind, self.index = front, kind, index
        self.process: multiprocessing.process.BaseProcess | None = None
        self.transport: asyncio.Transport | None = None
        self.pending: dict[int, tuple[asyncio.Future[Any], Callable[[Any], None] | None]] = {}
        self.job: int | None = None
        """A pool process: the number of the job it holds."""
        self.serving = False
        """Between its ready message and its stop: a closed end then means it was lost."""
        self.started = 0
        """How many times its process was started (a restarted shard numbers its jobs
        afresh)."""
        self._ready: asyncio.Future[Any] | None = None

    async def start(self) -> None:
        """Start the process and wait until it says it is ready (or why it could not)."""
        self.started += 1
        mine, theirs = socket.socketpair()
        config = self.front.config_of(self.kind, self.index)
        context = multiprocessing.get_context("spawn")
        name = f"tabletop-{self.kind}-{self.index}"
        self.process = context.Process(
            target=work, args=(self.kind, theirs, config), name=name, daemon=True
        )
        self.process.start()
        theirs.close()
        loop = asyncio.get_running_loop()
        self._ready = loop.create_future()
        self.transport, _ = await loop.create_connection(lambda: _Link(self), sock=mine)
        try:
            first = await asyncio.wait_for(asyncio.shield(self._ready), START_WAIT)
        except TimeoutError:
            first = Failure(f"the {self.kind} worker did not start")
        if not isinstance(first, Ready):
            await self.stop()
            raise RoomError(getattr(first, "problem", f"the {self.kind} worker did not start"))
        self.serving = True

    def send(self, message: Any) -> None:
        if self.transport is None or self.transport.is_closing():
            raise Relayed("the server is restarting a worker: send it again", 503)
        self.transport.write(frame(message))

    async def call(
        self, number: int, message: Any, then: Callable[[Any], None] | None = None
    ) -> Any:
        """Send and wait for the answer numbered `number`; `then` sees it first, before
        any later message of this worker is handled (a socket's backlog before new lines)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending[number] = (future, then)
        try:
            self.send(message)
        except Relayed:
            del self.pending[number]
            raise
        return await future

    def arrived(self, message: Any) -> None:
        """A whole message from the process: its first says whether it is ready."""
        if self._ready is not None and not self._ready.done():
            self._ready.set_result(message)
        else:
            self.front.receive(self, message)

    def answer(self, number: int, value: Any) -> None:
        waiting = self.pending.pop(number, None)
        if waiting is None:
            return
        future, then = waiting
        if then is not None:
            then(value)
        if not future.done():
            future.set_result(value)

    def closed(self) -> None:
        """The process's end closed: before it was ready, it did not start; after, it is
        lost — refuse what it held, and have another started unless stopping."""
        if self._ready is not None and not self._ready.done():
            self._ready.set_result(Failure(f"the {self.kind} worker did not start"))
        for future, _ in self.pending.values():
            if not future.done():
                future.set_result(Failure("the server lost a worker: send it again", 503))
        self.pending.clear()
        if self.serving:
            self.serving = False
            self.front.lost(self)

    async def stop(self) -> None:
        self.serving = False
        if self.transport is not None and not self.transport.is_closing():
            with contextlib.suppress(Exception):
                self.transport.write(frame(Stop()))
        process = self.process
        if process is not None and process.pid is not None:  # it was started
            await asyncio.to_thread(process.join, STOP_WAIT)
            if process.is_alive():
                process.terminate()
                await asyncio.to_thread(process.join, 2)
            if process.is_alive():
                process.kill()
                await asyncio.to_thread(process.join, 2)
        if self.transport is not None:
            self.transport.close()


class _Link(asyncio.Protocol):
    """The front's end of a worker's socket: each whole message handled as it arrives, in
    order, on the event loop."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self.frames = Frames()

    def data_received(self, data: bytes) -> None:
        for message in self.frames.feed(data):
            self.worker.arrived(message)

    def connection_lost(self, exc: Exception | None) -> None:
        self.worker.closed()


def work(kind: str, sock: socket.socket, config: Any) -> None:
    """A worker process's first call (spawned): run the shard or the pool."""
    importlib.import_module(f"tabletop.rooms.{kind}").run(sock, config)


@dataclass
class _Queued:
    payload: bytes
    priority: Priority
    future: asyncio.Future[bytes]


class Front:
    """The workers, the sockets and the allowances of one server process."""

    def __init__(self, settings: Settings) -> None:
        if settings.workers < 1 or settings.pool < 1:
            raise RoomError("a server needs at least one shard worker and one pool worker")
        self.settings = settings
        self.allowances = Allowances(settings.rates, settings.trusted)
        self.listeners = Listeners()
        self.owed: dict[str, set[tuple[str, str]]] = {}
        """Each room's call out, as the (call, witness) reveals it still awaits: a reveal the
        server asked for is taken past the member allowance (`Front.asked_for`)."""
        self.shards = [Worker(self, "shards", i) for i in range(settings.workers)]
        self.pool = [Worker(self, "pool", i) for i in range(settings.pool)]
        self._numbers = itertools.count(1)
        self._queued: dict[Priority, deque[_Queued]] = {p: deque() for p in PRIORITIES}
        self._running: dict[int, _Queued] = {}
        """Pool jobs by number, while a pool process holds them."""
        self._anyone = 0
        """Jobs of anyone the pool holds now (at most half the pool, at least one)."""
        self._thinking: set[asyncio.Task[None]] = set()
        """Shards' jobs on their way through the pool."""
        self._stopping = False
        self.name = f"{socket.gethostname()[:24]}/{os.getpid()}/{secrets.token_hex(3)}"
        """This process among the server's processes: its shards' leases name it."""

    def config_of(self, kind: str, index: int) -> Any:
        if kind == "pool":
            return POOL_NICE
        settings = self.settings
        lease = settings.lease if settings.leased else 0.0
        owner = f"{self.name}/{index}"
        return ShardConfig(
            index,
            settings.address,
            settings.bot_pause,
            owner,
            lease,
            settings.seeds,
            settings.witness_wait,
            settings.room_text,
        )

    async def start(self) -> None:
        """Start every worker, each ready before the server answers anything."""
        try:
            await asyncio.gather(*(w.start() for w in [*self.shards, *self.pool]))
        except BaseException:
            await self.stop()
            raise

    async def stop(self) -> None:
        """Close the sockets; let the workers finish what they hold and exit."""
        self._stopping = True
        self.listeners.stop()
        await asyncio.gather(*(w.stop() for w in [*self.shards, *self.pool]))
        for queued in self._queued.values():
            for job in queued:
                if not job.future.done():
                    job.future.set_result(pickle.dumps(_stopping()))

    # rooms -------------------------------------------------------------------------------

    async def ask(
        self,
        room: str,
        ask: Ask,
        token: str = "",
        address: str = "-",
        cost: float = 1.0,
        then: Callable[[Any], None] | None = None,
    ) -> Any:
        """The room's shard's answer to `ask`, charged to the member `token` opens; while
        the front does not know whom, let through only if the address holds a request's
        allowance, and charged to it unless the token opened a member (an invite, a room
        that does not exist, a link that opens nothing: each costs its address). A refusal
        is raised as one line with its status."""
        allowances = self.allowances
        member = allowances.member_of(room, token) if token else None
        if member is not None:
            allowances.take(room, member, cost)
        elif token:
            allowances.admit_stranger(address)
        number = next(self._numbers)
        shard = self.shards[shard_of(room, len(self.shards))]
        reply: Reply = await shard.call(number, Call(number, room, ask), then)
        value = reply.value
        if token and member is None:
            if reply.member:
                allowances.learn(room, token, reply.member)
                allowances.charge(room, reply.member, cost)
            else:  # an invite, a room that does not exist, a link that opens nothing
                allowances.failed(address)
        if isinstance(value, Delegate):
            return await self.pooled(value.payload, value.priority)
        return _raised(value)

    def read(self, room: str, token: str, size: int) -> None:
        """Charge the member a link opens for what a read of theirs carried."""
        member = self.allowances.member_of(room, token)
        if member is not None:
            self.allowances.read(room, member, size)

    async def claim(self, room: str, address: str) -> None:
        """Whether this process serves the room, before a socket is accepted: with leases,
        raises a 503 (`Relayed`, with `retry_after`) when another live process holds it.
        Asking costs the database a look, so an address that keeps asking for rooms that
        do not exist spends its allowance as one guessing links does."""
        if self.settings.leased:
            self.allowances.admit_stranger(address)
            if not await self.ask(room, Claim()):
                self.allowances.failed(address)

    def detach(self, room: str, member: str, witness: bool = False) -> None:
        """A socket closed: its room's shard stops making lines for it."""
        self._tell_shard(room, Detach(member, witness))

    def reveal(
        self, room: str, member: str, call: str, value: str, passed: tuple[str, ...] = ()
    ) -> None:
        """A witness's value for a roll's call, to the room's shard (no answer)."""
        self.owed.get(room, set()).discard((call, member))
        self._tell_shard(room, Reveal(member, call, value, passed))

    def asked_for(self, room: str, member: str, call: str | None) -> bool:
        """Whether a reveal for `call` is one the room's call out still awaits from this
        member: the server asked for it, once, so the allowance does not refuse it (a page
        pressing fast still witnesses its rolls instead of being named absent)."""
        return (call, member) in self.owed.get(room, ())

    def _tell_shard(self, room: str, ask: Detach | Reveal) -> None:
        shard = self.shards[shard_of(room, len(self.shards))]
        with contextlib.suppress(Relayed):
            shard.send(Call(0, room, ask))

    async def attach(
        self, socket: Socket, token: str, after: int, address: str, witness: str | None = None
    ) -> Attached:
        """Say hello on a socket: it listens from its answer on (backlog first); with
        `witness`, its client's chain head (it witnesses the room's rolls)."""

        def listen(reply: Reply) -> None:
            if isinstance(reply.value, Attached):
                member = reply.value.member["id"]
                try:
                    self.listeners.open(socket, member, reply.value.page)
                except TooMuch as refused:
                    self.detach(socket.room, member, witness is not None)
                    socket.reason = str(refused)

        hello = Attach(token, after, witness)
        attached = await self.ask(socket.room, hello, token, address, 0.25, listen)
        if socket.reason:
            raise TooMuch(socket.reason)
        return attached

    async def catch_up(self, socket: Socket) -> None:
        """Give a socket the rest of its backlog a page at a time, each once it has room for
        it and charged to its member's allowance (waiting for the allowance, never refused),
        each page's lines put before any later live line (`Socket.take`, at the reply)."""
        while socket.catching and not socket.reason:
            await socket.roomy.wait()
            if socket.reason:
                return
            await asyncio.sleep(self.allowances.wait(socket.room, socket.member, READ_COST))
            ask = Read(Caller(member=socket.member), "log", socket.after)

            def took(reply: Reply) -> None:
                if isinstance(reply.value, Page):
                    socket.take(reply.value)
                    self.allowances.read(socket.room, socket.member, len(reply.value.text))

            await self.ask(socket.room, ask, then=took)

    async def export(self, plan: Export) -> AsyncIterator[str]:
        """An export's lines a chunk at a time, each built by the pool and charged to its
        member (waiting for the allowance, never refused); the next chunk is asked for only
        once the last was written to the client (the server's flow control), so an export
        of any size holds one chunk here. A chunk refused ends it without its trailer."""
        after, head = 0, ""
        member = plan.member.id
        while after < plan.head:
            await asyncio.sleep(self.allowances.wait(plan.room, member, READ_COST))
            job = pickle.dumps(replace(plan, after=after))
            try:
                chunk: Chunk = await self.pooled(job, "member")
            except TabletopError:
                return
            if chunk.last <= after:
                return
            after, head = chunk.last, chunk.hash
            self.allowances.read(plan.room, member, len(chunk.text))
            yield chunk.text
        yield trailer(plan.room, plan.system, plan.member, plan.head, head) + "\n"

    # the pool ----------------------------------------------------------------------------

    async def pooled(self, payload: bytes, priority: Priority, raw: bool = False) -> Any:
        """A job's result from the pool (`raw`: its pickled answer, passed on unread)."""
        if priority == "anyone":
            waiting = len(self._queued["anyone"])
            if waiting >= MAX_WAITING * len(self.pool):
                raise TooMuch("the server is busy checking other logs: try again in a minute")
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._queued[priority].append(_Queued(payload, priority, future))
        self._dispatch()
        result = await future
        return result if raw else _raised(pickle.loads(result))

    def _dispatch(self) -> None:
        """Give each idle pool process the next job: thinking first, anyone's last (and on
        at most half the pool, so a bot never waits for a stranger's verify)."""
        for worker in self.pool:
            if worker.job is not None or worker.transport is None:
                continue
            if worker.transport.is_closing():
                continue
            job = self._next_job()
            if job is None:
                return
            number = next(self._numbers)
            worker.job = number
            self._running[number] = job
            if job.priority == "anyone":
                self._anyone += 1
            try:
                worker.send(Job(number, job.payload))
            except Relayed:
                self._finish(worker, number, pickle.dumps(_stopping()))

    def _next_job(self) -> _Queued | None:
        for priority in PRIORITIES:
            queued = self._queued[priority]
            if queued and (priority != "anyone" or self._anyone < max(1, len(self.pool) // 2)):
                return queued.popleft()
        return None

    def _finish(self, worker: Worker, number: int, result: bytes) -> None:
        worker.job = None
        job = self._running.pop(number, None)
        if job is not None:
            if job.priority == "anyone":
                self._anyone -= 1
            if not job.future.done():
                job.future.set_result(result)
        self._dispatch()

    async def _think(self, shard: Worker, ask: PoolAsk) -> None:
        """A shard's job for the pool, answered to that shard: not to one started since in
        its place, whose jobs are numbered afresh."""
        started = shard.started
        result = await self.pooled(ask.payload, "think", raw=True)
        if shard.started == started:
            with contextlib.suppress(Relayed):
                shard.send(PoolDone(ask.job, result))

    # what the workers send ---------------------------------------------------------------

    def receive(self, worker: Worker, message: Any) -> None:
        """One message from a worker (a shard sends each round's as one list), handled
        before the next one is read."""
        if isinstance(message, list):
            for each in message:
                self.receive(worker, each)
        elif isinstance(message, Reply):
            worker.answer(message.number, message)
        elif isinstance(message, Job):
            self._finish(worker, message.number, message.payload)
        elif isinstance(message, Fanout):
            self.owed.pop(message.room, None)  # the room was held for its call till now
            for member in self.listeners.deliver(message):
                self.allowances.forget(message.room, member)
        elif isinstance(message, Calling):
            self.owed[message.room] = {(message.call, w) for w in message.witnesses}
            for socket in self.listeners.rooms.get(message.room, []):
                socket.put(message.frame)
        elif isinstance(message, Notice):
            self.listeners.notify(message.room, message.to, message.text)
        elif isinstance(message, Moved):
            self.owed.pop(message.room, None)
            for socket in self.listeners.rooms.get(message.room, []):
                socket.close(message.reason, retry=True)
        elif isinstance(message, PoolAsk):
            thinking = asyncio.get_running_loop().create_task(self._think(worker, message))
            self._thinking.add(thinking)
            thinking.add_done_callback(self._thinking.discard)

    def lost(self, worker: Worker) -> None:
        """A worker process ended on its own: refuse what it held, start another."""
        if self._stopping:
            return
        print(
            f"tabletop: the {worker.kind} worker {worker.index} stopped; starting another",
            file=sys.stderr,
        )
        if worker.kind == "pool":
            if worker.job is not None:
                failed = Failure("the pool worker stopped: send it again", 503)
                self._finish(worker, worker.job, pickle.dumps(failed))
        else:
            for room, sockets in list(self.listeners.rooms.items()):
                if shard_of(room, len(self.shards)) == worker.index:
                    for socket in sockets:
                        socket.close("the server restarted this room's worker: reconnect", True)
        asyncio.get_running_loop().create_task(self._restart(worker))

    async def _restart(self, worker: Worker) -> None:
        await asyncio.sleep(1.0)
        if self._stopping:
            return
        try:
            await worker.start()
        except RoomError as failed:
            print(f"tabletop: {failed}", file=sys.stderr)
            return
        if worker.kind == "pool":
            self._dispatch()


def _raised(value: Any) -> Any:
    """A worker's answer, or its refusal raised as one line with its status."""
    if isinstance(value, Finished):
        return value.value
    if isinstance(value, Failure):
        raise Relayed(value.problem, value.status, value.seq, value.line, value.retry_after)
    return value


def _stopping() -> Failure:
    return Failure("the server is stopping", 503)
