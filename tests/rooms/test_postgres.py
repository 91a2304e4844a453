"""Two server processes on one PostgreSQL database: each room is served by one of them at a
time, the holder of its lease; the other answers its requests and sockets 503 with
Retry-After (a proxy then tries the next process) and never reads the room. When the owner
stops cleanly it gives its leases up, and the other serves the room at once, from the store:
nothing acknowledged is lost, and a socket resumes from its last seq."""

from __future__ import annotations

import json

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tabletop.rooms import verify
from tabletop.rooms.allowances import Rates
from tabletop.rooms.client import RoomClient, create_room, hello
from tabletop.rooms.postgres import PostgresStore
from tabletop.rooms.tokens import Link
from tests.rooms.conftest import (
    Recorder,
    new_database,
    serve_in_process,
    serve_in_thread,
    stop_process,
)
from tests.rooms.test_durability import moved


@pytest.fixture
def two_servers(postgres):
    url = new_database(postgres)
    first = serve_in_process("--database", url, "--lease", "2")
    second = serve_in_process("--database", url, "--lease", "2")
    yield first, second
    stop_process(first[0])
    stop_process(second[0])


def test_a_room_is_served_by_one_process_and_moves_when_it_stops(two_servers):
    (one_process, one), (_, two) = two_servers
    made = create_room(one, "dead-weight")
    with RoomClient(made["player"]) as invite:
        ada = invite.join("Ada")  # the first request for the room: process one takes it
    with RoomClient(made["gm"]) as gm, RoomClient(ada) as player:
        acked = [gm.roll("1d6")["seqs"][0] for _ in range(3)]
        acked += [player.roll("1d6")["seqs"][0] for _ in range(3)]
    socket = Recorder(ada)
    socket.wait_for(lambda f: f.get("seq") == acked[-1])

    link = Link.parse(ada)
    refused = httpx.get(
        f"{two}/rooms/{link.room}", headers={"Authorization": f"Bearer {link.token}"}
    )
    assert refused.status_code == 503
    assert 1 <= int(refused.headers["retry-after"]) <= 2
    assert "another server process serves this room" in refused.json()["error"]
    live = two.replace("http", "ws", 1) + f"/rooms/{link.room}/live"
    with pytest.raises(InvalidStatus) as denied, connect(live) as other:
        other.send(hello(link.token, 0))
    assert denied.value.response.status_code == 503

    stop_process(one_process)  # a clean stop gives the room's lease up
    assert socket.closed.wait(timeout=30)
    socket.close()
    with RoomClient(moved(made["gm"], two)) as gm:
        again = gm.roll("1d6")["seqs"][0]
        assert again == acked[-1] + 1
        resumed = Recorder(moved(ada, two), after=acked[-1])
        assert resumed.wait_for(lambda f: f.get("seq") == again)
        resumed.close()
        gm.end_session()
        audit = verify(gm.export())
    assert audit.ruled and audit.dice == 7


def test_sockets_asking_for_rooms_that_do_not_exist_spend_their_address_allowance(postgres):
    """Before a socket is accepted its room is claimed, which costs the database a look: an
    address asking for rooms that do not exist is charged as one guessing links is (and its
    hello once more, as any request naming a missing room), and then refused before the
    handshake (429), while a room that exists is not charged."""
    store = PostgresStore(new_database(postgres))
    running = serve_in_thread(store, rates=Rates(address=0.001, address_burst=3))
    try:
        live = running.url.replace("http", "ws", 1)
        outcomes = []
        for number in range(6):
            try:
                with connect(f"{live}/rooms/no-room-{number}/live") as socket:
                    socket.send(hello("nothing", 0))
                    outcomes.append(("frame", json.loads(socket.recv(timeout=30))["status"]))
            except InvalidStatus as denied:
                outcomes.append(("handshake", denied.response.status_code))
        # the claim and the hello of a room that does not exist each cost a request: the
        # first answered "no such room" after the handshake; the second's claim spent the
        # last of the allowance (its hello was refused); from then on the handshake itself
        assert outcomes[0] == ("frame", 404) and outcomes[1] == ("frame", 429)
        assert outcomes[2:] == [("handshake", 429)] * 4
    finally:
        running.stop()
        store.close()
