"""The uniformly random bot: every legal action equally likely."""

from __future__ import annotations

import random

from tabletop.games.deadweight_board.rules import legal_actions
from tabletop.games.deadweight_board.state import State


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator (never from
    the game's dice, so a game replays from its seed and the recorded choices alone)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, state: State) -> int:
        return self._random.choice(legal_actions(state))
