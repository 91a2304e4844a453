"""Bots choose legal actions, reproducibly from their seeds; MCTS keeps to its budget."""

from __future__ import annotations

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board.bots import (
    GreedyBot,
    MctsBot,
    RandomBot,
    make_bot,
    win_chances,
)
from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.rules import apply_in_place, legal_actions, roll_chance
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.simulate import play_game
from tabletop.games.deadweight_board.state import CHANCE, OVER


def _positions(count: int = 25):
    dice = SeededDice(4)
    state = new_game(4, make_config(turn_cap=60), dice)
    bot = RandomBot(1)
    found = []
    while state.phase != OVER and len(found) < count:
        if state.phase == CHANCE:
            apply_in_place(state, roll_chance(state, dice))
            continue
        if len(legal_actions(state)) > 1:
            found.append(state.clone())
        apply_in_place(state, bot.choose(state))
    return found


def test_every_bot_chooses_a_legal_action():
    for bot in (RandomBot(1), GreedyBot(1), MctsBot(1, simulations=30)):
        for state in _positions():
            assert bot.choose(state) in legal_actions(state)


def test_mcts_keeps_to_its_simulation_budget_and_is_reproducible():
    state = _positions()[5]
    first, second = MctsBot(7, simulations=40), MctsBot(7, simulations=40)
    assert first.choose(state) == second.choose(state)
    assert first.last_simulations == 40


def test_mcts_time_budget():
    bot = make_bot("mcts:0.05s", 1)
    bot.choose(_positions()[3])
    assert bot.last_simulations >= 1


def test_win_chances_are_a_distribution():
    for state in _positions():
        chances = win_chances(state)
        assert abs(sum(chances) - 1) < 1e-9 and min(chances) >= 0


def test_a_game_between_bots_is_reproducible_from_its_seed():
    config = make_config(turn_cap=30)
    a = play_game(["greedy", "random", "mcts:20"], config, seed=5)
    b = play_game(["greedy", "random", "mcts:20"], config, seed=5)
    assert (a.scores, a.turns, a.winners) == (b.scores, b.turns, b.winners)
