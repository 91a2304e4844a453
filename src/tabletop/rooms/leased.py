"""The PostgreSQL store of a shard that holds rooms by lease (leases.py says how): it takes,
renews and releases leases, and checks the lease inside every append's transaction
(fencing). Its own module so that only servers on PostgreSQL load psycopg.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from tabletop.rooms.errors import Elsewhere, Fenced, Unkept
from tabletop.rooms.leases import (
    IDLE_IN_TRANSACTION,
    LEASE,
    RENEWALS,
    VALID,
    Busy,
    Taken,
    TakeResult,
)
from tabletop.rooms.postgres import PostgresStore, Rows, connect
from tabletop.rooms.store import Sent

LOCK_ROUND = (
    "SELECT rooms.id, leases.owner, leases.epoch FROM rooms JOIN leases ON leases.room = rooms.id "
    "WHERE rooms.id = ANY(%s::text[]) ORDER BY rooms.id FOR UPDATE OF rooms FOR KEY SHARE OF leases"
)
"""Hold a round's rooms, or one request's room, and read their leases (in one order,
whoever else locks several)."""

SENT_BEFORE_ALL = (
    "SELECT c.room, c.actor, c.client, c.nonce, "
    "(SELECT MIN(seq) FROM entries e "
    "WHERE e.room = c.room AND e.actor = c.actor AND e.client = c.client), "
    "(SELECT MIN(seq) FROM entries e "
    "WHERE e.room = c.room AND e.actor = c.actor AND e.nonce = c.nonce) "
    "FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[]) AS c(room, actor, client, nonce)"
)
"""`Store.sent_before` for many checks at once, each two lookups of a unique index."""


@dataclass(frozen=True)
class _RoundRow:
    """A row a request of the round appended to a foreseen room (`LeasedStore.foresee`)."""

    request: int
    room: str
    actor: str | None
    client: str | None
    nonce: str | None
    seq: int


@dataclass
class _Held:
    epoch: int
    valid_until: float
    """This process's monotonic time until which it serves the room without asking."""


class LeasedStore(PostgresStore):
    """A shard's PostgreSQL store that holds rooms by lease, and refuses to append to a room
    whose lease it no longer holds (fencing)."""

    leased = True
    sole_writer = True
    """A shard loads a room only after taking its lease (shards.Shard._claim unloads it
    then), and every append checks that lease: nobody else can have appended meanwhile."""

    def __init__(self, url: str, owner: str, lease: float = LEASE) -> None:
        if lease <= 0:
            raise ValueError("a lease lasts a positive number of seconds")
        self.owner = owner
        self.lease = lease
        self._held: dict[str, _Held] = {}
        self._guard = threading.Lock()
        """Guards `_held` between the shard's thread and the renewing thread."""
        self.fenced: set[str] = set()
        """Rooms an append found taken over, for the shard to drop."""
        self._in_transaction = False
        self._unchecked: tuple[str, Rows | psycopg.Cursor[Any]] | None = None
        """The room whose lock was sent and the answer not yet read (`_lock_room`)."""
        self._lost: BaseException | None = None
        """What the database refused in this round, which is then not committed."""
        self._locked: dict[str, bool] = {}
        """The rooms the round's opening locked, and whether each lease was this shard's."""
        self._foreseen: dict[tuple[str, str, str, str | None], tuple[int | None, int | None]] = {}
        """What `sent_before` found in the log before the round, check by check."""
        self._appended: list[_RoundRow] = []
        """What the round's requests appended since to the foreseen rooms."""
        super().__init__(url)
        self._configure(self._db)

    # connections -------------------------------------------------------------------------

    def _configure(self, db: psycopg.Connection[Any]) -> None:
        idle = int(self.lease * IDLE_IN_TRANSACTION * 1000)
        db.execute(f"SET idle_in_transaction_session_timeout = {idle}")
        db.execute("SELECT set_config('application_name', %s, false)", (self._name(),))

    def _name(self) -> str:
        return f"tabletop {self.owner}"[:63]

    def _connect(self) -> psycopg.Connection[Any]:
        db = connect(self.url)
        self._configure(db)
        return db

    def _reopen(self) -> None:
        """Outside a transaction, a new connection if PostgreSQL ended this one (a process
        paused inside a transaction past `IDLE_IN_TRANSACTION` leases)."""
        if self._db.closed and not self._in_transaction:
            self._db = self._connect()
            self._connected()

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        with self._lock:
            self._reopen()  # before the batch prepares its statements on the connection
            try:
                with super().batch():
                    yield
            finally:
                self._lost = None
                self._locked, self._foreseen, self._appended = {}, {}, []

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        self._reopen()
        return super()._execute(sql, params)

    def _begin(self) -> None:
        self._reopen()
        super()._begin()
        self._in_transaction = True

    def _commit(self) -> None:
        if self._lost is not None:
            raise Unkept("the database refused a write of this round: nothing of it was kept")
        try:
            super()._commit()
        finally:
            self._in_transaction = False

    def _rollback(self) -> None:
        try:
            if not self._db.closed:
                super()._rollback()
        finally:
            self._in_transaction = False

    # fencing -----------------------------------------------------------------------------

    def _lock_room(self, room: str) -> None:
        """Hold the room's row and read its lease in one statement, and check that the lease
        is still this owner's at the epoch this shard took: else nothing of this append is
        kept. In a round the answer is read with the next one the request waits for (its
        resent-id check, or its writes settling), in the same message: one round trip
        fewer."""
        if not room:
            super()._lock_room(room)
            return
        if room in self._locked:
            if not self._locked[room]:
                raise self._fenced(room)
            return  # held since the round's opening
        self._unchecked = (room, self._statement(LOCK_ROUND, ([room],)))
        if self._batch is None:
            self._check_lock()

    def _check_lock(self) -> None:
        """Raise `Fenced` if the lock just taken found the room's lease not this shard's."""
        if self._unchecked is None:
            return
        (room, answer), self._unchecked = self._unchecked, None
        row = answer.fetchone()
        if not self._mine(room, None if row is None else row[1:]):
            if self._batch is None:
                self._rollback()  # `locked` had not begun its own handling yet
            raise self._fenced(room)

    def _mine(self, room: str, row: tuple[Any, ...] | None) -> bool:
        """Whether a lock's row `(owner, epoch)` shows the room's lease still this shard's,
        at the epoch it took; if not, the room is no longer held."""
        with self._guard:
            mine = self._held.get(room)
            if row is not None and mine is not None and tuple(row) == (self.owner, mine.epoch):
                return True
            self._held.pop(room, None)
        self.fenced.add(room)
        return False

    @staticmethod
    def _fenced(room: str) -> Fenced:
        return Fenced(
            f"this server process no longer serves room {room} (another took it over "
            "while this one was paused): nothing was appended; send it again"
        )

    # a round's opening -------------------------------------------------------------------

    def foresee(self, sent: Mapping[str, Sequence[Sent]]) -> None:
        """Open the round in one round trip: lock each room of `sent` this shard holds,
        check its lease (fencing), and read every resent-id and spent-nonce check its
        resolutions will ask (`sent_before`). Each request then waits for no answer (and
        takes no savepoint: `PostgresStore._take_savepoint`), so a round is two round trips
        (this and the commit) however many requests it holds."""
        assert self._batch == [], "a round is foreseen first in its batch"
        with self._guard:
            rooms = sorted(room for room in sent if room in self._held)
        if not rooms:
            return
        checks = list(dict.fromkeys((room, *check) for room in rooms for check in sent[room]))
        self._begin()
        self._batch.append(0)  # the opening begins the transaction: each request is a savepoint
        locks = self._statement(LOCK_ROUND, (rooms,))
        columns = tuple(list(column) for column in zip(*checks, strict=True))
        found = self._statement(SENT_BEFORE_ALL, columns)
        rows = {row[0]: row[1:] for row in locks.fetchall()}
        self._locked = {room: self._mine(room, rows.get(room)) for room in rooms}
        for room, actor, client, nonce, retried, used in found.fetchall():
            self._foreseen[room, actor, client, nonce] = (retried, used)

    def sent_before(
        self, room: str, actor: str, client: str, nonce: str | None
    ) -> tuple[int | None, int | None]:
        """Foreseen, what the log held before the round and the round appended since;
        else asked of the database."""
        before = self._foreseen.get((room, actor, client, nonce))
        if before is None:
            found = super().sent_before(room, actor, client, nonce)
            self._check_lock()  # its answer came in the same round trip
            return found
        retried, used = before
        for row in self._appended:
            if row.room == room and row.actor == actor:
                if retried is None and row.client == client:
                    retried = row.seq
                if used is None and nonce is not None and row.nonce == nonce:
                    used = row.seq
        return retried, used

    def append(self, room: str, rows: list[tuple[Any, ...]]) -> None:
        super().append(room, rows)
        if room in self._locked:
            assert self._batch
            request = self._batch[-1]
            for seq, actor, client, nonce, _ in rows:
                self._appended.append(_RoundRow(request, room, actor, client, nonce, seq))

    def _settle(self) -> None:
        """A request's writes are not waited for: they go with the next request's reads, or
        with the round's commit, so a round of n requests nobody foresaw is n + 1 round
        trips, not 2n + 1 (a foreseen round is two: `foresee`).
        The lease proves nobody else writes the room, so the database refuses a write only
        when it or the connection is failing; then the round is lost (`_undo_request`)."""
        self._check_lock()

    def _refused(self, error: psycopg.Error) -> None:
        if self._batch is not None:
            self._lost = self._lost or error

    def _undo_request(self, number: int, failed: BaseException) -> None:
        """Undo a refused request alone; if the room turned out not to be this shard's, say
        so rather than what failed on the way (the rules ran on what may be an old table).
        An error of the database's may be an earlier request's write surfacing here: then
        nothing of the round can be kept, and its commit is refused (`_commit`)."""
        if isinstance(failed, psycopg.Error) or self._lost is not None:
            self._lost = self._lost or failed
            self._request = None  # nothing of it is undone alone
            return  # the failed transaction refuses what follows, until the round rolls back
        self._appended = [row for row in self._appended if row.request != number]
        try:
            with contextlib.suppress(psycopg.Error):  # a refusal on the way stays the error
                self._check_lock()  # before the undo, which may drop what waits unsent
        finally:
            super()._undo_request(number, failed)

    def add_room(self, room: str, system: str, seed: str, created: int) -> None:
        """A new room (opened or imported), held by this owner from the same transaction:
        what the shard writes of it next (an imported log's snapshot) passes the check.
        The shard gives it up once that round is committed (`release`), so that the process
        the proxy sends the room to takes it."""
        super().add_room(room, system, seed, created)
        sent = time.monotonic()
        self._execute(
            "INSERT INTO leases (room, owner, epoch, expires) "
            "VALUES (%s, %s, 1, clock_timestamp() + make_interval(secs => %s))",
            (room, self.owner, self.lease),
        )
        with self._guard:
            self._held[room] = _Held(1, sent + self.lease * VALID)

    def entries(self, room: str, after: int = 0, upto: int | None = None) -> list[str]:
        """A room's entries, read only by the shard that holds its lease (other processes
        never fold a room they do not serve)."""
        with self._guard:
            mine = room in self._held
        if not mine and self.has_room(room):
            raise Elsewhere(f"room {room} is served by another server process")
        return super().entries(room, after, upto)

    # holding -----------------------------------------------------------------------------

    def holds(self, room: str, confirm: bool = True) -> bool:
        """Whether this shard holds the room's lease. A lease whose last renewal is older
        than `VALID` of it is renewed first (`confirm`), or counted as lost."""
        with self._guard:
            held = self._held.get(room)
        if held is None:
            return False
        if time.monotonic() < held.valid_until:
            return True
        return confirm and self._confirm(room, held.epoch)

    def held(self) -> list[str]:
        with self._guard:
            return list(self._held)

    def epoch(self, room: str) -> int | None:
        with self._guard:
            held = self._held.get(room)
        return None if held is None else held.epoch

    def take(self, room: str) -> TakeResult:
        """Take the room's lease if it is free, expired or this owner's; else who holds it
        and for how long. None if there is no such room."""
        with self._lock:
            if self._batch is not None or self._in_transaction:
                raise RuntimeError("a lease is taken outside any other transaction")
            self._begin()
            try:
                found = self._try_take(room)
            except BaseException:
                self._rollback()
                raise
            self._commit()
        return found

    def _try_take(self, room: str) -> TakeResult:
        row = self._db.execute(
            "SELECT owner, epoch, expires <= clock_timestamp(), "
            "GREATEST(EXTRACT(EPOCH FROM expires - clock_timestamp()), 0)::float8 "
            "FROM leases WHERE room = %s FOR UPDATE",
            (room,),
        ).fetchone()
        sent = time.monotonic()
        if row is None:
            got = self._db.execute(
                "INSERT INTO leases (room, owner, epoch, expires) "
                "SELECT %s, %s, 1, clock_timestamp() + make_interval(secs => %s) "
                "WHERE EXISTS (SELECT 1 FROM rooms WHERE id = %s) "
                "ON CONFLICT (room) DO NOTHING RETURNING epoch",
                (room, self.owner, self.lease, room),
            ).fetchone()
            if got is None:
                exists = self._db.execute("SELECT 1 FROM rooms WHERE id = %s", (room,))
                return None if exists.fetchone() is None else Busy("", self.lease)
        elif row[2] or row[0] == self.owner:
            got = self._db.execute(
                "UPDATE leases SET owner = %s, epoch = epoch + 1, "
                "expires = clock_timestamp() + make_interval(secs => %s) "
                "WHERE room = %s RETURNING epoch",
                (self.owner, self.lease, room),
            ).fetchone()
        else:
            return Busy(str(row[0]), float(row[3]))
        epoch = int(got[0])
        with self._guard:
            self._held[room] = _Held(epoch, sent + self.lease * VALID)
        return Taken(epoch)

    def _confirm(self, room: str, epoch: int) -> bool:
        """Renew one lease now (its renewals were late): whether it is still this owner's."""
        sent = time.monotonic()
        try:
            row = self._execute(
                "UPDATE leases SET expires = clock_timestamp() + make_interval(secs => %s) "
                "WHERE room = %s AND owner = %s AND epoch = %s RETURNING epoch",
                (self.lease, room, self.owner, epoch),
            ).fetchone()
        except psycopg.Error:
            return False  # the database cannot say: serve nothing of it meanwhile
        with self._guard:
            held = self._held.get(room)
            if held is None or held.epoch != epoch:
                return False
            if row is None:
                del self._held[room]
                return False
            held.valid_until = sent + self.lease * VALID
        return True

    def release(self, rooms: Iterable[str] | None = None) -> None:
        """Give up these leases (all with None): they expire now, their epochs stay."""
        with self._guard:
            chosen = list(self._held) if rooms is None else [r for r in rooms if r in self._held]
            pairs = [(room, self._held.pop(room).epoch) for room in chosen]
        if not pairs:
            return
        with contextlib.suppress(psycopg.Error):
            self._execute(
                "UPDATE leases SET expires = clock_timestamp() "
                "FROM unnest(%s::text[], %s::bigint[]) AS mine(room, epoch) "
                "WHERE leases.room = mine.room AND leases.epoch = mine.epoch "
                "AND leases.owner = %s",
                ([room for room, _ in pairs], [epoch for _, epoch in pairs], self.owner),
            )

    def forget(self, room: str) -> None:
        """Stop holding a room without touching its row (it was found taken over)."""
        with self._guard:
            self._held.pop(room, None)

    # renewing ----------------------------------------------------------------------------

    def start_renewing(self, on_lost: Callable[[str], None]) -> Callable[[], None]:
        """Renew every held lease every `lease / RENEWALS` seconds from a thread with its
        own connection; `on_lost(room)` for each found taken over. How to stop it."""
        stopping = threading.Event()

        def run() -> None:
            db: psycopg.Connection[Any] | None = None
            while not stopping.wait(self.lease / RENEWALS):
                try:
                    if db is None or db.closed:
                        db = self._connect()
                    for room in self._renew(db):
                        on_lost(room)
                except psycopg.Error as failed:  # the lease lapses locally on its own
                    print(f"tabletop: renewing leases failed: {failed}", file=sys.stderr)
                    if db is not None:
                        db.close()
                    db = None
            if db is not None:
                db.close()

        thread = threading.Thread(target=run, name="tabletop-leases", daemon=True)
        thread.start()

        def stop() -> None:
            stopping.set()
            thread.join(timeout=self.lease)

        return stop

    def _renew(self, db: psycopg.Connection[Any]) -> list[str]:
        """One renewal of every held lease (rows locked in room order, so that two renewals
        never wait for each other in a circle); the rooms found taken over."""
        with self._guard:
            pairs = [(room, held.epoch) for room, held in self._held.items()]
        if not pairs:
            return []
        sent = time.monotonic()
        rows = db.execute(
            "WITH mine AS ("
            " SELECT leases.room FROM leases"
            " JOIN unnest(%s::text[], %s::bigint[]) AS m(room, epoch)"
            " ON leases.room = m.room AND leases.epoch = m.epoch"
            " WHERE leases.owner = %s ORDER BY leases.room FOR NO KEY UPDATE OF leases)"
            " UPDATE leases SET expires = clock_timestamp() + make_interval(secs => %s)"
            " FROM mine WHERE leases.room = mine.room RETURNING leases.room",
            ([room for room, _ in pairs], [epoch for _, epoch in pairs], self.owner, self.lease),
        ).fetchall()
        renewed = {row[0] for row in rows}
        lost = []
        with self._guard:
            for room, epoch in pairs:
                held = self._held.get(room)
                if held is None or held.epoch != epoch:
                    continue  # taken again or given up meanwhile
                if room in renewed:
                    held.valid_until = max(held.valid_until, sent + self.lease * VALID)
                else:
                    del self._held[room]
                    lost.append(room)
        return lost

    def close(self) -> None:
        with contextlib.suppress(psycopg.Error):
            self.release()
        super().close()
