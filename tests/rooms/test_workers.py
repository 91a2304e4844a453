"""The server's shape for many tables: the front moves bytes, shard workers own rooms, the
pool thinks for bots and checks logs. A slow room delays only itself, every intent's work is
bounded before any die, heavy checks leave the rest of the server answering, and each member
and each address has one allowance however many sockets and requests they use."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest

from tabletop.rooms import RoomError, TooMuch
from tabletop.rooms.allowances import Rates
from tabletop.rooms.budgets import MAX_ROOM_DICE
from tabletop.rooms.client import RoomClient, create_room
from tests.rooms.conftest import (
    Recorder,
    free_port,
    open_test_store,
    party,
    serve_in_process,
    serve_in_thread,
    stop_process,
)


@pytest.fixture(scope="module")
def quick(request, tmp_path_factory):
    """One shard (every room shares it: the worst case) and one pool worker; bots move at
    once; members are not bounded (the allowances have their own tests)."""
    store = open_test_store("sqlite", request, tmp_path_factory.mktemp("workers"))
    running = serve_in_thread(store, rate=10_000, bot_pause=0.0)
    yield running.url
    running.stop()
    store.close()


PACE = 0.2
"""Seconds a dice member waits after each ack before rolling again."""


def auth(link: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {link.partition('#')[2]}"}


# a slow room delays only itself ------------------------------------------------------------


@pytest.mark.stress
def test_a_room_of_thinking_bots_does_not_slow_a_dice_room_on_the_same_shard(quick):
    """Dice members roll at a brisk table's pace (each waits for its ack, then a fifth of a
    second), in windows with the board's MCTS bots paused and playing (ending the dice
    session pauses them; `bot-moves` sets them going); the dice room receives at least 90%
    as many entries a second while they play (a ratio within one run, windows interleaved so
    the machine's other load hits both). At that pace the dice room needs little of the
    machine, so what is measured is whether it waits for the bots, not how busy cores are
    shared; a room that waited for each decision (a quarter of a second or more) would roll
    at half its pace or less."""
    board = create_room(quick, "deadweight-board", "bots")
    dice = party(quick, "dice")
    watcher = Recorder(dice.links["Watcher"])
    gm = RoomClient(board["gm"])
    for _ in range(3):
        gm.act({"kind": "seat-bot", "bot": "mcts:2000"})
    gm.act({"kind": "start"})
    gm.end_session()  # paused: the bots wait until someone asks one to move
    rolling = threading.Event()
    stop = threading.Event()

    def roll(client: RoomClient) -> None:
        while not stop.is_set():
            if rolling.is_set():
                client.roll("1d6")
                time.sleep(PACE)
            else:
                time.sleep(0.01)

    rollers = [threading.Thread(target=roll, args=(c,)) for c in (dice.gm, dice.ada, dice.bo)]
    for thread in rollers:
        thread.start()
    seen = {"paused": 0, "playing": 0}
    thought = 0
    try:
        for window in ("paused", "playing") * 4:
            if window == "playing":
                gm.act({"kind": "bot-moves"})
            before_bots = _bot_moves(gm)
            watcher.sync()
            rolling.set()
            start = len(watcher.entries())
            time.sleep(2.0)
            rolling.clear()
            watcher.sync()
            seen[window] += len(watcher.entries()) - start
            if window == "playing":
                gm.end_session()
                thought += _bot_moves(gm) - before_bots
    finally:
        stop.set()
        for thread in rollers:
            thread.join(timeout=30)
        watcher.close()
        gm.close()
        dice.close()
    assert thought >= 4, "the bots hardly played: the test measured nothing"
    assert seen["paused"] > 30, "the dice room hardly rolled: the ratio would mean nothing"
    assert seen["playing"] >= 0.9 * seen["paused"], seen


def _bot_moves(gm: RoomClient) -> int:
    """The bots' decisions in the room's log so far."""
    causes = [json.loads(line)["event"].get("cause") for line in gm.log()]
    return sum(1 for cause in causes if cause and cause["member"]["id"] == "table")


# budgets -----------------------------------------------------------------------------------


def test_a_giant_roll_is_refused_before_any_die_and_a_resent_id_gets_the_same_answer(quick):
    dice = party(quick, "dice")
    url = f"{dice.url}/rooms/{dice.room}/intents"
    head = dice.gm.view()["head"]
    giant = {"id": "giant-1", "intent": {"kind": "roll", "notation": "10000d6kh1"}, "nonce": "g"}
    answers = [httpx.post(url, json=giant, headers=auth(dice.links["Ada"])) for _ in range(2)]
    assert [a.status_code for a in answers] == [400, 400]
    assert answers[0].json() == answers[1].json()
    assert f"at most {MAX_ROOM_DICE} dice" in answers[0].json()["error"]
    socket = Recorder(dice.links["Ada"])
    socket.send({"type": "intent", "id": "giant-1", "intent": giant["intent"], "nonce": "g"})
    error = socket.wait_for(lambda f: f.get("type") == "error")
    assert error["id"] == "giant-1" and error["error"] == answers[0].json()["error"]
    socket.close()
    exploding = {"kind": "roll", "notation": "2d6 + 15d6!"}  # 15 × 21 dice at the worst
    with pytest.raises(RoomError, match=f"at most {MAX_ROOM_DICE} dice"):
        dice.ada.act(exploding)
    assert dice.gm.view()["head"] == head, "a refused roll appended something"
    fair = dice.ada.act({"kind": "roll", "notation": "14d6!"}, id="fair", nonce="g")
    assert fair["seqs"] == [head + 1], "the refusal spent the nonce or appended"
    dice.close()


# heavy work leaves the rest answering ----------------------------------------------------


@pytest.mark.stress
def test_health_and_another_room_answer_while_a_slow_verify_runs(quick):
    """Verifying a board game asks every bot again (MCTS); the pool does it while the front
    answers /health and the shard another room's rolls."""
    board = create_room(quick, "deadweight-board", "to verify")
    with RoomClient(board["gm"]) as gm:
        for _ in range(2):
            gm.act({"kind": "seat-bot", "bot": "mcts:2000"})
        gm.act({"kind": "start"})
        deadline = time.monotonic() + 60
        while _bot_moves(gm) < 8 and time.monotonic() < deadline:
            time.sleep(0.1)
        gm.end_session()
        time.sleep(0.3)  # a move already due lands; then the bots wait
        export = gm.export()
    body = "".join(f"{line}\n" for line in export).encode()
    answer: dict = {}
    checking = threading.Thread(
        target=lambda: answer.update(
            httpx.post(f"{quick}/verify", content=body, timeout=120).json()
        )
    )
    checking.start()
    time.sleep(0.2)  # the pool has it
    dice = party(quick, "dice")
    for _ in range(3):
        assert httpx.get(f"{quick}/health").json()["status"] == "ok"
        assert dice.ada.roll("1d20")["seqs"]
        assert dice.bo.view()["head"]
    answered_while_checking = checking.is_alive()
    checking.join(timeout=120)
    dice.close()
    assert answered_while_checking, "the verify ended first: it was too quick to show anything"
    assert answer["ok"], answer
    # The pool's own audit of this export: the bots' decisions were asked again (its summary
    # says how many, as `Audit.summary` words it; verifying here too would ask them twice).
    recomputed = re.search(r", (\d+) recomputed", answer["summary"])
    assert recomputed and int(recomputed[1]) >= 8, answer


# allowances ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sparing(request, tmp_path_factory):
    """A server whose members get six requests and nearly nothing more (one every 100 s)."""
    store = open_test_store("sqlite", request, tmp_path_factory.mktemp("sparing"))
    rates = Rates(member=0.01, member_burst=6, address=10_000, address_burst=10_000)
    running = serve_in_thread(store, rates=rates)
    yield running.url
    running.stop()
    store.close()


def test_one_members_allowance_is_shared_by_all_their_sockets_and_requests(sparing):
    dice = party(sparing, "dice")
    first, second = Recorder(dice.links["Ada"]), Recorder(dice.links["Ada"])  # 2 × ¼
    for socket, pings in ((first, 3), (second, 2)):  # 5 more: half a request left
        for _ in range(pings):
            socket.sync()
    with pytest.raises(TooMuch, match="all their sockets and requests"):
        dice.ada.say("one more")
    start = len(second.frames)
    second.send({"type": "ping"})
    assert "slow down" in second.wait_for(lambda f: f.get("type") == "error", start)["error"]
    assert dice.bo.say("my own allowance")["seqs"], "one member's use cost another's"
    for socket in (first, second):
        socket.close()
    dice.close(verified=False)  # Ada's allowance is spent: her export must wait


@pytest.fixture(scope="module")
def proxied(request, tmp_path_factory):
    """Behind a proxy at 127.0.0.1: each address may open, join or verify three times."""
    store = open_test_store("sqlite", request, tmp_path_factory.mktemp("proxied"))
    rates = Rates(address=0.01, address_burst=3)
    running = serve_in_thread(store, rates=rates, trusted=("127.0.0.1",))
    yield running.url
    running.stop()
    store.close()


def test_each_client_address_has_one_allowance_for_what_needs_no_members_link(proxied):
    """Through a trusted proxy each client is the address its X-Forwarded-For names: one
    client spends its allowance without touching another's; links that open nothing cost
    their address too, and past it are refused before any worker looks at them."""
    new = {"system": "dice", "name": "x"}

    def from_client(client: str, path: str = "/rooms", **kwargs) -> httpx.Response:
        headers = {"X-Forwarded-For": f"203.0.113.9, {client}", **kwargs.pop("headers", {})}
        return httpx.post(f"{proxied}{path}", headers=headers, **kwargs)

    made = [from_client("198.51.100.1", json=new) for _ in range(3)]
    assert [r.status_code for r in made] == [201, 201, 201]
    refused = from_client("198.51.100.1", "/verify", content=b"{}\n")
    assert refused.status_code == 429 and "from one address" in refused.json()["error"]
    assert from_client("198.51.100.2", json=new).status_code == 201
    room = made[0].json()["room"]
    guesses = [
        httpx.get(
            f"{proxied}/rooms/{room}",
            headers={"Authorization": f"Bearer guess{n}", "X-Forwarded-For": "198.51.100.3"},
        )
        for n in range(5)
    ]
    assert [g.status_code for g in guesses] == [401, 401, 401, 429, 429]
    gm = made[0].json()["gm"]
    assert httpx.get(f"{proxied}/rooms/{room}", headers=auth(gm)).status_code == 200


# stopping ------------------------------------------------------------------------------------


@pytest.mark.parametrize("stop", ["ctrl-c", "sigterm"])
def test_the_server_stops_its_workers_cleanly(stop, tmp_path):
    """Ctrl-C reaches the whole process group and SIGTERM the server alone: either way every
    worker exits with it, and nothing prints a traceback."""
    port = free_port()
    command = [sys.executable, "-c", "from tabletop.cli.app import main; main()", "serve"]
    process = subprocess.Popen(
        [*command, "--port", str(port), "--data", str(tmp_path), "--workers", "2", "--pool", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline and process.poll() is None, "it did not start"
            time.sleep(0.1)
        made = create_room(url, "dice")
        with RoomClient(made["gm"]) as gm:
            gm.roll("1d6")
        workers = _children(process.pid)
        assert len(workers) >= 3
        if stop == "ctrl-c":
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)], "a worker outlived the server"
        assert process.stderr is not None
        assert b"Traceback" not in process.stderr.read()
    finally:
        stop_process(process)


def _children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as children:
            found += [int(child) for child in children.read().split()]
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


# a worker that dies ------------------------------------------------------------------------


def test_a_shard_that_dies_is_started_again_and_its_rooms_go_on(tmp_path):
    """Its sockets are closed (their clients resume from their last seq) and a new shard
    serves the room from the store: nothing acknowledged is lost."""
    process, url = serve_in_process("--data", str(tmp_path), "--workers", "1", "--pool", "1")
    try:
        made = create_room(url, "dice")
        with RoomClient(made["player"]) as invite:
            ada = invite.join("Ada")
        with RoomClient(ada) as client:
            acked = client.roll("1d6")["seqs"]
            socket = Recorder(made["gm"])
            socket.sync()
            (shard,) = [pid for pid in _children(process.pid) if _is_shard(pid, process.pid)]
            os.kill(shard, signal.SIGKILL)
            bye = socket.wait_for(lambda f: f.get("type") == "bye")
            assert "reconnect" in bye["reason"]
            socket.close()
            deadline = time.monotonic() + 120
            while True:
                try:
                    again = client.roll("1d6")["seqs"]
                    break
                except RoomError as refused:
                    assert "send it again" in str(refused) or "restarting" in str(refused)
                    assert time.monotonic() < deadline, "no shard came back"
                    time.sleep(0.2)
        assert again == [acked[0] + 1]
        resumed = Recorder(made["gm"], after=acked[0])
        assert resumed.wait_for(lambda f: f.get("seq") == again[0])
        resumed.close()
    finally:
        stop_process(process)


def _is_shard(pid: int, server: int) -> bool:
    """A shard worker: spawned, in the server's session (the pool has one of its own)."""
    with open(f"/proc/{pid}/cmdline") as cmdline:
        spawned = "spawn_main" in cmdline.read()
    with open(f"/proc/{pid}/stat") as stat, open(f"/proc/{server}/stat") as theirs:
        session = stat.read().rpartition(")")[2].split()[3]
        return spawned and session == theirs.read().rpartition(")")[2].split()[3]
