"""The PostgreSQL store: several server processes share the rooms, and each learns of the
others' appends through LISTEN/NOTIFY on one channel (the payload is the room id)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

import psycopg
from psycopg.pq import PipelineStatus, TransactionStatus

from tabletop.rooms.store import NOTIFY_CHANNEL, Store

SCHEMA_LOCK = 7_301_473
"""The advisory lock that orders schema migrations and room creation across processes."""

ABORTED = PipelineStatus.ABORTED
OPEN = (TransactionStatus.INTRANS, TransactionStatus.INERROR)
"""A connection's states inside a transaction (a failed one's included)."""


class PostgresStore(Store):
    """Rooms in PostgreSQL; `url` is a libpq URL (`postgresql://user@host/db`)."""

    placeholder = "%s"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = self.address = url
        self._db = psycopg.connect(url, autocommit=True)
        self._pipeline: psycopg.Pipeline | None = None
        self.migrate()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """A batch in psycopg's pipeline mode: a statement whose answer is not read (a
        savepoint, an insert, its release) goes with the next one that is, so an append is
        three round trips, not six (two under a lease: leased.py). The commit's answer is
        read as the pipeline ends; if it (or a write before it) was refused, the
        transaction is rolled back there."""
        with self._lock:
            try:
                with self._db.pipeline() as self._pipeline:
                    try:
                        with super().batch():
                            yield
                    finally:
                        self._pipeline = None
            except psycopg.Error:
                if self._db.info.transaction_status in OPEN:
                    self._db.execute("ROLLBACK")
                raise

    def _settle(self) -> None:
        if self._pipeline is not None:
            self._pipeline.sync()

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        return self._db.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]

    def _begin(self) -> None:
        self._db.execute("BEGIN")

    def _lock_room(self, room: str) -> None:
        if room:
            self._db.execute("SELECT id FROM rooms WHERE id = %s FOR UPDATE", (room,))
        else:
            self._db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))

    def _commit(self) -> None:
        self._db.execute("COMMIT")

    def _rollback(self) -> None:
        if self._pipeline is not None and self._db.pgconn.pipeline_status == ABORTED:
            with suppress(psycopg.Error):  # raised already where it happened
                self._pipeline.sync()  # an aborted pipeline takes no statement until then
        self._db.execute("ROLLBACK")

    def _notify(self, room: str) -> None:
        self._db.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, room))

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
