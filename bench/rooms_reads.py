"""Reads that cost what they read (issue 33): one member reads a long room's whole log in
loops, as fast as their allowance lets them, while a member of another room on the same
shard rolls; that room's p99 against its quiet p99 in the same run (the anchor), and the
server's memory (every process of it) before and during.

The long room is about `--mb` MB of 2,000-character chat lines, written straight into the
store (a hall on the same SQLite file) before the server starts. The server is `tabletop
serve` in its own process with its defaults (SQLite: one shard; 20 requests a second a
member, a page a quarter and one more per 64 KiB). Quiet and loaded windows of `WINDOW`
seconds are taken in turn, so the machine's other work falls on both. Each roll is a `POST
…/intents` waited for before the next, at most one every `PAUSE` seconds. The reader
follows each page's `Link` to the next, and on a 429 waits its `Retry-After`, as
`RoomClient.log` does; a second reader says hello from 0 on a socket in loops. The goal
(docs/rooms.md, "Reads that cost what they read"): the loaded p99 within the quiet p99 plus
one round (25 ms) and one page step (measured here, on the same room, in this process),
and the server within 100 MB of where it was.

Then eleven members of one invite chat 2,000-character lines on their sockets as fast as
their allowance lets them for `--chat` seconds: what the room keeps and refuses, and
whether the GM's export streams whole and verifies.

Run: `.venv/bin/python -m bench.rooms_reads` (about five minutes on two cores; `--mb 8
--seconds 10 --chat 10` for a quick look).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from tests.rooms.conftest import fixed_seeds, seat, serve_in_process, stop_process
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tabletop.rooms import Hall, SqliteStore, verify
from tabletop.rooms.allowances import RATE
from tabletop.rooms.client import RoomClient, create_room
from tabletop.rooms.reading import read_page
from tabletop.rooms.shards import ROUND_TIME
from tabletop.rooms.tokens import Link

LINE = "word " * 398
"""A chat line of 2,000 characters: an entry of about 2.5 KB."""

PAUSE = 0.05
"""Seconds between two rolls of the quiet room's member."""

WINDOW = 5.0
"""Seconds of each quiet and each loaded window, taken in turn (`seconds` of both in all)."""


def build(data: Path, megabytes: float) -> tuple[dict[str, str], dict[str, str], int, float]:
    """A long room of about `megabytes` MB and a quiet one: their rooms and members' tokens,
    the long room's size in bytes and the seconds a page step takes on it."""
    store = SqliteStore(data / "rooms.sqlite3")
    hall = Hall(store, seeds=fixed_seeds())
    long, quiet = seat(hall, "dice"), seat(hall, "dice")
    size, number = 0, 0
    while size < megabytes * 1e6:
        with store.batch():
            for _ in range(500):
                said = hall.say(long.room, "m1", f"{number} {LINE}")
                size += len(said.entries[0].text) + 1
                number += 1
    hall.let_go_all()
    step = page_step(hall, long.room, long.member("Ada"))
    store.close()
    rooms = {"long": long.room, "quiet": quiet.room}
    tokens = {
        "reader": long.tokens["Ada"],
        "socket": long.tokens["Bo"],
        "roller": quiet.tokens["Ada"],
    }
    return rooms, tokens, size, step


def page_step(hall: Hall, room: str, member: object) -> float:
    """The median seconds a shard takes to read one page of the room from the store."""
    head, times = hall.table(room).head, []
    for after in range(0, min(head, 20_000), 1_000):
        hall.unload(room)
        hall.table(room)
        started = time.perf_counter()
        read_page(hall, room, member, after)  # type: ignore[arg-type]
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def memory(pid: int) -> float:
    """MB resident in the server process and its children (shards, pool)."""
    total, waiting = 0, [pid]
    while waiting:
        found = waiting.pop()
        try:
            with open(f"/proc/{found}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            with open(f"/proc/{found}/task/{found}/children") as children:
                waiting += [int(child) for child in children.read().split()]
        except OSError:
            continue
    return total / 1024


def rolls(url: str, room: str, token: str, seconds: float) -> list[float]:
    """Each roll's seconds from its request to its answer, for `seconds`."""
    times, deadline = [], time.monotonic() + seconds
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url, timeout=30) as http:
        number = 0
        while time.monotonic() < deadline:
            number += 1
            body = {
                "id": f"r{time.time_ns()}{number}",
                "intent": {"kind": "roll", "notation": "1d6"},
            }
            started = time.perf_counter()
            answer = http.post(f"/rooms/{room}/intents", json=body, headers=headers)
            times.append(time.perf_counter() - started)
            answer.raise_for_status()
            time.sleep(PAUSE)
    return times


def read_loops(
    url: str, room: str, token: str, on: threading.Event, done: threading.Event, read: list[int]
) -> None:
    """The whole log, page after page, again and again while `on`, as fast as the allowance
    lets (a 429 waits its Retry-After)."""
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url, timeout=30) as http:
        path = None
        while not done.is_set():
            if not on.wait(0.2):
                continue
            path = path or f"/rooms/{room}/log?after=0"
            answer = http.get(path, headers=headers)
            if answer.status_code == 429:
                time.sleep(float(answer.headers.get("retry-after", "1")))
                continue
            answer.raise_for_status()
            read[0] += len(answer.content)
            path = answer.links.get("next", {}).get("url")


def hello_loops(
    url: str, room: str, token: str, on: threading.Event, done: threading.Event, read: list[int]
) -> None:
    """A socket that says hello from 0 and reads its whole backlog, again and again while
    `on` (it stops reading while not: the server holds what it bounds)."""
    address = url.replace("http", "ws", 1) + f"/rooms/{room}/live"
    while not done.is_set():
        if not on.wait(0.2):
            continue
        with connect(address, max_size=None) as live:
            live.send(json.dumps({"type": "hello", "token": token, "after": 0}))
            head = json.loads(live.recv(timeout=30))["head"]
            while on.is_set():
                frame = live.recv(timeout=30)
                read[0] += len(frame)
                if json.loads(frame).get("seq", 0) >= head:
                    break


def p99(times: list[float]) -> float:
    return sorted(times)[max(0, round(0.99 * len(times)) - 1)] * 1000


def run(megabytes: float = 64.0, seconds: float = 60.0, chat: float = 30.0) -> None:
    """Both measurements: the stall and eleven members chatting."""
    stall(megabytes, seconds)
    chatting(seconds=chat)


def stall(megabytes: float, seconds: float) -> None:
    """Another room's p99 while one member reads a long room, against its quiet p99."""
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        started = time.monotonic()
        rooms, tokens, size, step = build(data, megabytes)
        built = time.monotonic() - started
        process, url = serve_in_process("--data", str(data), log=data / "server.log")
        on, done, read = threading.Event(), threading.Event(), [0]
        long, reader, socket = rooms["long"], tokens["reader"], tokens["socket"]
        readers = [
            threading.Thread(target=read_loops, args=(url, long, reader, on, done, read)),
            threading.Thread(target=hello_loops, args=(url, long, socket, on, done, read)),
        ]
        try:
            for thread in readers:
                thread.start()
            rolls(url, rooms["quiet"], tokens["roller"], 3.0)  # warm up
            before = memory(process.pid)
            quiet: list[float] = []
            loaded: list[float] = []
            peak = before
            windows = max(1, round(seconds / WINDOW / 2))
            for _ in range(windows):  # the machine's other work falls on both alike
                quiet += rolls(url, rooms["quiet"], tokens["roller"], WINDOW)
                on.set()
                time.sleep(1.0)  # the readers under way
                loaded += rolls(url, rooms["quiet"], tokens["roller"], WINDOW)
                peak = max(peak, memory(process.pid))
                on.clear()
        finally:
            done.set()
            on.set()
            for thread in readers:
                thread.join(timeout=60)
            stop_process(process)
    bound = p99(quiet) + ROUND_TIME * 1000 + step * 1000
    print("## Reads that cost what they read (bench/rooms_reads.py)\n")
    print(
        f"A room of {size / 1e6:.1f} MB ({built:.0f} s to write); one member read its whole log "
        f"in loops over HTTP and another from a socket's hello from 0, {read[0] / 1e6:.0f} MB "
        f"in {windows * (WINDOW + 1):g} s of windows taken in turn with quiet ones of "
        f"{windows * WINDOW:g} s, while a member of "
        "another room on the same shard rolled 1d6; "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}.\n"
    )
    print("| | rolls | p50 ms | p99 ms | max ms | server MB |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, times, mb in (
        ("quiet (anchor)", quiet, before),
        ("while one member reads", loaded, peak),
    ):
        print(
            f"| {name} | {len(times)} | {statistics.median(times) * 1000:.1f} | "
            f"{p99(times):.1f} | {max(times) * 1000:.1f} | {mb:.0f} |"
        )
    print(
        f"\nA page step on this room: {step * 1000:.1f} ms. Bound: the quiet p99 "
        f"{p99(quiet):.1f} ms + a round {ROUND_TIME * 1000:.0f} ms + a page step = "
        f"{bound:.1f} ms; loaded p99 {p99(loaded):.1f} ms "
        f"({p99(loaded) / p99(quiet):.1f}× the anchor): "
        f"{'within' if p99(loaded) <= bound else 'PAST'} it. Server memory "
        f"{before:.0f} MB before, {peak:.0f} MB at most while reading "
        f"(+{peak - before:.0f} MB; the goal: within 100)."
    )


def chat_member(url: str, link: str, seconds: float, counts: dict[str, Any]) -> None:
    """One member chatting 2,000-character lines as fast as their allowance lets them (20
    a second) on their socket for `seconds`; each ack and each refusal counted (and a
    socket the server dropped, which a client would open again)."""
    parsed = Link.parse(link)
    address = url.replace("http", "ws", 1) + f"/rooms/{parsed.room}/live"
    deadline, number = time.monotonic() + seconds, 0
    try:
        with connect(address, max_size=None) as live:
            live.send(json.dumps({"type": "hello", "token": parsed.token, "after": 2**53}))
            live.recv(timeout=30)
            while time.monotonic() < deadline:
                number += 1
                live.send(json.dumps({"type": "say", "id": f"s{number}", "text": LINE}))
                time.sleep(1 / RATE)
                tally(live, counts, 0)
            tally(live, counts, 2.0)  # the answers still on their way
    except ConnectionClosed:
        counts["dropped"] += 1


def tally(live: Any, counts: dict[str, Any], wait: float) -> None:
    """Count the acks and refusals that arrive within `wait` seconds."""
    try:
        while True:
            frame = json.loads(live.recv(timeout=wait))
            if frame.get("type") == "ack":
                counts["kept"] += 1
            elif frame.get("type") == "error":
                counts["refused"] += 1
                counts.setdefault("why", frame["error"])
    except TimeoutError:
        pass


def chatting(members: int = 11, seconds: float = 30.0) -> None:
    """Eleven members of one invite chat as fast as allowed: what the room keeps, what it
    refuses, and whether the GM's export streams whole and verifies."""
    with tempfile.TemporaryDirectory() as folder:
        process, url = serve_in_process("--data", folder, log=Path(folder) / "server.log")
        try:
            made = create_room(url, "dice", "chatter")
            links = []
            for number in range(members):
                with RoomClient(made["player"]) as invite:
                    links.append(invite.join(f"Chatter {number}"))
            counts: dict[str, Any] = {"kept": 0, "refused": 0, "dropped": 0}
            threads = [
                threading.Thread(target=chat_member, args=(url, link, seconds, counts))
                for link in links
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            with RoomClient(made["gm"]) as gm:
                used = gm.view()["text"]
                gm.end_session()
                started = time.monotonic()
                lines = gm.export()
                took = time.monotonic() - started
            audit = verify(lines)
        finally:
            stop_process(process)
    size = sum(len(line) + 1 for line in lines)
    print(
        f"\n{members} members of one invite chatted 2,000-character lines as fast as allowed "
        f"for {seconds:g} s: {counts['kept']:,} kept, {counts['refused']:,} refused "
        f"({counts['dropped']} sockets dropped) "
        f"(“{counts.get('why', '')}”); typed {used['used'] / 2**20:.2f} MiB of the room's "
        f"{used['limit'] / 2**20:g} MiB (their invite's share {used['share'] / 2**20:g} MiB). "
        f"The GM's export: {audit.entries:,} entries, {size / 1e6:.1f} MB, streamed in "
        f"{took:.1f} s, verifies: {audit.view}."
    )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=64.0, help="the long room's size")
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="seconds of quiet and loaded windows in all"
    )
    parser.add_argument("--chat", type=float, default=30.0, help="seconds eleven members chat")
    asked = parser.parse_args(argv)
    run(asked.mb, asked.seconds, asked.chat)


if __name__ == "__main__":
    main(sys.argv[1:])
