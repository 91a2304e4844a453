"""A shard worker: the process that owns the rooms hashing to it (`shard_of`), with its own
store connection and its own `Hall`, so that the front's event loop never runs rules or SQL.

Each room has a queue of work in arrival order (requests from the front, the table's own
moves, catching up with another process's appends) and the shard takes one item of each
ready room per round, all of them in one store transaction (group commit: one durable
commit for every append that was ready together; a request refused is undone alone,
`Store.batch` says how). Nothing is answered before that commit: then each request's
`Reply` goes back, and for every append a `Fanout` with each entry's lines for the members
whose sockets are attached, one copy per distinct line.

A request whose intent takes thinking (`Session.thinks`: a bot's search) is decided by the
pool first; while it thinks, that room's queue waits — the room, not the shard: other
rooms go on. The table's own moves (a bot's seat deciding) are scheduled here after each
append, `bot_pause` seconds later, and queued behind the room's other work.

The hall keeps each room as its latest snapshot plus what followed (snapshots.py): every
`SWEEP_EVERY` seconds the shard lets idle rooms go, each snapshotted first, and when it
stops it snapshots every room it holds. Sockets listening to a room let go are sent, once
it is loaded again, whatever another process appended meanwhile.

With PostgreSQL a shard serves a room only while it holds the room's lease (leases.py):
before a round it takes the lease of each room asked for that it does not hold, answers 503
for a room another live process holds, and drops a room whose lease it lost (its queue is
refused, its table forgotten, its sockets told to reconnect elsewhere).
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import json
import os
import pickle
import select
import signal
import socket
import sys
import time
import traceback
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from tabletop.errors import TabletopError
from tabletop.rooms.databases import kind_of, open_address
from tabletop.rooms.errors import NotAllowed, RefusedOnRecord, RoomError, status_of
from tabletop.rooms.hall import Appended, Hall, Thinking
from tabletop.rooms.leases import Busy
from tabletop.rooms.lines import project
from tabletop.rooms.log import Entry
from tabletop.rooms.memory import quiet_collector
from tabletop.rooms.messages import (
    Answer,
    Attach,
    Attached,
    Call,
    Caller,
    Calling,
    Channel,
    Chat,
    Claim,
    Delegate,
    Delivery,
    Detach,
    Export,
    Failure,
    Fanout,
    Finished,
    ImportRoom,
    JoinRoom,
    Moved,
    Notice,
    OpenRoom,
    Plan,
    PoolAsk,
    PoolDone,
    Read,
    Ready,
    Record,
    Reply,
    Resolve,
    Reveal,
    ShardConfig,
    Stop,
    Think,
    UseTool,
)
from tabletop.rooms.reading import read_page
from tabletop.rooms.store import Sent, Store
from tabletop.rooms.texts import TextSpent
from tabletop.rooms.witness import Call as WitnessCall
from tabletop.session import Decision, Member, Role

if TYPE_CHECKING:
    from tabletop.rooms.leased import LeasedStore

IDLE = 1.0
"""Seconds the shard waits for work before looking at its timers again."""

IDLE_RELEASE = 60.0
"""Seconds after which a shard gives up the lease of a room with no work and no socket
(PostgreSQL), so that the process the proxy sends that room to can take it."""

MAX_ROUND = 256
"""Rooms one round (one transaction) takes work from at most."""

MAX_STEPS = 16
"""Requests of one room one round takes at most, in their order."""

ROUND_TIME = 0.025
"""Seconds after which a round takes no further room: what it did is committed and
answered, and the rooms it did not reach come first in the next."""

SWEEP_EVERY = 60.0
"""Seconds between looks for rooms idle long enough to be let go (`Hall.let_go_idle`)."""

MOVED = "another server process serves this room now: send it again"

NOTICE_EVERY = 60.0
"""Seconds between two notices to a room's GMs that its text allowance is spent."""

ELSEWHERE_FOR = 1.0
"""Seconds a shard answers 503 for a room it found another process holding without asking
the database again (at most what that lease had left): a proxy that keeps sending a room
to the wrong process costs the database one look a second, not one a request."""
"""What a request for a room this shard does not hold is answered (503, Retry-After)."""


@dataclass(frozen=True)
class _Due:
    """A table move whose pause is over, for the dice session it was scheduled in."""

    dice_session: int


@dataclass(frozen=True)
class _Notified:
    """Another process appended to the room (PostgreSQL's NOTIFY)."""


class _Held:
    """The reply waits on the pool (the room is held until its answer)."""


HELD = _Held()

Work = Call | _Due | _Notified


def run(sock: socket.socket, config: ShardConfig) -> None:
    """The worker process: open the store, say ready, serve until told to stop or until
    the front has gone; Ctrl-C is the front's to handle, SIGTERM stops after the round."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    channel = Channel(sock)
    try:
        store = _open(config)
    except Exception as problem:  # the front says it in one line and stops
        channel.send(Failure(f"a shard could not open the store: {problem}"[:300], 500))
        return
    shard = Shard(store, channel, config)
    signal.signal(signal.SIGTERM, lambda *_: shard.stop())
    quiet_collector()
    channel.send(Ready(os.getpid()))
    try:
        shard.serve()
    finally:
        store.close()


def _open(config: ShardConfig) -> Store:
    """The shard's store: with PostgreSQL and a lease, one that holds rooms by lease."""
    if config.lease > 0 and kind_of(config.address) == "postgres":
        from tabletop.rooms.leased import LeasedStore  # only PostgreSQL servers load psycopg

        return LeasedStore(config.address, config.owner, config.lease)
    return open_address(config.address)


class Shard:
    """The rooms of one worker process and their queues."""

    def __init__(self, store: Store, channel: Channel, config: ShardConfig) -> None:
        self.store = store
        self.channel = channel
        self.config = config
        self.hall = Hall(store, seeds=config.seeds, room_text=config.room_text)
        self.hall.listeners.append(self._appended)
        self.notices: deque[str] = deque()
        """Rooms another process appended to, from the store's listening thread."""
        self.leases = cast("LeasedStore", store) if getattr(store, "leased", False) else None
        """The store, when it holds rooms by lease (PostgreSQL); None on SQLite."""
        self.lost: deque[str] = deque()
        """Rooms whose leases the renewing thread found taken over."""
        self.used: dict[str, float] = {}
        """When each room this shard holds last had work (for releasing idle ones)."""
        self.made: set[str] = set()
        self.elsewhere: dict[str, tuple[float, float]] = {}
        """Rooms found held by another process: until when (monotonic) to say so without
        asking, and the seconds that lease had left."""
        """Rooms this round opened or imported: their leases are given up once it commits."""
        self._swept = time.monotonic()
        self._woken, self._waker = socket.socketpair()
        self._woken.setblocking(False)
        self._waker.setblocking(False)
        self.work: dict[str, deque[Work]] = {}
        self.held: dict[int, tuple[str, Callable[[Any], None]]] = {}
        """Pool jobs this shard waits on: the room each holds, and what to do with the answer."""
        self.holding: set[str] = set()
        self.resumed: dict[str, tuple[Callable[[Any], None], Any]] = {}
        self.attached: dict[str, Counter[str]] = {}
        """Each room's members with sockets open on the front, and how many."""
        self.witnessing: dict[str, Counter[str]] = {}
        """Each room's members whose clients witness its rolls, and how many sockets."""
        self.calls: dict[str, tuple[int, WitnessCall, int | None]] = {}
        """Each room's roll whose call is out: its job (in `held`), the call, and the
        number of the request it answers (None for the table's own move)."""
        self.call_timers: list[tuple[float, int, str]] = []
        """When each call's bound passes (`ShardConfig.witness_wait`), by job."""
        self.timers: list[tuple[float, int, str, int]] = []
        self.moving: set[str] = set()
        """Rooms whose table move (a bot's) is waiting out its pause."""
        self.out: list[Any] = []
        """What this round sends once its transaction commits, in order."""
        self._jobs = 0
        self._stopping = False
        self._cut = ""
        """The last room a round cut short by `ROUND_TIME` reached; the next starts after it."""
        self.told: dict[str, int] = {}
        """Each room with sockets attached: the seq of the last entry they were sent (a
        room let go while they listen is told from there when another process appends)."""
        self._sweep_at = time.monotonic() + SWEEP_EVERY
        self.noticed: dict[str, float] = {}
        """When each room's GMs were last told that its text allowance is spent."""

    def stop(self) -> None:
        """Stop after the round in progress (SIGTERM)."""
        self._stopping = True
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            self._waker.send(b"!")

    # the loop ----------------------------------------------------------------------------

    def serve(self) -> None:
        stop_listening = self.store.start(self._notified)
        leases = self.leases
        stop_renewing = leases.start_renewing(self._lost) if leases is not None else None
        try:
            while not self._stopping:
                self._take(self._wait())
                self._due()
                ready = self._ready()
                if leases is not None:
                    ready = self._claim(leases, ready)
                if ready:
                    self._round(ready)
                self._sweep()
                if leases is not None:
                    self._tidy(leases)
                self._flush()
        finally:
            if stop_renewing is not None:
                stop_renewing()
            stop_listening()
            self._finish()
            if leases is not None:
                leases.release()  # a clean stop: the next process takes the rooms at once

    def _finish(self) -> None:
        """Stopping: a roll whose call is out is refused (never left waiting: it is sent
        again and called afresh), and every room is snapshotted (a restart folds little)."""
        for room in list(self.calls):
            self._refuse_call(room, "the server is stopping: send it again")
        with contextlib.suppress(OSError):  # the front may be gone already
            self._flush()
        self._let_go(self.hall.let_go_all)

    def _sweep(self) -> None:
        """Every `SWEEP_EVERY` seconds, let go of the rooms idle for the hall's time (each
        snapshotted first), even while nobody asks for any."""
        if time.monotonic() < self._sweep_at:
            return
        self._sweep_at = time.monotonic() + SWEEP_EVERY
        self._let_go(self.hall.let_go_idle)

    def _let_go(self, let_go: Callable[[], object]) -> None:
        """Snapshot and unload rooms, their snapshots in one commit; a failure is the
        server log's (the rooms load from an earlier snapshot)."""
        try:
            with self.store.batch():
                let_go()
        except Exception:
            traceback.print_exc(file=sys.stderr)

    def _lost(self, room: str) -> None:
        """The renewing thread found the room's lease taken over (this thread drops it)."""
        self.lost.append(room)
        self._wake()

    def _notified(self, room: str) -> None:
        """Another process appended to `room` (the store's listening thread calls this)."""
        self.notices.append(room)
        self._wake()

    def _wait(self) -> float:
        soonest = min([t[0] for t in self.timers[:1] + self.call_timers[:1]], default=None)
        if soonest is not None:
            return max(0.0, min(IDLE, soonest - time.monotonic()))
        return IDLE

    def _take(self, timeout: float) -> None:
        """Everything that arrived, after waiting up to `timeout` for anything: the front's
        messages (read here, on the loop's own thread) and the store's notices."""
        ready, _, _ = select.select([self.channel.sock, self._woken], [], [], timeout)
        if self._woken in ready:
            with contextlib.suppress(BlockingIOError):
                self._woken.recv(4096)
        while self.notices:
            self._sort((self.notices.popleft(), _Notified()))
        while self.lost:
            self._drop(self.lost.popleft(), MOVED)
        if self.channel.sock in ready:
            try:
                for message in self.channel.receive_ready():
                    self._sort(message)
            except EOFError:
                self._stopping = True  # the front has gone

    def _sort(self, message: Any) -> None:
        if isinstance(message, Call):
            if isinstance(message.ask, Detach):
                self._detach(message.room, message.ask.member, message.ask.witness)
            elif isinstance(message.ask, Reveal):
                self._revealed(message.room, message.ask)
            else:
                self.work.setdefault(message.room, deque()).append(message)
        elif isinstance(message, PoolDone):
            held = self.held.pop(message.job, None)
            if held is not None:
                room, then = held
                self.resumed[room] = (then, pickle.loads(message.result))
        elif isinstance(message, tuple):
            room, notified = message
            if room in self.attached or self.hall.is_loaded(room):
                self.work.setdefault(room, deque()).append(notified)
        elif isinstance(message, Stop):
            self._stopping = True

    def _due(self) -> None:
        now = time.monotonic()
        while self.timers and self.timers[0][0] <= now:
            _, _, room, dice_session = heapq.heappop(self.timers)
            self.work.setdefault(room, deque()).append(_Due(dice_session))
        while self.call_timers and self.call_timers[0][0] <= now:
            _, job, room = heapq.heappop(self.call_timers)
            self._settle(room, job)  # the silent witnesses are named absent

    def _ready(self) -> list[str]:
        """Rooms with work to do now: rooms being opened or imported first, then by name,
        starting after the last room a round cut short reached (so that every room has its
        turn however busy the others are)."""
        rooms = set(self.resumed)
        rooms.update(r for r, waiting in self.work.items() if waiting and r not in self.holding)
        return sorted(rooms, key=self._order)[:MAX_ROUND]

    def _order(self, room: str) -> tuple[int, int, str]:
        waiting = self.work.get(room)
        first = waiting[0] if waiting else None
        opens = isinstance(first, Call) and isinstance(first.ask, OpenRoom | ImportRoom)
        return (0 if opens else 1, 0 if room > self._cut else 1, room)

    def _round(self, rooms: list[str]) -> None:
        """The work of each ready room in turn (up to `MAX_STEPS` of a room, in order, and
        no further step once the round has run `ROUND_TIME`), in one transaction; if its
        commit fails, nothing of the round is kept or told, and every request in it is
        refused."""
        answered, started, reached = len(self.out), time.monotonic(), []
        told = dict(self.told)
        try:
            with self.store.batch():
                if self.leases is not None:
                    self.leases.foresee(self._foreseen(rooms))
                for room in rooms:
                    reached.append(room)
                    for _ in range(MAX_STEPS):
                        if not self._has_work(room):
                            break
                        self._step_alone(room)
                        if time.monotonic() - started > ROUND_TIME:
                            break
                    if time.monotonic() - started > ROUND_TIME:
                        break
            self._cut = reached[-1] if len(reached) < len(rooms) else ""
        except Exception as failed:  # the commit itself (disk full, lost connection)
            problem = (
                f"the database did not keep this change ({type(failed).__name__}): send it again"
            )
            kept = self.out[:answered]
            for message in self.out[answered:]:
                if isinstance(message, Reply):
                    kept.append(Reply(message.number, Failure(problem, 503)))
                elif isinstance(message, PoolAsk):
                    kept.append(message)
            self.out = kept
            for room in reached:
                self.hall.unload(room)
                self.moving.discard(room)
                if room in told:
                    self.told[room] = told[room]  # nothing of the round was sent

    def _foreseen(self, rooms: list[str]) -> dict[str, list[Sent]]:
        """What the round's resolutions from sockets will ask `Store.sent_before` (a link's
        request names no member until its token is read, and asks when it comes)."""
        sent: dict[str, list[Sent]] = {}
        for room in rooms:
            for work in itertools.islice(self.work.get(room, ()), MAX_STEPS):
                ask = work.ask if isinstance(work, Call) else None
                if isinstance(ask, Resolve) and ask.caller.member:
                    sent.setdefault(room, []).append((ask.caller.member, ask.client, ask.nonce))
        return sent

    def _has_work(self, room: str) -> bool:
        return room in self.resumed or (room in self.work and room not in self.holding)

    def _step_alone(self, room: str) -> None:
        """One item of the room's work; whatever it raises is its own."""
        try:
            self._step(room)
        except TabletopError:
            pass  # the table's own work (a bot's move, catching up): refused, nothing kept
        except Exception:  # a bug or a store error in that step alone
            traceback.print_exc(file=sys.stderr)

    def _step(self, room: str) -> None:
        if room in self.resumed:
            then, result = self.resumed.pop(room)
            self.holding.discard(room)
            then(result)
            return
        work = self.work[room].popleft()
        if not self.work[room]:
            del self.work[room]
        if isinstance(work, _Due):
            self._table_move(room, work.dice_session)
        elif isinstance(work, _Notified):
            with contextlib.suppress(TabletopError):
                self._caught_up(room)
        else:
            self._answer(work, lambda: self._ask(work.room, work))

    def _answer(self, call: Call, ask: Callable[[], tuple[Any, str]]) -> None:
        """Answer `call` with what `ask` gives, or the one-line refusal it raises."""
        member = ""
        try:
            value, member = ask()
        except TextSpent as refused:
            value = failure(refused)
            self._notice_gms(call.room, str(refused))
        except TabletopError as refused:
            value = failure(refused)
        except Exception as broken:  # a bug: say so in one line, keep the shard serving
            traceback.print_exc(file=sys.stderr)
            value = Failure(f"internal error ({type(broken).__name__})", 500)
        if value is not HELD:
            self.out.append(Reply(call.number, value, member))

    def _notice_gms(self, room: str, text: str) -> None:
        """Tell the room's GMs on their sockets (at most once every `NOTICE_EVERY`)."""
        now = time.monotonic()
        if now - self.noticed.get(room, -NOTICE_EVERY) < NOTICE_EVERY:
            return
        self.noticed[room] = now
        gms = tuple(m.id for m in self.hall.table(room).gms())
        self.out.append(Notice(room, gms, f"A member was refused: {text}."))

    def _flush(self) -> None:
        """Send the round's replies and lines, in order, as one message."""
        out, self.out = self.out, []
        if out:
            self.channel.send(out)

    # leases (PostgreSQL) -----------------------------------------------------------------

    def _claim(self, leases: LeasedStore, rooms: list[str]) -> list[str]:
        """The rooms of `rooms` this shard serves now: those whose leases it holds or has
        just taken, and rooms not in the store (yet). A room another process holds is
        dropped, its requests answered 503 with how long that lease has left."""
        serving, now = [], time.monotonic()
        for room in rooms:
            try:
                if leases.holds(room):
                    serving.append(room)
                    self.used[room] = now
                    continue
                if not self._asked(room):
                    self._drop(room, MOVED)  # a timer or a notice of a room let go: no more
                    continue
                known = self.elsewhere.get(room)
                if known is not None and now < known[0]:
                    self._drop(room, MOVED, known[1])
                    continue
                found = leases.take(room)
            except Exception as failed:  # the database did not answer
                problem = f"the database did not answer ({type(failed).__name__}): send it again"
                self._drop(room, problem, forget=False)
                continue
            if isinstance(found, Busy):
                left = max(1.0, round(found.left, 1))
                if len(self.elsewhere) > 10_000:
                    self.elsewhere.clear()
                self.elsewhere[room] = (now + min(ELSEWHERE_FOR, found.left), left)
                self._drop(room, MOVED, left)
            else:  # taken, or no such room (yet): the hall answers or creates it
                self.elsewhere.pop(room, None)
                self.hall.unload(room)  # whatever it knew of the room is from before
                serving.append(room)
                self.used[room] = now
        return serving

    def _made(self, room: str) -> None:
        """A room this round opened or imported (held by lease from its first transaction):
        given up once the round commits."""
        if self.leases is not None:
            self.made.add(room)

    def _asked(self, room: str) -> bool:
        """Whether anyone waits for an answer about the room (not only its own timers)."""
        waiting = self.work.get(room, ())
        return room in self.resumed or any(isinstance(work, Call) for work in waiting)

    def _drop(self, room: str, reason: str, retry_after: float = 1.0, forget: bool = True) -> None:
        """Stop serving the room: refuse what waits for it (503, `retry_after`), forget its
        table and timers, and have the front close its sockets (they reconnect through the
        proxy to the room's owner)."""
        if forget and self.leases is not None:
            self.leases.forget(room)
        self.hall.unload(room)
        self.moving.discard(room)
        self.used.pop(room, None)
        for work in self.work.pop(room, ()):
            if isinstance(work, Call):
                refused = Failure(reason, 503, retry_after=retry_after)
                self.out.append(Reply(work.number, refused))
        self._refuse_call(room, reason, retry_after)
        if room in self.resumed:  # a pool answer: its request is refused (the room is gone)
            then, result = self.resumed.pop(room)
            self.holding.discard(room)
            with contextlib.suppress(Exception):
                then(result)
        self.told.pop(room, None)
        if self.attached.pop(room, None):
            self.out.append(Moved(room, reason))

    def _tidy(self, leases: LeasedStore) -> None:
        """After a round: drop the rooms an append found taken over; now and then, release
        the leases of rooms with nothing to do and nobody attached."""
        for room in sorted(leases.fenced):
            self._drop(room, MOVED)
        leases.fenced.clear()
        made, self.made = self.made, set()
        handed = [room for room in made if room not in self.work and room not in self.attached]
        if handed:  # a new room goes to whichever process the proxy sends it to
            leases.release(handed)
            for room in handed:
                self.hall.unload(room)
        now = time.monotonic()
        if now - self._swept < 1.0:
            return
        self._swept = now
        busy = set(self.work) | self.holding | self.moving | set(self.attached)
        idle = [
            room
            for room in leases.held()
            if room not in busy and now - self.used.get(room, now) > IDLE_RELEASE
        ]
        if idle:
            self._let_go(lambda: [self.hall.let_go(room) for room in idle])  # snapshots first
            leases.release(idle)
            for room in idle:
                self.used.pop(room, None)

    # asks --------------------------------------------------------------------------------

    def _caught_up(self, room: str) -> None:
        """Fold and tell what another process appended: a loaded room catches up (its
        listener fans the entries out); a room let go while sockets listen is loaded again,
        and they are sent what followed the last entry they had."""
        if self.hall.is_loaded(room):
            self.hall.catch_up(room)
            return
        told = self.told.get(room)
        if told is None:
            return
        head = self.hall.table(room).head
        fresh = self.hall.entries(room, told, head)
        if fresh:
            self._appended(room, fresh)  # fans them out and schedules a bot's move

    def _ask(self, room: str, call: Call) -> tuple[Any, str]:
        """What the call's ask answers, and the member its token opened ("" if none)."""
        ask, hall = call.ask, self.hall
        if isinstance(ask, OpenRoom):
            made = hall.create(ask.system, ask.name, ask.options, ask.gm, room=room)
            self._made(room)
            return Answer([e.seq for e in made.entries], extra=made.extra), ""
        if isinstance(ask, ImportRoom):
            checked = pickle.loads(ask.checked)
            if isinstance(checked, Failure):
                return checked, ""
            plan, lines = checked.value
            made = hall.import_room(lines, plan, room=room)
            self._made(room)
            return Answer([e.seq for e in made.entries], extra=made.extra), ""
        if isinstance(ask, JoinRoom):
            made = hall.join(room, ask.invite, ask.name)
            return Answer([e.seq for e in made.entries], extra=made.extra), ""
        if isinstance(ask, Attach):
            return self._attach(room, ask)
        if isinstance(ask, Claim):  # this shard holds the room (or there is no lease)
            return self.store.has_room(room), ""
        if isinstance(ask, Read) and ask.what == "whoami":
            return self._whoami(room, ask.caller.token)
        me = self._caller(room, ask.caller)
        if isinstance(ask, Resolve):
            return self._resolve(call, ask, me), me.id
        if isinstance(ask, Chat):
            done = hall.say(room, me.id, ask.text, ask.to, ask.client)
            return self._acked(room, me, done, ask.lines), me.id
        if isinstance(ask, UseTool):
            return self._acked(room, me, self._tool(room, me, ask), True), me.id
        if isinstance(ask, Read):
            return self._read_room(room, me, ask), me.id
        assert isinstance(ask, Plan)
        return self._plan(room, me, ask), me.id

    def _caller(self, room: str, caller: Caller) -> Member:
        if caller.token:
            return self.hall.who(room, caller.token)
        return self.hall.table(room).member(caller.member)

    def _resolve(self, call: Call, ask: Resolve, me: Member) -> Any:
        """Resolve a member's intent: in a format-3 room a roll is called first and its
        witnesses answered (or the bound passed) before anything is decided or drawn."""
        room = call.room
        witnesses = tuple(self.witnessing.get(room, ()))
        called = self.hall.call(
            room, me.id, ask.intent, ask.client, ask.nonce, witnesses, ask.digest
        )
        if called is None or not called.witnesses:
            return self._resolve_called(call, ask, me, called)
        self._call_out(
            room,
            called,
            lambda: self._answer(
                call, lambda: (self._resolve_called(call, ask, me, called), me.id)
            ),
            call.number,
        )
        return HELD

    def _resolve_called(self, call: Call, ask: Resolve, me: Member, called: Any) -> Any:
        """The intent resolved (after its bot's thinking, if it takes any) with the dice
        of `called` (format 3), or of the room's seed (format 2)."""
        room, hall = call.room, self.hall
        nonce = called.nonce if called is not None else ask.nonce
        thinking = hall.thinking(room, me.id, ask.intent, ask.client, nonce, called)
        if thinking is None:
            done = hall.act(room, me.id, ask.intent, ask.client, nonce, called=called)
            return self._acked(room, me, done, ask.lines)

        def decided(result: Any) -> None:
            decision = result.value if isinstance(result, Finished) else None

            def act() -> tuple[Any, str]:
                position = thinking.nonce  # the client's, or the one drawn for it
                done = hall.act(
                    room, me.id, ask.intent, ask.client, position, decision, thinking.called
                )
                return self._acked(room, me, done, ask.lines), me.id

            self._answer(call, act)

        self._think(room, thinking, decided)
        return HELD

    # witnessed calls -----------------------------------------------------------------------

    def _call_out(
        self, room: str, called: WitnessCall, then: Callable[[], None], number: int | None = None
    ) -> None:
        """Send the call to every socket of the room and hold the room until its witnesses
        answered or its bound passed; then `then` resolves it (the request numbered
        `number`, if any, waits for that)."""
        self._jobs += 1
        job = self._jobs
        self.held[job] = (room, lambda _: then())
        self.holding.add(room)
        self.calls[room] = (job, called, number)
        due = time.monotonic() + self.config.witness_wait
        heapq.heappush(self.call_timers, (due, job, room))
        frame = called.frame()
        self.out.append(Calling(room, json.dumps(frame), frame["call"], tuple(frame["witnesses"])))

    def _revealed(self, room: str, reveal: Reveal) -> None:
        """A witness answered a call: kept if it is one the call awaits; the last awaited
        answer resolves the roll at once."""
        pending = self.calls.get(room)
        if pending is None:
            return
        job, called, _ = pending
        taken = called.take(reveal.member, reveal.call, reveal.value, reveal.passed)
        if taken and called.complete:
            self._settle(room, job)

    def _refuse_call(self, room: str, reason: str, retry_after: float = 1.0) -> None:
        """The room is no longer served here with a roll's call out: the roll is refused,
        nothing appended (its request is sent again, to be called afresh; each witness's
        value revealed for this call is passed over, and named, by its next roll)."""
        pending = self.calls.pop(room, None)
        if pending is None:
            return
        job, _, number = pending
        self.held.pop(job, None)
        self.holding.discard(room)
        if number is not None:
            self.out.append(Reply(number, Failure(reason, 503, retry_after=retry_after)))

    def _gone(self, room: str) -> None:
        """A witness's last socket closed: a call out that now waits only for witnesses
        no longer connected is settled at once (they are named absent), not at its bound."""
        pending = self.calls.get(room)
        if pending is None:
            return
        job, called, _ = pending
        connected = self.witnessing.get(room, Counter())
        if not any(w in connected for w in called.witnesses if w not in called.reveals):
            self._settle(room, job)

    def _settle(self, room: str, job: int) -> None:
        """The call's wait is over (every witness answered, or the bound passed): its room
        resolves the roll in its next step."""
        held = self.held.pop(job, None)
        if held is None:
            return  # settled already (the timer of a call its witnesses completed)
        self.calls.pop(room, None)
        self.resumed[room] = (held[1], None)

    def _tool(self, room: str, me: Member, ask: UseTool) -> Appended:
        hall = self.hall
        if ask.tool == "undo":
            return hall.undo(room, me.id)
        if ask.tool == "end-session":
            return hall.end_session(room, me.id)
        if ask.tool == "kick":
            return hall.kick(room, me.id, ask.member)
        if ask.tool == "rename":
            return hall.rename(room, me.id, ask.member, ask.value)
        if ask.tool == "promote":
            return hall.promote(room, me.id, ask.member, Role(ask.value))
        if ask.tool == "invites":
            return hall.rotate_invites(room, me.id)
        if ask.tool == "allowance":
            return Appended([], extra={"text": hall.set_text_allowance(room, me.id, ask.size)})
        return hall.rotate_link(room, me.id)

    def _acked(self, room: str, me: Member, done: Appended, lines: bool) -> Answer:
        """What one request appended, with this member's line of each entry (a socket has
        had the entries already, so its answer names only their seqs)."""
        seen = [self.hall.project(room, e, me) for e in done.entries] if lines else []
        return Answer(
            [e.seq for e in done.entries],
            done.duplicate,
            [line for line in seen if line is not None],
            done.extra,
        )

    def _read_room(self, room: str, me: Member, ask: Read) -> Any:
        table = self.hall.table(room)
        if ask.what == "view":
            seen = table.view(room, me)
            if me.is_gm:
                seen["text"] = self.hall.text_use(room)  # the room's text allowance
            return seen
        if ask.what == "legal":
            return {
                "offers": [o.model_dump(mode="json") for o in table.session.legal(table.state, me)]
            }
        if ask.what == "advice":
            advise = getattr(table.session, "advice", None)
            return {"advice": advise(table.state, me) if advise is not None else None}
        if ask.what == "member":
            return me.model_dump(mode="json")
        if ask.what == "log":
            return read_page(self.hall, room, me, ask.after, ask.before)
        target = self._seen_by_gm(room, me, ask.member)
        if ask.what == "as":
            return table.view(room, target)
        return read_page(self.hall, room, target, ask.after, ask.before)

    def _whoami(self, room: str, token: str) -> tuple[dict[str, Any], str]:
        """What a link opens: a member's own link, or an invite and the role it joins as."""
        hall = self.hall
        role = hall.invite_role(room, token)
        me = None if role is not None else hall.who(room, token)
        found = {
            "room": room,
            "name": hall.room_name(room),
            "system": hall.table(room).system,
            "rules": hall.table(room).session.version,
            "invite": None if role is None else str(role),
            "member": None if me is None else me.model_dump(mode="json"),
        }
        return found, "" if me is None else me.id

    def _seen_by_gm(self, room: str, me: Member, member: str) -> Member:
        """The member `member` names, for a GM asking to see as them."""
        if not me.is_gm:
            raise NotAllowed("only the GM may view the room as another member")
        table = self.hall.table(room)
        if member not in table.members or member in table.kicked:
            raise RoomError(f"no member {member[:64]!r} in this room")
        return table.member(member)

    def _plan(self, room: str, me: Member, ask: Plan) -> Delegate | Export:
        table = self.hall.table(room)
        if ask.what == "export":  # the front has the pool build it a chunk at a time
            version = table.session.version
            return Export(self.config.address, room, table.system, version, me, table.head)
        if getattr(table.session, "game_record", None) is None:
            raise RoomError(f"{table.system} keeps no game record; export the room's log")
        return Delegate(pickle.dumps(Record(table.system, table.session.version, table.state, me)))

    def _attach(self, room: str, ask: Attach) -> tuple[Attached, str]:
        me = self.hall.who(room, ask.token)
        self.used[room] = time.monotonic()
        if ask.witness is not None:
            self.hall.witness(room, me.id, ask.witness)
            self.witnessing.setdefault(room, Counter())[me.id] += 1
        page = read_page(self.hall, room, me, ask.after)  # the rest: a page a step (front.py)
        self.attached.setdefault(room, Counter())[me.id] += 1
        self.told[room] = max(self.told.get(room, 0), page.head)
        return Attached(me.model_dump(mode="json"), page.head, page), me.id

    def _detach(self, room: str, member: str, witness: bool = False) -> None:
        witnesses = self.witnessing.get(room)
        if witness and witnesses is not None:
            witnesses[member] -= 1
            if witnesses[member] <= 0:
                del witnesses[member]
                self._gone(room)
            if not witnesses:
                del self.witnessing[room]
        sockets = self.attached.get(room)
        if sockets is None:
            return
        sockets[member] -= 1
        if sockets[member] <= 0:
            del sockets[member]
        if not sockets:
            del self.attached[room]
            self.told.pop(room, None)

    # the pool ----------------------------------------------------------------------------

    def _think(self, room: str, thinking: Thinking, then: Callable[[Any], None]) -> None:
        """Ask the pool to decide; the room waits for its answer, the shard does not."""
        self._jobs += 1
        self.held[self._jobs] = (room, then)
        self.holding.add(room)
        self.out.append(PoolAsk(self._jobs, pickle.dumps(Think(thinking))))

    # the table's own moves ---------------------------------------------------------------

    def _appended(self, room: str, entries: list[Entry]) -> None:
        """The hall appended (or caught up): each attached member's lines to the front;
        and when the table is to move by itself (a bot's seat decides), a move after the
        pause. Room events (chat, the end of a dice session) start no bot: after
        `end-session` the bots wait until someone at the table asks one to move."""
        self._fan_out(room, entries)
        if room in self.moving or entries[0].is_room_event:
            return
        table = self.hall.table(room)
        if table.session.table_move(table.state) is None:
            return
        self.moving.add(room)
        due = time.monotonic() + self.config.bot_pause
        self._jobs += 1
        heapq.heappush(self.timers, (due, self._jobs, room, table.dice_session))

    def _fan_out(self, room: str, entries: list[Entry]) -> None:
        """Each entry's lines for the members with sockets attached, from the first entry
        they have not had: a room let go and loaded again folded what another process
        appended meanwhile without telling it."""
        attached = self.attached.get(room)
        if not attached:
            return
        told = self.told.get(room, 0)
        if told and entries[0].seq > told + 1:
            entries = self.hall.entries(room, told, entries[0].seq - 1) + entries
        entries = [entry for entry in entries if entry.seq > told]
        if not entries:
            return
        self.told[room] = entries[-1].seq
        table = self.hall.table(room)
        members = [table.member(member) for member in attached]
        deliveries = []
        for entry in entries:
            receivers: dict[str, list[str]] = {}
            for member in members:
                line = project(table.session, entry, member)
                if line is not None:
                    receivers.setdefault(line, []).append(member.id)
            lines = tuple((line, tuple(who)) for line, who in receivers.items())
            ends = _ends(entry)
            deliveries.append(Delivery(entry.seq, lines, ends, entry.event.text if ends else ""))
        self.out.append(Fanout(room, tuple(deliveries)))

    def _table_move(self, room: str, dice_session: int) -> None:
        """One table move, unless the dice session ended during the pause; its append calls
        `_appended`, which schedules the next."""
        self.moving.discard(room)
        try:
            if self.hall.table(room).dice_session != dice_session:
                return
        except TabletopError:
            return
        called = self.hall.table_call(room, tuple(self.witnessing.get(room, ())))
        if called is not None and called.witnesses:
            self._call_out(room, called, lambda: self._table_called(room, called))
        else:
            self._table_called(room, called)

    def _table_called(self, room: str, called: WitnessCall | None) -> None:
        """The table's move, once its call (format 3) was witnessed: thought out in the
        pool when its kind takes thinking, then appended."""
        try:
            thinking = self.hall.table_thinking(room, called)
        except TabletopError:
            return
        if thinking is None:
            with contextlib.suppress(TabletopError):
                self.hall.table_move(room, called=called)
            return

        def decided(result: Any) -> None:
            decision: Decision | None = result.value if isinstance(result, Finished) else None
            with contextlib.suppress(TabletopError):
                self.hall.table_move(room, decision, thinking.nonce, thinking.called)

        self._think(room, thinking, decided)


def failure(refused: TabletopError) -> Failure:
    """A refusal as the front sends it on: one line, its status, its seq if on the record."""
    seq = refused.seq if isinstance(refused, RefusedOnRecord) else None
    retry_after = getattr(refused, "retry_after", None)
    return Failure(str(refused)[:500], status_of(refused), seq, retry_after=retry_after)


def _ends(entry: Entry) -> str | None:
    """The member whose link an entry ends (a kick, a rotated link), if any."""
    if entry.event.type in ("room.kicked", "room.link-rotated"):
        return str(entry.event.data["member"])
    return None
