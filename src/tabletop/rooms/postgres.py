"""The PostgreSQL store: several server processes share the rooms, and each learns of the
others' appends through LISTEN/NOTIFY on one channel (the payload is the room id)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg

from tabletop.rooms.store import NOTIFY_CHANNEL, Store

SCHEMA_LOCK = 7_301_473
"""The advisory lock that orders schema migrations and room creation across processes."""


def connect(url: str) -> psycopg.Connection[Any]:
    """A store's connection. psycopg prepares no statement of its own on it: on a rollback
    it would drop every prepared statement, the store's included (`PostgresStore._prepare`
    prepares what a batch sends). Each statement the store prepares finds rows by a room's
    keys, by the same plan whatever the values, so it is planned once: left to judge,
    PostgreSQL planned the round's opening afresh at every run, about as much of its CPU
    as running it."""
    db = psycopg.connect(url, autocommit=True, prepare_threshold=None)
    db.execute("SET plan_cache_mode = force_generic_plan")
    return db


class Rows:
    """A statement's rows in a batch, read when first asked for: everything waiting to be
    sent goes with it, as one message (`PostgresStore._send`)."""

    __slots__ = ("_store", "error", "rows")

    def __init__(self, store: PostgresStore) -> None:
        self._store = store
        self.rows: list[tuple[Any, ...]] | None = None
        self.error: psycopg.Error | None = None

    def fetchone(self) -> tuple[Any, ...] | None:
        rows = self._read()
        return rows[0] if rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._read()

    def _read(self) -> list[tuple[Any, ...]]:
        if self.rows is None and self.error is None:
            self._store._send()
        if self.error is not None:
            raise self.error
        assert self.rows is not None
        return self.rows


@dataclass
class _Request:
    """The batch's request under way: its savepoint's number, where its statements begin in
    those waiting to be sent, and whether its savepoint was taken (`PostgresStore._send`)."""

    number: int
    start: int
    saved: bool = False


class PostgresStore(Store):
    """Rooms in PostgreSQL; `url` is a libpq URL (`postgresql://user@host/db`)."""

    placeholder = "%s"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = self.address = url
        self._db = connect(url)
        self._waiting: list[tuple[str, Rows]] | None = None
        """Inside a batch: statements bound and waiting to be sent, each with its answer."""
        self._request: _Request | None = None
        self._connected()
        self.migrate()

    def _connected(self) -> None:
        """A new connection: its client cursor, and nothing prepared on it yet."""
        self._client = psycopg.ClientCursor(self._db)
        self._prepared: dict[str, str] = {}
        """A statement's SQL and the name it is prepared under on this connection."""
        self._to_prepare: dict[str, None] = {}
        """Statements seen in a batch, prepared before the next begins (`_prepare`)."""
        self._unpreparable: set[str] = set()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """A batch sends its statements itself: a statement whose answer is not read (a
        savepoint, an insert, its release) waits and goes with the next one that is, all in
        one message of statements prepared once per connection and bound here; so an
        append is three round trips, not six (two under a lease: leased.py), each one send
        and one read. (psycopg's pipeline, used before, sends each statement as it comes:
        twice the client CPU a round.)"""
        with self._lock:
            self._prepare()
            self._waiting = []
            try:
                with super().batch():
                    yield
            finally:
                self._waiting, self._request = None, None

    def _prepare(self) -> None:
        """Prepare, outside any transaction, each statement a batch sent unprepared (one
        the database cannot prepare is sent bound, as before, from then on)."""
        for sql in list(self._to_prepare):
            del self._to_prepare[sql]
            name = f"tabletop_{len(self._prepared)}"
            numbered = sql.split("%s")
            text = numbered[0] + "".join(f"${i}{part}" for i, part in enumerate(numbered[1:], 1))
            try:
                self._db.execute(f"PREPARE {name} AS {text}")
            except psycopg.ProgrammingError:  # e.g. a parameter whose type it cannot tell
                self._unpreparable.add(sql)
            else:
                self._prepared[sql] = name

    def _statement(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        """Run a statement now, or inside a batch bind it and let it wait for the next read."""
        if self._waiting is None:
            return self._db.execute(sql, params)  # type: ignore[arg-type]
        if not params:
            text = sql
        elif sql in self._prepared:
            marks = ", ".join(["%s"] * len(params))
            text = self._client.mogrify(f"EXECUTE {self._prepared[sql]}({marks})", params)
        else:
            if sql not in self._unpreparable:
                self._to_prepare[sql] = None
            text = self._client.mogrify(sql, params)
        answer = Rows(self)
        self._waiting.append((text, answer))
        return answer

    def _send(self) -> None:
        """Send what waits as one message and hand each statement its rows; if the database
        refuses one, every answer of the message is that error (the statements after it
        were not run), and so is this call."""
        if not self._waiting:
            return
        request = self._request
        if request is not None and not request.saved:
            self._waiting.insert(request.start, (f"SAVEPOINT s{request.number}", Rows(self)))
            request.saved = True
        sent, self._waiting[:] = list(self._waiting), []
        try:
            self._client.execute("; ".join(text for text, _ in sent))
        except psycopg.Error as refused:
            for _, answer in sent:
                answer.error = refused
            self._refused(refused)
            raise
        for number, (_, answer) in enumerate(sent):
            if number:
                self._client.nextset()
            answer.rows = [] if self._client.description is None else self._client.fetchall()

    def _take_savepoint(self, number: int) -> None:
        """Taken only once something of the request is sent (`_send` puts it first): until
        then, undoing the request is dropping its statements unsent, and a round whose
        requests each wait for nothing (leased.py, `foresee`) takes no savepoint at all."""
        assert self._waiting is not None
        self._request = _Request(number, len(self._waiting))

    def _release_savepoint(self, number: int) -> None:
        request, self._request = self._request, None
        assert request is not None
        if request.saved:
            super()._release_savepoint(number)

    def _roll_back_savepoint(self, number: int) -> None:
        request, self._request = self._request, None
        assert request is not None and self._waiting is not None
        if request.saved:
            super()._roll_back_savepoint(number)
            return
        self._drop(self._waiting[request.start :])
        del self._waiting[request.start :]

    @staticmethod
    def _drop(waiting: list[tuple[str, Rows]]) -> None:
        """Answer statements that will never be sent (their request or round was undone)."""
        dropped = psycopg.OperationalError("undone before it was sent")
        for _, answer in waiting:
            answer.error = dropped

    def _refused(self, error: psycopg.Error) -> None:
        """A message of a batch was refused (leased.py keeps it, to lose the round)."""

    def _settle(self) -> None:
        self._send()

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        return self._statement(sql.replace("?", "%s"), params)

    def _begin(self) -> None:
        self._statement("BEGIN")

    def _lock_room(self, room: str) -> None:
        if room:
            self._statement("SELECT id FROM rooms WHERE id = %s FOR UPDATE", (room,))
        else:
            self._statement("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))

    def _commit(self) -> None:
        """Commit now: a commit the database refuses (or a write it refused on the way) is
        raised inside the batch, which then rolls back."""
        self._statement("COMMIT")
        self._send()

    def _rollback(self) -> None:
        """Roll back now; what waited to be sent is dropped, as the rollback undoes it."""
        self._request = None
        if self._waiting:
            self._drop(self._waiting)
            self._waiting.clear()
        self._statement("ROLLBACK")
        self._send()

    def _notify(self, room: str) -> None:
        self._statement("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, room))

    def close(self) -> None:
        self._db.close()

    def start(self, on_room: Callable[[str], None]) -> Callable[[], None]:
        """A thread with its own connection that passes each notified room to `on_room`."""
        listener = psycopg.connect(self.url, autocommit=True)
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        stopping = threading.Event()

        def run() -> None:
            while not stopping.is_set():
                for notice in listener.notifies(timeout=0.5):
                    on_room(notice.payload)

        thread = threading.Thread(target=run, name="tabletop-listen", daemon=True)
        thread.start()

        def stop() -> None:
            stopping.set()
            thread.join(timeout=2)
            listener.close()

        return stop
