"""A pool worker: a lower-priority process for the work that takes long and holds no room's
order — a bot's decision (`Session.think`), `verify` of an export, the check of an import,
an export built from the store, a finished game's record, a QR code.

Each worker takes one job at a time from the front (which queues them by priority:
thinking first, a member's export or record next, anyone's verify or import last) and
answers with its result or its one-line refusal. It runs at a lower CPU priority (`os.nice`),
so that the shards and the front, which answer every room, win the cores when both want
them; and, on Linux, in a session of its own: each session is a scheduling group there
(autogroup), and a busy process in the server's group would spend the server's share
however nice it is. An export reads the store through the worker's own connection, opened
on first use.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import signal
import socket
import sys
import threading
import traceback
from pathlib import Path
from typing import Any

import segno

from tabletop.errors import TabletopError
from tabletop.rooms.checking import check, read_request
from tabletop.rooms.databases import open_address
from tabletop.rooms.errors import RoomError, status_of
from tabletop.rooms.fairdice import FairDice
from tabletop.rooms.hall import importing
from tabletop.rooms.lines import exported_line
from tabletop.rooms.log import Entry, lines_of
from tabletop.rooms.messages import (
    Channel,
    Check,
    Chunk,
    Export,
    Failure,
    Finished,
    Job,
    Qr,
    Ready,
    Record,
    Stop,
    Think,
)
from tabletop.rooms.readings import load_session, session_at
from tabletop.rooms.store import Store
from tabletop.systems.registry import SYSTEMS

EXPORT_CHUNK = 1_000
"""Entries one chunk of an export reads from the store at most."""

CHUNK_BYTES = 1024 * 1024
"""Bytes of lines after which a chunk of an export takes no further entry."""


def run(sock: socket.socket, nice: int) -> None:
    """The worker process: take jobs until told to stop or until the front has gone, then
    leave at once: a niced interpreter's teardown (numpy, the engines) held a stopping
    server for seconds on a busy machine, and there is nothing left to write."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    lower_priority(nice)
    channel = Channel(sock)
    channel.send(Ready(os.getpid()))
    threading.Thread(target=_warm, daemon=True).start()
    worker = Worker()
    try:
        _take_jobs(channel, worker)
    finally:
        worker.close()
    sys.stderr.flush()
    os._exit(0)


def _warm() -> None:
    """Load every system's session while the pool waits for its first job: a fresh server's
    first export or bot move waited seconds for it on a busy machine. A stop does not wait."""
    for known in SYSTEMS:
        with contextlib.suppress(TabletopError):
            load_session(known.name)


def _take_jobs(channel: Channel, worker: Worker) -> None:
    """Perform each job the front sends, until it says stop or goes."""
    while True:
        try:
            message = channel.receive()
        except (EOFError, OSError):
            return
        if isinstance(message, Stop):
            return
        assert isinstance(message, Job)
        channel.send(Job(message.number, pickle.dumps(worker.perform(message.payload))))


def lower_priority(nice: int) -> None:
    """Run behind the server's other processes: niced, and in a scheduling group of its own
    (Linux's autogroup is the session), niced by half as much, so that its thinking never
    spends the front's and the shards' share of the machine, yet is not starved by every
    other program on it."""
    with contextlib.suppress(OSError):
        os.setsid()
    with contextlib.suppress(OSError):
        Path("/proc/self/autogroup").write_text(str(nice // 2))
    os.nice(nice)


class Worker:
    """What one pool process holds between jobs: the stores it opened for exports."""

    def __init__(self) -> None:
        self.stores: dict[str, Store] = {}

    def close(self) -> None:
        for store in self.stores.values():
            store.close()

    def perform(self, payload: bytes) -> Finished | Failure:
        """A job's result, or its refusal in one line (a bug too: the pool keeps serving)."""
        job = pickle.loads(payload)
        try:
            return Finished(self._do(job))
        except RoomError as refused:
            return Failure(
                str(refused)[:500], status_of(refused), line=getattr(refused, "line", None)
            )
        except TabletopError as refused:
            return Failure(str(refused)[:500], status_of(refused))
        except Exception as broken:
            traceback.print_exc(file=sys.stderr)
            return Failure(f"internal error ({type(broken).__name__})", 500)

    def _do(self, job: Any) -> Any:
        if isinstance(job, Think):
            thought = job.thinking
            dice = FairDice(thought.key, thought.position)
            session = session_at(thought.system, thought.rules)
            return session.think(thought.state, thought.intent, thought.member, dice)
        if isinstance(job, Check):
            return _checked(job)
        if isinstance(job, Export):
            return self._export(job)
        if isinstance(job, Record):
            return dict(session_at(job.system, job.rules).game_record(job.state, job.member))
        assert isinstance(job, Qr)
        buffer = io.BytesIO()
        segno.make(job.text, error="m").save(
            buffer, kind="svg", scale=4, border=2, xmldecl=False, svgns=True, title="QR code"
        )
        return buffer.getvalue()

    def _export(self, job: Export) -> Chunk:
        """One chunk of an export: the lines of the entries after `job.after` (up to the
        head the shard saw), at most `EXPORT_CHUNK` of them and none past `CHUNK_BYTES`."""
        store = self.stores.get(job.address)
        if store is None:
            store = self.stores[job.address] = open_address(job.address)
        session = session_at(job.system, job.rules)
        upto = min(job.head, job.after + EXPORT_CHUNK)
        parts, size, last, hashed = [], 0, job.after, ""
        for body in store.entries(job.room, job.after, upto):
            entry = Entry.from_text(body)
            line = exported_line(session, entry, job.member)
            parts.append(f"{line}\n")
            size += len(line) + 1
            last, hashed = entry.seq, entry.hash
            if size > CHUNK_BYTES:
                break
        return Chunk("".join(parts), last, hashed)


def _checked(job: Check) -> Any:
    """`POST /verify`'s answer (checking.py: ok and the summary, or the first failing line;
    an entry looked at closely when asked), or what an import makes its room of, with the
    lines it keeps."""
    if job.purpose == "verify":
        return check(read_request(job.body, job.json_body))
    try:
        lines = lines_of(job.body.decode("utf-8"))
    except UnicodeDecodeError:
        raise RoomError("an export is UTF-8 text") from None
    return importing(lines), lines
