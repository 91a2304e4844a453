"""Verifying an export offline: the chain, the dice against the revealed seed, the rules;
and any edit, removal or reordering of a line makes it fail, naming the line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.rooms import AuditError, verify
from tabletop.rooms.log import entry_hash
from tests.rooms.conftest import Seated, seat


def played(room: Seated) -> Seated:
    """Rolls in every mode, a whisper, an undo and a revealed seed."""
    hall, ada, gm = room.hall, room.member("Ada"), room.member("GM")
    for number, mode in enumerate(("public", "gm", "blind", "self")):
        roll = {"kind": "roll", "notation": "3d6+1d20", "mode": mode}
        hall.act(room.room, ada.id, roll, f"r{number}", nonce=f"n{number}")
    hall.say(room.room, ada.id, "psst", ("Bo",), "s1")
    hall.act(room.room, gm.id, {"kind": "roll", "notation": "1d100"}, "g1")
    hall.undo(room.room, gm.id)
    hall.end_session(room.room, gm.id)
    return room


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> list[str]:
    from tabletop.rooms import Hall, SqliteStore

    hall = Hall(SqliteStore(tmp_path_factory.mktemp("verify") / "rooms.sqlite3"))
    room = played(seat(hall, "dice"))
    return hall.export(room.room, room.member("GM"))


def test_the_gms_export_verifies_in_full(export):
    audit = verify(export)
    assert audit.entries == audit.full == len(export) - 1
    assert audit.dice == 4 * 4 + 1 and audit.sessions == 1 and audit.ruled


def test_a_players_export_verifies_its_links_and_what_they_saw(dead_weight_room):
    room = played(dead_weight_room)
    lines = room.hall.export(room.room, room.member("Bo"))
    audit = verify(lines)
    assert audit.entries == len(lines) - 1 and audit.full < audit.entries
    assert not audit.ruled
    assert audit.dice == 4 + 1  # Ada's public roll and the GM's d100; the rest were not Bo's


def test_dice_cannot_be_checked_before_the_seed_is_revealed(dice_room):
    hall, ada = dice_room.hall, dice_room.member("Ada")
    hall.act(dice_room.room, ada.id, {"kind": "roll", "notation": "1d6"}, "r1")
    lines = hall.export(dice_room.room, dice_room.member("GM"))
    with pytest.raises(AuditError, match=r"line 7: .*seed of session 1 is not revealed"):
        verify(lines)


def edit(line: str) -> str:
    body = json.loads(line)
    if "export" in body:
        body["export"]["count"] += 1
    else:
        body["time"] = body.get("time", 0) + 1
    return json.dumps(body)


@given(st.data())
def test_editing_removing_or_reordering_any_line_fails(export, data):
    index = data.draw(st.integers(0, len(export) - 1))
    change = data.draw(st.sampled_from(["edit", "remove", "swap"]))
    lines = list(export)
    if change == "edit":
        lines[index] = edit(lines[index])
    elif change == "remove":
        del lines[index]
    else:
        other = data.draw(st.integers(0, len(export) - 1).filter(lambda i: i != index))
        lines[index], lines[other] = lines[other], lines[index]
    with pytest.raises(AuditError):
        verify(lines)


def test_a_forged_die_fails_even_with_every_hash_recomputed(export):
    """A forger who changes a face and rebuilds the whole chain is caught by the seed."""
    lines = [json.loads(line) for line in export[:-1]]
    target = next(
        i for i, b in enumerate(lines) if b["event"]["cause"] and b["event"]["type"] == "roll"
    )
    cause = lines[target]["event"]["cause"]
    cause["draws"][0]["face"] = cause["draws"][0]["face"] % 6 + 1
    prev = "0" * 64
    for body in lines:
        body["prev"] = prev
        body["hash"] = prev = entry_hash(body)
    trailer = json.loads(export[-1])
    trailer["export"]["head"] = prev
    forged = [json.dumps(b) for b in lines] + [json.dumps(trailer)]
    with pytest.raises(AuditError, match=f"line {target + 1}: die 1 \\(a d6\\) shows"):
        verify(forged)


def test_the_first_failing_line_is_named(export):
    lines = list(export)
    lines[4] = edit(lines[4])
    with pytest.raises(AuditError, match=r"^line 5: its content does not match its hash"):
        verify(lines)
    with pytest.raises(AuditError, match="ends without its trailer"):
        verify(export[:-1])


def test_an_entry_is_stored_as_the_canonical_json_of_its_body(export):
    from tabletop.rooms.log import canonical

    for line in export[:-1]:
        assert canonical(json.loads(line)) == line
