"""Dice anyone can audit: every face comes from a seed the server committed to in advance.

Before the first roll of a session the log publishes `commitment(seed)`, the SHA-256 of a
secret 256-bit seed. Each resolution's dice are the stream HMAC-SHA256(seed,
"<member>:<nonce>:<counter>") for counter 0, 1, 2…, read as big-endian 64-bit numbers; a
die of `sides` faces takes the next number below the largest multiple of `sides` under
2**64 (rejection sampling, so every face is exactly as likely) and shows
`number % sides + 1`. `member` is who asked and `nonce` a string their client chose, used
once (docs/rooms.md, "Why nobody can choose a die"); the table's own moves use
`table_nonce`. When the GM ends the session the log reveals the seed, and anyone can
recompute every die offline (`tabletop room verify`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from tabletop.errors import RollError

SEED_BYTES = 32
_SPAN = 1 << 64


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """What the log publishes before any roll: binds the server to the seed, reveals nothing."""
    return hashlib.sha256(seed).hexdigest()


def table_nonce(seq: int, latest: str) -> str:
    """The nonce of a move the table makes by itself (a bot's) at entry `seq`: fixed by the
    log, so the server cannot pick it, and bound to the latest nonce a member sent, so that
    no seed the server chose in advance could aim it. It holds that nonce's hash, never the
    nonce: a hidden entry's nonce must stay unknown once its session's seed is revealed."""
    return f"table-{seq}-{hashlib.sha256(latest.encode()).hexdigest()[:32]}"


def new_nonce() -> str:
    """A nonce nobody can guess (128 bits), for a request whose client sent none."""
    return secrets.token_hex(16)


class FairDice:
    """A `DiceSource` whose faces follow from (seed, member, nonce) alone."""

    __slots__ = ("_buffer", "_counter", "_key", "_prefix")

    def __init__(self, seed: bytes, member: str, nonce: str) -> None:
        self._key = seed
        self._prefix = f"{member}:{nonce}:".encode()
        self._counter = 0
        self._buffer: list[int] = []

    def roll(self, sides: int) -> int:
        if sides < 1:
            raise RollError(f"a die needs at least one face, not {sides}")
        if sides > _SPAN:  # no number of the stream could fall under the limit: a hang
            raise RollError("a die has at most 2**64 faces")
        limit = _SPAN - _SPAN % sides
        while True:
            number = self._next()
            if number < limit:
                return number % sides + 1

    def _next(self) -> int:
        if not self._buffer:
            block = hmac.digest(self._key, self._prefix + str(self._counter).encode(), "sha256")
            self._counter += 1
            self._buffer = [int.from_bytes(block[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._buffer.pop()
