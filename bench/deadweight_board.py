"""Deadweight board game benchmark (issue 4): random self-play steps and full games per second
on one core and on all cores, `clone` per second, MCTS simulations per second.

Anchors: the issue's numbers measured on this machine (OpenSpiel's pure-Python games 45-170 k
steps/s; its C++ four-player dice race "maedn" about 1 100 games/s from Python) and the goals
(100 k steps/s, 500 four-player games/s per core, 100 k clones/s, 2 000 MCTS simulations/s).
A pure-Python reference loop, run in the same process, shows how fast this machine is at the
moment: a four-player dice race shaped like OpenSpiel's Python games (a state object, a list
of legal actions, a uniform choice, an apply).
"""

from __future__ import annotations

import os
import random
import time
from multiprocessing import Pool

from bench.timing import rate, ratio
from tabletop.dice import SeededDice
from tabletop.games.deadweight_board import (
    MctsBot,
    apply_in_place,
    legal_actions,
    new_game,
    roll_chance,
)
from tabletop.games.deadweight_board.rules import apply_unchecked
from tabletop.games.deadweight_board.state import CHANCE, OVER

OPENSPIEL_PYTHON_STEPS = (45_000, 170_000)
MAEDN_GAMES = 1_100
GOAL_STEPS, GOAL_GAMES, GOAL_CLONES, GOAL_SIMULATIONS = 100_000, 500, 100_000, 2_000
SERIAL_GAMES = 60
PARALLEL_GAMES = 240


class _RaceState:
    """The reference loop's game: four runners race 30 squares; a d6 chance node, then the
    runner chooses to move the roll or half of it."""

    __slots__ = ("chance", "player", "positions", "roll")

    def __init__(self) -> None:
        self.positions = [0, 0, 0, 0]
        self.player = 0
        self.chance = True
        self.roll = 0

    def legal_actions(self) -> list[int]:
        return [self.roll, max(1, self.roll // 2)]

    def apply(self, action: int) -> None:
        if self.chance:
            self.roll = action
            self.chance = False
            return
        self.positions[self.player] += action
        self.player = (self.player + 1) % 4
        self.chance = True

    def over(self) -> bool:
        return max(self.positions) >= 30


def _race_steps(games: int, seed: int = 1) -> tuple[int, float]:
    chooser = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        state = _RaceState()
        while not state.over():
            if state.chance:
                state.apply(chooser.randint(1, 6))
            else:
                state.apply(chooser.choice(state.legal_actions()))
            steps += 1
    return steps, time.perf_counter() - start


def _random_game(seed: int) -> int:
    """One full four-player game of random bots; returns its steps (decisions and chance)."""
    dice = SeededDice(seed)
    state = new_game(4, dice=dice)
    chooser = random.Random(seed)
    steps = 0
    while state.phase != OVER:
        if state.phase == CHANCE:
            action = roll_chance(state, dice)
        else:
            action = chooser.choice(legal_actions(state))
        apply_unchecked(state, action)
        steps += 1
    return steps


def _serial(games: int) -> tuple[int, float]:
    start = time.perf_counter()
    steps = sum(_random_game(seed) for seed in range(games))
    return steps, time.perf_counter() - start


def _parallel(games: int, jobs: int) -> tuple[int, float]:
    start = time.perf_counter()
    with Pool(jobs) as pool:
        steps = sum(pool.map(_random_game, range(games), chunksize=4))
    return steps, time.perf_counter() - start


def _positions(count: int = 40) -> list:
    dice = SeededDice(11)
    state = new_game(4, dice=dice)
    chooser = random.Random(11)
    found = []
    while state.phase != OVER and len(found) < count:
        if state.phase == CHANCE:
            apply_in_place(state, roll_chance(state, dice))
            continue
        actions = legal_actions(state)
        if len(actions) > 1 and state.turn > 20:
            found.append(state.clone())
        apply_in_place(state, chooser.choice(actions))
    return found


def run() -> None:
    print("## Deadweight board game\n")
    race_steps, race_seconds = _race_steps(4_000)
    race_rate = race_steps / race_seconds
    steps, seconds = _serial(SERIAL_GAMES)
    step_rate, game_rate = steps / seconds, SERIAL_GAMES / seconds
    jobs = os.cpu_count() or 1
    all_steps, all_seconds = _parallel(PARALLEL_GAMES, jobs)
    positions = _positions()
    clone_rate = rate(lambda: [p.clone() for p in positions]) * len(positions)
    bot = MctsBot(1, simulations=300)
    start = time.perf_counter()
    simulations = 0
    for position in positions[:20]:
        bot.choose(position)
        simulations += bot.last_simulations
    sim_rate = simulations / (time.perf_counter() - start)

    print(
        f"Random bots, default rules (turn cap 600), {SERIAL_GAMES} games on one core, "
        f"{PARALLEL_GAMES} on {jobs} processes; {steps / SERIAL_GAMES:,.0f} steps per game "
        "(decisions and chance events).\n"
    )
    print("| measure | tabletop | anchor | ratio |\n| --- | ---: | ---: | ---: |")
    print(
        f"| pure-Python reference loop (dice race), steps/s | {race_rate:,.0f} | "
        f"OpenSpiel Python games {OPENSPIEL_PYTHON_STEPS[0]:,}–{OPENSPIEL_PYTHON_STEPS[1]:,} | "
        f"{ratio(race_rate, OPENSPIEL_PYTHON_STEPS[1])} of the upper |"
    )
    print(
        f"| steps/s, one core | {step_rate:,.0f} | goal {GOAL_STEPS:,} | "
        f"{ratio(step_rate, GOAL_STEPS)} |"
    )
    print(
        f"| steps/s, one core, against the reference loop | {step_rate:,.0f} | "
        f"{race_rate:,.0f} | {ratio(step_rate, race_rate)} |"
    )
    print(
        f"| full 4-player games/s, one core | {game_rate:,.1f} | goal {GOAL_GAMES:,}; "
        f"maedn {MAEDN_GAMES:,} | {ratio(game_rate, GOAL_GAMES)}; {ratio(game_rate, MAEDN_GAMES)} |"
    )
    print(
        f"| steps/s, {jobs} processes | {all_steps / all_seconds:,.0f} | goal {GOAL_STEPS:,} "
        f"per core | {ratio(all_steps / all_seconds, GOAL_STEPS * jobs)} |"
    )
    print(
        f"| full games/s, {jobs} processes | {PARALLEL_GAMES / all_seconds:,.1f} | goal "
        f"{GOAL_GAMES:,} per core | {ratio(PARALLEL_GAMES / all_seconds, GOAL_GAMES * jobs)} |"
    )
    print(
        f"| clones/s (mid-game states) | {clone_rate:,.0f} | goal {GOAL_CLONES:,} | "
        f"{ratio(clone_rate, GOAL_CLONES)} |"
    )
    print(
        f"| MCTS simulations/s (300 per decision) | {sim_rate:,.0f} | goal "
        f"{GOAL_SIMULATIONS:,} | {ratio(sim_rate, GOAL_SIMULATIONS)} |"
    )
    print()
