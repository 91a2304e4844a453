"""Yesterday's rooms and exports still open: the rooms and exports in
tests/rooms/fixtures/a48a6db were written by the installation of commit a48a6db (how:
fixtures/a48a6db/make.py), and every later installation verifies them with the rules they
were made under and goes on playing its live rooms (docs/rooms.md, "Rooms made before")."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import tabletop
from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied
from tabletop.offers import Offer
from tabletop.rooms import AuditError, Hall, SqliteStore, verify
from tabletop.rooms.log import lines_of
from tabletop.rooms.readings import KEPT, load_session, session_at
from tabletop.rooms.readings.keep import FOLDERS
from tabletop.rooms.readings.keep import KEPT as KEPT_MODULES
from tabletop.session import Member
from tests.rooms.forge import rechained

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


def test_an_export_made_before_imports_and_the_new_room_plays_on_under_its_rules(tmp_path):
    """An imported room keeps the rules its export was played under: its next intent is
    resolved by the kept release, and the whole log, old and new, verifies."""
    hall = Hall(SqliteStore(tmp_path / "rooms.sqlite3"))
    made = hall.import_log(lines_of((MADE / "ap2d6-gm.jsonl").read_text()))
    room = made.extra["room"]
    gm = hall.who(room, made.extra["tokens"]["gm"])
    assert hall.table(room).session.version == 1 < load_session("ap2d6").version
    hall.act(room, gm.id, {"kind": "check", "character": "c2", "score": "AGI", "dc": 8}, "x1")
    hall.end_session(room, gm.id)
    assert verify(hall.export(room, gm)).ruled
    hall.store.close()


def test_a_version_this_installation_never_had_is_refused_in_one_line(tmp_path):
    lines = lines_of((MADE / "dice-gm.jsonl").read_text())
    created = json.loads(lines[0])
    created["event"]["data"]["rules"] = 99
    forged = rechained([json.dumps(created), *lines[1:]])
    with pytest.raises(AuditError, match="version 99 of dice's rules; this installation has"):
        verify(forged)


def test_a_kept_release_refuses_with_todays_errors_and_offers_todays_offers():
    """The room around a kept release never meets its classes: an observer's intent is
    refused with today's PermissionDenied, and its offers are today's `Offer`."""
    kept = session_at("ap2d6", 1)
    assert kept is not load_session("ap2d6")
    state = kept.new()
    with pytest.raises(PermissionDenied, match="observer"):
        kept.resolve(state, {"kind": "roll", "notation": "1d6"}, Member.observer(), FixedDice([1]))
    assert all(type(o) is Offer for o in kept.legal(state, Member.gm()))


@pytest.mark.parametrize("system, version", sorted(KEPT))
def test_each_kept_version_is_read_by_the_release_that_played_it(system, version):
    """Every (system, version) KEPT names loads from its release and is that version, and a
    kept board game plays its seats in its own words (docs/rooms.md, "Rooms made before")."""
    kept = session_at(system, version)
    assert (kept.name, kept.version) == (system, version)
    if system == "deadweight-board":
        bot = {"kind": "seat-bot", "bot": "mcts:30", "seat": None}
        (seated,) = kept.resolve(kept.new(), bot, Member.gm(), FixedDice([]))
        said = {1: "GM seats a mcts:30 bot as Red"}  # version 2 names the bot in words
        assert seated.text == said.get(
            version, "GM seats an MCTS bot (30 simulations a move) as Red"
        )


def test_a_kept_release_holds_every_module_its_systems_import():
    """`keep.KEPT` names each module at the top of `tabletop` that the kept folders (and the
    kept modules themselves) import, so a release kept tomorrow loads: the first zip of
    208927c lacked the five modules the shared offers and turns had added since 7495a47."""
    top = Path(tabletop.__file__).parent
    reading = [p for folder in FOLDERS for p in (top / folder).rglob("*.py")]
    reading += [top / name for name in KEPT_MODULES if name.endswith(".py")]
    imported: set[str] = set()
    for path in reading:
        for module in re.findall(r"(?:from|import) tabletop\.(\w+)", path.read_text()):
            if (top / f"{module}.py").exists():
                imported.add(f"{module}.py")
    assert imported - set(KEPT_MODULES) == set()
