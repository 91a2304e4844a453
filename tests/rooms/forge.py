"""What a forger (a dishonest server, or anyone editing an export) can do with a log: change
a line and make every hash consistent again. The tests check that verify still catches
what changed."""

from __future__ import annotations

import json
from typing import Any

from tabletop.rooms.log import GENESIS, PARTS, digest, header_hash
from tabletop.rooms.verify import part_of


def seals_of(body: dict[str, Any]) -> dict[str, str]:
    """Each part's hash as the line shows it: from its content when open, else sealed."""
    salt, sealed, event = body.get("salt", {}), body.get("sealed", {}), body.get("event") or {}
    return {p: digest(part_of(p, body, event, salt[p])) if p in salt else sealed[p] for p in PARTS}


def rechained(lines: list[str]) -> list[str]:
    """An export whose every line's hash, every prev and the trailer agree again."""
    bodies = [json.loads(line) for line in lines]
    prev = GENESIS
    for body in bodies[:-1]:
        body["prev"] = prev
        body["hash"] = prev = header_hash(
            body["seq"], body["time"], prev, body["public"], seals_of(body), body.get("witnessed")
        )
    bodies[-1]["export"]["head"] = prev
    bodies[-1]["export"]["count"] = len(bodies) - 1
    return [json.dumps(body, ensure_ascii=False) for body in bodies]


def sealed_copy(body: dict[str, Any]) -> dict[str, Any]:
    """A full line made to look like a line of someone who sees only its public part."""
    seals = seals_of(body)
    shown = body["public"] if isinstance(body["public"], dict) else None
    witnessed = {"witnessed": body["witnessed"]} if "witnessed" in body else {}
    return {
        **witnessed,
        "seq": body["seq"],
        "time": body["time"],
        "prev": body["prev"],
        "public": body["public"],
        "event": shown,
        "salt": {},
        "sealed": seals,
        "hash": body["hash"],
    }
