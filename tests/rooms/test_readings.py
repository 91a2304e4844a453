"""Yesterday's rooms and exports still open: the rooms and exports in
tests/rooms/fixtures/a48a6db were written by the installation of commit a48a6db (how:
fixtures/a48a6db/make.py), and every later installation verifies them with the rules they
were made under and goes on playing its live rooms (docs/rooms.md, "Rooms made before")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tabletop.rooms import Hall, SqliteStore, verify
from tabletop.rooms.log import lines_of

MADE = Path(__file__).parent / "fixtures" / "a48a6db"
SYSTEMS = ("dice", "dead-weight", "ap2d6", "constitution", "rollunder", "deadweight-board")


@pytest.mark.parametrize("system", SYSTEMS)
def test_an_export_made_before_verifies_in_full_and_as_its_player(system):
    full = verify(lines_of((MADE / f"{system}-gm.jsonl").read_text()))
    assert full.view == "full" and full.ruled and full.entries == full.full
    mine = verify(lines_of((MADE / f"{system}-ada.jsonl").read_text()))
    assert mine.view != "full" and mine.entries == full.entries and mine.head == full.head


@pytest.fixture
def hall(tmp_path) -> Hall:
    """The rooms database made before, copied so the test may write to it."""
    shutil.copy(MADE / "rooms.sqlite3", tmp_path / "rooms.sqlite3")
    opened = Hall(SqliteStore(tmp_path / "rooms.sqlite3"))
    yield opened
    opened.store.close()


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_live_room_made_before_goes_on_and_its_whole_log_verifies(hall, system):
    links = json.loads((MADE / "tokens.json").read_text())[f"{system}/live"]
    room = links["room"]
    gm, ada = hall.who(room, links["GM"]), hall.who(room, links["Ada"])
    hall.act(room, ada.id, {"kind": "roll", "notation": "2d6", "label": "after"}, "later-1")
    hall.end_session(room, gm.id)
    audit = verify(hall.export(room, gm))
    assert audit.ruled and audit.entries == audit.full
    assert verify(hall.export(room, ada)).head == audit.head
