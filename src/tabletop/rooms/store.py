"""Where rooms live: SQLite in a data directory by default, PostgreSQL by URL.

Both speak one small, synchronous interface: rooms, members and their token hashes, invite
token hashes, each room's entries as canonical JSON text, the index of its resolutions
(what is in force, for undo and retries) and its snapshots (snapshots.py). Every change
is made inside `locked(room)`, a transaction that holds the room against every other
writer (SQLite's `BEGIN IMMEDIATE`, PostgreSQL's `SELECT … FOR UPDATE`), so a room's log
has one append path even with several server processes. Inside `batch()` every `locked`
shares one transaction (each undone alone if it fails: a savepoint each after the first,
which begins the transaction and is undone by beginning it again; PostgreSQL takes a
savepoint only once something of its request is sent) and one commit: a shard worker
appends what is ready together in one durable commit (group commit). The schema is
created or migrated when a store opens; `databases.open_store` opens one by its address.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.rooms.errors import UnknownRoom
from tabletop.rooms.ledger import Marks, groups, marks
from tabletop.rooms.log import Entry

NOTIFY_CHANNEL = "tabletop_rooms"

BUSY_WAIT = 5.0
"""Seconds a SQLite store waits for another process's write transaction before giving up."""

CHECKPOINT_EVERY = 1.0
"""Seconds between SQLite's write-ahead-log checkpoints while a server runs."""

INDEX_BATCH = 1_000
"""Entries read at once while the index of an older room's resolutions is built."""

Sent = tuple[str, str, str | None]
"""What a resolution will ask `Store.sent_before` of its room: its actor, client id and
nonce (a leased round asks them all at once: leased.py, `foresee`)."""


def _index_every_room(store: Store) -> None:
    """Index the resolutions of every room already in the store (rooms of a tabletop
    before snapshots), reading each log in batches."""
    for (room,) in store._execute("SELECT id FROM rooms ORDER BY id").fetchall():
        after, held = 0, []
        while True:
            bodies = store.entries(room, after, after + INDEX_BATCH)
            if not bodies:
                break
            found = groups(held + [Entry.from_text(body) for body in bodies])
            held = found.pop()  # the last group may go on in the next batch
            for group in found:
                store.index(room, marks(group))
            after += len(bodies)
        if held:
            store.index(room, marks(held))


def _typing_columns(store: Store) -> None:
    """Step 6: what members type (rooms' text allowance), the invite each member joined
    through, and the members a kick keeps out until the GM invites again (docs/rooms.md,
    "Reads that cost what they read"); each column added unless it is there."""
    for table, column, kind in TYPING_COLUMNS:
        if column not in store._columns(table):
            store._execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


TYPING_COLUMNS = (
    ("members", "invite", "TEXT"),
    ("members", "typed", "BIGINT NOT NULL DEFAULT 0"),
    ("members", "barred", "INTEGER NOT NULL DEFAULT 0"),
    ("rooms", "text_allowance", "BIGINT"),
)

Step = str | Callable[["Store"], None]

MIGRATIONS: tuple[Step, ...] = (
    """
    CREATE TABLE rooms (
        id TEXT PRIMARY KEY,
        system TEXT NOT NULL,
        seed TEXT NOT NULL,
        created BIGINT NOT NULL
    );
    CREATE TABLE members (
        room TEXT NOT NULL REFERENCES rooms(id),
        id TEXT NOT NULL,
        token TEXT UNIQUE,
        PRIMARY KEY (room, id)
    );
    CREATE TABLE invites (
        token TEXT PRIMARY KEY,
        room TEXT NOT NULL REFERENCES rooms(id),
        role TEXT NOT NULL,
        live INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE entries (
        room TEXT NOT NULL REFERENCES rooms(id),
        seq BIGINT NOT NULL,
        actor TEXT,
        client TEXT,
        body TEXT NOT NULL,
        PRIMARY KEY (room, seq)
    );
    CREATE UNIQUE INDEX entries_client ON entries (room, actor, client);
    """,
    """
    ALTER TABLE entries ADD COLUMN nonce TEXT;
    CREATE UNIQUE INDEX entries_nonce ON entries (room, actor, nonce);
    """,
    """
    CREATE TABLE snapshots (
        room TEXT NOT NULL REFERENCES rooms(id),
        seq BIGINT NOT NULL,
        hash TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (room, seq)
    );
    CREATE TABLE resolutions (
        room TEXT NOT NULL REFERENCES rooms(id),
        first_seq BIGINT NOT NULL,
        last_seq BIGINT NOT NULL,
        counts INTEGER NOT NULL,
        undone BIGINT,
        PRIMARY KEY (room, first_seq)
    );
    """,
    _index_every_room,
    # 5: which process serves each room with PostgreSQL (leases.py); SQLite keeps it empty.
    """
    CREATE TABLE IF NOT EXISTS leases (
        room TEXT PRIMARY KEY REFERENCES rooms(id),
        owner TEXT NOT NULL,
        epoch BIGINT NOT NULL,
        expires TIMESTAMPTZ NOT NULL
    );
    """,
    _typing_columns,
)
"""Each step of the schema, in order; a store at version n runs steps n+1… at startup.
A step is SQL, or a function that fills what the step before added from the log."""


@dataclass(frozen=True)
class Credential:
    """What a token opens: a member's own link, or an invite to join with a role."""

    room: str
    member: str | None
    role: str | None
    """For an invite: the role a member who joins through it gets."""


class Store:
    """One database connection, used by one process's event loop (never two threads at
    once: a lock guards it for the odd caller from a thread)."""

    placeholder = "?"
    sole_writer = False
    """Whether a room's lock proves that nobody else appended to it since this process
    loaded it (a lease checked in the same transaction, leased.py): an append then reads
    nothing to catch up on and tells no other process. SQLite's file may be shared with
    `tabletop room` commands, so it never says so."""
    address: str
    """What another process opens to reach the same rooms (`databases.open_address`): a
    postgresql:// URL, or the SQLite file's path."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._batch: list[int] | None = None
        """Inside `batch()`: the savepoints taken so far (empty until the first `locked`,
        or a leased round's opening, 0 (leased.py, `foresee`), begins the shared
        transaction); None outside."""

    # the dialect --------------------------------------------------------------------------

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        raise NotImplementedError

    def _begin_locked(self, room: str) -> None:
        """Begin a transaction that no other writer of `room` (or, for "", of the schema and
        new rooms) can interleave with."""
        self._begin()
        self._lock_room(room)

    def _begin(self) -> None:
        raise NotImplementedError

    def _lock_room(self, room: str) -> None:
        """Inside a transaction, hold `room` (or, for "", the schema and new rooms) against
        every other writer until it ends (SQLite's `BEGIN IMMEDIATE` already holds all)."""

    def _commit(self) -> None:
        raise NotImplementedError

    def _rollback(self) -> None:
        raise NotImplementedError

    def _settle(self) -> None:
        """Inside a batch, send what waits to be sent and raise its error here, so that a
        failed write is its own savepoint's (PostgreSQL sends a batch's statements when one
        is read, SQLite each at once)."""

    def _notify(self, room: str) -> None:
        """Tell other processes that `room` grew (PostgreSQL only)."""

    def close(self) -> None:
        raise NotImplementedError

    def start(self, on_room: Callable[[str], None]) -> Callable[[], None]:
        """Start what runs beside the server's event loop (PostgreSQL: calling
        `on_room(room)` whenever another process appends to a room); how to stop it."""
        raise NotImplementedError

    # schema -------------------------------------------------------------------------------

    def migrate(self) -> None:
        """Bring the schema to the newest version, one step per transaction."""
        with self.locked():
            self._execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = self._execute("SELECT version FROM schema_version").fetchone()
            if row is None:
                self._execute("INSERT INTO schema_version (version) VALUES (0)")
        for number, step in enumerate(MIGRATIONS, start=1):
            with self.locked():
                (version,) = self._execute("SELECT version FROM schema_version").fetchone()
                if version < number:
                    if isinstance(step, str):
                        self._run_script(step)
                    else:
                        step(self)
                    self._execute("UPDATE schema_version SET version = ?", (number,))

    def _columns(self, table: str) -> set[str]:
        """The columns a table of the schema has now."""
        rows = self._execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ?", (table,)
        ).fetchall()
        return {str(row[0]) for row in rows}

    def _run_script(self, script: str) -> None:
        for statement in script.split(";"):
            if statement.strip():
                self._execute(statement)

    # transactions -------------------------------------------------------------------------

    @contextmanager
    def locked(self, room: str | None = None) -> Iterator[None]:
        """One transaction; with `room`, holding that room against other writers. Inside
        `batch()`, a savepoint of the batch's transaction, undone alone if it fails."""
        with self._lock:
            if self._batch is not None:
                with self._savepoint(room or ""):
                    yield
                return
            self._begin_locked(room or "")
            try:
                yield
            except BaseException:
                self._rollback()
                raise
            if room and not self.sole_writer:
                self._notify(room)
            self._commit()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Let every `locked` inside share one transaction and one commit (group commit);
        nothing is durable until the batch ends, and if its commit fails nothing is. A
        `locked` that fails is undone alone (`_savepoint`)."""
        with self._lock:
            if self._batch is not None:
                raise RuntimeError("a batch is already open")
            self._batch = []
            try:
                yield
                if self._batch:
                    self._commit()
            except BaseException:
                if self._batch:
                    self._rollback()
                raise
            finally:
                self._batch = None

    @contextmanager
    def _savepoint(self, room: str) -> Iterator[None]:
        """The batch's first `locked` is its transaction's beginning, and undone by rolling
        the transaction back (the next one begins it again): a round of one request is then
        one transaction, with no savepoint to take and release. Each later one is a
        savepoint."""
        assert self._batch is not None
        number = len(self._batch) + 1
        if number == 1:
            self._begin()
        self._batch.append(number)
        try:  # every statement inside: an earlier write's refusal may surface in any (leased.py)
            if number > 1:
                self._take_savepoint(number)
            self._lock_room(room)
            yield
            self._settle()
            if number > 1:
                self._release_savepoint(number)
        except BaseException as failed:
            self._undo_request(number, failed)
            raise
        if room and not self.sole_writer:
            self._notify(room)

    def _undo_request(self, number: int, failed: BaseException) -> None:
        """Undo what the batch's `number`th `locked` wrote, and only that (it raised
        `failed`)."""
        assert self._batch is not None
        if number == 1:
            self._rollback()
            self._batch.clear()  # nothing of the batch is open: the next `locked` begins it
        else:
            self._roll_back_savepoint(number)

    def _take_savepoint(self, number: int) -> None:
        self._execute(f"SAVEPOINT s{number}")

    def _release_savepoint(self, number: int) -> None:
        self._execute(f"RELEASE SAVEPOINT s{number}")

    def _roll_back_savepoint(self, number: int) -> None:
        self._execute(f"ROLLBACK TO SAVEPOINT s{number}")
        self._execute(f"RELEASE SAVEPOINT s{number}")

    # rooms --------------------------------------------------------------------------------

    def add_room(self, room: str, system: str, seed: str, created: int) -> None:
        self._execute(
            "INSERT INTO rooms (id, system, seed, created) VALUES (?, ?, ?, ?)",
            (room, system, seed, created),
        )

    def seed(self, room: str) -> str:
        row = self._execute("SELECT seed FROM rooms WHERE id = ?", (room,)).fetchone()
        if row is None:
            raise UnknownRoom(f"there is no room {room!r} on this server")
        return str(row[0])

    def set_seed(self, room: str, seed: str) -> None:
        self._execute("UPDATE rooms SET seed = ? WHERE id = ?", (seed, room))

    def has_room(self, room: str) -> bool:
        return self._execute("SELECT 1 FROM rooms WHERE id = ?", (room,)).fetchone() is not None

    # members and invites ------------------------------------------------------------------

    def add_member(
        self, room: str, member: str, token: str | None, invite: str | None = None
    ) -> None:
        """A member with their token hash, and the hash of the invite they joined through."""
        self._execute(
            "INSERT INTO members (room, id, token, invite) VALUES (?, ?, ?, ?)",
            (room, member, token, invite),
        )

    def bar(self, room: str, member: str) -> None:
        """A kick: the member's link opens nothing, the invite they joined through is
        retired, and their name stays barred until the GM invites again (`retire_invites`)."""
        self._execute(
            "UPDATE invites SET live = 0 WHERE token = "
            "(SELECT invite FROM members WHERE room = ? AND id = ?)",
            (room, member),
        )
        self._execute(
            "UPDATE members SET token = NULL, barred = 1 WHERE room = ? AND id = ?", (room, member)
        )

    def barred(self, room: str) -> list[str]:
        """The members kicked since the GM last made invites."""
        rows = self._execute(
            "SELECT id FROM members WHERE room = ? AND barred = 1 ORDER BY id", (room,)
        ).fetchall()
        return [str(row[0]) for row in rows]

    def typing(self, room: str) -> tuple[int | None, dict[str, tuple[str | None, int]]]:
        """The room's text allowance (None: the server's), and each member's invite and the
        bytes they typed."""
        row = self._execute("SELECT text_allowance FROM rooms WHERE id = ?", (room,)).fetchone()
        rows = self._execute(
            "SELECT id, invite, typed FROM members WHERE room = ?", (room,)
        ).fetchall()
        allowance = None if row is None or row[0] is None else int(row[0])
        return allowance, {str(r[0]): (r[1], int(r[2])) for r in rows}

    def add_typed(self, room: str, member: str, size: int) -> None:
        self._execute(
            "UPDATE members SET typed = typed + ? WHERE room = ? AND id = ?", (size, room, member)
        )

    def set_text_allowance(self, room: str, size: int) -> None:
        self._execute("UPDATE rooms SET text_allowance = ? WHERE id = ?", (size, room))

    def member_count(self, room: str) -> int:
        row = self._execute("SELECT COUNT(*) FROM members WHERE room = ?", (room,)).fetchone()
        return int(row[0])

    def set_member_token(self, room: str, member: str, token: str | None) -> None:
        """A member's new token hash; None forgets it (a kick), so their link opens nothing."""
        self._execute(
            "UPDATE members SET token = ? WHERE room = ? AND id = ?", (token, room, member)
        )

    def add_invite(self, room: str, role: str, token: str) -> None:
        self._execute(
            "INSERT INTO invites (token, room, role) VALUES (?, ?, ?)", (token, room, role)
        )

    def retire_invites(self, room: str) -> None:
        """New invites are made: the old ones open nothing, and the names of members kicked
        before are free again."""
        self._execute("UPDATE invites SET live = 0 WHERE room = ?", (room,))
        self._execute("UPDATE members SET barred = 0 WHERE room = ? AND barred = 1", (room,))

    def credential(self, token: str) -> Credential | None:
        """What the token with this hash opens, if anything (kicking forgets the token, so
        a kicked member's link is refused like any other bad link)."""
        row = self._execute("SELECT room, id FROM members WHERE token = ?", (token,)).fetchone()
        if row is not None:
            return Credential(room=row[0], member=row[1], role=None)
        row = self._execute(
            "SELECT room, role FROM invites WHERE token = ? AND live = 1", (token,)
        ).fetchone()
        return None if row is None else Credential(room=row[0], member=None, role=row[1])

    # entries ------------------------------------------------------------------------------

    def append(self, room: str, rows: list[tuple[Any, ...]]) -> None:
        """Add entries `(seq, actor, client, nonce, body)`; inside `locked(room)`."""
        for row in rows:
            self._execute(
                "INSERT INTO entries (room, seq, actor, client, nonce, body) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (room, *row),
            )

    def entries(self, room: str, after: int = 0, upto: int | None = None) -> list[str]:
        """The bodies of `room`'s entries with after < seq <= upto, in order."""
        if upto is None:
            sql = "SELECT body FROM entries WHERE room = ? AND seq > ? ORDER BY seq"
            rows = self._execute(sql, (room, after)).fetchall()
        else:
            sql = "SELECT body FROM entries WHERE room = ? AND seq > ? AND seq <= ? ORDER BY seq"
            rows = self._execute(sql, (room, after, upto)).fetchall()
        return [row[0] for row in rows]

    def sent_before(
        self, room: str, actor: str, client: str, nonce: str | None
    ) -> tuple[int | None, int | None]:
        """What this member sent before under these names, in one read (an append's round
        trips are its latency on PostgreSQL): the first seq of what their intent `client`
        appended, and the seq of the resolution whose dice their `nonce` already named."""
        row = self._execute(
            "SELECT MIN(CASE WHEN client = ? THEN seq END), MIN(CASE WHEN nonce = ? THEN seq END) "
            "FROM entries WHERE room = ? AND actor = ? AND (client = ? OR nonce = ?)",
            (client, nonce, room, actor, client, nonce),
        ).fetchone()
        retried, used = row
        return (None if retried is None else int(retried), None if used is None else int(used))

    def head(self, room: str) -> int:
        """The seq of the room's last entry (0 for none)."""
        row = self._execute("SELECT MAX(seq) FROM entries WHERE room = ?", (room,)).fetchone()
        return int(row[0] or 0)

    def retried(self, room: str, actor: str, client: str) -> int | None:
        """The first seq of what this member's intent `client` appended, if it was."""
        row = self._execute(
            "SELECT seq FROM entries WHERE room = ? AND actor = ? AND client = ?",
            (room, actor, client),
        ).fetchone()
        return None if row is None else int(row[0])

    # the index of resolutions ------------------------------------------------------------

    def index(self, room: str, found: Marks) -> None:
        """Note a group's marks (ledger.py) in the transaction that appends it: a
        resolution's span, or an undo, which also drops every snapshot that holds what it
        took back (a snapshot is always the fold of what is in force up to its seq)."""
        if found.span is not None:
            span = found.span
            self._execute(
                "INSERT INTO resolutions (room, first_seq, last_seq, counts) VALUES (?, ?, ?, ?)",
                (room, span.first, span.last, int(span.counts)),
            )
        if found.undone is not None:
            self._execute(
                "UPDATE resolutions SET undone = ? WHERE room = ? AND first_seq = ?",
                (found.at, room, found.undone),
            )
            self._execute("DELETE FROM snapshots WHERE room = ? AND seq >= ?", (room, found.undone))

    def latest_in_force(self, room: str, as_of: int) -> tuple[int, int] | None:
        """The span of the latest resolution in force just after seq `as_of`."""
        row = self._execute(
            "SELECT first_seq, last_seq FROM resolutions WHERE room = ? AND counts = 1 "
            "AND first_seq <= ? AND (undone IS NULL OR undone > ?) "
            "ORDER BY first_seq DESC LIMIT 1",
            (room, as_of, as_of),
        ).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def spans_in_force(
        self, room: str, after: int, before: int, as_of: int
    ) -> list[tuple[int, int]]:
        """The spans of the resolutions in force just after seq `as_of` that start after
        `after` and before `before`, in order."""
        rows = self._execute(
            "SELECT first_seq, last_seq FROM resolutions WHERE room = ? AND counts = 1 "
            "AND first_seq > ? AND first_seq < ? AND (undone IS NULL OR undone > ?) "
            "ORDER BY first_seq",
            (room, after, before, as_of),
        ).fetchall()
        return [(int(row[0]), int(row[1])) for row in rows]

    def last_of(self, room: str, first: int) -> int | None:
        """The last seq of the resolution that starts at `first`, if one does."""
        row = self._execute(
            "SELECT last_seq FROM resolutions WHERE room = ? AND first_seq = ?", (room, first)
        ).fetchone()
        return None if row is None else int(row[0])

    # snapshots ----------------------------------------------------------------------------

    def add_snapshot(self, room: str, seq: int, hash: str, body: str) -> None:
        """Keep the folded table after entry `seq` (whose hash is `hash`); inside
        `locked(room)`."""
        self._execute(
            "INSERT INTO snapshots (room, seq, hash, body) VALUES (?, ?, ?, ?)",
            (room, seq, hash, body),
        )

    def snapshot_before(self, room: str, before: int) -> tuple[int, str, str] | None:
        """The latest snapshot of `room` at a seq before `before`: its seq, hash and body."""
        row = self._execute(
            "SELECT seq, hash, body FROM snapshots WHERE room = ? AND seq < ? "
            "ORDER BY seq DESC LIMIT 1",
            (room, before),
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), str(row[2]))


class SqliteStore(Store):
    """The embedded default: one file, write-ahead logging, fit for one server process."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        self._db.execute("PRAGMA foreign_keys = ON")
        self._db.execute(f"PRAGMA busy_timeout = {int(BUSY_WAIT * 1000)}")
        self.path = path
        self.address = str(path)
        self.migrate()

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        return self._db.execute(sql, params)

    def _columns(self, table: str) -> set[str]:
        return {str(row[1]) for row in self._db.execute(f"PRAGMA table_info({table})")}

    def _begin(self) -> None:
        """Take SQLite's write lock, waiting for another process's transaction to end by
        asking again every fraction of a millisecond: SQLite's own wait (`busy_timeout`)
        sleeps 1, 2, 5 … 100 ms between tries, which several shard processes writing one
        file would feel as stalls."""
        self._db.execute("PRAGMA busy_timeout = 0")
        try:
            waited, pause = 0.0, 0.0001
            while True:
                try:
                    self._db.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as busy:
                    if "locked" not in str(busy) or waited > BUSY_WAIT:
                        raise
                time.sleep(pause)
                waited, pause = waited + pause, min(pause * 2, 0.001)
        finally:
            self._db.execute(f"PRAGMA busy_timeout = {int(BUSY_WAIT * 1000)}")

    def _commit(self) -> None:
        self._db.execute("COMMIT")

    def _rollback(self) -> None:
        self._db.execute("ROLLBACK")

    def close(self) -> None:
        self._db.close()

    def start(self, on_room: Callable[[str], None]) -> Callable[[], None]:
        """Checkpoint the write-ahead log from a thread of its own, so that no append waits
        for the disk (SQLite would otherwise checkpoint inside a commit, every 1,000 pages)."""
        self._db.execute("PRAGMA wal_autocheckpoint = 0")
        stopping = threading.Event()

        def run() -> None:
            checkpointer = sqlite3.connect(self.path, isolation_level=None)
            while not stopping.wait(CHECKPOINT_EVERY):
                checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
            checkpointer.close()

        thread = threading.Thread(target=run, name="tabletop-checkpoint", daemon=True)
        thread.start()

        def stop() -> None:
            stopping.set()
            thread.join(timeout=5)
            self._db.execute("PRAGMA wal_autocheckpoint = 1000")

        return stop
