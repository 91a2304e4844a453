"""Who serves a room when several server processes share one PostgreSQL: the process whose
shard holds the room's lease, a row `(room, owner, epoch, expires)` in the `leases` table.

- A shard **takes** a room's lease before it reads or folds the room, and only if the lease
  is free, has expired (by the database's clock, the one clock every process shares), or
  is its own (a shard started again in its place); each take adds one to the epoch.
- While it lives it **renews** the leases it holds every `lease / 5` seconds, from a thread
  with its own connection, and serves a room only while its last renewal is younger than
  `VALID` of a lease by its own monotonic clock; after that it renews that room first.
- **Fencing**: every append's transaction reads the room's lease row `FOR KEY SHARE` as it
  locks the room's row, and refuses (`Fenced`) unless the row still names this owner at
  the epoch it took. A take locks that row `FOR UPDATE`, so it waits for an append that
  passed the check to commit, and an append that follows a take fails it: a process that
  paused past its lease and woke up mid-append appends nothing, and drops the room. So an
  append that passes the check knows nobody else appended since the take: it reads nothing
  to catch up on and notifies no other process (`Store.sole_writer`).
  Renewals change no key and do not wait for appends.
- A shard **releases** its leases when it stops cleanly (the expiry becomes now, the epoch
  stays), and leases of rooms idle for a minute (`shards.IDLE_RELEASE`).
- A shard asked for a room another live owner holds answers 503 with `Retry-After`
  (`Elsewhere`): nginx tries the next process (deploy/nginx.conf), and a client waits and
  sends it again.

A paused process can hold a room's row lock inside an open transaction; PostgreSQL ends such
a session after `IDLE_IN_TRANSACTION` leases (`idle_in_transaction_session_timeout`), so a
frozen machine cannot hold a room for longer than that. SQLite serves one process and takes
no lease.
"""

from __future__ import annotations

from dataclasses import dataclass

LEASE = 5.0
"""Seconds a room's lease lasts unless renewed (`tabletop serve --lease`): a dead process's
rooms move to another after at most this long."""

RENEWALS = 5
"""Renewals a lease gets in its lifetime: a renewal every `lease / RENEWALS` seconds, so
that several may fail or be late before the lease lapses."""

VALID = 0.8
"""The part of a lease, counted on this process's monotonic clock from just before the
statement that set its expiry, for which the shard serves the room without asking the
database again (the database's expiry comes later still)."""

IDLE_IN_TRANSACTION = 3
"""Leases after which PostgreSQL ends a shard's session that sits inside a transaction (a
process paused mid-append), releasing the room's row lock for the room's next owner."""


@dataclass(frozen=True)
class Taken:
    epoch: int


@dataclass(frozen=True)
class Busy:
    """Another owner holds the lease for `left` more seconds (by the database's clock)."""

    owner: str
    left: float


TakeResult = Taken | Busy | None
"""None: there is no such room (yet): nothing to hold."""
