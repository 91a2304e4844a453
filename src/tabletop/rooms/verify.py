"""Checking an export offline: the chain is whole, every die is what the revealed seed
gives, and (for the GM's full export) every event follows from the rules.

An export is JSON lines: one entry a line in order, then a trailer
`{"export": {"room", "system", "view", "count", "head"}}`. A member's export holds redacted
lines (what they saw, with the chain's links) and stubs for entries they received nothing
of; those keep the links checkable but not their content. `verify` names the first line
that fails; nothing here needs the server.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from tabletop.errors import TabletopError
from tabletop.rooms.errors import AuditError
from tabletop.rooms.fairdice import FairDice
from tabletop.rooms.log import GENESIS, Entry, entry_hash
from tabletop.rooms.table import Table, groups


@dataclass
class Audit:
    """What a verified export holds."""

    entries: int = 0
    full: int = 0
    """Entries whose content the export holds, so whose hash was recomputed."""
    dice: int = 0
    sessions: int = 0
    """Dice sessions whose seed was revealed and matched its commitment."""
    head: str = GENESIS
    view: str = ""
    """Whose view the export is: "full" (the GM's) or a member's id."""
    ruled: bool = False
    """Whether every event was folded through the system's rules again."""
    _pending: dict[int, list[tuple[int, Entry]]] = field(default_factory=dict)
    _commitments: dict[int, str] = field(default_factory=dict)
    _session: int = 0

    def summary(self) -> str:
        rules = ", every event follows from the rules" if self.ruled else ""
        return (
            f"ok: {self.entries} entries, chain intact to {self.head[:16]}…, "
            f"{self.full} checked in full, {self.dice} dice match {self.sessions} revealed "
            f"seed(s){rules}"
        )


def verify(lines: Iterable[str]) -> Audit:
    """The audit of an export's lines, or `AuditError` naming the first line that fails."""
    rows = [line for line in lines if line.strip()]
    if not rows:
        raise AuditError(1, "the export is empty")
    audit = Audit()
    entries: list[tuple[int, Entry]] = []
    for number, line in enumerate(rows[:-1], start=1):
        body = _json(number, line)
        entry = _link(audit, number, body)
        if entry is not None:
            entries.append((number, entry))
            _dice(audit, number, entry)
    _trailer(audit, len(rows), _json(len(rows), rows[-1]))
    if audit._pending:
        session, waiting = min(audit._pending.items())
        raise AuditError(
            waiting[0][0],
            f"its dice cannot be checked: the seed of session {session} is not revealed "
            "(the GM reveals it with end-session)",
        )
    if audit.full == audit.entries:
        _rules(audit, entries)
    return audit


def _json(number: int, line: str) -> dict[str, Any]:
    try:
        body = json.loads(line)
    except json.JSONDecodeError:
        raise AuditError(number, "not a line of JSON") from None
    if not isinstance(body, dict):
        raise AuditError(number, "not an entry (a JSON object)")
    return body


def _link(audit: Audit, number: int, body: dict[str, Any]) -> Entry | None:
    """Check the line's place in the chain; its entry when the line holds all of it."""
    if "export" in body:
        raise AuditError(number, "a trailer before the end of the export")
    if body.get("seq") != audit.entries + 1:
        raise AuditError(number, f"expected entry {audit.entries + 1} here, not {body.get('seq')}")
    if body.get("prev") != audit.head:
        raise AuditError(number, "does not follow the line before (its prev hash differs)")
    if not isinstance(body.get("hash"), str):
        raise AuditError(number, "has no hash")
    audit.entries += 1
    audit.head = body["hash"]
    if body.get("redacted"):
        return None
    if entry_hash(body) != body["hash"]:
        raise AuditError(number, "its content does not match its hash (edited?)")
    audit.full += 1
    try:
        return Entry.from_text(json.dumps(body))
    except (KeyError, TypeError, ValidationError):
        raise AuditError(number, "not an entry of a room's log") from None


def _dice(audit: Audit, number: int, entry: Entry) -> None:
    """Track seeds and hold each resolution's dice until its session's seed is revealed."""
    event, data = entry.event, entry.event.data
    if event.type == "room.dice-committed":
        audit._session = int(data["session"])
        audit._commitments[audit._session] = str(data["commitment"])
    elif event.type == "room.session-ended":
        session = int(data["session"])
        seed = bytes.fromhex(str(data["seed"]))
        if hashlib.sha256(seed).hexdigest() != audit._commitments.get(session):
            raise AuditError(
                number, f"the revealed seed is not the one session {session} committed to"
            )
        for line, rolled in audit._pending.pop(session, []):
            _check_draws(line, rolled, seed)
            audit.dice += len(rolled.event.cause.draws) if rolled.event.cause else 0
        audit.sessions += 1
    elif event.cause is not None and event.cause.draws:
        audit._pending.setdefault(audit._session, []).append((number, entry))


def _check_draws(number: int, entry: Entry, seed: bytes) -> None:
    assert entry.event.cause is not None
    dice = FairDice(seed, entry.seq, entry.nonce or "")
    for count, draw in enumerate(entry.event.cause.draws, start=1):
        face = dice.roll(draw.sides)
        if face != draw.face:
            raise AuditError(
                number, f"die {count} (a d{draw.sides}) shows {draw.face}; the seed gives {face}"
            )


def _trailer(audit: Audit, number: int, body: dict[str, Any]) -> None:
    trailer = body.get("export")
    if not isinstance(trailer, dict):
        raise AuditError(number, "the export ends without its trailer (cut short?)")
    audit.view = str(trailer.get("view", ""))
    if trailer.get("count") != audit.entries or trailer.get("head") != audit.head:
        raise AuditError(number, "the trailer names another end of the log (lines removed?)")


def _rules(audit: Audit, entries: list[tuple[int, Entry]]) -> None:
    """Fold the whole log through the system's rules again, as the server did."""
    if not entries or entries[0][1].event.type != "room.created":
        raise AuditError(1, "a room's log opens with room.created")
    try:
        table = Table.start(entries[0][1].event)
    except TabletopError:
        return  # this installation cannot play the system: the chain and dice still hold
    lines = {entry.seq: number for number, entry in entries}
    for group in groups([entry for _, entry in entries]):
        try:
            table.apply(group)
        except (TabletopError, KeyError, ValueError) as problem:
            problem_line = f"does not follow from the rules: {problem}"
            raise AuditError(lines[group[0].seq], problem_line) from None
    audit.ruled = True
