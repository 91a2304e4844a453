"""Every honest room verifies (docs/rooms.md, "Every honest room verifies"): a room stores
each intent as canonical JSON and `verify` re-resolves that, so what a page sent in another
key order must resolve to the same events."""

from __future__ import annotations

from tabletop.rooms import verify
from tests.rooms.conftest import seat


def test_a_point_buy_typed_str_then_agi_verifies_as_the_gm_and_as_each_member(hall):
    """The issue's room: Ada types STR before AGI (not the keys' sorted order), the GM ends
    the session, and the full export and each member's verify (RU-S04)."""
    room = seat(hall, "ap2d6")
    ada, gm = room.member("Ada"), room.member("GM")
    typed = {"kind": "new-character", "name": "Mara", "scores": {"STR": 1, "AGI": 2}}
    hall.act(room.room, ada.id, typed, "buy", nonce="buy")
    told = [e.event.text for e in hall.entries(room.room) if e.event.type == "raise"]
    assert told == ["Mara buys STR 1 for 1 SP", "Mara buys AGI 2 for 3 SP"]  # the sheet's order
    hall.end_session(room.room, gm.id)
    full = verify(hall.export(room.room, gm))
    assert full.ruled and full.entries == full.full
    for name in ("Ada", "Bo", "Watcher"):
        mine = verify(hall.export(room.room, room.member(name)))
        assert mine.head == full.head
