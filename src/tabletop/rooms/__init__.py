"""The shared table: rooms where a GM and players play one system together, over a log
anyone can verify. `Hall` is the rooms of one process, `verify` checks an export offline;
the server (`tabletop.rooms.server`) and the client (`tabletop.rooms.client`) speak the
protocol in docs/rooms.md.
"""

from tabletop.rooms.databases import open_store
from tabletop.rooms.errors import (
    AuditError,
    BadLink,
    Kicked,
    NotAllowed,
    OverBudget,
    RoomError,
    SystemUnavailable,
    TooMuch,
    UnknownRoom,
    UnknownSystemName,
)
from tabletop.rooms.fairdice import FairDice, commitment, new_seed
from tabletop.rooms.hall import Appended, Hall
from tabletop.rooms.log import Entry
from tabletop.rooms.store import SqliteStore, Store
from tabletop.rooms.tokens import Link
from tabletop.rooms.verify import Audit, verify

__all__ = [
    "Appended",
    "Audit",
    "AuditError",
    "BadLink",
    "Entry",
    "FairDice",
    "Hall",
    "Kicked",
    "Link",
    "NotAllowed",
    "OverBudget",
    "RoomError",
    "SqliteStore",
    "Store",
    "SystemUnavailable",
    "TooMuch",
    "UnknownRoom",
    "UnknownSystemName",
    "commitment",
    "new_seed",
    "open_store",
    "verify",
]
