"""A member's record as one file (docs/rooms.md, "Kept heads and a member's bundle"): their
export, their nonce book and the heads their client kept, which `tabletop room verify`
checks offline together. The page's "Download my record" writes the same file.

`{"bundle": 1, "room", "member", "export": TEXT, "nonces": {id: {"nonce", "intent"}},
"heads": [{"seq", "hash"} | {"seq", "call", "value"}]}`
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.errors import DataError
from tabletop.rooms.log import lines_of

BUNDLE = 1
"""The version of the bundle's shape this installation writes and reads."""


@dataclass(frozen=True)
class Bundle:
    room: str
    member: str
    export: list[str]
    nonces: dict[str, Any]
    """Request id → what the member's nonce book kept (`verify`'s `mine`)."""
    heads: list[dict[str, Any]]


def bundled(
    room: str,
    member: str,
    export: Sequence[str],
    nonces: Mapping[str, Any],
    heads: Sequence[Mapping[str, Any]],
) -> str:
    """The one file a member keeps of a room."""
    kept = [{k: v for k, v in head.items() if k != "room"} for head in heads]
    return json.dumps(
        {
            "bundle": BUNDLE,
            "room": room,
            "member": member,
            "export": "".join(f"{line}\n" for line in export),
            "nonces": dict(nonces),
            "heads": kept,
        },
        ensure_ascii=False,
    )


def read_bundle(text: str) -> Bundle | None:
    """The bundle `text` holds; None when it is no bundle (an export's JSON lines), and
    `DataError` when it says it is one and is not."""
    try:
        body = json.loads(text)
    except (ValueError, RecursionError):
        return None  # JSON lines: an export
    if not isinstance(body, dict) or "bundle" not in body:
        return None
    if body["bundle"] != BUNDLE:
        raise DataError(f"a bundle of version {body['bundle']!r}; this installation reads {BUNDLE}")
    try:
        room, member, export = str(body["room"]), str(body["member"]), body["export"]
        nonces, heads = body["nonces"], body["heads"]
    except KeyError as missing:
        raise DataError(f"the bundle has no {missing}") from None
    if not isinstance(export, str) or not isinstance(nonces, dict) or not isinstance(heads, list):
        raise DataError("the bundle's export, nonces or heads are not what a bundle holds")
    if not all(isinstance(head, dict) for head in heads):
        raise DataError("the bundle's heads are not what a client keeps")
    return Bundle(room, member, lines_of(export), nonces, heads)
