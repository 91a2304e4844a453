"""Short scripted scenes of every system, played through a `Hall` with fixed dice seeds and a
fixed clock, each ending its dice session so that every die can be checked: the valid logs
the verifier's fuzzing mutates (tests/rooms/test_verify_fuzz.py)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop.rooms import Hall, SqliteStore
from tests.rooms.conftest import Seated, seat

SHEET = {"name": "Amber", "attributes": {"DEX": {"score": 3}}}
SCORES = {"STR": 12, "AGI": 10, "WIT": 9}


def fixed_seeds() -> Callable[[], bytes]:
    """Seeds 0, 1, 2, … as 32 bytes each: the same dice every run."""
    counter = itertools.count()
    return lambda: next(counter).to_bytes(32, "big")


def ticking() -> Callable[[], float]:
    counter = itertools.count()
    return lambda: 1_767_225_600 + next(counter)


_REQUESTS = itertools.count()
"""Request ids and nonces, fresh across every scene of a process."""


def _act(room: Seated, who: str, intent: dict[str, Any]) -> None:
    number = next(_REQUESTS)
    room.hall.act(room.room, room.member(who).id, intent, f"i{number}", nonce=f"n{number}")


def _dice(room: Seated) -> None:
    for number, mode in enumerate(("public", "gm", "blind", "self")):
        _act(room, "Ada", {"kind": "roll", "notation": f"{number + 1}d6+1d20", "mode": mode})
    room.hall.say(room.room, room.member("Bo").id, "psst\u2028there", ("Ada",), "w1")
    _act(room, "GM", {"kind": "roll", "notation": "1d100"})
    room.hall.undo(room.room, room.member("GM").id)
    room.hall.rename(room.room, room.member("GM").id, "Bo", "Bea")


def _dead_weight(room: Seated) -> None:
    _act(room, "Ada", {"kind": "import-character", "sheet": SHEET})
    _act(
        room,
        "GM",
        {"kind": "new-tracker", "name": "the flood", "segments": 6, "tracker_kind": "doom"},
    )
    _act(room, "GM", {"kind": "advance-tracker", "name": "the flood"})
    _act(room, "Ada", {"kind": "test", "roller": "c1", "setup": {"attribute": "DEX"}})
    for _ in range(12):
        table = room.hall.table(room.room)
        choices = [
            (who, offer.intents[0])
            for who in ("Ada", "GM")
            for offer in table.session.legal(table.state, room.member(who))
            if offer.kind in ("reroll", "pass") and offer.intents
        ]
        if not choices:
            break
        _act(room, *choices[-1])


def _ap2d6(room: Seated) -> None:
    _act(room, "Ada", {"kind": "new-character", "name": "Ayla", "scores": {"AGI": 2}})
    _act(room, "Bo", {"kind": "new-character", "name": "Bran"})
    _act(room, "GM", {"kind": "damage", "character": "c1", "amount": 20})
    _act(room, "Ada", {"kind": "death-check", "character": "c1"})
    _act(room, "Bo", {"kind": "check", "character": "c2", "score": "AGI"})


def _constitution(room: Seated) -> None:
    _act(room, "Ada", {"kind": "new-character", "name": "Ada", "character_class": "fighter"})
    _act(room, "GM", {"kind": "check", "character": "c1", "ability": "wits", "dc": 12})
    _act(room, "GM", {"kind": "march", "terrain": "road"})


def _rollunder(room: Seated) -> None:
    for who, name, secret in (("Ada", "Ash", False), ("GM", "Shade", True)):
        intent = {"kind": "new-character", "name": name, "abilities": SCORES, "max_health": 10}
        _act(room, who, {**intent, "secret": secret})
    _act(room, "Ada", {"kind": "ability-roll", "character": "c1", "ability": "STR"})
    _act(room, "GM", {"kind": "suffer-hit", "character": "c2", "damage": "d6"})


def _board(room: Seated) -> None:
    _act(room, "Ada", {"kind": "take-seat"})
    _act(room, "GM", {"kind": "seat-bot", "bot": "random"})
    _act(room, "GM", {"kind": "start"})
    hall = room.hall
    for _ in range(8):
        table = hall.table(room.room)
        if table.session.table_move(table.state) is not None:
            hall.table_move(room.room)
            continue
        offers = [o for o in table.session.legal(table.state, room.member("Ada")) if o.intents]
        if not offers:
            break
        _act(room, "Ada", offers[0].intents[0])


SCENES: dict[str, Callable[[Seated], None]] = {
    "dice": _dice,
    "dead-weight": _dead_weight,
    "ap2d6": _ap2d6,
    "constitution": _constitution,
    "rollunder": _rollunder,
    "deadweight-board": _board,
}


def played(system: str, folder: Path) -> tuple[list[str], list[str]]:
    """The GM's full export and Ada's of a scene of `system`, its dice session ended."""
    hall = Hall(SqliteStore(folder / f"{system}.sqlite3"), clock=ticking(), seeds=fixed_seeds())
    room = seat(hall, system)
    SCENES[system](room)
    hall.end_session(room.room, room.member("GM").id)
    return hall.export(room.room, room.member("GM")), hall.export(room.room, room.member("Ada"))
