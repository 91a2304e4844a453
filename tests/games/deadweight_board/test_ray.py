"""ENG-13: `simulate` and `report` on Ray (issue 16, item 3): the same seed and game count give the
same records as local processes, on a local Ray the tests start once."""

from __future__ import annotations

import os

import pytest
import ray

from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.envs.ray_backend import run_games_on_ray
from tabletop.games.deadweight_board.simulate import game_seed, run_games
from tests.games.deadweight_board.test_cli import _run, _short

pytestmark = pytest.mark.xdist_group("ray")
SHORT = make_config(turn_cap=40)


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray for these tests (about 3 s to start on an idle machine), shut down after
    them: its idle workers and daemons otherwise share the cores with the rest of the run."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_plays_the_records_local_processes_play(local_ray):
    seats = ["random", "greedy"]
    local = list(run_games(40, seats, 3, SHORT, seed=5, jobs=2, log=True))
    assert list(run_games_on_ray(40, seats, 3, SHORT, seed=5, log=True)) == local
    assert [record.seed for record in local] == [game_seed(5, index) for index in range(40)]


def test_simulate_and_report_print_the_same_with_backend_ray(local_ray, tmp_path, capsys):
    config = _short(tmp_path, 30)
    for verb in (["simulate", "--seats", "random,greedy"], ["report", "--no-plots"]):
        common = ["deadweight-board", *verb, "--games", "8", "--config", config, "--json"]
        code, local, _ = _run([*common, "--jobs", "2"], capsys)
        assert code == 0
        code, on_ray, _ = _run([*common, "--backend", "ray"], capsys)
        assert code == 0 and on_ray == local


def test_backend_and_address_are_checked_before_any_game(capsys):
    code, _, err = _run(["deadweight-board", "simulate", "--backend", "spark"], capsys)
    assert code == 2 and "--backend is local or ray" in err
    code, _, err = _run(["deadweight-board", "simulate", "--address", "10.1.1.1:6379"], capsys)
    assert code == 2 and "--address is for --backend ray" in err
