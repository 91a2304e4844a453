"""Two server processes on one PostgreSQL database: members connected to different
processes see one game, in one order, through LISTEN/NOTIFY."""

from __future__ import annotations

import threading

import pytest

from tabletop.rooms import BadLink, verify
from tabletop.rooms.client import RoomClient, create_room
from tests.rooms.conftest import Recorder, new_database, serve_in_process, stop_process
from tests.rooms.test_durability import moved


@pytest.fixture
def two_servers(postgres):
    url = new_database(postgres)
    first, second = serve_in_process("--database", url), serve_in_process("--database", url)
    yield first[1], second[1]
    stop_process(first[0])
    stop_process(second[0])


def test_members_on_two_processes_see_one_game(two_servers):
    one, two = two_servers
    made = create_room(one, "dead-weight")
    with RoomClient(moved(made["player"], two)) as invite:
        ada = invite.join("Ada")
    with RoomClient(made["player"]) as invite:
        bo = invite.join("Bo")
    gm_socket, ada_socket = Recorder(made["gm"]), Recorder(ada)
    with RoomClient(made["gm"]) as gm, RoomClient(ada) as on_two, RoomClient(bo) as on_one:

        def roll(client: RoomClient, count: int) -> None:
            for _ in range(count):
                client.roll("1d6")

        writers = [threading.Thread(target=roll, args=(c, 30)) for c in (gm, on_two, on_one)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join()
        gm.act({"kind": "new-tracker", "name": "mk-doom", "tracker_kind": "doom", "segments": 4})
        last = gm.view()["head"]
        for socket in (gm_socket, ada_socket):
            socket.wait_for(lambda f, last=last: f.get("seq") == last)
        gm_seqs = [e["seq"] for e in gm_socket.entries()]
        ada_seqs = [e["seq"] for e in ada_socket.entries()]
        assert gm_seqs == ada_seqs == list(range(1, last + 1))
        assert "mk-doom" not in "".join(ada_socket.frames)
        assert on_two.view()["head"] == last
        gm.kick("Ada")
        assert ada_socket.wait_for(lambda f: f.get("type") == "bye")
        with pytest.raises(BadLink):
            on_two.roll("1d6")
        gm.end_session()
        audit = verify(gm.export())
        assert audit.ruled and audit.dice == 90
    for socket in (gm_socket, ada_socket):
        socket.close()
