"""Members' names that cannot pass for one another (docs/rooms.md, "Roles and links"): kept
NFC and stripped, free of characters that hide or fake text, and no two current members'
names alike by their casefolded TR39 skeleton — at join, rename and the GM's name at
creation, and in `verify`'s rebuilding of every join and rename a log records."""

from __future__ import annotations

import json
import unicodedata

import pytest

from tabletop.rooms import AuditError, RoomError, verify
from tabletop.rooms.names import BadName, check_unlike, checked, skeletons
from tests.rooms.conftest import seat
from tests.rooms.forge import rechained

LOOK_ALIKES = [
    ("Ann", "ANN"),  # case
    ("Ann", "\u0410nn"),  # Cyrillic capital A
    ("Ann", "ann"),
    ("Bill", "BiII"),  # capital I for l
    ("rn", "m"),  # r and n side by side
    ("Mia", "Mіa"),  # Cyrillic і
    ("Lee", "Ⅼee"),  # Roman numeral fifty
    ("GM", "ＧＭ"),  # fullwidth
    ("corn", "com"),
    ("Ann Lee", "Ann\u00a0Lee"),  # no-break space
]

HIDING = [
    "Ann\u200b",  # zero-width space
    "An\u200dn",  # zero-width joiner
    "Ann\u202e",  # right-to-left override
    "\u2066Ann\u2069",  # bidi isolates
    "Ann\nGM rolls 1d20 → [1] = 1",  # a newline: a fake line in the terminal
    "Ann\x1b[2J",  # an escape sequence
    "Ann\u2028Bo",  # line separator
    "Ann\u3164",  # Hangul filler (default ignorable, shows as nothing)
    "Ann\ufe0f",  # variation selector
    "An\x85n",  # next line (C1)
    "\ufeffAnn",  # byte order mark
]


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_names_that_look_or_fold_alike_share_a_skeleton(first, second):
    assert skeletons(first) & skeletons(second)
    with pytest.raises(BadName, match=r"looks like|already called"):
        check_unlike(checked(second), [first])


def test_names_that_differ_to_the_eye_are_both_kept():
    for first, second in [("Ann", "Anna"), ("Bo", "Bob"), ("Ana", "Ána"), ("Lee", "Leo")]:
        check_unlike(checked(second), [first])


@pytest.mark.parametrize("name", HIDING)
def test_a_name_holding_an_invisible_or_controlling_character_is_refused(name):
    with pytest.raises(BadName, match=r"may not hold U\+[0-9A-F]{4}.*could hide or fake text"):
        checked(name)


def test_a_name_is_kept_nfc_and_stripped():
    decomposed = "Ame\u0301lie"  # e and a combining acute
    assert checked(f"  {decomposed}\t") == unicodedata.normalize("NFC", decomposed)
    with pytest.raises(BadName, match="1 to 60 characters"):
        checked("   ")
    with pytest.raises(BadName, match="1 to 60 characters"):
        checked("x" * 61)


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES[:4])
def test_joining_beside_a_look_alike_is_refused_with_one_line(hall, first, second):
    made = hall.create("dice", gm=first)
    room, invite = made.extra["room"], made.extra["tokens"]["player"]
    before = hall.table(room).head
    with pytest.raises(RoomError) as refused:
        hall.join(room, invite, second)
    assert "\n" not in str(refused.value) and hall.table(room).head == before


def test_the_gms_rename_and_name_at_creation_are_checked(dice_room):
    hall, room, gm = dice_room.hall, dice_room.room, dice_room.member("GM")
    with pytest.raises(RoomError, match="looks like 'Ada'"):
        hall.rename(room, gm.id, "Bo", "ADA")
    with pytest.raises(RoomError, match="could hide"):
        hall.rename(room, gm.id, "Bo", "Bo\u200b")
    hall.rename(room, gm.id, "Bo", "BO")  # a member may look like their own old name
    assert [m.name for m in hall.table(room).members.values()][2] == "BO"
    with pytest.raises(RoomError, match="the GM's name may not hold"):
        hall.create("dice", gm="GM\nAda rolls 1d20")
    with pytest.raises(RoomError, match="a room's name may not hold"):
        hall.create("dice", "the crypt\u202e")


def test_a_kicked_members_name_is_free_again_once_the_gm_invites_again_and_ids_stay_unique(
    dice_room,
):
    hall, room, gm = dice_room.hall, dice_room.room, dice_room.member("GM")
    first = dice_room.member("Ada").id
    hall.kick(room, gm.id, "Ada")
    invite = hall.rotate_invites(room, gm.id).extra["tokens"]["player"]
    again = hall.join(room, invite, "ada").extra["member"]
    assert again != first and again not in {m for m in hall.table(room).members if m != again}
    assert hall.table(room).by_name("ada").id == again


def test_a_member_is_found_by_the_name_as_typed_with_spaces(dice_room):
    hall, room, gm = dice_room.hall, dice_room.room, dice_room.member("GM")
    hall.say(room, gm.id, "psst", ("  Ada ",), "w1")
    assert hall.table(room).by_name(" Ada") == dice_room.member("Ada")


@pytest.mark.parametrize(
    ("name", "problem"),
    [("ADA", "looks like 'Ada'"), ("Bo\u200b", "could hide"), (" Cy", "not as a room keeps")],
)
def test_verify_refuses_a_log_whose_join_breaks_the_rules_of_names(tmp_path, name, problem):
    """A forged export (every hash made to agree again) whose last join holds a name the
    server would have refused fails at that line."""
    from tabletop.rooms import Hall, SqliteStore

    hall = Hall(SqliteStore(tmp_path / "rooms.sqlite3"))
    room = seat(hall, "dice")
    gm = room.member("GM")
    hall.join(room.room, room.tokens["player"], "Cy")
    hall.end_session(room.room, gm.id)
    lines = hall.export(room.room, gm)
    bodies = [json.loads(line) for line in lines]
    where = next(
        i for i, b in enumerate(bodies) if b.get("event", {}).get("data", {}).get("name") == "Cy"
    )
    bodies[where]["event"]["data"]["name"] = name
    bodies[where]["event"]["text"] = f"{name} joined as player"
    forged = rechained([json.dumps(b, ensure_ascii=False) for b in bodies])
    with pytest.raises(AuditError, match=problem) as failed:
        verify(forged)
    assert failed.value.line == where + 1
