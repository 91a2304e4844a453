"""The rooms of one process: members and roles, one append path, retries applied once,
undo as a compensating event, kicks and rotated links that stop working at once."""

from __future__ import annotations

import pytest

from tabletop.errors import DataError, PermissionDenied, RulesError
from tabletop.rooms import (
    BadLink,
    Hall,
    NotAllowed,
    RoomError,
    SystemUnavailable,
    UnknownRoom,
    roomevents,
)
from tabletop.rooms.table import Table
from tabletop.session import Role
from tabletop.systems import registry
from tests.lines import code_in
from tests.rooms.conftest import Seated


def log_types(room: Seated) -> list[str]:
    return [e.event.type for e in room.hall.entries(room.room)]


def test_a_room_opens_with_its_system_its_log_format_and_its_gm(dice_room):
    assert log_types(dice_room)[:2] == ["room.created", "room.joined"]
    assert dice_room.hall.entries(dice_room.room)[0].event.data["format"] == 3
    members = dice_room.hall.table(dice_room.room).members
    assert {m.name: m.role for m in members.values()} == {
        "GM": Role.GM,
        "Ada": Role.PLAYER,
        "Bo": Role.PLAYER,
        "Watcher": Role.OBSERVER,
    }


def test_tokens_are_stored_only_as_hashes(dice_room):
    store = dice_room.hall.store
    stored = [
        str(row)
        for table in ("rooms", "members", "invites", "entries")
        for row in store._execute(f"SELECT * FROM {table}").fetchall()
    ]
    assert len(stored) > 10
    for token in dice_room.tokens.values():
        assert not any(token in row for row in stored)


def test_a_retried_intent_is_applied_once(dice_room):
    hall, ada = dice_room.hall, dice_room.member("Ada")
    first = hall.act(dice_room.room, ada.id, {"kind": "roll", "notation": "2d6"}, "same-id")
    again = hall.act(dice_room.room, ada.id, {"kind": "roll", "notation": "2d6"}, "same-id")
    assert again.duplicate and [e.text for e in again.entries] == [e.text for e in first.entries]
    assert log_types(dice_room).count("roll") == 1


def test_a_refused_intent_appends_nothing(dead_weight_room):
    hall, bo = dead_weight_room.hall, dead_weight_room.member("Bo")
    before = log_types(dead_weight_room)
    with pytest.raises(RulesError):
        hall.act(dead_weight_room.room, bo.id, {"kind": "test", "roller": "c9"}, "x")
    with pytest.raises(DataError):
        hall.act(dead_weight_room.room, bo.id, {"kind": "no-such-kind"}, "y")
    assert log_types(dead_weight_room) == before


def test_an_observer_cannot_act(dice_room):
    watcher = dice_room.member("Watcher")
    with pytest.raises(PermissionDenied, match="observer"):
        dice_room.hall.act(dice_room.room, watcher.id, {"kind": "roll", "notation": "1d6"}, "w")


def test_only_the_gm_undoes_and_the_log_keeps_both(dead_weight_room):
    hall, room = dead_weight_room.hall, dead_weight_room.room
    gm, ada = dead_weight_room.member("GM"), dead_weight_room.member("Ada")
    tracker = {"kind": "new-tracker", "name": "torch", "segments": 4, "visible": True}
    hall.act(room, gm.id, tracker, "t1")
    assert "torch" in hall.table(room).state.trackers
    with pytest.raises(NotAllowed):
        hall.undo(room, ada.id)
    hall.undo(room, gm.id)
    assert "torch" not in hall.table(room).state.trackers
    assert log_types(dead_weight_room)[-2:] == ["new tracker", "room.undo"]
    with pytest.raises(RoomError, match="nothing to undo"):
        hall.undo(room, gm.id)


def test_a_reloaded_hall_folds_the_same_table(dead_weight_room):
    hall, room, gm = dead_weight_room.hall, dead_weight_room.room, dead_weight_room.member("GM")
    hall.act(room, gm.id, {"kind": "new-tracker", "name": "a", "segments": 4}, "t1")
    hall.act(room, gm.id, {"kind": "new-tracker", "name": "b", "segments": 4}, "t2")
    hall.undo(room, gm.id)
    again = Hall(dead_weight_room.hall.store).table(room)
    assert again.state == hall.table(room).state and set(again.state.trackers) == {"a"}


def test_a_kicked_members_link_stops_working_at_once(dice_room):
    hall, room = dice_room.hall, dice_room.room
    hall.kick(room, dice_room.member("GM").id, "Bo")
    with pytest.raises(BadLink):
        hall.who(room, dice_room.tokens["Bo"])
    assert log_types(dice_room)[-1] == "room.kicked"


def test_a_rotated_link_or_invite_stops_working_at_once(dice_room):
    hall, room, ada = dice_room.hall, dice_room.room, dice_room.member("Ada")
    fresh = hall.rotate_link(room, ada.id).extra["token"]
    with pytest.raises(BadLink):
        hall.who(room, dice_room.tokens["Ada"])
    assert hall.who(room, fresh) == ada
    invites = hall.rotate_invites(room, dice_room.member("GM").id).extra["tokens"]
    with pytest.raises(BadLink):
        hall.join(room, dice_room.tokens["player"], "Cy")
    assert hall.join(room, invites["player"], "Cy").extra["member"] == "m5"


def test_a_link_opens_only_its_own_room(hall, dice_room):
    other = hall.create("dice").extra["room"]
    with pytest.raises(BadLink):
        hall.who(other, dice_room.tokens["Ada"])
    with pytest.raises(UnknownRoom):
        hall.who("no-such-room", dice_room.tokens["Ada"])


def test_an_invite_is_not_a_members_link(dice_room):
    with pytest.raises(BadLink, match="invite"):
        dice_room.hall.who(dice_room.room, dice_room.tokens["player"])


def test_names_are_unique_and_markup_is_kept_as_typed(dice_room):
    hall, room = dice_room.hall, dice_room.room
    with pytest.raises(RoomError, match="already called"):
        hall.join(room, dice_room.tokens["player"], "Ada")
    odd = "<script>alert(1)</script>"
    member = hall.join(room, dice_room.tokens["player"], f"  {odd} ").extra["member"]
    assert hall.table(room).member(member).name == odd


def test_the_gm_promotes_but_a_room_keeps_a_gm(dice_room):
    hall, room, gm = dice_room.hall, dice_room.room, dice_room.member("GM")
    with pytest.raises(RoomError, match="needs a GM"):
        hall.promote(room, gm.id, "GM", Role.PLAYER)
    hall.promote(room, gm.id, "Watcher", Role.PLAYER)
    assert dice_room.member("Watcher").role == Role.PLAYER


def test_a_system_whose_session_does_not_load_cannot_open_a_room(hall, monkeypatch):
    broken = registry.System("broken", "Broken", "tabletop.systems.nowhere.session:SESSION")
    monkeypatch.setattr(registry, "SYSTEMS", (*registry.SYSTEMS, broken))
    with pytest.raises(SystemUnavailable, match="broken cannot be played in a room yet"):
        hall.create("broken")
    with pytest.raises(SystemUnavailable, match="no system 'nope'"):
        hall.create("nope")


def test_end_session_reveals_nothing_in_format_3_and_the_seed_in_format_2(hall, dice_room):
    """docs/rooms.md, "Dice anyone can audit": a witnessed roll's dice check at once, so
    ending a session reveals nothing; a format-2 room reveals its seed and commits anew."""
    ended = hall.end_session(dice_room.room, dice_room.member("GM").id)
    assert [e.event.type for e in ended.entries] == ["room.session-ended"]
    assert ended.entries[0].event.data == {"session": 0}
    hall.log_format = 2
    old = hall.create("dice", "before").extra["room"]
    table = hall.table(old)
    first = table.commitment
    ended = hall.end_session(old, "m1")
    assert [e.event.type for e in ended.entries] == ["room.session-ended", "room.dice-committed"]
    assert ended.entries[0].event.data["commitment"] == first
    assert table.dice_session == 2 and table.commitment != first


@pytest.mark.parametrize("refused_at", [0, 1, 2])
def test_a_write_the_database_refuses_in_a_round_undoes_only_its_own_request(hall, refused_at):
    """A shard's round shares one commit (`Store.batch`): a write the database refuses is
    raised in its own request and undoes only that, and the round's other appends are
    kept, whether it is the round's first request (which is the transaction's beginning:
    undone by rolling the transaction back, and the next request begins another) or a
    later one (a savepoint of its own). On PostgreSQL a round's writes wait to go with the
    next read, so this is what keeps the error from surfacing in the next request's read
    instead (under a lease it may, and loses the round: test_leases.py)."""
    room = hall.create("dice", "the crypt").extra["room"]
    store, roll = hall.store, {"kind": "roll", "notation": "1d6"}
    head = store.head(room)
    kept = []
    with store.batch():
        for number in range(3):
            if number == refused_at:
                with pytest.raises(Exception) as refused, store.locked(room):
                    store.append(room, [(head, "m1", None, None, "{}")])  # that seq is taken
            kept += hall.act(room, "m1", roll, f"roll-{number}").entries
    assert type(refused.value).__name__ in {"IntegrityError", "UniqueViolation"}
    assert [entry.seq for entry in kept] == list(range(head + 1, store.head(room) + 1))
    assert [e.seq for e in hall.entries(room)] == list(range(1, store.head(room) + 1))


def test_the_rooms_own_lines_name_the_room_the_game_and_each_role_in_words(dice_room):
    """Issue 30, item 2: the log's first lines read "The room “the crypt” opens for Plain
    dice", "Ada joined as a player", "the GM made Watcher a player", never a room's, a
    system's or a role's id; a log that holds the lines as rooms wrote them before still
    reads, and a line changed in any other way does not."""
    hall, room = dice_room.hall, dice_room.room
    gm = dice_room.member("GM")
    hall.promote(room, gm.id, "Watcher", Role.PLAYER)
    lines = [entry.event.text for entry in hall.entries(room)]
    assert lines[0] == "The room “the crypt” opens for Plain dice"
    assert "Ada joined as a player" in lines and "Watcher joined as an observer" in lines
    assert lines[1] == "GM joined as the GM" and lines[-1] == "the GM made Watcher a player"
    assert [line for line in lines if code_in(line)] == []
    joined = next(e.event for e in hall.entries(room) if e.event.text.startswith("Ada"))
    assert roomevents.as_made(joined.model_copy(update={"text": "Ada joined as player"}), joined)
    assert not roomevents.as_made(joined.model_copy(update={"text": "Ada joined"}), joined)
    created = hall.entries(room)[0].event
    told = roomevents.opened_before(room, "dice", "the crypt")
    assert told == "room the crypt opened for dice"
    assert Table.start(created.model_copy(update={"text": told})).system == "dice"
