"""Deadweight bot strength (issue 4): MCTS against greedy, greedy against random, head to head
over a few hundred games with 95% intervals. A benchmark, not a test: the margin is measured
and recorded, never asserted.

Each pairing plays two-player games with the seats swapped every game, so both bots play first
equally often; an even match is 50%. `DEADWEIGHT_STRENGTH_GAMES` sets the games per pairing
(default 200); the run uses every core.
"""

from __future__ import annotations

import os
import time

from tabletop.games.deadweight_board import run_games
from tabletop.games.deadweight_board.simulate import Summary

PAIRINGS = [("greedy", "random"), ("mcts", "greedy")]


def run() -> None:
    games = int(os.environ.get("DEADWEIGHT_STRENGTH_GAMES", "200"))
    print("## Deadweight bot strength\n")
    print(
        f"Two-player games, seats swapped every game, {games} games per pairing, default "
        "rules, every core. MCTS: 200 simulations per decision, root seeded with the greedy "
        "lookahead (worth 20 simulations).\n"
    )
    print(
        "| pairing | first bot wins | 95% interval | shared | mean turns | seconds |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: |"
    )
    for first, second in PAIRINGS:
        start = time.perf_counter()
        summary = Summary(2)
        for record in run_games(games, [first, second], 2, seed=2026, jobs=0):
            summary.add(record)
        rates = {bot: (rate, ci) for bot, rate, ci in summary.bot_rates()}
        rate, (low, high) = rates[first]
        print(
            f"| {first} vs {second} | {rate:.1%} | {low:.1%}–{high:.1%} | "
            f"{summary.shared_wins} | {summary.length()['mean']:.0f} | "
            f"{time.perf_counter() - start:.0f} |"
        )
    print()
