"""Dice dialects (issue 34): parsing and rolling in every dialect against `d20`, exact odds of
the dialects' own features against icepool, and the start of `tabletop roll` as a whole
process against `python -c "import typer, rich.console"` and `python -c pass`. Every ratio
is taken in the same run. Goals: every dialect at least as fast as d20, reading a roll's text
anew (cold) and from a parse cache (warm); exact odds at least as fast as icepool; a roll under
0.2 s. `python -m bench.dialects rolls` (or `exact`, `start`) runs one part alone."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import d20

from bench.timing import cold_seconds, rates, ratio
from tabletop.dice import SeededDice, prepare, roll
from tabletop.dice.parser import _parse_cached

# (dialect, our text, d20's text of the same roll)
ROLLS = [
    ("tabletop", "4d6kh3", "4d6kh3"),
    ("roll20", "4d6k3", "4d6kh3"),
    ("foundry", "4d6kh3", "4d6kh3"),
    ("avrae", "4d6kh3", "4d6kh3"),
    ("roll20", "1d20+5", "1d20+5"),
    ("roll20", "8d6r<1!k3", "8d6rr1e6kh3"),
    ("foundry", "8d6rr1xkh3", "8d6rr1e6kh3"),
    ("avrae", "8d6rr1e6kh3", "8d6rr1e6kh3"),
    ("roll20", "2d6 / 3 + 1", "2d6 / 3 + 1"),
]

# (label, dialect, our text, icepool's expression of the same law)
EXACT = [
    ("count 3 or more on 3d6", "roll20", "3d6>3", "3 @ (icepool.d6 >= 3)"),
    ("count 7 or more on 8d10", "roll20", "8d10>7", "8 @ (icepool.d10 >= 7)"),
    (
        "5d10, separate explosions, keep 2",
        "roll20",
        "5d10!k2",
        "icepool.d10.explode_to_pool(5, depth=20).highest(2).sum()",
    ),
    (
        "8d6, separate explosions, keep 3",
        "foundry",
        "8d6xkh3",
        "icepool.d6.explode_to_pool(8, depth=20).highest(3).sum()",
    ),
    ("4d6, re-roll 1s once", "foundry", "4d6r1", "4 @ icepool.d6.reroll([1], depth=1)"),
    ("floor(2d6 / 3)", "roll20", "floor(2d6/3)", "(2 @ icepool.d6) // 3"),
]

COMMANDS = {
    "tabletop roll 2d6": ["roll", "2d6"],
    "tabletop roll 4d6kh3": ["roll", "4d6kh3", "--seed", "1"],
    "tabletop roll --dialect roll20 '5d10!k2>6' --json": [
        "roll",
        "--dialect",
        "roll20",
        "5d10!k2>6",
        "--json",
        "--seed",
        "1",
    ],
    "tabletop odds 3d6>3": ["odds", "3d6>3"],
}
ANCHORS = {
    'python -c "import typer, rich.console"': [sys.executable, "-c", "import typer, rich.console"],
    "python -c pass": [sys.executable, "-c", "pass"],
}
RUNS = 15
ROUNDS = 200
"""Loops of each roll, cold and warm, tabletop's and d20's, taken in turn."""

INSTALLED = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
"""The environment of a user's shell: Python keeps its compiled modules, as an installed
package has them (a shell that sets PYTHONDONTWRITEBYTECODE compiles all of tabletop on
every start, which is not what a player's roll costs)."""


def _rolls() -> None:
    print("### Parse and roll in each dialect, against `d20` (rolls per second)\n")
    print(
        "Cold: every roll reads its text anew, tabletop's parse caches cleared before each "
        "and d20 rolling with a `Roller` whose parse cache holds nothing. Warm: both keep "
        "their parse caches (as d20's `roll` does). The four are timed in turn, the best of "
        f"{ROUNDS} loops of about 2 ms of each, on the thread's own time on a core "
        "(`time.thread_time`), so that other programs taking the core away add nothing.\n"
    )
    print(
        "| dialect | expression | tabletop, cold | d20, cold | cold ÷ d20 | tabletop, warm | "
        "d20, warm | warm ÷ d20 |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    )
    dice = SeededDice(1)
    forgetful = d20.Roller()
    forgetful._parse_cache = _Forgets()  # d20 keeps no public switch for its parse cache
    for dialect, ours, theirs in ROLLS:

        def cold(text: str = ours, reading: str = dialect) -> object:
            _parse_cached.cache_clear()
            prepare._read.cache_clear()
            prepare._canonical.cache_clear()
            return roll(text, dice, dialect=reading)

        found = rates(
            {
                "cold": cold,
                "d20 cold": lambda text=theirs: forgetful.roll(text),
                "warm": lambda text=ours, reading=dialect: roll(text, dice, dialect=reading),
                "d20 warm": lambda text=theirs: d20.roll(text),
            },
            rounds=ROUNDS,
            clock=time.thread_time,
            seconds=0.002,
        )
        print(
            f"| {dialect} | `{ours}` | {found['cold']:,.0f} | {found['d20 cold']:,.0f} | "
            f"{ratio(found['cold'], found['d20 cold'])} | {found['warm']:,.0f} | "
            f"{found['d20 warm']:,.0f} | {ratio(found['warm'], found['d20 warm'])} |"
        )


class _Forgets(dict[str, object]):
    """A parse cache that keeps nothing: d20 parses every roll's text anew."""

    def __setitem__(self, key: str, value: object) -> None:
        return None


def _exact() -> None:
    print(
        "\n### Exact odds of the dialects' features, first time asked, against icepool "
        "(fresh interpreter warmed up on d4s; best of 9 interleaved runs), in milliseconds\n"
    )
    print("| question | dialect | tabletop | icepool | icepool ÷ tabletop |")
    print("| --- | --- | ---: | ---: | ---: |")
    for label, dialect, ours, theirs in EXACT:
        warm_ours = ours.replace("d10", "d4").replace("d6", "d4")
        warm_theirs = theirs.replace("d10", "d4").replace("d6", "d4")
        cases = {
            "tabletop": (
                "from tabletop.dice import distribution",
                f"distribution({warm_ours!r}, dialect={dialect!r}).total",
                f"distribution({ours!r}, dialect={dialect!r}).total",
            ),
            "icepool": (
                "import icepool",
                f"({warm_theirs}).denominator()",
                f"({theirs}).denominator()",
            ),
        }
        times = cold_seconds(cases)
        print(
            f"| {label} | {dialect} `{ours}` | {times['tabletop'] * 1e3:.2f} | "
            f"{times['icepool'] * 1e3:.2f} | {ratio(times['icepool'], times['tabletop'])} |"
        )


def _start() -> None:
    print(
        f'\n### A command as a whole process, against `python -c "import typer, rich.console"`'
        f" and `python -c pass` (median of {RUNS} interleaved runs, compiled modules kept as"
        " an installed package keeps them), in seconds\n"
    )
    tabletop = str(Path(sys.executable).with_name("tabletop"))
    commands = {name: [tabletop, *args] for name, args in COMMANDS.items()} | ANCHORS
    for command in commands.values():  # compiles what a first start would
        _seconds(command)
    runs: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(RUNS):
        for name, command in commands.items():
            runs[name].append(_seconds(command))
    typer_rich, bare = (statistics.median(runs[name]) for name in ANCHORS)
    print(
        "| command | median | fastest | ÷ importing Typer and Rich | ÷ `python -c pass` |\n"
        "| --- | ---: | ---: | ---: | ---: |"
    )
    for name, times in runs.items():
        middle = statistics.median(times)
        print(
            f"| `{name}` | {middle:.3f} | {min(times):.3f} | {ratio(middle, typer_rich)} | "
            f"{ratio(middle, bare)} |"
        )


def _seconds(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=INSTALLED
    )
    return time.perf_counter() - start


PARTS = {"rolls": _rolls, "exact": _exact, "start": _start}


def run(parts: list[str] | None = None) -> None:
    print("## Dice dialects\n")
    for part in parts or PARTS:
        print(f"Load average at the start: {_load()}.\n")
        PARTS[part]()
        print(f"\nLoad average at the end: {_load()}.\n")


def _load() -> str:
    """The machine's load average over the last minute (two cores shared with others)."""
    return f"{os.getloadavg()[0]:.1f}"


if __name__ == "__main__":  # `python -m bench.dialects rolls`: one part alone
    run(sys.argv[1:])
