"""2d6 action-point rules benchmark. Goals (issue 6): exact check and contest odds at least as
fast as icepool answers the same question; exact death-check odds faster than a million
sampled episodes; sampled episodes far faster than playing them through the rules; a round
of the validated AP tracker (new state and an event per change) at 10,000 a second or more,
shown against bare list arithmetic for scale."""

from __future__ import annotations

import icepool

from bench.timing import best_seconds, rate, ratio
from tabletop.dice import SeededDice
from tabletop.systems.ap2d6 import (
    APTracker,
    action_cost,
    check_odds,
    contest_odds,
    death_check,
    simulate_death,
    stabilise_chance,
    standard_sheet,
    take_damage,
)

EPISODES = 1_000_000
MOVE = action_cost("(1n1)")
HEAVY = action_cost("(2n2)")


def _icepool_check() -> object:
    return ((2 @ icepool.d6) >= 7).probability(True)


def _icepool_contest() -> object:
    difference = (2 @ icepool.d6 + 1) - (2 @ icepool.d6)
    return difference.probability(">=", 0)


def _episode(dice: SeededDice) -> bool:
    character, _ = take_damage(standard_sheet("Ayla"), 18, dice)
    while character.dying.rolling:
        character, _ = death_check(character, dice)
    return bool(character.dying.survived)


def _tracker_round() -> APTracker:
    tracker, _ = APTracker().pay(HEAVY, "heavy")
    tracker, _ = tracker.pay(MOVE, "move")
    tracker, _ = tracker.start_round()
    return tracker


def _bare_round() -> list[int]:
    tokens = [0, 0, 0]
    tokens[0], tokens[1] = 2, 2
    tokens[2] = 1
    return sorted(max(cell - 1, 0) for cell in tokens)


def run() -> None:
    print("## 2d6 action-point rules\n")
    print("### Exact odds per second, against icepool asking the same question\n")
    print("| question | tabletop | icepool | tabletop ÷ icepool |\n| --- | ---: | ---: | ---: |")
    cases = [
        ("P(2d6 ≥ 7)", lambda: check_odds(0, 7), _icepool_check),
        ("contest, +1 against +0", lambda: contest_odds(1, 0), _icepool_contest),
    ]
    for label, ours, theirs in cases:
        mine, anchor = rate(ours), rate(theirs)
        print(f"| {label} | {mine:,.0f} | {anchor:,.0f} | {ratio(mine, anchor)} |")

    print("\n### Death checks: exact odds, sampling, and playing episodes through the rules\n")
    exact_seconds = best_seconds(lambda: stabilise_chance(), repeats=3)
    sampled_seconds = best_seconds(lambda: simulate_death(EPISODES, seed=1), repeats=3)
    dice = SeededDice(1)
    played = rate(lambda: _episode(dice), seconds=0.5, repeats=3)
    sampled_rate = EPISODES / sampled_seconds
    print("| measure | value |\n| --- | ---: |")
    print(f"| exact P(stabilise), ms | {exact_seconds * 1000:.2f} |")
    print(f"| {EPISODES:,} sampled episodes (numpy), ms | {sampled_seconds * 1000:.1f} |")
    print(f"| exact ÷ sampled time | {ratio(exact_seconds, sampled_seconds)} |")
    print(f"| episodes/s through the rules (pydantic state, every die recorded) | {played:,.0f} |")
    print(f"| episodes/s sampled | {sampled_rate:,.0f} |")
    print(f"| sampled ÷ through the rules | {ratio(sampled_rate, played)} |")
    print(
        f"\nexact P(stabilise) = {float(stabilise_chance()):.5f}, "
        f"sampled = {simulate_death(EPISODES, seed=1):.5f}\n"
    )

    print("### AP tracker: a round of (2n2), (1n1) and the shift, per second\n")
    ours, bare = rate(_tracker_round), rate(_bare_round)
    print("| validated tracker | bare list | bare ÷ tracker |\n| ---: | ---: | ---: |")
    print(f"| {ours:,.0f} | {bare:,.0f} | {ratio(bare, ours)} |")
