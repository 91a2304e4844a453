"""Durability: intents at full speed, the server killed with SIGKILL mid-run and started
again on the same data. Every acknowledged event is there, the chain verifies, and the
retried intents were not applied twice; on SQLite and on PostgreSQL."""

from __future__ import annotations

import collections
import json
import signal
import threading
import time

import pytest

from tabletop.rooms import RoomError, verify
from tabletop.rooms.client import RoomClient, create_room
from tabletop.rooms.tokens import Link
from tests.rooms.conftest import new_database, serve_in_process, stop_process


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, tmp_path) -> tuple[str, ...]:
    """The `tabletop serve` arguments of one database."""
    full_speed = ("--rate", "100000")
    if request.param == "sqlite":
        return ("--data", str(tmp_path / "data"), *full_speed)
    return ("--database", new_database(request.getfixturevalue("postgres")), *full_speed)


def moved(link: str, server: str) -> str:
    """The same link on a server started again (on another port)."""
    old = Link.parse(link)
    return str(Link(server, old.room, old.token))


@pytest.mark.stress
def test_a_killed_server_keeps_every_acknowledged_event(where):
    process, url = serve_in_process(*where)
    try:
        made = create_room(url, "dice")
        with RoomClient(made["player"]) as invite:
            ada = invite.join("Ada")
        sent: list[str] = []
        acked: dict[str, list[int]] = {}

        def fire() -> None:
            with RoomClient(ada, timeout=5) as client:
                for number in range(100_000):
                    sent.append(f"k{number}")
                    try:
                        answer = client.act({"kind": "roll", "notation": "2d6"}, id=sent[-1])
                    except RoomError:
                        return  # the server is gone
                    acked[sent[-1]] = answer["seqs"]

        firing = threading.Thread(target=fire)
        firing.start()
        deadline = time.monotonic() + 20
        while len(acked) < 150 and time.monotonic() < deadline:
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
        process.wait()
        firing.join(timeout=30)
        assert len(acked) >= 150
    finally:
        stop_process(process)

    process, url = serve_in_process(*where)
    try:
        with RoomClient(moved(ada, url)) as client:
            for id in sent:
                again = client.act({"kind": "roll", "notation": "2d6"}, id=id)
                if id in acked:
                    assert again["duplicate"] and again["seqs"] == acked[id]
        with RoomClient(moved(made["gm"], url)) as gm:
            gm.end_session()
            export = gm.export()
    finally:
        stop_process(process)
    audit = verify(export)
    assert audit.ruled and audit.dice == 2 * len(sent)
    bodies = [json.loads(line) for line in export[:-1]]
    clients = collections.Counter(b["client"] for b in bodies if b["client"])
    assert set(clients) == set(sent) and set(clients.values()) == {1}
    seq_of = {b["client"]: b["seq"] for b in bodies if b["client"]}
    assert all(seq_of[id] == seqs[0] for id, seqs in acked.items())
