"""Dice engine benchmark: rolling against `d20`, exact odds against icepool and dyce,
sampling against plain numpy. Goals (issue 2): rolls faster than d20; exact odds faster
than the faster of icepool and dyce on every case; sampling within 2× of numpy."""

from __future__ import annotations

import d20
import numpy as np

from bench.timing import best_seconds, cold_seconds, rate, ratio
from tabletop.dice import SeededDice, distribution, roll, sample
from tabletop.errors import TabletopError

ROLLS = ["3d6", "1d20+5", "4d6kh3", "10d6"]

# (label, tabletop, icepool, dyce): the same question in each library's vocabulary, written
# with {s} for the die size and {t} for a target; it is asked once on a d4 to warm up the
# interpreter, then timed once on the die of the question.
EXACT = [
    ("3d6", "3d{s}", "3 @ icepool.d{s}", "3 @ H({s})"),
    ("4d6kh3", "4d{s}kh3", "icepool.d{s}.highest(4, 3)", "(4 @ P({s})).at(slice(1, None))"),
    ("10d6", "10d{s}", "10 @ icepool.d{s}", "10 @ H({s})"),
    ("20d6", "20d{s}", "20 @ icepool.d{s}", "20 @ H({s})"),
    ("100d6", "100d{s}", "100 @ icepool.d{s}", "100 @ H({s})"),
    ("2d20kh1", "2d{s}kh1", "icepool.d{s}.highest(2, 1)", "(2 @ P({s})).at(-1)"),
    ("8d6 counting ≥ 4", "8d{s}>={t}", "8 @ (icepool.d{s} >= {t})", "8 @ H({s}).ge({t})"),
    ("d6 exploding, 9 deep", "d{s}!:9", "icepool.d{s}.explode(depth=9)", "explode_n(H({s}), n=9)"),
]
SIZES = {"3d6": 6, "4d6kh3": 6, "10d6": 6, "20d6": 6, "100d6": 6, "2d20kh1": 20}

SETUPS = {
    "tabletop": ("from tabletop.dice import distribution", "distribution({!r}).total"),
    "icepool": ("import icepool", "({}).denominator()"),
    "dyce": ("from dyce import H, P, explode_n", "({}).total"),
}

SAMPLES = 1_000_000

REFUSED = [
    ("a billion dice", lambda: roll("1000000000d6")),
    ("a die with no sides", lambda: roll("d0")),
    ("10,000 nested parentheses", lambda: roll("(" * 10_000 + "1" + ")" * 10_000)),
    ("a 1 MB expression", lambda: roll("1" * 1_000_000)),
    ("exact odds of 1000d6kh500", lambda: distribution("1000d6kh500")),
    ("exact odds of 3000d6 * 3000d6", lambda: distribution("3000d6 * 3000d6")),
]


def _refusal_seconds(action: object) -> float:
    def attempt() -> None:
        try:
            action()  # type: ignore[operator]
        except TabletopError:
            return
        raise AssertionError("expected a refusal")

    return best_seconds(attempt)


def _numpy_baselines() -> dict[str, object]:
    rng = np.random.default_rng(1)
    return {
        "3d6": lambda: rng.integers(1, 7, size=(SAMPLES, 3)).sum(axis=1),
        "4d6kh3": lambda: np.sort(rng.integers(1, 7, size=(SAMPLES, 4)), axis=1)[:, 1:].sum(axis=1),
    }


def run() -> None:
    print("## Dice engine\n")
    print("### Rolls per second (with the record of every die), against `d20`\n")
    print("| expression | tabletop | d20 | tabletop ÷ d20 |\n| --- | ---: | ---: | ---: |")
    dice = SeededDice(1)
    for expression in ROLLS:
        ours = rate(lambda e=expression: roll(e, dice))
        theirs = rate(lambda e=expression: d20.roll(e))
        print(f"| `{expression}` | {ours:,.0f} | {theirs:,.0f} | {ratio(ours, theirs)} |")

    print(
        "\n### Exact distribution, first time asked (fresh interpreter warmed up on the same "
        "question with d4s; best of 9 interleaved runs), in milliseconds\n"
    )
    print(
        "| question | tabletop | icepool | dyce | faster rival ÷ tabletop |\n"
        "| --- | ---: | ---: | ---: | ---: |"
    )
    for label, *templates in EXACT:
        size = SIZES.get(label, 6)
        cases = {}
        for library, template in zip(SETUPS, templates, strict=True):
            setup, statement = SETUPS[library]
            warm = statement.format(template.format(s=4, t=3))
            cases[library] = (setup, warm, statement.format(template.format(s=size, t=4)))
        times = cold_seconds(cases)
        rival = min(times["icepool"], times["dyce"])
        print(
            f"| {label} | {times['tabletop'] * 1e3:.3f} | {times['icepool'] * 1e3:.3f} | "
            f"{times['dyce'] * 1e3:.3f} | {ratio(rival, times['tabletop'])} |"
        )

    print(f"\n### Sampling {SAMPLES:,} rolls, against plain numpy (millions of rolls per second)\n")
    print("| expression | tabletop | numpy | tabletop ÷ numpy |\n| --- | ---: | ---: | ---: |")
    for expression, baseline in _numpy_baselines().items():
        ours = SAMPLES / best_seconds(lambda e=expression: sample(e, SAMPLES, seed=1)) / 1e6
        theirs = SAMPLES / best_seconds(baseline) / 1e6  # type: ignore[arg-type]
        print(f"| `{expression}` | {ours:.1f} | {theirs:.1f} | {ratio(ours, theirs)} |")

    print("\n### Refusing inputs past the limits (the anchor: one second)\n")
    print("| input | time to refuse | share of a second |\n| --- | ---: | ---: |")
    for label, action in REFUSED:
        seconds = _refusal_seconds(action)
        print(f"| {label} | {seconds * 1e6:,.0f} µs | {ratio(seconds, 1.0)} |")
    print()
