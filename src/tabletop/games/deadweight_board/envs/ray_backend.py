"""Simulation runs spread over a Ray cluster (`simulate --backend ray`).

The games are those `simulate.run_games` plays: game `index` draws its seats and dice from
the run's seed and its index alone (`simulate.play_indexed`), so a Ray run yields the very
records a local run yields, in game order, whatever the cluster. Games travel in batches so
that Ray's per-task cost (measured in docs/benchmarks.md) is paid once per batch. Ray is
started here on this machine unless it is already running or `address` names a cluster; a
Ray started here is stopped when the run ends.
"""

from __future__ import annotations

import logging
import os
from collections import deque
from collections.abc import Iterator, Sequence

import ray

from tabletop.games.deadweight_board.config import DeadweightConfig
from tabletop.games.deadweight_board.errors import ConfigError
from tabletop.games.deadweight_board.simulate import GameRecord, RunSpec, plan_run, play_indexed

MAX_BATCH = 64
"""Games per Ray task at most; fewer when the run is small, so every CPU gets work."""
IN_FLIGHT_PER_CPU = 4
"""Tasks kept queued per cluster CPU while the finished ones are handed back in order."""


def play_batch(spec: RunSpec, start: int, stop: int) -> list[GameRecord]:
    """Games `start` to `stop - 1` of a run, played in one Ray task."""
    return [play_indexed(spec, index) for index in range(start, stop)]


def run_games_on_ray(
    games: int,
    seats: Sequence[str],
    players: int | None = None,
    config: DeadweightConfig | None = None,
    seed: int = 0,
    *,
    address: str | None = None,
    rotate: bool = True,
    log: bool = False,
) -> Iterator[GameRecord]:
    """`simulate.run_games` on Ray: the same records in the same order. The arguments are
    checked at the call; Ray is reached when the first record is asked for."""
    spec = plan_run(games, seats, players, config, seed, rotate=rotate, log=log)
    return _play_on_ray(spec, games, address)


def _connect(address: str | None) -> bool:
    """Reach Ray (start it here when no address is given); True when this call started it."""
    if ray.is_initialized():
        return False
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        ray.init(
            address=address,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.WARNING,
        )
    except (ConnectionError, RuntimeError, ValueError) as error:
        where = address or "this machine"
        raise ConfigError(f"cannot reach Ray on {where}: {str(error).splitlines()[0]}") from None
    return True


def _play_on_ray(spec: RunSpec, games: int, address: str | None) -> Iterator[GameRecord]:
    started = _connect(address)
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        batch = max(1, min(MAX_BATCH, games // (cpus * 8)))
        task = ray.remote(play_batch)
        shared = ray.put(spec)
        pending: deque = deque()
        for start in range(0, games, batch):
            pending.append(task.remote(shared, start, min(games, start + batch)))
            if len(pending) >= cpus * IN_FLIGHT_PER_CPU:
                yield from ray.get(pending.popleft())
        while pending:
            yield from ray.get(pending.popleft())
    finally:
        if started:
            ray.shutdown()
