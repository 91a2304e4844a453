"""The uniformly random bot: every legal action equally likely."""

from __future__ import annotations

import random

from tabletop.dice.source import draw_below
from tabletop.games.deadweight_board.rules import legal_actions
from tabletop.games.deadweight_board.state import State


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator (never from
    the game's dice, so a game replays from its seed and the recorded choices alone)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, state: State) -> int:
        actions = legal_actions(state)
        return actions[draw_below(self._random, len(actions))]
