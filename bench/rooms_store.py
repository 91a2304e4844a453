"""A shard's round on PostgreSQL, alone: a hall holding its room by lease appends dice rolls
on pgserver in rounds of 1, 5 and 10, with the round's opening (`LeasedStore.foresee`: two
round trips a round) against the same code asking each request's resent-id check as it
comes (the anchor: a round trip a request more). The hall's CPU from `process_time`, the
database's from /proc of its backend, in µs an intent; the best of three turns, taken in
turn so that the machine's other work falls on both alike. The tables are analyzed after
the warm-up: before PostgreSQL has any statistics its plans may look a member's client ids
up through the wrong index, scanning all their entries (3 ms an intent here at 8,000).

Run: `.venv/bin/python -m bench rooms_store` (about a minute on two cores).
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

from bench.rooms import start_postgres
from bench.timing import ratio
from tabletop.rooms import Hall
from tabletop.rooms.leased import LeasedStore
from tabletop.rooms.postgres import PostgresStore

ROLLS = 2_000
"""Rolls appended in each turn of each way."""

ROUNDS = (1, 5, 10)
"""Rolls a round."""

TURNS = 3
"""Turns of each way at each round size; the best is kept."""

ROLL = {"kind": "roll", "notation": "1d6"}


@dataclass(frozen=True)
class Cost:
    """CPU µs an intent: the hall's (client) and the database backend's."""

    client: float
    database: float


def backend_seconds(pid: int) -> float:
    """The CPU seconds (user and system) the process `pid` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def appending(hall: Hall, store: LeasedStore, room: str, size: int, opened: bool) -> Cost:
    """Append `ROLLS` rolls in rounds of `size`, opening each round or not."""
    backend = store._db.info.backend_pid
    clients = iter(os.urandom(8).hex() + str(n) for n in range(ROLLS))
    client_before, database_before = time.process_time(), backend_seconds(backend)
    for _ in range(ROLLS // size):
        names = [next(clients) for _ in range(size)]
        with store.batch():
            if opened:
                store.foresee({room: [("m1", name, None) for name in names]})
            for name in names:
                hall.act(room, "m1", ROLL, name)
    client = time.process_time() - client_before
    database = backend_seconds(backend) - database_before
    return Cost(client / ROLLS * 1e6, database / ROLLS * 1e6)


def best(costs: list[Cost]) -> Cost:
    """The least CPU each side used in any turn."""
    return Cost(min(cost.client for cost in costs), min(cost.database for cost in costs))


def run() -> None:
    print("## A round on PostgreSQL, alone\n")
    print(
        f"A hall holding its room by lease appends {ROLLS:,} `1d6` rolls on pgserver, in "
        "rounds of each size; CPU µs an intent, the best of "
        f"{TURNS} turns. The anchor asks each request's resent-id check as it comes.\n"
    )
    with tempfile.TemporaryDirectory() as where, start_postgres(Path(where) / "pg") as server:
        server.psql("CREATE DATABASE rooms_store;")
        url = str(server.get_uri("rooms_store"))
        maker = PostgresStore(url)
        room = str(Hall(maker).create("dice", "the crypt").extra["room"])
        maker.close()
        store = LeasedStore(url, "bench", lease=600.0)
        store.take(room)
        hall = Hall(store)
        for opened in (True, False):  # every statement prepared, every path warm
            appending(hall, store, room, 5, opened)
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("ANALYZE")  # as autovacuum does on a live server within a minute
        print(
            "| rolls a round | client, opened | client, anchor | opened ÷ anchor "
            "| database, opened | database, anchor | opened ÷ anchor |\n"
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
        )
        for size in ROUNDS:
            costs: dict[bool, list[Cost]] = {True: [], False: []}
            for _ in range(TURNS):
                for opened in (True, False):
                    costs[opened].append(appending(hall, store, room, size, opened))
            ours, anchor = best(costs[True]), best(costs[False])
            print(
                f"| {size} | {ours.client:,.0f} | {anchor.client:,.0f} | "
                f"{ratio(ours.client, anchor.client)} | {ours.database:,.0f} | "
                f"{anchor.database:,.0f} | {ratio(ours.database, anchor.database)} |"
            )
        store.close()
    print()
