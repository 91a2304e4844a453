"""A room's size is bounded by the room, a kicked member stays out until the GM invites
again, and every text a person types is held to what a table can trust to read
(docs/rooms.md, "Reads that cost what they read"). Each attack here passed on a48a6db:
members chatted without bound (until the export was refused at 64 MiB), a kicked member
rejoined at once under the same name, and names and labels took look-alikes, zero-width
characters and U+202E."""

from __future__ import annotations

import json

import pytest

from tabletop.errors import TabletopError
from tabletop.rooms import BadLink, Hall, RoomError, SqliteStore
from tabletop.rooms.client import RoomClient
from tabletop.rooms.errors import TooMuch
from tabletop.rooms.verify import verify
from tests.rooms.conftest import Recorder, fixed_seeds, seat, serve_in_thread

LINE = "word " * 400
"""A chat line of 2,000 characters, the most one may hold."""

SMALL = 64 * 1024
"""A room's text allowance small enough to spend in a test."""


@pytest.fixture
def small_hall(tmp_path):
    store = SqliteStore(tmp_path / "rooms.sqlite3")
    yield Hall(store, seeds=fixed_seeds(), room_text=SMALL)
    store.close()


def test_attack_eleven_members_chatting_as_fast_as_allowed_cannot_fill_a_room(small_hall):
    """Eleven members of one invite chat until refused: they stop at their invite's half of
    the room's allowance, the observers' invite keeps its half, the GM is never counted,
    the room still exports and verifies, and the GM's raise lets them go on."""
    hall = small_hall
    made = hall.create("dice", "the crypt")
    room, invites = made.extra["room"], made.extra["tokens"]
    members = [hall.join(room, invites["player"], f"Player {n}").extra["member"] for n in range(11)]
    refused = None
    for turn in range(200):
        try:
            hall.say(room, members[turn % 11], LINE)
        except TooMuch as spent:
            refused = str(spent)
            break
    assert refused is not None and "their share (0.03125 MiB)" in refused
    assert "the GM can raise it" in refused
    used = hall.text_use(room)
    assert used["used"] <= SMALL // 2 and used["invites"] == [used["used"]]
    with pytest.raises(TooMuch):  # a roll's label counts too: the rest of the share goes
        for number in range(40):
            roll = {"kind": "roll", "notation": "1d6", "label": LINE[:60]}
            hall.act(room, members[3], roll, f"r{number}")
    watcher = hall.join(room, invites["observer"], "Watcher").extra["member"]
    hall.say(room, watcher, "still room for the observers")
    for _ in range(40):
        hall.say(room, "m1", LINE)  # the GM's own words are never counted
    assert hall.text_use(room)["used"] < SMALL
    hall.end_session(room, "m1")
    assert verify(hall.export(room, hall.table(room).member("m1"))).view == "full"
    with pytest.raises(RoomError, match="1 MiB to 1024 MiB"):
        hall.set_text_allowance(room, "m1", 10)
    with pytest.raises(TabletopError, match="only the GM"):
        hall.set_text_allowance(room, members[0], 2**21)
    assert hall.set_text_allowance(room, "m1", 2**21)["limit"] == 2**21
    hall.say(room, members[0], LINE)


def test_the_gm_is_told_on_their_socket_when_a_member_meets_the_allowance(tmp_path):
    store = SqliteStore(tmp_path / "rooms.sqlite3")
    seated = seat(Hall(store, seeds=fixed_seeds(), room_text=SMALL), "dice")
    running = serve_in_thread(store, room_text=SMALL, rate=1_000)
    try:
        base = f"{running.url}/rooms/{seated.room}"
        gm_socket = Recorder(f"{base}#{seated.tokens['GM']}")
        ada = RoomClient(f"{base}#{seated.tokens['Ada']}")
        with ada, pytest.raises(TooMuch, match="the GM can raise it"):
            for _ in range(40):
                ada.say(LINE)
        told = gm_socket.wait_for(lambda frame: frame.get("type") == "notice")
        assert "the GM can raise it" in told["text"]
        with RoomClient(f"{base}#{seated.tokens['GM']}") as gm:
            assert gm.view()["text"]["used"] <= SMALL // 2
            shown = gm._call("POST", "/allowance", json={"text": 2**21}).json()
            assert shown["text"]["limit"] == 2**21
            with RoomClient(f"{base}#{seated.tokens['Ada']}") as ada:
                ada.say("thanks")
                assert "text" not in ada.view()  # the GM's alone
        gm_socket.close()
    finally:
        running.stop()
        store.close()


def test_attack_a_kicked_member_cannot_rejoin_with_the_same_invite_or_name(small_hall):
    hall = small_hall
    seated = seat(hall, "dice")
    room, tokens = seated.room, seated.tokens
    hall.kick(room, "m1", "Bo")
    with pytest.raises(BadLink):
        hall.join(room, tokens["player"], "Bo")  # the invite Bo joined through is retired
    for name in ("Bo", "bo", "B\u043e"):  # the last with a Cyrillic о
        with pytest.raises(RoomError, match="removed"):
            hall.join(room, tokens["observer"], name)
    hall.join(room, tokens["observer"], "Cleo")  # the other invite still opens the room
    fresh = hall.rotate_invites(room, "m1").extra["tokens"]
    assert hall.join(room, fresh["player"], "Bo").extra["member"]  # the GM invited again


def test_attack_look_alike_and_bidi_names_and_labels_are_refused(small_hall):
    hall = small_hall
    seated = seat(hall, "ap2d6")
    room = seated.room
    hall.act(room, "m1", {"kind": "new-npc", "name": "Guard", "stats": {}}, "n1")
    for name, why in (
        ("Gu\u0430rd", "looks like 'Guard'"),  # a Cyrillic а
        ("GUARD", "looks like 'Guard'"),
        ("Spy\u200b", "U\\+200B"),
        ("\u202eecnirP", "U\\+202E"),
    ):
        with pytest.raises(TabletopError, match=why):
            hall.act(room, "m1", {"kind": "new-npc", "name": name, "stats": {}}, f"n-{name}")
    for said in ("gm \u202erolls 20", "bell\x07", "\x1b[2J"):
        with pytest.raises(RoomError, match="could make a line read as another"):
            hall.say(room, "m2", said)
        with pytest.raises(RoomError, match="could make a line read as another"):
            hall.act(room, "m2", {"kind": "roll", "notation": "1d6", "label": said}, f"l{said}")
    kept = hall.say(room, "m2", "two\tlines\nand a family 👨\u200d👩\u200d👧")
    assert "👨\u200d👩" in json.loads(kept.entries[0].text)["event"]["data"]["text"]
