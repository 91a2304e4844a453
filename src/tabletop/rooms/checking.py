"""`POST /verify` for the pages: an export checked as `tabletop room verify` checks it, with
the nonces the browser kept (the `--mine` check), and one entry looked at closely — the
"check this roll" of the room page: its hash and place in the chain, its dice against the
revealed seed, and whether it carries a nonce this browser sent.

The body is an export as plain text, or JSON `{"export": TEXT, "mine": {id: nonce},
"member": ID, "entry": SEQ}` (Content-Type: application/json), every field but `export`
optional.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import Field, ValidationError

from tabletop.dice.source import DiceSource
from tabletop.errors import TabletopError
from tabletop.rooms.errors import AuditError, RoomError
from tabletop.rooms.fairdice import (
    FairDice,
    SplitDice,
    commitment,
    seeded_position,
    witnessed_position,
)
from tabletop.rooms.log import lines_of
from tabletop.rooms.protocol import MAX_IMPORT, ClientId, Message
from tabletop.rooms.verify import chained, verify
from tabletop.rooms.witness import keys_of, open_key
from tabletop.session import first_problem

MAX_BOOK = 100_000
"""Nonces a page may send with an export: every intent of a long campaign."""


class CheckRequest(Message):
    """What the room page sends to check its member's export."""

    export: str = Field(max_length=MAX_IMPORT)
    mine: dict[ClientId, ClientId] | None = Field(default=None, max_length=MAX_BOOK)
    """Request id → nonce of every intent this browser sent to the room."""
    member: str | None = Field(default=None, max_length=64)
    """Whose nonces `mine` holds, for the GM's export (a member's names its member)."""
    entry: int | None = Field(default=None, ge=1, le=10**9)
    """The seq of the entry to look at closely."""


def read_request(body: bytes, json_body: bool) -> CheckRequest:
    """The request in either form; `RoomError` (400) when it is neither."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise RoomError("an export is UTF-8 text") from None
    if not json_body:
        return CheckRequest(export=text)
    try:
        return CheckRequest.model_validate_json(text)
    except ValidationError as problem:
        raise RoomError(f"not a check request: {first_problem(problem)}") from None


def check(asked: CheckRequest) -> dict[str, Any]:
    """The answer: ok and the summary (with how many entries carry your nonces), or the
    first failing line; and, when asked, what one entry shows."""
    lines = lines_of(asked.export)
    answer: dict[str, Any]
    try:
        audit = verify(lines, asked.mine, asked.member)
        answer = {"ok": True, "summary": audit.summary(), "view": audit.view}
        if asked.mine is not None:
            answer["mine"] = audit.mine
    except AuditError as failed:
        answer = {"ok": False, "line": failed.line, "error": str(failed)}
    if asked.entry is not None:
        answer["entry"] = entry_check(lines, asked.entry, asked.mine, asked.member)
    return answer


def entry_check(
    lines: list[str], seq: int, mine: Mapping[str, str] | None, member: str | None
) -> dict[str, Any]:
    """One entry looked at closely, whatever the rest of the export holds."""
    found: dict[str, Any] = {"seq": seq}
    try:
        body = chained(lines, seq)
    except AuditError as failed:
        found.update(hash=None, problem=str(failed))
        return found
    event = body.get("event") if isinstance(body.get("event"), dict) else {}
    cause = event.get("cause") if isinstance(event.get("cause"), dict) else None
    found.update(hash=body["hash"], text=str(event.get("text", ""))[:500])
    found["dice"] = _dice(lines, seq, body, cause)
    found["nonce"] = _nonce(body, cause, mine, member or _viewer(lines))
    return found


def _viewer(lines: list[str]) -> str | None:
    """The member whose export this is, as its trailer says (None for the GM's)."""
    try:
        view = json.loads(lines[-1])["export"]["view"]
    except (ValueError, LookupError, TypeError, RecursionError):
        return None
    return None if view == "full" else str(view)


def _dice(
    lines: list[str], seq: int, body: dict[str, Any], cause: dict[str, Any] | None
) -> dict[str, Any]:
    """The entry's dice against the seed of its dice session, once revealed."""
    if cause is None:
        return _open_dice(seq, body)
    draws = cause.get("draws") or []
    if not draws:
        return {"state": "none", "text": "no dice were drawn"}
    if "witnessed" in body:
        return _witnessed(seq, body, draws)
    session, commit, seed = _session_of(lines, seq)
    if seed is None:
        return {"state": "pending", "text": "dice are checkable once the GM ends the session"}
    if commitment(seed) != commit:
        return {"state": "bad", "text": f"the revealed seed is not session {session}'s"}
    try:
        member = str(cause["member"]["id"])
        dice = FairDice(seed, seeded_position(member, str(body.get("nonce") or "")))
    except (KeyError, TypeError, ValueError):
        return {"state": "bad", "text": "its dice are not dice a seed gives"}
    return _against(dice, draws, "the seed")


def _witnessed(seq: int, body: dict[str, Any], draws: list[Any]) -> dict[str, Any]:
    """A format-3 entry's dice against its keys, its call and its witnesses' reveals."""
    header = body["witnessed"]
    try:
        kept, opened, open_at = keys_of(body.get("secret"), header)
        where = _where(seq, body, header)
        dice = SplitDice(FairDice(kept, where), FairDice(opened, where), replay=open_at)
    except (KeyError, TypeError, ValueError, AttributeError, TabletopError):
        return {"state": "bad", "text": "its dice are not dice its witnessed call gives"}
    return _against(dice, draws, "its keys and witnesses")


def _open_dice(seq: int, body: dict[str, Any]) -> dict[str, Any]:
    """The dice a line shows its reader apart (their own, beside a hidden NPC's) against
    the open key its header shows (format 3); without one, only named."""
    event = body.get("event") if isinstance(body.get("event"), dict) else {}
    shown = (event.get("data") or {}).get("draws") if isinstance(event, dict) else None
    header = body.get("witnessed")
    if not isinstance(shown, list) or not isinstance(header, dict) or "open" not in header:
        return _shown_apart(body)
    try:
        dice = FairDice(open_key(header), _where(seq, body, header))
    except (KeyError, TypeError, ValueError, AttributeError, TabletopError):
        return {"state": "bad", "text": "its dice are not dice its witnessed call gives"}
    return _against(dice, shown, "its open key and witnesses")


def _where(seq: int, body: dict[str, Any], header: dict[str, Any]) -> str:
    """Where a witnessed entry's dice are drawn in each key's stream: its seq and its
    witnesses' reveals (its call, which fixed its keys, is checked by `verify`)."""
    return witnessed_position(seq, header["reveals"])


def _against(dice: DiceSource, draws: list[Any], source: str) -> dict[str, Any]:
    """Each die shown beside what `dice` gives."""
    try:
        shown = [
            {"sides": d["sides"], "face": d["face"], "seed": dice.roll(int(d["sides"]))}
            for d in draws
        ]
    except (KeyError, TypeError, ValueError, OverflowError, TabletopError):
        return {"state": "bad", "text": f"its dice are not dice {source} give"}
    matches = all(d["face"] == d["seed"] for d in shown)
    text = f"every die is what {source} give" if matches else f"a die is not what {source} give"
    return {"state": "good" if matches else "bad", "text": text, "draws": shown}


def _shown_apart(body: dict[str, Any]) -> dict[str, Any]:
    """An entry whose cause is sealed from this member: the dice it shows them apart (theirs,
    in a line that also holds a hidden NPC's) are named; checking them against the seed
    needs the cause, which the GM's export holds (`tabletop room verify`)."""
    event = body.get("event") if isinstance(body.get("event"), dict) else {}
    data = event.get("data") if isinstance(event.get("data"), dict) else {}
    draws = data.get("draws") if isinstance(data.get("draws"), list) else []
    try:
        named = ", ".join(f"a d{int(d['sides'])} showing {int(d['face'])}" for d in draws)
    except (KeyError, TypeError, ValueError):
        return {"state": "bad", "text": "its dice are not dice a seed gives"}
    if not named:
        return {"state": "sealed", "text": "its dice are kept from you (the GM's export has them)"}
    return {
        "state": "shown",
        "text": f"your dice here are {named}; the line also holds dice kept from you, so "
        "the GM's export checks them all (tabletop room verify)",
    }


def _session_of(lines: list[str], seq: int) -> tuple[int, str, bytes | None]:
    """The dice session entry `seq` was drawn in, its commitment and its revealed seed."""
    session, commit, seed = 0, "", None
    for number, line in enumerate(lines, start=1):
        try:
            event = json.loads(line).get("event") or {}
            kind, data = event.get("type"), event.get("data") or {}
        except (ValueError, AttributeError, RecursionError):
            continue
        if number < seq and kind == "room.dice-committed":
            session, commit = data.get("session", 0), str(data.get("commitment"))
        elif number > seq and kind == "room.session-ended" and data.get("session") == session:
            try:
                seed = bytes.fromhex(str(data.get("seed")))
            except ValueError:
                return session, commit, b""
            break
    return session, commit, seed


def _nonce(
    body: dict[str, Any],
    cause: dict[str, Any] | None,
    mine: Mapping[str, str] | None,
    member: str | None,
) -> dict[str, Any]:
    """Whether the entry carries a nonce this browser sent."""
    if "asked" in (body.get("sealed") or {}):
        return {"state": "sealed", "text": "not your request: its nonce is sealed from you"}
    nonce, client = body.get("nonce"), body.get("client")
    if nonce is None:
        return {"state": "none", "text": "it followed from another entry (no nonce of its own)"}
    asker = cause.get("member", {}).get("id") if cause else None
    if member is not None and asker not in (None, member):
        return {"state": "others", "text": "another member's request, at their nonce"}
    if mine is None:
        return {"state": "unknown", "text": "this browser kept no nonces for this room"}
    if mine.get(str(client)) == nonce:
        return {"state": "good", "text": f"it carries the nonce you sent ({nonce})"}
    return {"state": "bad", "text": "it carries a nonce this browser did not send"}
