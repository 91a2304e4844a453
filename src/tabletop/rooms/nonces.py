"""The nonces a client sent: kept beside the player, so that `tabletop room verify --mine`
can show that every entry they asked for was rolled at a nonce they chose, not one the
server picked for them (docs/rooms.md, "Why nobody can choose a die").

A book is JSON lines `{"room", "client", "nonce"}`, one per request sent, appended before
the request goes out (a lost answer still leaves the nonce on record). The terminal keeps
one per room under `$XDG_DATA_HOME/tabletop/nonces/` (`~/.local/share` by default).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tabletop.errors import DataError
from tabletop.rooms.log import lines_of

MAX_BOOK = 64 * 1024 * 1024
"""Bytes a nonce book may hold: millions of requests, still a file to read at once."""


def default_book(room: str) -> Path:
    """Where the terminal client keeps the nonces it sends to `room`."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "tabletop" / "nonces" / f"{room}.jsonl"


def keep(path: Path, room: str, client: str, nonce: str) -> None:
    """Write one sent request's id and nonce down, before it is sent."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as book:
        book.write(json.dumps({"room": room, "client": client, "nonce": nonce}) + "\n")


def read_book(path: Path, room: str | None = None) -> dict[str, str]:
    """Request id → nonce for every request the book holds (of `room`, when given)."""
    try:
        if path.stat().st_size > MAX_BOOK:
            raise DataError(f"{path} holds more than {MAX_BOOK:,} bytes: not a nonce book")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as problem:
        raise DataError(f"cannot read the nonce book {path}: {problem}") from None
    sent: dict[str, str] = {}
    for number, line in enumerate(lines_of(text), start=1):
        try:
            kept = json.loads(line)
            if room is None or kept["room"] == room:
                sent[str(kept["client"])] = str(kept["nonce"])
        except (ValueError, KeyError, TypeError):
            raise DataError(f"{path}, line {number}: not a line of a nonce book") from None
    return sent
