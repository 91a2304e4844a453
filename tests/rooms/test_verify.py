"""Verifying an export offline: each line's hash from what it shows, the chain, the dice at
their positions, and every event recomputed through the rules; any edit, removal or
reordering fails naming the line, and so does a forger who makes every hash agree again
(docs/rooms.md, "The log, version 2" and "Why nobody can choose a die")."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.rooms import AuditError, Hall, SqliteStore, verify
from tabletop.rooms.checking import entry_check
from tabletop.rooms.errors import RefusedOnRecord
from tabletop.rooms.log import canonical
from tests.rooms.conftest import Seated, seat
from tests.rooms.forge import rechained, sealed_copy
from tests.rooms.scenes import SCORES, fixed_seeds, ticking

ROLLS = ("public", "gm", "blind", "self")


def played(room: Seated) -> Seated:
    """Rolls in every mode, a refused roll that drew dice, a whisper, an undo, a revealed
    seed."""
    hall, ada, gm = room.hall, room.member("Ada"), room.member("GM")
    for number, mode in enumerate(ROLLS):
        roll = {"kind": "roll", "notation": "3d6+1d20", "mode": mode}
        hall.act(room.room, ada.id, roll, f"r{number}", nonce=f"n{number}")
    with pytest.raises(RefusedOnRecord):  # refused, and on the record
        hall.act(room.room, ada.id, {"kind": "roll", "notation": "1d6/0"}, "z1", nonce="z1")
    hall.say(room.room, ada.id, "psst", ("Bo",), "s1")
    hall.act(room.room, gm.id, {"kind": "roll", "notation": "1d100"}, "g1")
    hall.undo(room.room, gm.id)
    hall.end_session(room.room, gm.id)
    return room


@pytest.fixture(scope="module")
def room(tmp_path_factory) -> Seated:
    # A format-2 room: its exports keep verifying by format 2's rules (test_witness.py
    # holds format 3's).
    hall = Hall(SqliteStore(tmp_path_factory.mktemp("verify") / "rooms.sqlite3"), log_format=2)
    return played(seat(hall, "dice"))


@pytest.fixture(scope="module")
def export(room) -> list[str]:
    return room.hall.export(room.room, room.member("GM"))


def bodies(lines: list[str]) -> list[dict]:
    return [json.loads(line) for line in lines]


def index_of(lines: list[str], found) -> int:
    return next(i for i, body in enumerate(bodies(lines)) if found(body))


def test_the_gms_export_verifies_in_full(export):
    audit = verify(export)
    assert audit.entries == audit.full == len(export) - 1
    assert audit.dice == 4 * 4 + 1 + 1 and audit.sessions == 1 and audit.ruled
    assert audit.recomputed == 6  # four rolls, the refusal, the GM's d100


def test_a_players_export_verifies_its_links_and_recomputes_the_rolls_they_saw(room):
    lines = room.hall.export(room.room, room.member("Bo"))
    audit = verify(lines)
    assert audit.entries == len(lines) - 1 and audit.full < audit.entries
    assert not audit.ruled
    assert audit.recomputed == 3  # Ada's public roll and refusal, the GM's d100: all Bo saw
    assert audit.dice == 4 + 1 + 1


def test_dice_cannot_be_checked_before_the_seed_is_revealed(hall):
    hall.log_format = 2
    dice_room = seat(hall, "dice")
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
    target = index_of(export, lambda b: b.get("event", {}).get("type") == "roll")
    forged = bodies(export)
    cause = forged[target]["event"]["cause"]
    cause["draws"][0]["face"] = cause["draws"][0]["face"] % 6 + 1
    with pytest.raises(AuditError, match=f"line {target + 1}: die 1 \\(a d6\\) shows"):
        verify(rechained([json.dumps(b) for b in forged]))


def test_an_entry_that_says_20_while_its_die_says_otherwise_fails(export):
    """Issue 21: text and data edited to show a better total, the recorded dice and the
    seed left alone, every hash recomputed: the rules give another event."""
    target = index_of(export, lambda b: b.get("event", {}).get("type") == "roll")
    forged = bodies(export)
    event = forged[target]["event"]
    event["data"]["total"] = 99
    event["text"] = event["text"].rsplit("=", 1)[0] + "= 99"
    with pytest.raises(AuditError, match=f"line {target + 1}: is not what its cause gives"):
        verify(rechained([json.dumps(b) for b in forged]))


def test_a_full_export_holds_no_sealed_line(export):
    """Issue 21: a line of the GM's export replaced by a sealed line that says anything."""
    target = index_of(export, lambda b: b.get("event", {}).get("visibility") == "hidden")
    forged = bodies(export)
    forged[target] = sealed_copy(forged[target])
    with pytest.raises(AuditError, match=f"line {target + 1}: a full export opens every part"):
        verify([json.dumps(b) for b in forged])


def test_a_sealed_line_cannot_say_something_else(room):
    """A player's line of a blind roll shows only its public hint, and its hash covers it."""
    lines = room.hall.export(room.room, room.member("Bo"))
    target = index_of(lines, lambda b: (b.get("event") or {}).get("visibility") == "hidden")
    forged = bodies(lines)
    forged[target]["event"]["text"] = "GM rolls 1d20 → [1] = 1"
    with pytest.raises(AuditError, match=f"line {target + 1}: shows something other"):
        verify([json.dumps(b) for b in forged])
    forged[target]["public"] = forged[target]["event"]
    with pytest.raises(AuditError, match=f"line {target + 1}: what it shows does not match"):
        verify([json.dumps(b) for b in forged])


def test_a_blind_roller_sees_their_nonce_and_checks_it_with_mine(room):
    lines = room.hall.export(room.room, room.member("Ada"))
    blind = bodies(lines)[index_of(lines, lambda b: b.get("client") == "r2")]
    assert blind["nonce"] == "n2" and blind["event"]["cause"] is None
    sent = {f"r{n}": f"n{n}" for n in range(4)} | {"z1": "z1"}
    assert verify(lines, mine=sent).mine == 5
    with pytest.raises(AuditError, match="carries a nonce you did not send"):
        verify(lines, mine={**sent, "r2": "something-else"})


def test_a_refusal_is_rerun_and_must_really_fail(export):
    target = index_of(export, lambda b: (b.get("event") or {}).get("data", {}).get("refused"))
    forged = bodies(export)
    forged[target]["event"]["cause"]["intent"]["notation"] = "1d6"
    forged[target]["event"]["cause"]["intent"]["label"] = ""
    with pytest.raises(AuditError, match=f"line {target + 1}: is not what its cause gives"):
        verify(rechained([json.dumps(b) for b in forged]))


def test_a_cause_must_name_its_member_as_they_were(export):
    """A player's roll recorded as made by the GM (a forged role) does not follow."""
    target = index_of(export, lambda b: b.get("client") == "r0")
    forged = bodies(export)
    forged[target]["event"]["cause"]["member"]["role"] = "gm"
    with pytest.raises(AuditError, match=f"line {target + 1}: does not follow from the rules"):
        verify(rechained([json.dumps(b) for b in forged]))


def test_a_reused_dice_position_fails(export):
    first = index_of(export, lambda b: b.get("client") == "r0")
    second = index_of(export, lambda b: b.get("client") == "r1")
    forged = bodies(export)
    forged[second]["nonce"] = forged[first]["nonce"]
    with pytest.raises(AuditError, match=f"line {second + 1}: its dice position was already"):
        verify(rechained([json.dumps(b) for b in forged]))


def crafted(room: Seated, change) -> list[str]:
    lines = room.hall.export(room.room, room.member("GM"))
    forged = bodies(lines)
    change(forged)
    return rechained([json.dumps(b) for b in forged])


def test_crafted_room_events_are_one_line_refusals(dice_room):
    """Issue 21: an undo with nothing to undo, a kick of the only GM, a join as a second
    GM — answered with the line, never an internal error."""
    hall, gm = dice_room.hall, dice_room.member("GM")
    hall.kick(dice_room.room, gm.id, "Bo")
    hall.end_session(dice_room.room, gm.id)

    def undo_nothing(forged):
        kicked = next(b for b in forged if b.get("event", {}).get("type") == "room.kicked")
        kicked["event"].update(type="room.undo", data={"undoes": [1]}, text="x")

    def kick_the_gm(forged):
        kicked = next(b for b in forged if b.get("event", {}).get("type") == "room.kicked")
        kicked["event"]["data"]["member"] = "m1"
        kicked["event"]["text"] = "the GM removed GM"

    for change, problem in ((undo_nothing, "nothing to undo"), (kick_the_gm, "kick themselves")):
        with pytest.raises(AuditError, match=problem):
            verify(crafted(dice_room, change))


def test_the_first_failing_line_is_named(export):
    lines = list(export)
    lines[4] = edit(lines[4])
    with pytest.raises(AuditError, match=r"^line 5: what it shows does not match its hash"):
        verify(lines)
    with pytest.raises(AuditError, match="ends without its trailer"):
        verify(export[:-1])


def test_an_entry_is_stored_as_the_canonical_json_of_its_body(export):
    for line in export[:-1]:
        assert canonical(json.loads(line)) == line


def test_the_by_hand_check_in_the_docs_runs_on_a_real_line(tmp_path):
    """docs/rooms.md shows how to check a line of a format-3 export with the standard library
    alone: it must hold for a real roll of a real export."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rooms.md").read_text()
    code = text[text.index("By hand, for line `n`") :].split("```python\n", 1)[1].split("```")[0]
    hall = Hall(SqliteStore(tmp_path / "rooms.sqlite3"))
    witnessed = seat(hall, "dice")
    hall.act(witnessed.room, witnessed.member("Ada").id, {"kind": "roll", "notation": "3d6"}, "r")
    found = bodies(hall.export(witnessed.room, witnessed.member("GM")))
    roll = next(b for b in found if b.get("event", {}).get("type") == "roll")
    exec(code, {"line": json.dumps(roll, ensure_ascii=False)})
    hall.store.close()


def test_a_roll_under_damage_roll_in_words_still_checks_die_by_die(tmp_path):
    """CR-S13 (docs/rules/rollunder.md): an exploding damage roll's line reads `1d2,
    exploding: 2, then …` while its record keeps the engine's expression and every die, which
    `verify` (every event recomputed through the rules) and "check this roll"
    (`checking.entry_check`) read, so saying it in words breaks neither."""
    hall = Hall(SqliteStore(tmp_path / "r.sqlite3"), clock=ticking(), seeds=fixed_seeds())
    room = seat(hall, "rollunder")
    gm = room.member("GM").id
    sheet = {"kind": "new-character", "name": "Shade", "abilities": SCORES, "max_health": 10_000}
    hall.act(room.room, gm, sheet, "made")
    hit = {"kind": "suffer-hit", "character": "c1", "damage": "d2"}
    for number in range(12):
        hall.act(room.room, gm, hit, f"hit{number}")
    hall.end_session(room.room, gm)
    export = hall.export(room.room, room.member("GM"))
    assert verify(export).ruled
    rolls = [json.loads(line) for line in export if '"damage_roll"' in line]
    records = [(body["seq"], body["event"]["data"]["dice"]) for body in rolls]
    exploded = [(seq, record) for seq, record in records if ", then " in record["line"]]
    assert exploded and all(record["expression"] == "1d2!p:100" for _, record in records)
    for seq, record in exploded:
        assert record["line"].startswith("1d2, exploding: 2, then ") and "!" not in record["line"]
        assert entry_check(export, seq, None, None)["dice"]["state"] == "good"
