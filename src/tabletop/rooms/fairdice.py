"""Dice anyone can audit: every face comes from a keyed stream nobody could predict while
the roll's inputs could still change (docs/rooms.md, "Dice anyone can audit").

A stream is HMAC-SHA256(key, "<position>:<counter>") for counter 0, 1, 2…, read as
big-endian 64-bit numbers; a die of `sides` faces takes the next number below the largest
multiple of `sides` under 2**64 (rejection sampling, so every face is exactly as likely)
and shows `number % sides + 1`.

Log format 3 (witnessed): the key is one of two fresh secrets of the entry, both committed
in the roll's call (`SplitDice`: the open key for the dice of those whose numbers the
players see, the kept key for every other die), and the position is the call's digest and
the digest of every witness's reveal, each reveal the next value down that witness's hash
chain. Log format 2: the key is the dice
session's seed, revealed at its end, and the position is "<member>:<nonce>" (the table's
own moves use `table_nonce`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Collection, Mapping

from tabletop.data import canonical
from tabletop.errors import RollError

SEED_BYTES = 32
_SPAN = 1 << 64

CHAIN = 1024
"""Values in a witness's hash chain: rolls one chain witnesses before its client names another."""

MOST_SKIPPED = 64
"""Values of a witness's chain a reveal may pass over (each one revealed for a call that was
never appended); past it the reveal is not taken."""


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """What the log publishes before any roll: binds the server to the seed, reveals nothing."""
    return hashlib.sha256(seed).hexdigest()


def digest(value: object) -> str:
    """The SHA-256 of a value's canonical JSON (docs/rooms.md, "The log")."""
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def chain_step(value: str) -> str:
    """The value a chain's next-revealed value hashes to: the one revealed before it."""
    return hashlib.sha256(bytes.fromhex(value)).hexdigest()


def new_chain(secret: bytes, length: int = CHAIN) -> list[str]:
    """A witness's chain from its secret: `[v_0, v_1, …, v_length]`; it commits the last
    (the head) and reveals the others from the end, each the preimage of the one before."""
    values = [secret.hex()]
    for _ in range(length):
        values.append(chain_step(values[-1]))
    return values


def steps_down(value: str, last: str, most: int = MOST_SKIPPED + 1) -> int | None:
    """How many hashes take `value` to `last` (the witness's value before): 1 for the next
    value of its chain, more when values were revealed for calls never appended; None when
    it is not a value of that chain within `most` steps (or not 32 bytes of hex)."""
    if len(value) != 64:
        return None
    try:
        for steps in range(1, most + 1):
            value = chain_step(value)
            if value == last:
                return steps
    except ValueError:
        return None
    return None


def call_digest(
    seq: int, prev: str, committed: Mapping[str, str], asked: str, witnesses: list[str]
) -> str:
    """What a roll's call fixes before any witness reveals: where it is appended, the hashes
    of the entry's two keys, the hash of who asked with which nonce and intent, and who
    witnesses."""
    call = {"seq": seq, "prev": prev, "commitment": dict(committed), "asked": asked}
    return digest({**call, "witnesses": witnesses})


def witnessed_position(seq: int, reveals: Mapping[str, str]) -> str:
    """A witnessed roll's position in each of its keys' streams: its entry and every
    reveal (the call, which the witnesses answered, fixed the keys and everything else)."""
    return f"{seq}:{digest(dict(reveals))}"


def roll_keys(seed: bytes) -> tuple[bytes, bytes]:
    """A witnessed roll's kept and open keys, from the one secret drawn for it: neither
    tells anything of the other."""
    return hmac.digest(seed, b"kept", "sha256"), hmac.digest(seed, b"open", "sha256")


def table_nonce(seq: int, latest: str) -> str:
    """The nonce of a move the table makes by itself (a bot's) at entry `seq`: fixed by the
    log, so the server cannot pick it, and bound to the latest nonce a member sent, so that
    no seed the server chose in advance could aim it. It holds that nonce's hash, never the
    nonce: a hidden entry's nonce must stay unknown once its session's seed is revealed."""
    return f"table-{seq}-{hashlib.sha256(latest.encode()).hexdigest()[:32]}"


def new_nonce() -> str:
    """A nonce nobody can guess (128 bits), for a request whose client sent none."""
    return secrets.token_hex(16)


def seeded_position(member: str, nonce: str) -> str:
    """A format-2 roll's position in its dice session's seed: who asked, at which nonce."""
    return f"{member}:{nonce}"


class FairDice:
    """A `DiceSource` whose faces follow from (key, position) alone."""

    __slots__ = ("_buffer", "_counter", "_key", "_prefix")

    def __init__(self, key: bytes, position: str) -> None:
        self._key = key
        self._prefix = f"{position}:".encode()
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


class SplitDice:
    """A witnessed roll's dice (format 3): each die from the open key's stream when it is
    rolled for someone whose numbers the players see, else from the kept key's, so that a
    line showing the players their own dice beside a hidden NPC's can open the first key
    and not the second (docs/rooms.md, "Dice anyone can audit"). Checking a roll, the dice
    drawn from the open key are given (`replay`) instead."""

    __slots__ = ("_kept", "_open", "_owner", "_replay", "drawn", "hidden", "open_at")

    def __init__(
        self,
        kept: FairDice,
        opened: FairDice,
        hidden: Collection[str] = (),
        owner: Callable[[], str | None] = lambda: None,
        replay: Collection[int] | None = None,
    ) -> None:
        self._kept, self._open, self._owner, self._replay = kept, opened, owner, replay
        self.hidden = hidden
        """Who the players may not see the numbers of, as the roll began."""
        self.open_at: list[int] = []
        """The positions among the roll's dice drawn from the open key."""
        self.drawn = 0

    def roll(self, sides: int) -> int:
        if self._replay is not None:
            opened = self.drawn in self._replay
        else:
            owner = self._owner()
            opened = owner is not None and owner not in self.hidden
        if opened:
            self.open_at.append(self.drawn)
        face = (self._open if opened else self._kept).roll(sides)
        self.drawn += 1
        return face
