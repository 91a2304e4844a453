"""Timing helpers shared by the benchmarks: warm loops in process, cold runs in a subprocess."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable


def rate(action: Callable[[], object], seconds: float = 0.4, repeats: int = 5) -> float:
    """Calls per second of `action`: the best of `repeats` timed loops of about `seconds`."""
    per_loop = _calls_per_loop(action, seconds)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(per_loop):
            action()
        best = min(best, (time.perf_counter() - start) / per_loop)
    return 1 / best


def rates(
    actions: dict[str, Callable[[], object]],
    rounds: int = 40,
    clock: Callable[[], float] = time.perf_counter,
    seconds: float = 0.01,
) -> dict[str, float]:
    """Calls per second of each action: the best of `rounds` loops of about `seconds` each,
    taken in turn, so that a change in the machine's load touches them all alike. `clock`
    may be `time.thread_time`, which counts only this thread's time on a core: the time other
    programs take the core away does not count (their use of its caches still does, so the
    shorter the loop, the likelier one runs untouched)."""
    calls = {name: _calls_per_loop(action, seconds, clock) for name, action in actions.items()}
    best = dict.fromkeys(actions, float("inf"))
    for _ in range(rounds):
        for name, action in actions.items():
            start = clock()
            for _ in range(calls[name]):
                action()
            best[name] = min(best[name], (clock() - start) / calls[name])
    return {name: 1 / seconds for name, seconds in best.items()}


def _calls_per_loop(
    action: Callable[[], object], seconds: float, clock: Callable[[], float] = time.perf_counter
) -> int:
    """How many calls of `action` take about `seconds` on `clock` (sized on the clock the loops
    are timed on: sized on the wall while the machine stalled, a loop would be a call or two,
    timed mostly on caches the other actions left cold)."""
    calls = 1
    while True:
        start = clock()
        for _ in range(calls):
            action()
        elapsed = clock() - start
        if elapsed > seconds / 10:
            return max(1, int(calls * seconds / elapsed))
        calls *= 4


def best_seconds(action: Callable[[], object], repeats: int = 5) -> float:
    """The fastest of `repeats` single calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def cold_seconds(cases: dict[str, tuple[str, str, str]], runs: int = 9) -> dict[str, float]:
    """Best time of each case's statement, run once in a fresh interpreter after its
    setup and a warm-up (so imports and first-call initialisation are not counted, but no
    cache can already hold the answer). Cases are `name: (setup, warm_up, statement)`; their
    runs are interleaved so that a change in the machine's speed touches them all alike, and
    the best run is kept: noise on a shared machine only ever adds time."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, (setup, warm_up, statement) in cases.items():
            program = "\n".join(
                [
                    "import time",
                    setup,
                    warm_up,
                    "start = time.perf_counter()",
                    statement,
                    "print(time.perf_counter() - start)",
                ]
            )
            output = subprocess.run(
                [sys.executable, "-c", program], capture_output=True, text=True, check=True
            )
            times[name].append(float(output.stdout.strip().splitlines()[-1]))
    return {name: min(values) for name, values in times.items()}


def ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}×"
