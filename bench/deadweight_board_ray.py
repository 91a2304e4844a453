"""Simulation on Ray against local processes (issue 16, item 3): games/s on this machine both
ways, Ray's cost per task, and what a cluster of N machines would give.

The same run (random four-player games, default rules, the fastest engine here) is played by
`simulate.run_games` on every core and by `run_games_on_ray` on a local Ray with as many
CPUs; the records are checked equal. Ray's per-task overhead is measured with tasks that do
nothing. The cluster estimate assumes N machines like this one, games in batches of
`MAX_BATCH`, and a driver that hands out tasks one overhead apart:
games/s ≈ min(N × local rate, MAX_BATCH ÷ overhead).
"""

from __future__ import annotations

import os
import time

from tabletop.games.deadweight_board.envs.ray_backend import MAX_BATCH, run_games_on_ray
from tabletop.games.deadweight_board.simulate import run_games

GAMES = 800
EMPTY_TASKS = 2_000
MACHINES = (1, 4, 16, 64, 256)


def _timed(records) -> tuple[list, float]:
    start = time.perf_counter()
    played = list(records)
    return played, time.perf_counter() - start


def _nothing() -> None:
    """The empty task whose round trip is Ray's per-task cost."""


def run() -> None:
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    cores = os.cpu_count() or 1
    seats = ["random"]
    local, local_seconds = _timed(run_games(GAMES, seats, 4, seed=1, jobs=cores))
    start = time.perf_counter()
    ray.init(num_cpus=cores, include_dashboard=False, log_to_driver=False)
    started = time.perf_counter() - start
    try:
        on_ray, ray_seconds = _timed(run_games_on_ray(GAMES, seats, 4, seed=1))
        nothing = ray.remote(_nothing)
        ray.get([nothing.remote() for _ in range(100)])
        start = time.perf_counter()
        ray.get([nothing.remote() for _ in range(EMPTY_TASKS)])
        overhead = (time.perf_counter() - start) / EMPTY_TASKS
    finally:
        ray.shutdown()
    same = "identical" if on_ray == local else "DIFFERENT"
    local_rate, ray_rate = GAMES / local_seconds, GAMES / ray_seconds
    print("## Deadweight board game on Ray\n")
    print(
        f"{GAMES} random four-player games, default rules, {cores} cores; records {same} "
        f"between the backends. Ray started in {started:.1f} s (not counted below).\n"
    )
    print("| backend | games/s | ratio to local |\n| --- | ---: | ---: |")
    print(f"| local processes ({cores}) | {local_rate:,.1f} | 1.00× |")
    share = ray_rate / local_rate
    print(f"| Ray on this machine ({cores} CPUs) | {ray_rate:,.1f} | {share:.2f}× |")
    print(
        f"\nRay's cost per task (empty tasks, {EMPTY_TASKS:,} in flight): "
        f"{overhead * 1000:.2f} ms; a task carries up to {MAX_BATCH} games.\n"
    )
    print("| machines like this one | estimated games/s | limited by |\n| ---: | ---: | --- |")
    ceiling = MAX_BATCH / overhead
    for machines in MACHINES:
        estimate = min(machines * ray_rate, ceiling)
        limit = "the machines" if machines * ray_rate < ceiling else "the driver's task rate"
        print(f"| {machines} | {estimate:,.0f} | {limit} |")
    print()
