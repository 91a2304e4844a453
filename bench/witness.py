"""What a witnessed roll costs (docs/rooms.md, "Dice anyone can audit"): one `tabletop serve`
on SQLite, one room per case, a roller's socket sending `1d6` rolls one after another and
timing each from send to ack, and witnesses on sockets of their own that answer each call
with the next value of their chains, one of them after a delay (a far or slow device).

The anchor, in the same run on the same server, is the same roll with no witness connected
(unwitnessed: what a roll cost before witnesses). Each row gives the p50 and p99 latency,
their ratio to the anchor's p50, the slowest witness's round trip (its ping, plus the delay
it answers a call after; every witness's taken at once, as a call's fan-out is) and what
the roll took beyond the anchor, over that round trip: the claim is that a roll costs at
most one round trip to the slowest connected witness (the ratio at most about 1). The last
case has a witness that never answers: the roll waits out the bound (`WITNESS_WAIT`, 2 s)
and no longer.

Run: `.venv/bin/python -m bench witness` (about a minute), or `.venv/bin/python -m
bench.witness --quick` (a few rolls a case: the shape of the report).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from tests.rooms.conftest import serve_in_process, stop_process
from websockets.asyncio.client import ClientConnection, connect

from tabletop.rooms.client import RoomClient, create_room
from tabletop.rooms.fairdice import new_chain
from tabletop.rooms.witness import WITNESS_WAIT

RATES = ("--rate", "1000", "--address-rate", "100000")
"""The rolls' own pace is measured, not the allowances that bound members and addresses."""


@dataclass(frozen=True)
class Case:
    name: str
    witnesses: int
    delay: float = 0.0
    """Seconds the slowest witness waits before it answers a call (None: it never does)."""
    silent: bool = False
    rolls: int = 200


CASES = (
    Case("anchor: no witness connected (unwitnessed)", 0),
    Case("1 witness", 1),
    Case("9 witnesses (a room of ten)", 9),
    Case("9 witnesses, one answering after 25 ms", 9, 0.025, rolls=100),
    Case("9 witnesses, one answering after 100 ms", 9, 0.100, rolls=40),
    Case("9 witnesses, one never answering", 9, silent=True, rolls=3),
)


class Witness:
    """A member's device: it answers every call that lists it with its chain's next value,
    after `delay` seconds (or never, when silent), and times its pings."""

    def __init__(self, link: str, delay: float, silent: bool) -> None:
        self.link, self.delay, self.silent = link, delay, silent
        self.values = new_chain(secrets.token_bytes(32), 512)
        self.used = 0
        self.member = ""
        self.pongs: asyncio.Queue[float] = asyncio.Queue()
        self.socket: ClientConnection | None = None

    async def open(self) -> None:
        room, token = self.link.split("/rooms/")[1].split("#")
        url = self.link.split("/rooms/")[0].replace("http", "ws", 1) + f"/rooms/{room}/live"
        self.socket = await connect(url, max_size=None, compression=None)
        hello = {"type": "hello", "token": token, "after": 0, "witness": self.values[-1]}
        await self.socket.send(json.dumps(hello))
        asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.socket is not None
        async for text in self.socket:
            frame = json.loads(text)
            kind = frame.get("type")
            if kind == "welcome":
                self.member = frame["member"]["id"]
            elif kind == "pong":
                self.pongs.put_nowait(time.perf_counter())
            elif kind == "call" and self.member in frame["witnesses"] and not self.silent:
                asyncio.get_running_loop().create_task(self._answer(frame["call"]))

    async def _answer(self, call: str) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        self.used += 1
        reveal = {"type": "reveal", "call": call, "value": self.values[-1 - self.used]}
        assert self.socket is not None
        await self.socket.send(json.dumps(reveal))

    async def round_trip(self) -> float:
        """Seconds from a ping to its pong, plus the delay this device answers a call after."""
        assert self.socket is not None
        sent = time.perf_counter()
        await self.socket.send(json.dumps({"type": "ping"}))
        return await self.pongs.get() - sent + self.delay

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()


async def slowest_round_trip(witnesses: list[Witness]) -> float:
    """The slowest of the witnesses' round trips taken at once, as a call's fan-out and its
    answers are: each a ping and its pong, plus the delay it answers a call after."""
    if not witnesses:
        return 0.0
    return max(await asyncio.gather(*(witness.round_trip() for witness in witnesses)))


async def rolls(link: str, count: int) -> list[float]:
    """Seconds from sending each roll to its ack, one roll after another."""
    room, token = link.split("/rooms/")[1].split("#")
    url = link.split("/rooms/")[0].replace("http", "ws", 1) + f"/rooms/{room}/live"
    taken = []
    async with connect(url, max_size=None, compression=None) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token, "after": 10**9}))
        for number in range(count):
            intent = {"kind": "roll", "notation": "1d6"}
            asked = {"type": "intent", "id": f"r{number}", "intent": intent}
            sent = time.perf_counter()
            await socket.send(json.dumps(asked))
            while True:
                frame = json.loads(await socket.recv())
                if frame.get("type") in ("ack", "error") and frame.get("id") == f"r{number}":
                    break
            if frame["type"] == "error":
                raise RuntimeError(frame["error"])
            taken.append(time.perf_counter() - sent)
    return taken


@dataclass
class Measured:
    case: Case
    latencies: list[float]
    slowest: float
    """The slowest witness's round trip, seconds (0 with none)."""
    listed: int


async def measure(url: str, case: Case) -> Measured:
    made = create_room(url, "dice", case.name[:60])
    links = []
    for number in range(case.witnesses + 1):
        with RoomClient(made["player"]) as invite:
            links.append(invite.join(f"P{number}"))
    witnesses = [
        Witness(link, case.delay if n == 0 else 0.0, case.silent and n == 0)
        for n, link in enumerate(links[1:])
    ]
    for witness in witnesses:
        await witness.open()
    await asyncio.sleep(0.2)  # every hello and its `room.witness` appended
    slowest = statistics.median([await slowest_round_trip(witnesses) for _ in range(5)])
    rolls_taken = await rolls(links[0], case.rolls)
    with RoomClient(links[0]) as roller:
        header = json.loads(roller.log()[-1]).get("witnessed", {})
    for witness in witnesses:
        await witness.close()
    return Measured(case, rolls_taken, slowest, len(header.get("witnesses", ())))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(measured: list[Measured]) -> None:
    anchor = statistics.median(measured[0].latencies)
    print(
        "| case | witnesses listed | rolls | p50 ms | p99 ms | p50 ÷ anchor "
        "| slowest round trip ms | beyond the anchor ms | beyond ÷ round trip |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    )
    for row in measured:
        p50, p99 = statistics.median(row.latencies), percentile(row.latencies, 0.99)
        beyond = p50 - anchor
        trip = f"{row.slowest * 1000:.1f}" if row.slowest else "–"
        if row.case.silent:
            trip = f"never (the bound: {WITNESS_WAIT:.0f} s)"
            share = f"{p50 / WITNESS_WAIT:.2f} of the bound"
        elif row.slowest:
            share = f"{beyond / row.slowest:.2f}"
        else:
            share = "–"
        print(
            f"| {row.case.name} | {row.listed} | {len(row.latencies)} | {p50 * 1000:.1f} "
            f"| {p99 * 1000:.1f} | {p50 / anchor:.1f}× | {trip} | {beyond * 1000:.1f} | {share} |"
        )


def main(quick: bool = False) -> None:
    print("## A witnessed roll's cost\n")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as where:
        process, url = serve_in_process("--data", str(Path(where) / "rooms"), *RATES)
        try:
            cases = [replace(c, rolls=min(c.rolls, 3)) if quick else c for c in CASES]
            measured = [asyncio.run(measure(url, case)) for case in cases]
        finally:
            stop_process(process)
    print(
        f"One `tabletop serve` on SQLite; each case its own room, its roller's `1d6` rolls "
        f"sent one after another; took {time.monotonic() - started:.0f} s.\n"
    )
    report(measured)
    print()


def run() -> None:
    main()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few rolls a case")
    main(parser.parse_args().quick)
