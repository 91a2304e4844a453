"""The nonces a client sent: kept beside the player, so that `tabletop room verify --mine`
can show that every entry they asked for was rolled at a nonce they chose, not one the
server picked for them (docs/rooms.md, "Why nobody can choose a die").

A book is JSON lines `{"room", "client", "nonce", "intent"}`, one per request sent,
appended before the request goes out (a lost answer still leaves the nonce on record);
`intent` is the digest of the intent sent under that id, so a server that pairs the id's
nonce with another intent is named. The terminal keeps one per room under
`$XDG_DATA_HOME/tabletop/nonces/` (`~/.local/share` by default), and beside it, as a
witness of the room's rolls, its hash chain (`witness/`) and the heads it received and the
values it revealed (`heads/`): docs/rooms.md, "Kept heads and a member's bundle".
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

from tabletop.data import read_text_file
from tabletop.errors import DataError
from tabletop.rooms.fairdice import CHAIN, digest, new_chain
from tabletop.rooms.log import lines_of

MAX_BOOK = 64 * 1024 * 1024
"""Bytes a nonce book may hold: millions of requests, still a file to read at once."""


def _kept(kind: str, room: str, suffix: str) -> Path:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "tabletop" / kind / f"{room}{suffix}"


def default_book(room: str) -> Path:
    """Where the terminal client keeps the nonces it sends to `room`."""
    return _kept("nonces", room, ".jsonl")


def default_heads(room: str) -> Path:
    """Where the terminal client keeps the heads it received from `room` and its reveals."""
    return _kept("heads", room, ".jsonl")


def keep(
    path: Path, room: str, client: str, nonce: str, intent: dict[str, Any] | None = None
) -> None:
    """Write one sent request's id, nonce and intent's digest down, before it is sent."""
    line: dict[str, Any] = {"room": room, "client": client, "nonce": nonce}
    if intent is not None:
        line["intent"] = digest(intent)
    _append(path, line)


def keep_head(path: Path, line: dict[str, Any]) -> None:
    """Write down an entry's seq and hash as received, or a value revealed for a call."""
    _append(path, line)


def _append(path: Path, line: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as kept:
        kept.write(json.dumps(line) + "\n")


def read_heads(path: Path, room: str | None = None) -> list[dict[str, Any]]:
    """Every head and reveal a client kept (of `room`, when given)."""
    return [kept for kept in _lines(path, "kept heads") if room is None or kept["room"] == room]


class Chain:
    """A witness's hash chain, kept in a file: its secret, how many values it revealed and,
    of those, the ones no roll of the log has used yet, with the call each was revealed for
    (a roll that uses a later value names them). A used-up chain is replaced by a fresh one
    (its head is committed again)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            kept = json.loads(read_text_file(path))
            secret, self.used = bytes.fromhex(kept["secret"]), int(kept["used"])
            self.pending = [(str(call), str(value)) for call, value in kept["pending"]]
        except (DataError, ValueError, KeyError, TypeError):
            secret, self.used, self.pending = secrets.token_bytes(32), 0, []
        if self.used >= CHAIN:
            secret, self.used, self.pending = secrets.token_bytes(32), 0, []
        self._secret = secret
        self.values = new_chain(secret)
        self._save()

    @property
    def head(self) -> str:
        return self.values[-1]

    @property
    def spent(self) -> bool:
        """Every value revealed: the client stays silent until it names a fresh chain."""
        return self.used >= CHAIN

    def passed(self) -> list[str]:
        """The calls of the values revealed that no roll used: the next reveal passes them."""
        return [call for call, _ in self.pending]

    def reveal(self, call: str) -> str:
        """The next value down the chain, for `call` (written down before it is sent)."""
        self.used += 1
        value = self.values[-1 - self.used]
        self.pending.append((call, value))
        self._save()
        return value

    def settle(self, value: str) -> None:
        """A roll used `value`: it and every value revealed before it are settled."""
        found = [i for i, (_, kept) in enumerate(self.pending) if kept == value]
        if found:
            self.pending = self.pending[found[0] + 1 :]
            self._save()

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        kept = {"secret": self._secret.hex(), "used": self.used, "pending": self.pending}
        self.path.write_text(json.dumps(kept), encoding="utf-8")


def default_chain(room: str) -> Path:
    return _kept("witness", room, ".json")


def read_book(path: Path, room: str | None = None) -> dict[str, Any]:
    """Request id → what was kept for every request the book holds (of `room`, when
    given): its nonce, or `{"nonce", "intent"}` when the book holds the intent's digest."""
    sent: dict[str, Any] = {}
    for kept in _lines(path, "nonce book"):
        if room is None or kept["room"] == room:
            nonce = str(kept["nonce"])
            intent = kept.get("intent")
            sent[str(kept["client"])] = {"nonce": nonce, "intent": intent} if intent else nonce
    return sent


def _lines(path: Path, what: str) -> list[dict[str, Any]]:
    """The JSON lines of a file a client keeps, each an object with a `room`."""
    text = read_text_file(path, limit=MAX_BOOK)
    found = []
    for number, line in enumerate(lines_of(text), start=1):
        try:
            kept = json.loads(line)
            kept["room"]  # every line names its room
        except (ValueError, KeyError, TypeError):
            raise DataError(f"{path}, line {number}: not a line of a {what}") from None
        found.append(kept)
    return found
