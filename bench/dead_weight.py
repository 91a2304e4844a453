"""Dead Weight's re-roll advisor. Goal (issue 3): the exact odds of every choice of an open
test in under 50 ms for pools up to 8 dice with up to 3 re-rolls a side, the first time it
is asked. Anchors, in the same run: a naive exact enumeration over every ordered throw and
every die (small pools only: it grows far too fast), and sampling the state machine itself
with both sides following the advice (what it costs to estimate the same odds to about
±1 percentage point)."""

from __future__ import annotations

import time

from tests.systems.dead_weight.brute import Rules, solve_brute

from bench.timing import best_seconds, ratio
from tabletop.dice import FixedDice, SeededDice
from tabletop.systems.dead_weight import (
    Attribute,
    Attributes,
    AttributeState,
    Character,
    TestSetup,
    advise,
    best_choice,
    start_test,
)
from tabletop.systems.dead_weight.solver import Solution, Spec, solve

SAMPLED_TESTS = 2_000
"""Tests played for the sampling anchor (a standard error of about 1 point)."""


def _roller(score: int, proficiency: int) -> Character:
    state = AttributeState(score=score, proficiency=proficiency)
    return Character(attributes=Attributes().with_(Attribute.DEX, state))


def _first_advice(dice: int, rerolls: int) -> float:
    """Seconds for the first `advise` on a freshly thrown test, nothing cached."""
    roller = _roller(dice, rerolls)
    setup = TestSetup(attribute=Attribute.DEX, disadvantage=rerolls)
    faces = [1, 2, 3, 4, 5, 6, 1, 2][:dice]

    def ask() -> None:
        solve.cache_clear()
        test, _ = start_test(roller, setup, FixedDice(faces))
        advise(test)

    return best_seconds(ask)


def _sampled(dice: int, rerolls: int) -> float:
    roller = _roller(dice, rerolls)
    setup = TestSetup(attribute=Attribute.DEX, disadvantage=rerolls)
    source = SeededDice(1)
    start = time.perf_counter()
    for _ in range(SAMPLED_TESTS):
        test, _ = start_test(roller, setup, source)
        while not test.finished:
            test, _ = test.choose(best_choice(test), source)
    return time.perf_counter() - start


def run() -> None:
    print("## Dead Weight\n")
    print(
        "### The advisor's first answer on an open test (nothing cached), in milliseconds, "
        f"against sampling {SAMPLED_TESTS:,} tests through the state machine\n"
    )
    print(
        "| pool | re-rolls a side | advisor | sampling | sampling ÷ advisor |\n"
        "| ---: | ---: | ---: | ---: | ---: |"
    )
    for dice in (2, 4, 6, 8):
        ours = _first_advice(dice, 3)
        sampled = _sampled(dice, 3) if dice in (2, 8) else None
        shown = f"{sampled * 1e3:,.0f}" if sampled else "-"
        versus = ratio(sampled, ours) if sampled else "-"
        print(f"| {dice} | 3 | {ours * 1e3:.1f} | {shown} | {versus} |")
    print(
        "\n### Exact odds before the throw, against naive enumeration of every ordered "
        "throw (the same fractions), in milliseconds\n"
    )
    print("| pool | re-rolls a side | solver | naive enumeration | naive ÷ solver |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for dice, rerolls in ((1, 3), (2, 2), (2, 3), (3, 2)):
        ours = best_seconds(lambda d=dice, r=rerolls: Solution(Spec(d, (r, r))).opening())
        start = time.perf_counter()
        naive = solve_brute(Rules(own_dice=dice, proficiency=rerolls, disadvantage=rerolls))
        theirs = time.perf_counter() - start
        assert naive == Solution(Spec(dice, (rerolls, rerolls))).opening()
        print(
            f"| {dice} | {rerolls} | {ours * 1e3:.1f} | {theirs * 1e3:,.0f} | "
            f"{ratio(theirs, ours)} |"
        )
    print()
