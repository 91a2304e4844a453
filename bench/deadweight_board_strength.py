"""Deadweight bot strength (issue 4): MCTS against greedy, greedy against random, head to head
over a few hundred games with 95% intervals. A benchmark, not a test: the margin is measured
and recorded, never asserted.

Each pairing plays two-player games with the seats swapped every game, so both bots play first
equally often; an even match is 50%. Then one MCTS seat plays three greedy seats, the seats
rotated every game; an even share is 25%. `DEADWEIGHT_STRENGTH_GAMES` sets the games per
pairing (default 200, four-player table included: a four-player margin over 25% needs as
many games as a two-player one over 50%); the run uses every core. `capped` counts the games
that ran to the turn cap (ENG-16).
"""

from __future__ import annotations

import os
import time

from tabletop.games.deadweight_board import run_games
from tabletop.games.deadweight_board.simulate import Summary

PAIRINGS = [("greedy", "random"), ("mcts", "greedy"), ("mcts", "greedy", "greedy", "greedy")]


def run() -> None:
    games = int(os.environ.get("DEADWEIGHT_STRENGTH_GAMES", "200"))
    print("## Deadweight bot strength\n")
    print(
        f"Two-player games, seats swapped every game, {games} games per pairing, default "
        "rules, every core; then one MCTS seat against three greedy seats, seats rotated, "
        f"{games} games. MCTS: 200 simulations per decision, root seeded with the greedy "
        "lookahead (worth 20 simulations).\n"
    )
    print(
        "| pairing | first bot wins | even share | 95% interval | shared | mean turns | capped "
        "| seconds |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    )
    for seats in PAIRINGS:
        start = time.perf_counter()
        players = len(seats)
        summary = Summary(players)
        for record in run_games(games, seats, players, seed=2026, jobs=0):
            summary.add(record)
        rates = {bot: (rate, ci) for bot, rate, ci in summary.bot_rates()}
        rate, (low, high) = rates[seats[0]]
        print(
            f"| {seats[0]} vs {' + '.join(seats[1:])} | {rate:.1%} | {1 / players:.0%} | "
            f"{low:.1%}–{high:.1%} | "
            f"{summary.shared_wins} | {summary.length()['mean']:.0f} | {summary.aborted} | "
            f"{time.perf_counter() - start:.0f} |"
        )
    print()
