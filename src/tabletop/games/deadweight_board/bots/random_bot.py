"""The uniformly random bot: every legal action equally likely; and whole games of it."""

from __future__ import annotations

import random

from tabletop.dice.draw import draw_below
from tabletop.games.deadweight_board.rules import (
    apply_unchecked,
    chance_count,
    chance_outcome,
    legal_actions,
)
from tabletop.games.deadweight_board.state import CHANCE, OVER, State


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator (never from
    the game's dice, so a game replays from its seed and the recorded choices alone)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, state: State) -> int:
        actions = legal_actions(state)
        return actions[draw_below(self._random, len(actions))]


def random_playout(state: State, dice: random.Random, chooser: random.Random) -> int:
    """Play `state` to the end, every seat a `RandomBot` drawing from `chooser` and the
    chance events from `dice` (a `SeededDice`'s generator), in one loop that the compiled
    engine runs without returning to Python; the game is the one that stepping
    `RandomBot.choose` and `roll_chance` plays. Returns the steps taken."""
    steps = 0
    while state.phase != OVER:
        if state.phase == CHANCE:
            action = chance_outcome(state, draw_below(dice, chance_count(state)))
        else:
            actions = legal_actions(state)
            action = actions[draw_below(chooser, len(actions))]
        apply_unchecked(state, action)
        steps += 1
    return steps
