"""Which database a server's rooms live in, opened by name in any process: SQLite in a
data folder (the default) or PostgreSQL by URL. A worker process opens the store the
server's front names by its `address`, so every process reaches the same rooms.

Its own module so that `store.py` (the interface both stores share) never imports the
PostgreSQL store, which imports it.
"""

from __future__ import annotations

from pathlib import Path

from tabletop.rooms.errors import RoomError
from tabletop.rooms.store import SqliteStore, Store

POSTGRES = ("postgresql://", "postgres://")


def open_store(database: str | None, data: Path) -> Store:
    """A `postgresql://…` URL opens PostgreSQL; otherwise SQLite in `data/rooms.sqlite3`."""
    if database and database.startswith(POSTGRES):
        return open_address(database)
    if database:
        raise RoomError(f"--database takes a postgresql:// URL, not {database[:40]!r}")
    return SqliteStore(data / "rooms.sqlite3")


def open_address(address: str) -> Store:
    """The store at `address` (`Store.address`): a PostgreSQL URL or a SQLite file."""
    if address.startswith(POSTGRES):
        from tabletop.rooms.postgres import PostgresStore  # only servers that use it need psycopg

        return PostgresStore(address)
    return SqliteStore(Path(address))


def kind_of(address: str) -> str:
    """What `/health` names the database: "postgres" or "sqlite"."""
    return "postgres" if address.startswith(POSTGRES) else "sqlite"
