"""The PostgreSQL store: several server processes share the rooms, and each learns of the
others' appends through LISTEN/NOTIFY on one channel (the payload is the room id)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from tabletop.rooms.store import NOTIFY_CHANNEL, Store

SCHEMA_LOCK = 7_301_473
"""The advisory lock that orders schema migrations and room creation across processes."""


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
        three round trips, not six."""
        with self._lock, self._db.pipeline() as self._pipeline:
            try:
                with super().batch():
                    yield
            finally:
                self._pipeline = None

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
