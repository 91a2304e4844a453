"""Witnessed dice (log format 3): a roll's call, the reveals its witnesses send back, the
bound on waiting for them, and the check every reader of a log makes of each roll's
witnesses (docs/rooms.md, "Dice anyone can audit" and "Why nobody can choose a die").

A call fixes everything a roll depends on but the witnesses' values: where it is appended,
the hash of a fresh secret, who asks with which nonce and intent (the `asked` part's hash)
and which witnesses are connected. Each witness answers with the next value down its hash
chain; the roll is resolved once every listed witness answered or `WITNESS_WAIT` seconds
after the call, whichever comes first, the silent ones named absent.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tabletop.errors import DataError
from tabletop.rooms.fairdice import (
    MOST_SKIPPED,
    FairDice,
    call_digest,
    commitment,
    steps_down,
    witnessed_position,
)
from tabletop.rooms.log import Asked, Witnessed, asked_part, digest
from tabletop.session import Member

WITNESS_WAIT = 2.0
"""Seconds a call waits for its witnesses: past it the silent ones are named absent and the
roll is resolved (a roll is never delayed longer by a slow or gone witness)."""


@dataclass
class Call:
    """A roll whose inputs are fixed and whose witnesses' values are awaited."""

    room: str
    member: Member
    intent: dict[str, Any]
    client: str
    nonce: str
    seq: int
    prev: str
    witnesses: tuple[str, ...]
    lasts: dict[str, str]
    """Each listed witness's value before this roll (its chain's head, or its last reveal)."""
    opened: float
    """When the call went out, by the clock of whoever waits for it."""
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    asked_salt: str = field(default_factory=lambda: secrets.token_hex(16), repr=False)
    reveals: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)

    @property
    def asked(self) -> Asked:
        return Asked(self.member.id, self.intent)

    @property
    def commitment(self) -> str:
        return commitment(self.secret)

    @property
    def digest(self) -> str:
        """What each witness reveals for: the call's every fixed input."""
        seal = digest(asked_part(self.client, self.nonce, self.asked_salt, self.asked))
        return call_digest(self.seq, self.prev, self.commitment, seal, list(self.witnesses))

    def frame(self) -> dict[str, Any]:
        """What every socket of the room is sent: the witnesses answer it."""
        return {
            "type": "call",
            "seq": self.seq,
            "prev": self.prev,
            "call": self.digest,
            "witnesses": list(self.witnesses),
        }

    def take(self, member: str, call: str, value: str) -> bool:
        """Keep a witness's reveal if it is one this call awaits (a listed witness, this
        call, the next value of its chain); whether it was kept."""
        if member not in self.witnesses or member in self.reveals or call != self.digest:
            return False
        steps = steps_down(value, self.lasts[member])
        if steps is None:
            return False
        self.reveals[member] = value
        if steps > 1:
            self.skipped[member] = steps - 1
        return True

    @property
    def complete(self) -> bool:
        return len(self.reveals) == len(self.witnesses)

    def due(self, now: float, wait: float = WITNESS_WAIT) -> bool:
        """Whether the roll is to be resolved now: every witness answered, or the bound passed."""
        return self.complete or now >= self.opened + wait

    def witnessed(self) -> Witnessed:
        """The secret and the header the roll's entry is appended with."""
        header = {
            "commitment": self.commitment,
            "witnesses": list(self.witnesses),
            "reveals": dict(sorted(self.reveals.items())),
            "absent": [w for w in self.witnesses if w not in self.reveals],
            "skipped": dict(sorted(self.skipped.items())),
        }
        return Witnessed(self.secret.hex(), header, self.asked_salt)

    @property
    def dice_position(self) -> str:
        """Where in the secret's stream the roll draws: at the call and every reveal."""
        return witnessed_position(self.digest, self.reveals)

    def dice(self) -> FairDice:
        """The roll's dice: the secret's stream at the call and every reveal."""
        return FairDice(self.secret, self.dice_position)


def advance(chains: dict[str, str], header: Mapping[str, Any]) -> None:
    """Check a roll's `witnessed` header against each witness's chain so far and move the
    chains down to the values revealed; `DataError` naming what does not hold."""
    listed, reveals = header.get("witnesses"), header.get("reveals")
    skipped, absent = header.get("skipped"), header.get("absent")
    if not (isinstance(listed, list) and isinstance(reveals, dict)):
        raise DataError("its witnesses are not a list with a reveal by name")
    if not (isinstance(skipped, dict) and isinstance(absent, list)):
        raise DataError("its witnesses' absences and skipped values are not as a log holds")
    if len(set(listed)) != len(listed) or not set(reveals) <= set(listed):
        raise DataError("it names a witness twice, or a reveal of a witness it does not list")
    if absent != [w for w in listed if w not in reveals]:
        raise DataError("the witnesses it names absent are not those that did not reveal")
    if not set(skipped) <= set(reveals):
        raise DataError("it says values were skipped of a witness that did not reveal")
    for member in listed:
        if member not in chains:
            raise DataError(f"it lists {member} as a witness, who committed no chain")
    for member, value in reveals.items():
        passed = skipped.get(member, 0)
        if not isinstance(passed, int) or isinstance(passed, bool) or passed < 0:
            raise DataError(f"{member}'s skipped values are not a count")
        steps = steps_down(str(value), chains[member], MOST_SKIPPED + 1)
        if steps != passed + 1:
            raise DataError(f"{member}'s reveal is not the next value of the chain it committed")
        chains[member] = str(value)


def rebuilt_call(entry_seq: int, prev: str, asked_seal: str, header: Mapping[str, Any]) -> str:
    """The call a witnessed entry was resolved for, from its header and its asked part's hash."""
    return call_digest(
        entry_seq, prev, str(header["commitment"]), asked_seal, list(header["witnesses"])
    )
