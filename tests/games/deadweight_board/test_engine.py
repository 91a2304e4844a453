"""ENG-13: the compiled engine (engine.py, setup.py) plays exactly the games the plain rules play:
identical logs, step by step (every line carries the state's digest), over thousands of
random games under varied configs and table sizes, and with greedy and MCTS seats, whose
search reads and clones compiled states through the plain modules. The random self-play loop
(`random_playout`, what the benchmark runs) plays the games that stepping a `RandomBot` and
`roll_chance` plays, on either engine."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board import engine
from tabletop.games.deadweight_board.log import replay_lines
from tabletop.games.deadweight_board.simulate import game_seed, play_game
from tabletop.games.deadweight_board.state import CHANCE, OVER
from tests.effort import tried
from tests.games.deadweight_board.test_encoding import CONFIGS

compiled = pytest.mark.skipif(engine.COMPILED is None, reason="the compiled engine is not built")
CHUNKS = 8
GAMES_PER_CHUNK = tried(250)
"""2,000 random games in all (a third of them in a quick run: tests/effort.py), in chunks
the two test processes share."""


def both_logs(bots: list[str], config_index: int, seed: int) -> tuple[list[str], list[str]]:
    config = CONFIGS[config_index]
    return tuple(
        play_game(bots, config, seed, log=True, engine=chosen).log
        for chosen in (engine.SCALAR, engine.COMPILED)
    )


def stepped(chosen: engine.Engine, players: int, config_index: int, seed: int) -> tuple:
    """A random game stepped one call at a time: (steps, final digest)."""
    dice = SeededDice(seed)
    state = chosen.new_game(players, CONFIGS[config_index], dice)
    bot = chosen.random_bot(seed)
    steps = 0
    while state.phase != OVER:
        action = chosen.roll_chance(state, dice) if state.phase == CHANCE else bot.choose(state)
        chosen.apply_unchecked(state, action)
        steps += 1
    return steps, state.digest()


def played_out(chosen: engine.Engine, players: int, config_index: int, seed: int) -> tuple:
    """The same game through `random_playout`: (steps, final digest)."""
    dice = SeededDice(seed)
    state = chosen.new_game(players, CONFIGS[config_index], dice)
    steps = chosen.random_playout(state, dice.generator, random.Random(seed))
    return steps, state.digest()


PLAYOUTS = tried(150)


@pytest.mark.parametrize(
    "chosen",
    [
        engine.SCALAR,
        pytest.param(
            engine.COMPILED,
            marks=pytest.mark.skipif(engine.COMPILED is None, reason="not built"),
        ),
    ],
    ids=["plain", "compiled"],
)
def test_random_playout_plays_the_game_a_stepped_random_bot_plays(chosen):
    for index in range(PLAYOUTS):
        game = (2 + index % 3, index % len(CONFIGS), game_seed(13, index))
        assert played_out(chosen, *game) == stepped(engine.SCALAR, *game), f"game {index}"


@compiled
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_log_the_same_line_for_line_on_both_engines(chunk):
    for index in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        players = 2 + index % 3
        scalar, fast = both_logs(["random"] * players, index % len(CONFIGS), game_seed(7, index))
        assert fast == scalar, f"game {index} differs"


@compiled
def test_full_length_games_and_searching_bots_agree_on_both_engines():
    for index in range(4):
        scalar, fast = both_logs(["random"] * 4, 0, game_seed(11, index))
        assert fast == scalar
    scalar, fast = both_logs(["greedy", "mcts:30", "random"], 1, 5)
    assert fast == scalar
    assert replay_lines(fast) == 1


@compiled
def test_the_fast_engine_is_the_compiled_one_when_built():
    assert engine.FAST is engine.COMPILED


def test_without_the_compiled_engine_the_plain_rules_serve():
    """A machine that could not build it (no compiler, `TABLETOP_PURE=1`) runs the same."""
    code = (
        "import sys\nsys.modules['tabletop.games.deadweight_board.fast'] = None\n"
        "from tabletop.games.deadweight_board import engine\n"
        "from tabletop.games.deadweight_board.simulate import play_game\n"
        "assert engine.COMPILED is None and engine.FAST is engine.SCALAR\n"
        "print(play_game(['random', 'greedy'], seed=3).scores)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(play_game(["random", "greedy"], seed=3).scores)
