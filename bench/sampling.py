"""Sampling keep/drop pools, against the anchor of issue 17: an inverse-CDF numpy sampler
over the exact distribution (uniform floats found in the cumulative distribution). The goal:
at least its speed (it was 0.44× before pools were drawn from their exact tables). Also the
cost of asking for an exact distribution a second time, which the cache should make nil."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from bench.timing import best_seconds, cold_seconds, ratio
from tabletop.dice import distribution, sample

SAMPLES = 1_000_000

KEEP_POOLS = ["4d6kh3", "4d6dl1", "2d20kh1", "8d10kh4", "12d12kh6", "10d6kh3>=4"]

ASKED_AGAIN = ["4d6kh3", "100d6", "20d6kh10"]


def _inverse_cdf(expression: str) -> Callable[[], np.ndarray]:
    """The anchor, with its exact distribution computed before the timing starts."""
    odds = distribution(expression)
    values = np.array(odds.outcomes, dtype=np.int64)
    cumulative = np.cumsum([float(probability) for _, probability in odds])
    rng = np.random.default_rng(1)
    return lambda: values[np.searchsorted(cumulative, rng.random(SAMPLES), side="right")]


def _interleaved(
    ours: Callable[[], object], theirs: Callable[[], object], runs: int = 21
) -> tuple[float, float]:
    """The best time of each, their runs taken in turn so a busy moment touches both alike."""
    best = [float("inf"), float("inf")]
    for _ in range(runs):
        for index, action in enumerate((ours, theirs)):
            start = time.perf_counter()
            action()
            best[index] = min(best[index], time.perf_counter() - start)
    return best[0], best[1]


def run() -> None:
    print("## Sampling keep/drop pools\n")
    print(
        f"### {SAMPLES:,} rolls, against an inverse-CDF numpy sampler over the exact "
        "distribution (millions of rolls per second; best of 21 runs taken in turn; both "
        "build their table first)\n"
    )
    print("| pool | tabletop | inverse CDF | tabletop ÷ inverse CDF |")
    print("| --- | ---: | ---: | ---: |")
    for expression in KEEP_POOLS:
        sample(expression, SAMPLES, seed=1)  # builds and caches the drawing table
        ours_once, theirs_once = _interleaved(
            lambda e=expression: sample(e, SAMPLES, seed=1), _inverse_cdf(expression)
        )
        ours, theirs = SAMPLES / ours_once / 1e6, SAMPLES / theirs_once / 1e6
        print(f"| `{expression}` | {ours:.1f} | {theirs:.1f} | {ratio(ours, theirs)} |")

    print(
        "\n### An exact distribution asked a second time, in microseconds (first time: a "
        "fresh interpreter warmed up on `2d4`, best of 3)\n"
    )
    print("| question | first time | again | first ÷ again |\n| --- | ---: | ---: | ---: |")
    for expression in ASKED_AGAIN:
        setup = "from tabletop.dice import distribution"
        case = (setup, "distribution('2d4')", f"distribution({expression!r})")
        first = cold_seconds({"tabletop": case}, runs=3)["tabletop"]
        distribution(expression)
        again = best_seconds(lambda e=expression: distribution(e))
        times = f"{first * 1e6:,.0f} | {again * 1e6:,.1f} | {ratio(first, again)}"
        print(f"| `{expression}` | {times} |")
    print()
