"""Deadweight board game benchmark (issues 4 and 16): random self-play steps and full games
per second on one core and on all cores, on the plain and the compiled engine (engine.py),
`clone` per second, MCTS simulations per second.

Anchors, run in the same process: OpenSpiel's C++ four-player dice race `maedn`, driven by
the same kind of Python loop (legal actions, a uniform choice, an apply; a chance outcome
drawn uniformly), and a pure-Python reference loop (a four-player dice race shaped like
OpenSpiel's Python games) that shows how fast the machine is at the moment. Goals: issue 16's
500 random four-player games/s per core and 1 M steps/s; issue 4's 100 k clones/s and 2 000
MCTS simulations/s.

The one-core rows are timed twice: by the clock, and by the process's own CPU time (what
`time.process_time` counts), which other programs loading the machine barely change; both
sides of every ratio are timed the same way in the same run.
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
from tabletop.games.deadweight_board.engine import COMPILED, FAST, SCALAR, Engine
from tabletop.games.deadweight_board.state import CHANCE, OVER

OPENSPIEL_PYTHON_STEPS = (45_000, 170_000)
GOAL_STEPS, GOAL_GAMES, GOAL_CLONES, GOAL_SIMULATIONS = 1_000_000, 500, 100_000, 2_000
SERIAL_GAMES = 100
PARALLEL_GAMES = 400
MAEDN_SECONDS = 3.0


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


def _maedn() -> tuple[int, int, float, float]:
    """OpenSpiel's C++ `maedn`, four random players, for `MAEDN_SECONDS`: (games, steps,
    seconds, CPU seconds)."""
    import pyspiel

    game = pyspiel.load_game("maedn")
    chooser = random.Random(1)
    games = steps = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < MAEDN_SECONDS:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()  # uniform: the die's six faces
                state.apply_action(outcomes[int(chooser.random() * len(outcomes))][0])
            else:
                state.apply_action(chooser.choice(state.legal_actions()))
            steps += 1
        games += 1
    return games, steps, time.perf_counter() - start, time.process_time() - cpu_start


def _random_game(seed: int, engine: Engine = FAST) -> int:
    """One full four-player game of random bots, played out by the engine's own loop (the
    game stepping `RandomBot` and `roll_chance` plays); returns its steps (decisions and
    chance)."""
    dice = SeededDice(seed)
    state = engine.new_game(4, dice=dice)
    return engine.random_playout(state, dice.generator, random.Random(seed))


def _serial(games: int, engine: Engine) -> tuple[int, float, float]:
    """Steps of `games` random games in this process: (steps, seconds, CPU seconds)."""
    start, cpu_start = time.perf_counter(), time.process_time()
    steps = sum(_random_game(seed, engine) for seed in range(games))
    return steps, time.perf_counter() - start, time.process_time() - cpu_start


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
    maedn_games, maedn_steps, maedn_seconds, maedn_cpu = _maedn()
    maedn_rates = {
        "/s": (maedn_steps / maedn_seconds, maedn_games / maedn_seconds),
        " per CPU-second": (maedn_steps / maedn_cpu, maedn_games / maedn_cpu),
    }
    engines = [SCALAR] + ([COMPILED] if COMPILED else [])
    serial = {engine.name: _serial(SERIAL_GAMES, engine) for engine in engines}
    steps, seconds, _ = serial[FAST.name]
    step_rate = steps / seconds
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
        f"Random bots, default rules (turn cap 600), {SERIAL_GAMES} games on one core per "
        f"engine, {PARALLEL_GAMES} on {jobs} processes with the {FAST.name} engine; "
        f"{steps / SERIAL_GAMES:,.0f} steps per game (decisions and chance events). maedn: "
        f"{maedn_games:,} games in {maedn_seconds:.1f} s, {maedn_steps / maedn_games:,.0f} steps "
        "per game.\n"
    )
    print("| measure | tabletop | anchor | ratio |\n| --- | ---: | ---: | ---: |")
    for timing, (maedn_step_rate, maedn_game_rate) in maedn_rates.items():
        for name, (engine_steps, engine_seconds, engine_cpu) in serial.items():
            spent = engine_seconds if timing == "/s" else engine_cpu
            rate_here = engine_steps / spent
            print(
                f"| steps{timing}, one core, {name} engine | {rate_here:,.0f} | maedn "
                f"{maedn_step_rate:,.0f}; goal {GOAL_STEPS:,} | "
                f"{ratio(rate_here, maedn_step_rate)}; {ratio(rate_here, GOAL_STEPS)} |"
            )
            games_here = SERIAL_GAMES / spent
            print(
                f"| 4-player games{timing}, one core, {name} engine | {games_here:,.1f} | "
                f"goal {GOAL_GAMES:,}; maedn {maedn_game_rate:,.0f} | "
                f"{ratio(games_here, GOAL_GAMES)}; {ratio(games_here, maedn_game_rate)} |"
            )
    if COMPILED:
        scalar_steps, scalar_seconds, _ = serial[SCALAR.name]
        print(
            f"| compiled ÷ plain engine, steps/s | {step_rate:,.0f} | "
            f"{scalar_steps / scalar_seconds:,.0f} | "
            f"{ratio(step_rate, scalar_steps / scalar_seconds)} |"
        )
    print(
        f"| pure-Python reference loop (dice race), steps/s | {race_rate:,.0f} | "
        f"OpenSpiel Python games {OPENSPIEL_PYTHON_STEPS[0]:,}–{OPENSPIEL_PYTHON_STEPS[1]:,} | "
        f"{ratio(race_rate, OPENSPIEL_PYTHON_STEPS[1])} of the upper |"
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
        f"| clones/s (mid-game states, plain engine) | {clone_rate:,.0f} | goal "
        f"{GOAL_CLONES:,} | {ratio(clone_rate, GOAL_CLONES)} |"
    )
    print(
        f"| MCTS simulations/s (300 per decision, plain engine) | {sim_rate:,.0f} | goal "
        f"{GOAL_SIMULATIONS:,} | {ratio(sim_rate, GOAL_SIMULATIONS)} |"
    )
    print()
