"""Witnessed dice (log format 3): a roll's call, the reveals its witnesses send back, the
bound on waiting for them, and the check every reader of a log makes of each roll's
witnesses (docs/rooms.md, "Dice anyone can audit" and "Why nobody can choose a die").

A call fixes everything a roll depends on but the witnesses' values: where it is appended,
the hashes of two fresh keys (the open key, for the dice of those whose numbers the players
see, and the kept key, for every other die), who asks with which nonce and intent (the
`asked` part's hash) and which witnesses are connected. Each witness answers with the next
value down its hash chain, naming the calls it revealed the values it passes over for; the
roll is resolved once every listed witness answered or `WITNESS_WAIT` seconds after the
call, whichever comes first, the silent ones named absent.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletop.errors import DataError, RollError
from tabletop.rooms.fairdice import (
    MOST_SKIPPED,
    FairDice,
    SplitDice,
    call_digest,
    commitment,
    roll_keys,
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
    seed: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    """The roll's fresh secret, whence its two keys (`roll_keys`)."""
    asked_salt: str = field(default_factory=lambda: secrets.token_hex(16), repr=False)
    heads: dict[str, str] = field(default_factory=dict)
    """Each listed witness's active chain, by its head: the one device of the member that
    answers (another device of theirs stays silent)."""
    reveals: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, list[str]] = field(default_factory=dict)
    """Each witness's values passed over, by the call each was revealed for."""

    @property
    def asked(self) -> Asked:
        return Asked(self.member.id, self.intent)

    @property
    def secret(self) -> bytes:
        """The kept key: every die not rolled for someone whose numbers the players see."""
        return roll_keys(self.seed)[0]

    @property
    def open_secret(self) -> bytes:
        """The open key: the dice rolled for those whose numbers the players see."""
        return roll_keys(self.seed)[1]

    @property
    def commitment(self) -> dict[str, str]:
        """The hashes of the two keys, fixed by the call."""
        return {"kept": commitment(self.secret), "open": commitment(self.open_secret)}

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
            "heads": dict(self.heads),
        }

    def take(self, member: str, call: str, value: str, passed: Sequence[str] = ()) -> bool:
        """Keep a witness's reveal if it is one this call awaits (a listed witness, this
        call, the next value of its chain once past one value for each call in `passed`:
        those it revealed for calls whose rolls did not use them); whether it was kept."""
        if member not in self.witnesses or member in self.reveals or call != self.digest:
            return False
        if steps_down(value, self.lasts[member]) != len(passed) + 1:
            return False
        self.reveals[member] = value
        if passed:
            self.skipped[member] = list(passed)
        return True

    @property
    def complete(self) -> bool:
        return len(self.reveals) == len(self.witnesses)

    def due(self, now: float, wait: float = WITNESS_WAIT) -> bool:
        """Whether the roll is to be resolved now: every witness answered, or the bound passed."""
        return self.complete or now >= self.opened + wait

    def witnessed(self, open_at: Sequence[int]) -> Witnessed:
        """The keys and the header the roll's entry is appended with; `open_at` are the
        positions of its dice drawn from the open key."""
        header = {
            "commitment": self.commitment,
            "witnesses": list(self.witnesses),
            "reveals": dict(sorted(self.reveals.items())),
            "absent": [w for w in self.witnesses if w not in self.reveals],
            "skipped": dict(sorted(self.skipped.items())),
        }
        keys = {"kept": self.secret.hex(), "open": self.open_secret.hex(), "open_at": [*open_at]}
        return Witnessed(keys, header, self.asked_salt)

    @property
    def dice_position(self) -> str:
        """Where in each key's stream the roll draws: at the call and every reveal."""
        return witnessed_position(self.seq, self.reveals)

    def dice(
        self, hidden: Collection[str] = (), owner: Callable[[], str | None] = lambda: None
    ) -> SplitDice:
        """The roll's dice: each key's stream at the call and every reveal, a die rolled
        for `owner()` from the open key unless they are among `hidden`."""
        where = self.dice_position
        return SplitDice(
            FairDice(self.secret, where), FairDice(self.open_secret, where), hidden, owner
        )


def keys_of(secret: Any, header: Mapping[str, Any]) -> tuple[bytes, bytes, list[int]]:
    """A witnessed entry's kept and open keys and the positions drawn from the open key, as
    its `why` part opens them, each checked against the call's commitment; `DataError`."""
    if not isinstance(secret, Mapping):
        raise DataError("its keys are not what a witnessed roll opens")
    kept, opened = bytes.fromhex(str(secret["kept"])), bytes.fromhex(str(secret["open"]))
    committed = header["commitment"]
    if commitment(kept) != committed["kept"] or commitment(opened) != committed["open"]:
        raise DataError("its keys are not the ones its call committed to")
    open_at = secret["open_at"]
    if not (isinstance(open_at, list) and all(type(at) is int for at in open_at)):
        raise DataError("the positions of its open dice are not a list of numbers")
    if "open" in header and header["open"] != secret["open"]:
        raise DataError("the open key its header shows is not the one its cause opens")
    return kept, opened, open_at


def open_key(header: Mapping[str, Any]) -> bytes:
    """The open key a witnessed entry's header shows everyone (beside dice the players are
    shown apart), checked against the call's commitment; `DataError`."""
    opened = bytes.fromhex(str(header["open"]))
    if commitment(opened) != header["commitment"]["open"]:
        raise DataError("the open key its header shows is not the one its call committed to")
    return opened


def published(witnessed: Witnessed, public: Any, seq: int) -> Witnessed:
    """The roll's header with its open key shown everyone when what everyone sees of entry
    `seq` (`public`, a hint) shows exactly the dice drawn from it, in the order drawn: the
    players' own dice beside a hidden NPC's (shown with no place among the others), which
    they may then check without the kept key."""
    open_at = witnessed.secret["open_at"]
    shown = public.get("data", {}).get("draws") if isinstance(public, dict) else None
    if not open_at or not isinstance(shown, list) or len(shown) != len(open_at):
        return witnessed
    where = witnessed_position(seq, witnessed.header["reveals"])
    dice = FairDice(bytes.fromhex(witnessed.secret["open"]), where)
    try:
        drawn = [dice.roll(int(draw["sides"])) == draw["face"] for draw in shown]
    except (KeyError, TypeError, ValueError, RollError):
        return witnessed
    if not all(drawn):
        return witnessed
    header = {**witnessed.header, "open": witnessed.secret["open"]}
    return Witnessed(witnessed.secret, header, witnessed.asked_salt)


@dataclass
class Chains:
    """Every member's witness chains as the log holds them: the head each named last (its
    active chain: a member witnesses with one device at a time) and, for every head a
    member named, the value it revealed last (the head, before any), so that a device
    named again goes on down its own chain."""

    heads: dict[str, str] = field(default_factory=dict)
    lasts: dict[str, dict[str, str]] = field(default_factory=dict)

    def named(self, member: str, head: str) -> None:
        """`room.witness`: the member's device with chain `head` witnesses from now on."""
        self.heads[member] = head
        self.lasts.setdefault(member, {}).setdefault(head, head)

    def active(self) -> dict[str, str]:
        """Each member's value revealed last on their active chain."""
        return {member: self.lasts[member][head] for member, head in self.heads.items()}

    def advance(self, header: Mapping[str, Any]) -> None:
        """Check a roll's witnesses against the active chains and move them down (`DataError`
        naming what does not hold)."""
        moved = self.active()
        advance(moved, header)
        for member, last in moved.items():
            self.lasts[member][self.heads[member]] = last

    def encode(self) -> dict[str, Any]:
        return {"heads": dict(self.heads), "lasts": {m: dict(v) for m, v in self.lasts.items()}}

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> Chains:
        lasts = {
            str(m): {str(h): str(v) for h, v in kept.items()} for m, kept in data["lasts"].items()
        }
        return cls({str(m): str(h) for m, h in data["heads"].items()}, lasts)


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
        passed = skipped.get(member, [])
        if member in skipped and not _calls(passed):
            raise DataError(f"{member}'s skipped values are not the calls they were for")
        steps = steps_down(str(value), chains[member], MOST_SKIPPED + 1)
        if steps != len(passed) + 1:
            raise DataError(f"{member}'s reveal is not the next value of the chain it committed")
        chains[member] = str(value)


def _calls(passed: Any) -> bool:
    """Whether `passed` names the calls of one to `MOST_SKIPPED` values passed over."""
    return (
        isinstance(passed, list)
        and 0 < len(passed) <= MOST_SKIPPED
        and all(isinstance(call, str) and len(call) == 64 for call in passed)
    )


def rebuilt_call(entry_seq: int, prev: str, asked_seal: str, header: Mapping[str, Any]) -> str:
    """The call a witnessed entry was resolved for, from its header and its asked part's hash."""
    committed = header["commitment"]
    if not isinstance(committed, Mapping):
        raise DataError("its call's commitment is not the hashes of two keys")
    return call_digest(entry_seq, prev, committed, asked_seal, list(header["witnesses"]))
