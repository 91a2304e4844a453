"""3d6 Constitution benchmark. Goals: exact check odds (exploding 20s, advantage dice,
natural 1s, every degree) faster than icepool answering the same question; a full check
with its record (validated model, rendered line) within 4× of a bare `1d20!` roll; sampled
degrees within 2× of plain numpy; a combat step (legal actions + one move) measured against
one check."""

from __future__ import annotations

import icepool
import numpy as np

from bench.timing import best_seconds, rate, ratio
from tabletop.dice import SeededDice, roll
from tabletop.systems.constitution import Combat, Combatant, apply, check, legal_actions
from tabletop.systems.constitution.check import resolve_degree
from tabletop.systems.constitution.combat import Add
from tabletop.systems.constitution.odds import check_odds, sample_degrees

DEPTH = 12
"""Explosions icepool is given: the depth our series reaches for a plain check."""

ODDS_CASES = [
    ("d20 + 10 vs 20", 10, 20, 0),
    ("advantage ×2, +5 vs 25", 5, 25, 2),
    ("disadvantage ×3, +12 vs 18", 12, 18, -3),
]

SAMPLES = 1_000_000


def _icepool_degrees(score: int, dc: int, net: int) -> dict[int, object]:
    """The same degree distribution in icepool's vocabulary (natural 1 = kept value 1)."""
    die = icepool.d20.explode(depth=DEPTH)
    dice = [die] * (1 + abs(net))
    kept = icepool.highest(*dice) if net >= 0 else icepool.lowest(*dice)
    degrees = kept.map(lambda value: resolve_degree(value, score, dc))
    return dict(zip(degrees.outcomes(), degrees.probabilities(), strict=True))


def _numpy_degrees(score: int, dc: int) -> np.ndarray:
    """Plain numpy: d20s with one level of explosion, margin to degrees, natural 1 stepped."""
    rng = np.random.default_rng(1)
    first = rng.integers(1, 21, SAMPLES)
    value = first + np.where(first == 20, rng.integers(1, 21, SAMPLES), 0)
    margin = value + score - dc
    degree = np.where(margin >= 0, 1 + margin // 5, -(1 + (-margin) // 5))
    return np.where(first == 1, np.where(degree == 1, -1, degree - 1), degree)


def _fight_step() -> object:
    dice = SeededDice(1)
    combat = Combat()
    for cid, side in (("A", "party"), ("B", "party"), ("C", "foes"), ("D", "foes")):
        combat, _ = apply(
            combat, Add(combatant=Combatant(id=cid, name=cid, side=side, hp=30)), dice
        )
    state = {"combat": combat, "turn": 0}

    def step() -> None:
        options = legal_actions(state["combat"])  # type: ignore[arg-type]
        if not options:
            state["combat"] = combat
            return
        state["turn"] += 1  # type: ignore[operator]
        choice = options[state["turn"] % len(options)]  # type: ignore[operator]
        state["combat"], _ = apply(state["combat"], choice, dice)  # type: ignore[arg-type]

    return step


def run() -> None:
    print("## 3d6 Constitution\n")
    print("### Exact odds of every degree of a check, in milliseconds (best of 5)\n")
    print("| question | tabletop | icepool | icepool ÷ tabletop |\n| --- | ---: | ---: | ---: |")
    for label, score, dc, net in ODDS_CASES:
        adv, dis = max(net, 0), max(-net, 0)
        ours = best_seconds(
            lambda s=score, d=dc, a=adv, b=dis: check_odds(s, d, advantage=a, disadvantage=b)
        )
        theirs = best_seconds(lambda s=score, d=dc, n=net: _icepool_degrees(s, d, n))
        print(f"| {label} | {ours * 1e3:.2f} | {theirs * 1e3:.2f} | {ratio(theirs, ours)} |")

    print("\n### Checks per second, with the record of every die, against a bare `1d20!`\n")
    print("| roll | tabletop check | bare roll | check ÷ bare roll |")
    print("| --- | ---: | ---: | ---: |")
    dice = SeededDice(2)
    ours = rate(lambda: check(10, 20, dice))
    bare = rate(lambda: roll("1d20!", dice))
    print(f"| d20 + 10 vs 20 | {ours:,.0f} | {bare:,.0f} | {ratio(ours, bare)} |")
    ours = rate(lambda: check(10, 20, dice, advantage=2))
    bare = rate(lambda: roll("3d20!kh1", dice))
    print(f"| with 2 advantage dice | {ours:,.0f} | {bare:,.0f} | {ratio(ours, bare)} |")

    print(f"\n### Degrees of {SAMPLES:,} sampled checks, against plain numpy (millions a second)\n")
    print("| check | tabletop | numpy | tabletop ÷ numpy |\n| --- | ---: | ---: | ---: |")
    ours = SAMPLES / best_seconds(lambda: sample_degrees(10, 20, SAMPLES, seed=1)) / 1e6
    theirs = SAMPLES / best_seconds(lambda: _numpy_degrees(10, 20)) / 1e6
    print(f"| d20 + 10 vs 20 | {ours:.1f} | {theirs:.1f} | {ratio(ours, theirs)} |")

    print("\n### Combat: one bot move (legal actions, then apply) against one check\n")
    print("| what | per second | check ÷ move |\n| --- | ---: | ---: |")
    moves = rate(_fight_step())  # type: ignore[arg-type]
    checks = rate(lambda: check(10, 20, dice))
    print(f"| a move in a four-combatant fight | {moves:,.0f} | {ratio(checks, moves)} |")
    print()
