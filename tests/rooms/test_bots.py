"""The board game's bots move on the server: when a bot's seat decides, the server plays its
move after a short pause, with the room's fair dice, as the member `table`; people's seats
wait for their people. The log of a game the bots played verifies like any other."""

from __future__ import annotations

import json
import time

import pytest

from tabletop.errors import TabletopError
from tabletop.games.deadweight_board.log import replay
from tabletop.rooms import verify
from tabletop.rooms.client import RoomClient, create_room
from tests.rooms.conftest import open_test_store, serve_in_thread


@pytest.fixture(scope="module")
def quick(request, tmp_path_factory):
    """A server whose bots move at once (no pause), on SQLite."""
    store = open_test_store("sqlite", request, tmp_path_factory.mktemp("bots"))
    running = serve_in_thread(store, bot_pause=0.0)
    yield running.url
    running.stop()
    store.close()


def entries(client: RoomClient) -> list[dict]:
    return [json.loads(line) for line in client.log()]


def wait_until(done, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the server's bots did not move"
        time.sleep(0.05)


def bot_moves(client: RoomClient) -> list[dict]:
    return [e for e in entries(client) if e["event"]["actor"] == "table"]


def test_two_bots_play_on_the_server_and_the_log_verifies(quick):
    made = create_room(quick, "deadweight-board", "bots only")
    with RoomClient(made["gm"]) as gm:
        for bot in ("random", "greedy"):
            gm.act({"kind": "seat-bot", "bot": bot})
        gm.act({"kind": "start"})
        wait_until(lambda: len(bot_moves(gm)) >= 30)
        causes = [e["event"]["cause"] for e in bot_moves(gm) if e["event"].get("cause")]
        assert {c["asked"]["kind"] for c in causes} == {"bot-moves"}
        assert {c["intent"]["kind"] for c in causes} == {"bot-act"}  # decided in the pool
        assert {c["member"]["role"] for c in causes} == {"bot"}
        gm.end_session()
        time.sleep(0.2)  # a move already due lands; then the bots wait for the table
        stopped = len(entries(gm))
        time.sleep(0.3)
        assert len(entries(gm)) == stopped
        assert verify(gm.export()).ruled
        gm.act({"kind": "bot-moves"})  # anyone at the table may set them going again
        wait_until(lambda: len(entries(gm)) > stopped + 5)


def test_a_bot_waits_for_the_person_whose_seat_decides(quick):
    made = create_room(quick, "deadweight-board", "one of each")
    with RoomClient(made["player"]) as invite:
        ada_link = invite.join("Ada")
    with RoomClient(made["gm"]) as gm, RoomClient(ada_link) as ada:
        ada.act({"kind": "take-seat"})
        gm.act({"kind": "seat-bot", "bot": "random"})
        gm.act({"kind": "start"})
        for _ in range(3):
            wait_until(lambda: _deciding(ada))
            settled = len(entries(gm))
            time.sleep(0.3)
            assert len(entries(gm)) == settled, "the server moved for a person"
            offer = next(o for o in ada.legal()["offers"] if o["kind"] == "act")
            ada.act(offer["intents"][0])


def _deciding(client: RoomClient) -> bool:
    return any(o["kind"] == "act" for o in client.legal()["offers"])


def test_a_finished_game_s_record_is_served_and_replays_and_verifies(quick, tmp_path):
    """ENG-14: after a bots' game ends, anyone at the table fetches its record: a log
    `replay` accepts, boards to step through; before the end, and in a room of another
    system, the refusal is one line."""
    made = create_room(quick, "deadweight-board", "to the end", {"turn_cap": 3})
    with RoomClient(made["observer"]) as invite:
        watcher_link = invite.join("Wes")
    with RoomClient(made["gm"]) as gm, RoomClient(watcher_link) as watcher:
        for bot in ("random", "greedy"):
            gm.act({"kind": "seat-bot", "bot": bot})
        with pytest.raises(TabletopError, match="once a game the GM started is over"):
            gm._call("GET", "/record")
        gm.act({"kind": "start"})
        wait_until(lambda: watcher.view()["state"].get("record"))
        record = watcher._call("GET", "/record").json()
        path = tmp_path / record["file"]
        path.write_text(record["log"])
        assert replay(path) == 1 and len(record["steps"]) > 1
        gm.end_session()
        assert verify(gm.export()).ruled
    dice = create_room(quick, "dice", "no record")
    with RoomClient(dice["gm"]) as gm, pytest.raises(TabletopError, match="no game record"):
        gm._call("GET", "/record")
