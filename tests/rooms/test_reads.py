"""Reads that cost what they read (docs/rooms.md, "Reads that cost what they read"): a log,
a socket's catch-up and the GM's view-as are pages, each one bounded step of the shard; an
answer or a socket left unread holds a bounded number of bytes; an export streams whole at
any size. Each attack here passed on a48a6db (one step read a whole log; an unread answer
held it all; a socket held 5,000 lines of any size)."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from tabletop.rooms import Hall, SqliteStore
from tabletop.rooms.client import RoomClient
from tabletop.rooms.live import Socket
from tabletop.rooms.messages import Attach, Call, Caller, Read, ShardConfig
from tabletop.rooms.shards import Shard
from tabletop.rooms.tokens import Link
from tabletop.rooms.verify import verify
from tests.rooms.conftest import Recorder, Seated, fixed_seeds, seat, serve_in_thread
from tests.rooms.test_shards import Quiet, roll, round_of

PAGE = 200
"""Entries a page reads at most (reading.PAGE_ENTRIES), as the docs promise it."""

PAGE_BYTES = 256 * 1024

LINE = "word " * 300
"""A chat line of 1,500 characters: entries of about 2 KB."""


def lengthen(hall: Hall, room: Seated, entries: int) -> int:
    """Chat `entries` long lines into the room as the GM; its head afterwards."""
    for number in range(entries):
        hall.say(room.room, "m1", f"{number} {LINE}")
    return hall.table(room.room).head


@pytest.fixture
def long_room(tmp_path):
    store = SqliteStore(tmp_path / "rooms.sqlite3")
    hall = Hall(store, seeds=fixed_seeds())
    room = seat(hall, "dice")
    lengthen(hall, room, 3 * PAGE + 50)
    yield hall, room
    store.close()


def test_attack_one_member_reading_a_long_log_does_not_stall_another_room(tmp_path):
    """A player's read of the whole log, a hello from 0 and the GM's view-as of a long room
    each read at most a page from the store in one step of the shard, so another room's roll
    in the same round waits for pages, never for the whole log (bench/rooms_reads.py times
    it on a 64 MB room)."""
    store = SqliteStore(tmp_path / "rooms.sqlite3")
    shard = Shard(store, Quiet(), ShardConfig(0, store.address, bot_pause=60.0))  # type: ignore[arg-type]
    long, other = seat(shard.hall, "dice"), seat(shard.hall, "dice")
    lengthen(shard.hall, long, 3 * PAGE)
    shard.hall.let_go(long.room)  # nothing of it in memory: every read goes to the store
    read: list[int] = []
    entries = store.entries

    def counted(room: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        found = entries(room, *args, **kwargs)
        if room == long.room:
            read.append(len(found))
        return found

    store.entries = counted  # type: ignore[method-assign]
    ada, gm = long.tokens["Ada"], long.tokens["GM"]
    sent = round_of(
        shard,
        Call(1, long.room, Read(Caller(ada), "log", 0)),
        Call(2, long.room, Attach(ada, 0)),
        Call(3, long.room, Read(Caller(gm), "as-log", member="m2")),
        roll(4, other.room, other.tokens["Ada"]),
    )
    while len(answered := {reply.number for reply in sent if hasattr(reply, "number")}) < 4:
        sent += round_of(shard)  # a busy machine may cut a round at 25 ms: the rest follow
    assert answered == {1, 2, 3, 4}
    assert read and max(read) <= PAGE + 1, read
    store.close()


def waited_out(url: str, headers: dict[str, str]) -> httpx.Response:
    """A GET as a client sends it: a 429 (the whole log just read spent the allowance, more
    or less of it as the machine is quick or slow) is waited out for its Retry-After."""
    while (answer := httpx.get(url, headers=headers)).status_code == 429:
        time.sleep(float(answer.headers.get("Retry-After", 1)))
    return answer


def test_a_long_log_is_read_a_page_at_a_time_and_the_pages_are_the_whole_log(long_room):
    hall, room = long_room
    running = serve_in_thread(hall.store)
    try:
        link = Link.parse(f"{running.url}/rooms/{room.room}#{room.tokens['Ada']}")
        headers = {"Authorization": f"Bearer {link.token}"}
        first = httpx.get(f"{running.url}/rooms/{room.room}/log", headers=headers)
        assert first.status_code == 200
        lines = first.text.splitlines()
        assert 0 < len(lines) <= PAGE and len(first.content) <= PAGE_BYTES + 4096
        assert first.links["next"]["url"].endswith(f"?after={json.loads(lines[-1])['seq']}")
        assert first.headers["cache-control"] == "no-store"
        with RoomClient(str(link)) as ada:
            whole = ada.log()
        head = hall.table(room.room).head
        me = room.member("Ada")
        expected = [hall.project(room.room, e, me) for e in hall.entries(room.room, 0, head)]
        assert whole == [line for line in expected if line is not None]
        tail = waited_out(f"{running.url}/rooms/{room.room}/log?before=999999", headers)
        seqs = [json.loads(line)["seq"] for line in tail.text.splitlines()]
        assert seqs[-1] == head and len(seqs) <= PAGE
        assert tail.links["prev"]["url"].endswith(f"?before={seqs[0]}")
        assert "next" not in tail.links
    finally:
        running.stop()


def test_attack_an_unread_log_answer_holds_one_page(long_room):
    """Twenty reads of a long log left unread hold twenty pages, not twenty logs: each
    answer is at most a page (on a48a6db each was the whole log)."""
    hall, room = long_room
    running = serve_in_thread(hall.store)
    try:
        headers = {"Authorization": f"Bearer {room.tokens['Ada']}"}
        sizes = [
            len(httpx.get(f"{running.url}/rooms/{room.room}/log?after=0", headers=headers).content)
            for _ in range(3)
        ]
        log_bytes = sum(len(e.text) for e in hall.entries(room.room, 0, hall.table(room.room).head))
        assert max(sizes) <= PAGE_BYTES + 4096 < log_bytes
    finally:
        running.stop()


def test_attack_a_reader_that_does_not_read_is_dropped_not_buffered():
    """A socket with more than 1 MiB of lines waiting is closed (its client resumes from
    its last seq); on a48a6db it held 5,000 lines of any size (10 MB of 2 KB lines)."""

    socket = Socket("r")
    for seq in range(1, 600):
        socket.put(json.dumps({"seq": seq, "text": "x" * 2_000}))
    assert socket.reason.startswith("too far behind") and socket.retry
    assert sum(len(line) for line in socket.queue._queue) <= 2**20 + 4096  # type: ignore[attr-defined]


def test_a_socket_catches_up_a_page_at_a_time_and_misses_nothing_appended_meanwhile(long_room):
    """A hello from 0 on a long room while the GM keeps chatting: every entry arrives once,
    in order, and the pong after it comes after all of them."""
    hall, room = long_room
    running = serve_in_thread(hall.store, rate=1_000)
    try:
        base = f"{running.url}/rooms/{room.room}"
        reader = Recorder(f"{base}#{room.tokens['Bo']}", after=0)
        with RoomClient(f"{base}#{room.tokens['GM']}") as gm:
            for number in range(30):
                gm.say(f"meanwhile {number}")
            head = gm.view()["head"]
        reader.sync()
        seqs = [entry["seq"] for entry in reader.entries()]
        assert seqs == list(range(1, head + 1))
        reader.close()
    finally:
        running.stop()


def test_an_export_streams_whole_at_any_size_and_verifies(long_room):
    """The GM's export of a long room arrives whole, a chunk at a time, and verifies; it
    carries no-store."""
    hall, room = long_room
    hall.end_session(room.room, "m1")
    running = serve_in_thread(hall.store)
    try:
        with RoomClient(f"{running.url}/rooms/{room.room}#{room.tokens['GM']}") as gm:
            lines = gm.export()
        assert verify(lines).entries == hall.table(room.room).head
    finally:
        running.stop()


def test_a_socket_catches_up_past_pages_its_member_sees_nothing_of(tmp_path):
    """Two pages of the GM's self rolls, which Ada receives nothing of, then a line she
    sees: her hello from before them goes on past the empty pages to it."""
    store = SqliteStore(tmp_path / "rooms.sqlite3")
    hall = Hall(store, seeds=fixed_seeds())
    room = seat(hall, "dice")
    seated = hall.table(room.room).head
    for number in range(2 * PAGE + 10):
        hall.act(room.room, "m1", {"kind": "roll", "notation": "1d6", "mode": "self"}, f"s{number}")
    hall.say(room.room, "m1", "after the secrets")
    running = serve_in_thread(store)
    try:
        link = f"{running.url}/rooms/{room.room}#{room.tokens['Ada']}"
        reader = Recorder(link, after=seated)  # its first page: nothing she sees
        reader.sync()
        said = [e for e in reader.entries() if e["event"]["type"] == "room.chat"]
        assert said and said[-1]["event"]["data"]["text"] == "after the secrets"
        reader.close()
    finally:
        running.stop()
        store.close()
