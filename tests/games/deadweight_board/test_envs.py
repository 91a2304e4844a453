"""ENG-12, the research environments (envs/): PettingZoo's, Gymnasium's and OpenSpiel's own checks
pass, rewards are each winner's share, a refused action changes nothing, and the core package
imports without the `rl` extra."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import mcts
from pettingzoo.test import api_test, seed_test

from tabletop.games.deadweight_board import MctsBot
from tabletop.games.deadweight_board.encoding import encode
from tabletop.games.deadweight_board.envs import aec_env, gym_env, register_openspiel
from tabletop.games.deadweight_board.envs.gym_env import ILLEGAL_REWARD
from tabletop.games.deadweight_board.errors import ConfigError, IllegalActionError
from tabletop.games.deadweight_board.observe import ALL_SEEING

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
SHORT = {"turn_cap": 24}


def first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("players", [2, 4])
def test_the_aec_environment_passes_pettingzoos_api_and_seed_tests(players):
    api_test(aec_env(players, **SHORT), num_cycles=300)
    seed_test(lambda: aec_env(players, **SHORT), num_cycles=300)


def test_an_aec_game_ends_with_each_winner_sharing_the_reward():
    env = aec_env(3, chest_visibility="hidden", **SHORT)
    env.reset(seed=4)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        env.step(None if terminated or truncated else first_legal(observation["action_mask"]))
    assert env.state is not None
    assert list(total.values()) == env.state.returns()
    assert sum(total.values()) == pytest.approx(1.0)


def test_an_aec_action_outside_the_mask_is_refused_and_changes_nothing():
    env = aec_env(2, **SHORT)
    env.reset(seed=1)
    assert env.state is not None
    before = env.state.digest()
    illegal = first_legal(1 - env.observe(env.agent_selection)["action_mask"])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.state.digest() == before


def test_the_gym_environment_passes_gymnasiums_checker():
    check_env(gym_env(3, opponents="random", **SHORT))
    check_env(gym_env(2, opponents=["greedy"], seat=1, render_mode="ansi", **SHORT))


def test_a_gym_episode_rewards_the_seats_share_and_replays_from_its_seed():
    def episode(seed: int) -> tuple[list[bytes], float]:
        env = gym_env(4, opponents="random", **SHORT)
        observation, info = env.reset(seed=seed)
        seen, reward, over = [observation.tobytes()], 0.0, False
        while not over:
            observation, reward, terminated, truncated, info = env.step(
                first_legal(info["action_mask"])
            )
            seen.append(observation.tobytes())
            over = terminated or truncated
        assert env.state is not None and reward == env.state.returns()[0]
        return seen, reward

    assert episode(9) == episode(9)
    assert episode(9)[0] != episode(10)[0]


def test_a_gym_action_outside_the_mask_ends_the_episode_and_changes_nothing():
    env = gym_env(2, opponents="random", **SHORT)
    _, info = env.reset(seed=2)
    assert env.state is not None
    before = env.state.digest()
    _, reward, terminated, truncated, info = env.step(first_legal(1 - info["action_mask"]))
    assert (reward, terminated, truncated) == (ILLEGAL_REWARD, True, False)
    assert info["illegal_action"] and env.state.digest() == before


def test_environments_refuse_a_bad_table_with_a_config_error():
    with pytest.raises(ConfigError):
        gym_env(5)
    with pytest.raises(ConfigError):
        gym_env(3, opponents=["random"])
    with pytest.raises(ConfigError):
        aec_env(2, render_mode="human")
    with pytest.raises(ConfigError):
        aec_env(2, turn_cap=-1)
    with pytest.raises(ConfigError):
        _load(2, "turn_cap=16")


def _load(players: int, options: str = "turn_cap:16"):
    import pyspiel

    register_openspiel()
    register_openspiel()
    return pyspiel.load_game(
        "python_deadweight_board", {"players": players, "options": options, "setup_seed": 3}
    )


def test_openspiel_runs_its_random_simulation_test_with_serialisation():
    import pyspiel

    games = [_load(2), _load(4), _load(3, "turn_cap:16 chest_visibility:hidden")]
    for game in games:
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_declares_explicit_chance_and_imperfect_information():
    import pyspiel

    game = _load(3, "turn_cap:300")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while not state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert all(game.num_distinct_actions() <= a < game.max_chance_outcomes() for a, _ in outcomes)
    seat = state.current_player() if state.current_player() >= 0 else 0
    assert np.array_equal(state.observation_tensor(seat), encode(state.board, seat))
    everything = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    observer = game.make_py_observer(everything)
    observer.set_from(state, 0)
    assert np.array_equal(observer.tensor, encode(state.board, ALL_SEEING))


def test_openspiels_python_mcts_plays_a_game_against_ours():
    game = _load(2)
    rng = np.random.RandomState(1)
    theirs = mcts.MCTSBot(
        game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng, solve=False
    )
    ours = MctsBot(1, simulations=20)
    state = game.new_initial_state()
    moves = [0, 0]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=chances)))
            continue
        seat = state.current_player()
        moves[seat] += 1
        state.apply_action(theirs.step(state) if seat == 0 else ours.choose(state.board))
    assert min(moves) > 0 and sum(state.returns()) == pytest.approx(1.0)


def test_the_core_package_imports_without_the_rl_libraries():
    blocked = ["pettingzoo", "gymnasium", "pyspiel", "open_spiel", "ray"]
    code = (
        f"import sys\nfor name in {blocked!r}: sys.modules[name] = None\n"
        "import tabletop.cli.app, tabletop.games.deadweight_board.envs\n"
        "from tabletop.games.deadweight_board.simulate import run_games\n"
        "print(sum(1 for _ in run_games(2, ['random'], 2)))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2"
