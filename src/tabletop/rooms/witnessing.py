"""A client's part in its room's dice (docs/rooms.md, "Dice anyone can audit"): it answers
every call that lists it with the next value of its chain, naming the calls of the values
it passes over; keeps the hash of every entry it receives and every value it revealed; and
says when a roll appended while it was connected does not list it, or did not use its
value for the call it was revealed for. The room page does the same (js/witness.js)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tabletop.rooms.nonces import Chain, keep_head
from tabletop.rooms.verify import asked_seal
from tabletop.rooms.witness import rebuilt_call


class Witnessing:
    """One client's witness of one room: its chain, its kept heads, this connection's calls."""

    def __init__(self, room: str, chain: Path, heads: Path) -> None:
        self.room, self.chain, self.heads = room, Chain(chain), heads
        self.member = ""
        self.since = 0
        """The head when this connection said hello: rolls after it must list this client."""
        self.answered: dict[int, tuple[str, str, list[str]]] = {}
        """This connection's reveals by seq: the call, the value and the calls it passed."""
        self.active = True
        """Whether this device's chain was its member's active one at the latest call."""
        self.alarms: list[str] = []
        """What this client found wrong, to be shown as it is found."""

    def answer(self, frame: Mapping[str, Any]) -> str | None:
        """The reveal to send for a call that lists this client (kept before it is sent)."""
        if frame.get("type") == "welcome":
            self.member, self.since = str(frame["member"]["id"]), int(frame["head"])
            self.answered = {}
        if frame.get("type") != "call" or self.member not in frame.get("witnesses", ()):
            return None
        self.active = self._mine(frame)
        if not self.active or self.chain.spent:
            return None
        seq, call = int(frame["seq"]), str(frame["call"])
        if seq in self.answered and self.answered[seq][0] != call:
            self.alarms.append(
                f"entry {seq}: the call your device answered was dropped and called again"
            )
        passed = self.chain.passed()
        value = self.chain.reveal(call)
        self.answered[seq] = (call, value, passed)
        kept = {"room": self.room, "seq": seq, "call": call, "value": value}
        keep_head(self.heads, kept)
        return json.dumps({"type": "reveal", "call": call, "value": value, "passed": passed})

    def _mine(self, frame: Mapping[str, Any]) -> bool:
        """Whether this device's chain is the one its member witnesses with now (the latest
        named: another device of theirs may have said hello since)."""
        return frame.get("heads", {}).get(self.member, self.chain.head) == self.chain.head

    def received(self, entry: Mapping[str, Any]) -> None:
        """Keep an entry's head; an alarm when its roll passed over this witness."""
        seq = int(entry["seq"])
        keep_head(self.heads, {"room": self.room, "seq": seq, "hash": entry["hash"]})
        header = entry.get("witnessed")
        if not isinstance(header, Mapping) or not self.member:
            return
        used = header.get("reveals", {}).get(self.member)
        if used is not None:
            self.chain.settle(str(used))
        alarm = None if seq <= self.since else self._alarm(seq, entry, header, used)
        if alarm is not None:
            self.alarms.append(alarm)

    def _alarm(
        self, seq: int, entry: Mapping[str, Any], header: Mapping[str, Any], used: Any
    ) -> str | None:
        """What is wrong with a roll appended while this client was connected, if anything."""
        if self.member not in header.get("witnesses", ()):
            return f"entry {seq}: a roll made while your device was connected does not list it"
        mine = self.answered.pop(seq, None)
        if mine is None and self.active:
            return f"entry {seq}: the roll lists your device, but no call for it reached it"
        if mine is None:
            return None  # another device of this member witnesses now
        call, value, passed = mine
        if rebuilt_call(seq, str(entry["prev"]), asked_seal(dict(entry)), header) != call:
            return f"entry {seq}: the call your device answered was dropped and called again"
        if used != value:
            return f"entry {seq}: the roll does not hold the value your device revealed for it"
        if header.get("skipped", {}).get(self.member, []) != passed:
            return f"entry {seq}: the roll misnames the values of your device's it passed over"
        return None
