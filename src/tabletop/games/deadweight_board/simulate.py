"""Bots playing whole games: one game with an optional log, or many on all cores.

Each game draws its dice from its own seed (derived from the run's seed and the game's
number), and each bot from its own generator, so a run is reproducible whatever `jobs` is,
and each logged game replays from its seed and the recorded choices.
"""

from __future__ import annotations

import math
import os
import signal
import statistics
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board.bots import Bot, make_bot, replayable_bot
from tabletop.games.deadweight_board.config import DeadweightConfig, default_config
from tabletop.games.deadweight_board.engine import FAST, Engine
from tabletop.games.deadweight_board.errors import ConfigError
from tabletop.games.deadweight_board.log import GameLog
from tabletop.games.deadweight_board.state import (
    CHANCE,
    COLOURS,
    EVACUATION,
    FINAL,
    OVER,
)

MAX_GAMES = 1_000_000
MAX_LOGGED_GAMES = 10_000
"""Bounds on one run: games simulated, and games written to a `--log` file."""
MAX_JOBS = 64


def game_seed(run_seed: int, index: int) -> int:
    """The dice seed of game `index` of a run: spread out, reproducible, never negative."""
    return (run_seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9) % (1 << 63)


def bot_seed(seed: int, seat: int) -> int:
    return (seed * 31 + seat + 1) % (1 << 63)


@dataclass
class GameRecord:
    """What one game came to, for reports."""

    seed: int
    bots: list[str]
    winners: list[int]
    scores: list[int]
    loot_values: list[int]
    turns: int
    steps: int
    aborted: bool
    counters: dict[str, int]
    evacuation_turn: int | None = None
    final_turn: int | None = None
    leaders_at_final: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    @property
    def returns(self) -> list[float]:
        share = 1 / len(self.winners) if self.winners else 0.0
        return [share if p in self.winners else 0.0 for p in range(len(self.bots))]


def seat_order(seats: Sequence[str], players: int, index: int, rotate: bool) -> list[str]:
    """The bots in seat order for game `index`: the list repeated to fill the table, turned
    one seat per game when `rotate` so every bot plays every seat equally often."""
    if not seats:
        raise ConfigError("name at least one bot for the seats")
    filled = [seats[i % len(seats)] for i in range(players)]
    if rotate:
        shift = index % players
        filled = filled[shift:] + filled[:shift]
    return filled


def seat_bot(name: str, seed: int, engine: Engine = FAST) -> Bot:
    """The bot for one seat; a random seat plays through `engine`'s own legal actions."""
    return engine.random_bot(seed) if name == "random" else make_bot(name, seed)


def play_game(
    bots: Sequence[str],
    config: DeadweightConfig | None = None,
    seed: int = 0,
    *,
    log: bool = False,
    game_number: int = 0,
    engine: Engine = FAST,
) -> GameRecord:
    """Play one game with the bots named in seat order; `log` keeps its JSON lines. Either
    engine (engine.py) plays the same game."""
    config = config or default_config()
    dice = SeededDice(seed)
    state = engine.new_game(len(bots), config, dice)
    state.stats = {}
    seeds = [bot_seed(seed, seat) for seat in range(len(bots))]
    players = [seat_bot(name, drawn, engine) for name, drawn in zip(bots, seeds, strict=True)]
    record = GameLog(game_number) if log else None
    if record:
        record.setup(seed, list(bots), seeds, state)
    steps = 0
    evacuation_turn = final_turn = None
    leaders: list[int] = []
    while state.phase != OVER:
        chance = state.chance if state.phase == CHANCE else -1
        owner = state.owner
        action = engine.roll_chance(state, dice) if chance >= 0 else players[owner].choose(state)
        text = engine.describe(state, action) if record else ""
        engine.apply_unchecked(state, action)
        if record:
            if chance >= 0:
                record.chance(chance, action, text, state)
            else:
                record.decision(owner, action, text, state)
        steps += 1
        if evacuation_turn is None and state.stage >= EVACUATION:
            evacuation_turn = state.turn
        if final_turn is None and state.stage >= FINAL:
            final_turn = state.turn
            leaders = state.leaders()
    if record:
        record.end(state)
    return GameRecord(
        seed=seed,
        bots=list(bots),
        winners=list(state.winners),
        scores=state.scores(),
        loot_values=[state.loot_value(p) for p in range(state.n)],
        turns=state.turn,
        steps=steps,
        aborted=state.aborted,
        counters=dict(state.stats or {}),
        evacuation_turn=evacuation_turn,
        final_turn=final_turn,
        leaders_at_final=leaders,
        log=record.lines if record else [],
    )


@dataclass(frozen=True)
class RunSpec:
    """What a simulation run plays: picklable, handed to every worker once."""

    seats: tuple[str, ...]
    players: int
    config: DeadweightConfig
    seed: int
    rotate: bool
    log: bool


_SPEC: RunSpec | None = None


def _init_worker(spec: RunSpec) -> None:
    """Each worker leaves Ctrl-C to the parent, which stops the whole pool, and ends
    quietly when the pool terminates it."""
    global _SPEC
    _SPEC = spec
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _play_index(index: int) -> GameRecord:
    assert _SPEC is not None
    return play_indexed(_SPEC, index)


def play_indexed(spec: RunSpec, index: int) -> GameRecord:
    """Game `index` of a run: its seats and seed follow from the index alone, so any worker
    on any machine plays the same game."""
    bots = seat_order(spec.seats, spec.players, index, spec.rotate)
    return play_game(
        bots, spec.config, game_seed(spec.seed, index), log=spec.log, game_number=index
    )


def plan_run(
    games: int,
    seats: Sequence[str],
    players: int | None = None,
    config: DeadweightConfig | None = None,
    seed: int = 0,
    *,
    rotate: bool = True,
    log: bool = False,
) -> RunSpec:
    """Check a run's arguments before any game is played, so a refused run has done nothing."""
    players = players or len(seats)
    if not 1 <= games <= MAX_GAMES:
        raise ConfigError(f"play between 1 and {MAX_GAMES:,} games")
    if log and games > MAX_LOGGED_GAMES:
        raise ConfigError(f"a log holds at most {MAX_LOGGED_GAMES:,} games")
    if not 2 <= players <= 4:
        raise ConfigError(f"Deadweight is for 2 to 4 players, not {players}")
    if len(seats) > players:
        raise ConfigError(f"{len(seats)} seats named for {players} players")
    build = replayable_bot if log else make_bot  # a logged game must replay
    for name in set(seats):
        build(name, 0)
    return RunSpec(tuple(seats), players, config or default_config(), seed, rotate, log)


def run_games(
    games: int,
    seats: Sequence[str],
    players: int | None = None,
    config: DeadweightConfig | None = None,
    seed: int = 0,
    *,
    jobs: int = 1,
    rotate: bool = True,
    log: bool = False,
) -> Iterator[GameRecord]:
    """Play `games` games, yielding each record in game order; `jobs` > 1 spreads them
    over that many processes (0 means one per core). envs/ray_backend.py plays the same
    games on a Ray cluster."""
    spec = plan_run(games, seats, players, config, seed, rotate=rotate, log=log)
    jobs = jobs or os.cpu_count() or 1
    if not 1 <= jobs <= MAX_JOBS:
        raise ConfigError(f"jobs must be 0 (all cores) to {MAX_JOBS}")
    return _play_all(spec, games, jobs)


def _play_all(spec: RunSpec, games: int, jobs: int) -> Iterator[GameRecord]:
    if jobs == 1 or games == 1:
        for index in range(games):
            yield play_indexed(spec, index)
        return
    chunk = max(1, min(16, games // (jobs * 8)))
    with Pool(jobs, initializer=_init_worker, initargs=(spec,)) as pool:
        yield from pool.imap(_play_index, range(games), chunksize=chunk)


# --- summaries -----------------------------------------------------------------------------


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """A 95% Wilson score interval for a proportion (shared wins count fractionally)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Summary:
    """Totals over many games, the raw material of `simulate` and `report`."""

    players: int
    games: int = 0
    seat_wins: list[float] = field(default_factory=list)
    bot_wins: Counter = field(default_factory=Counter)
    bot_games: Counter = field(default_factory=Counter)
    turns: list[int] = field(default_factory=list)
    evacuation_turns: list[int] = field(default_factory=list)
    evacuation_lengths: list[int] = field(default_factory=list)
    after_flood: list[int] = field(default_factory=list)
    """Turns each flooded game went on after the flood, to the end or to the turn cap."""
    aborted: int = 0
    shared_wins: int = 0
    tie_break_decided: int = 0
    final_round_changed: int = 0
    final_rounds: int = 0
    score_spreads: list[int] = field(default_factory=list)
    winning_scores: list[int] = field(default_factory=list)
    counters: Counter = field(default_factory=Counter)
    steps: int = 0

    def add(self, record: GameRecord) -> None:
        if not self.seat_wins:
            self.seat_wins = [0.0] * self.players
        self.games += 1
        self.steps += record.steps
        for seat, share in enumerate(record.returns):
            self.seat_wins[seat] += share
            self.bot_wins[record.bots[seat]] += share
            self.bot_games[record.bots[seat]] += 1
        self.turns.append(record.turns)
        if record.evacuation_turn is not None:
            self.evacuation_turns.append(record.evacuation_turn)
            self.after_flood.append(record.turns - record.evacuation_turn)
            if record.final_turn is not None:
                self.evacuation_lengths.append(record.final_turn - record.evacuation_turn)
        self.aborted += record.aborted
        self.shared_wins += len(record.winners) > 1
        top = max(record.scores)
        if sum(1 for s in record.scores if s == top) > 1 and len(record.winners) == 1:
            self.tie_break_decided += 1
        if record.leaders_at_final:
            self.final_rounds += 1
            if sorted(record.leaders_at_final) != sorted(record.winners):
                self.final_round_changed += 1
        self.score_spreads.append(top - min(record.scores))
        self.winning_scores.append(top)
        self.counters.update(record.counters)

    def seat_rates(self) -> list[tuple[str, float, tuple[float, float]]]:
        return [
            (COLOURS[seat], wins / self.games, wilson(wins, self.games))
            for seat, wins in enumerate(self.seat_wins)
        ]

    def bot_rates(self) -> list[tuple[str, float, tuple[float, float]]]:
        return [
            (bot, self.bot_wins[bot] / games, wilson(self.bot_wins[bot], games))
            for bot, games in sorted(self.bot_games.items())
        ]

    def length(self) -> dict[str, float]:
        turns = sorted(self.turns)
        deciles = (
            statistics.quantiles(turns, n=10, method="inclusive")
            if len(turns) > 1
            else [turns[0]] * 9
        )
        return {
            "min": turns[0],
            "p10": deciles[0],
            "median": statistics.median(turns),
            "mean": statistics.fmean(turns),
            "p90": deciles[-1],
            "max": turns[-1],
            "rounds_mean": statistics.fmean(turns) / self.players,
        }

    def group(self, prefix: str) -> dict[str, int]:
        """Counters under `prefix:`, without the prefix, largest first."""
        found = {
            key[len(prefix) + 1 :]: value
            for key, value in self.counters.items()
            if key.startswith(prefix + ":")
        }
        return dict(sorted(found.items(), key=lambda item: -item[1]))

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "players": self.players,
            "win_rate_by_seat": [
                {"seat": seat, "rate": rate, "ci95": list(ci)}
                for seat, rate, ci in self.seat_rates()
            ],
            "win_rate_by_bot": [
                {"bot": bot, "rate": rate, "ci95": list(ci), "games": self.bot_games[bot]}
                for bot, rate, ci in self.bot_rates()
            ],
            "length_turns": self.length(),
            "turn_cap_games": self.aborted,
            "turn_cap_rate": self.aborted / self.games if self.games else 0.0,
            "turns_after_flood_mean": (
                statistics.fmean(self.after_flood) if self.after_flood else None
            ),
            "shared_wins": self.shared_wins,
            "life_ring_sources": self.group("life_rings"),
            "plank_actions": self.group("plank_action"),
            "landing_choices": self.group("landing"),
            "station_options": self.group("station"),
            "counters": dict(sorted(self.counters.items())),
        }
