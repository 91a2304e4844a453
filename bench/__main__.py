"""`make bench` / `python -m bench [NAME ...]`: run the benchmarks and print Markdown tables."""

from __future__ import annotations

import importlib
import platform
import sys

SUITES = [
    "dice",
    "dialects",
    "sampling",
    "constitution",
    "ap2d6",
    "dead_weight",
    "rollunder",
    "deadweight_board",
    "deadweight_board_strength",
    "deadweight_board_ray",
    "deadweight_board_table",
    "rooms",
    "rooms_store",
    "rooms_reads",
    "witness",
]
"""Benchmark modules under bench/, each with a `run()` that prints its tables."""


def main(names: list[str]) -> None:
    chosen = names or SUITES
    unknown = [name for name in chosen if name not in SUITES]
    if unknown:
        sys.exit(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(SUITES)}")
    print(f"# Benchmarks on {platform.machine()}, Python {platform.python_version()}\n")
    for name in chosen:
        importlib.import_module(f"bench.{name}").run()


if __name__ == "__main__":
    main(sys.argv[1:])
