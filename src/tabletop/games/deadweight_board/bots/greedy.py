"""The greedy bot: looks two of its own choices ahead and takes what looks best now.

Chance events on the way are averaged over their exact outcomes (die rolls), other players'
choices on the way are assumed to be their own best by the evaluation, and the lookahead
stops when the turn passes. It plans no further than that, hence "greedy".
"""

from __future__ import annotations

import random

from tabletop.games.deadweight_board.bots.heuristic import seat_values, value_after
from tabletop.games.deadweight_board.rules import (
    apply_unchecked,
    chance_outcomes,
    legal_actions,
)
from tabletop.games.deadweight_board.state import CHANCE, OVER, REVEAL_CARD, TIE_DRAW, State

WIDE = 10
"""Inside the lookahead, a choice with more options than this keeps only its best few by a
one-step evaluation (a brown Trade plank can offer 78 swaps)."""


class GreedyBot:
    """Maximises its estimated chance of winning after its next two choices (with haste
    once the ship has flooded: `heuristic.seat_values`)."""

    name = "greedy"

    def __init__(self, seed: int = 0, depth: int = 2) -> None:
        self._random = random.Random(seed)
        self.depth = depth

    def choose(self, state: State) -> int:
        actions = legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        me = state.owner
        scored = [(self._after(state, action, me, self.depth - 1), action) for action in actions]
        best = max(value for value, _ in scored)
        return self._random.choice([a for value, a in scored if value >= best - 1e-9])

    def value_of(self, state: State, action: int) -> float:
        """The decider's estimated win chance after `action`, looking ahead as `choose` does."""
        return self._after(state, action, state.owner, self.depth - 1)

    def _after(self, state: State, action: int, me: int, depth: int) -> float:
        child = state.clone()
        apply_unchecked(child, action)
        return self._value(child, me, depth)

    def _value(self, state: State, me: int, depth: int) -> float:
        if state.phase == OVER:
            return seat_values(state)[me]
        if state.phase == CHANCE:
            if state.chance in (REVEAL_CARD, TIE_DRAW):
                return seat_values(state)[me]
            return sum(
                float(probability) * self._after(state, outcome, me, depth)
                for outcome, probability in chance_outcomes(state)
            )
        if depth <= 0 or state.active != me:
            return seat_values(state)[me]
        owner = state.owner
        actions = legal_actions(state)
        if owner != me:
            reply = max(actions, key=lambda a: value_after(state, a, owner))
            return self._after(state, reply, me, depth - 1)
        if len(actions) > WIDE:
            actions = sorted(actions, key=lambda a: value_after(state, a, me))[-WIDE:]
        return max(self._after(state, action, me, depth - 1) for action in actions)
