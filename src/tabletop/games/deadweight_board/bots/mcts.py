"""A Monte Carlo tree search bot with explicit chance nodes.

Each simulation copies the position, walks down the tree (UCT at decision nodes, for
whoever owns the decision; a sampled outcome at chance nodes, so dice are searched at their
true odds), adds one node, plays the rest of that node's turn with one-step lookahead, and
scores the result with the shared evaluation. Scores are a vector with one value per
player (the win chance, with haste once the ship has flooded: `heuristic.seat_values`), so
every decision node maximises its own owner's value (max-n). The root's choices
start from the greedy bot's exact two-choice lookahead, counted as `prior_visits`
simulations, so the search improves on greedy play rather than relearning it. The budget is
a number of simulations (reproducible with a seed) or a number of seconds.
"""

from __future__ import annotations

import math
import random
import time

from tabletop.games.deadweight_board.bots.greedy import GreedyBot
from tabletop.games.deadweight_board.bots.heuristic import seat_values, value_after
from tabletop.games.deadweight_board.rules import (
    apply_unchecked,
    legal_actions,
    roll_chance,
)
from tabletop.games.deadweight_board.state import CHANCE, OVER, State

MAX_SIMULATIONS = 1_000_000
SIMULATIONS = 200
"""How many simulations a decision an MCTS bot searches unless told."""
MAX_SECONDS = 600.0
WIDE = 10
"""A decision with more options than this is searched over its best few by a one-step
evaluation."""


class _Node:
    __slots__ = ("children", "owner", "totals", "untried", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[int, _Node] = {}
        self.untried: list[int] | None = None
        self.owner = -1
        self.visits = 0
        self.totals = [0.0] * players


class _Dice:
    """The bot's own die for sampling chance nodes inside its search."""

    __slots__ = ("_random",)

    def __init__(self, rng: random.Random) -> None:
        self._random = rng

    def roll(self, sides: int) -> int:
        return int(self._random.random() * sides) + 1


class MctsBot:
    """UCT search over the game tree, chance nodes sampled at their probabilities.

    `simulations` or `seconds` set the budget per decision; `exploration` is the UCT
    constant (win chances lie in 0..1); `finish_turn` plays each new leaf's turn out before
    scoring it, over `horizon_turns` turns (1 measured best: longer horizons played worse);
    `prior_visits` is how many simulations the greedy lookahead at the root is worth (0 turns
    the seed off)."""

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        simulations: int = SIMULATIONS,
        seconds: float | None = None,
        exploration: float = 0.1,
        finish_turn: bool = True,
        horizon_turns: int = 1,
        prior_visits: int = 20,
    ) -> None:
        if not 1 <= simulations <= MAX_SIMULATIONS:
            raise ValueError(f"simulations must be 1 to {MAX_SIMULATIONS:,}")
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:
            raise ValueError(f"seconds must be above 0 and at most {MAX_SECONDS:g}")
        self._random = random.Random(seed)
        self._dice = _Dice(self._random)
        self.simulations = simulations
        self.seconds = seconds
        self.exploration = exploration
        self.finish_turn = finish_turn
        self.horizon_turns = horizon_turns
        self.prior_visits = prior_visits
        self._greedy = GreedyBot(seed)
        self.last_simulations = 0

    def choose(self, state: State) -> int:
        actions = legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        root = _Node(state.n)
        if self.prior_visits:
            self._seed_root(state, root, actions)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            self._simulate(state, root)
            done += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif done >= self.simulations:
                break
        self.last_simulations = done
        return max(root.children.items(), key=lambda item: item[1].visits)[0]

    def _simulate(self, root_state: State, root: _Node) -> None:
        state = root_state.clone()
        node = root
        path = [node]
        while state.phase != OVER:
            if state.phase == CHANCE:
                outcome = roll_chance(state, self._dice)
                apply_unchecked(state, outcome)
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = _Node(state.n)
                node = child
                path.append(node)
                continue
            if node.untried is None:
                node.owner = state.owner
                node.untried = self._candidates(state)
            if node.untried:
                action = node.untried.pop()
                apply_unchecked(state, action)
                child = node.children[action] = _Node(state.n)
                path.append(child)
                break
            node = self._select(node)
            apply_unchecked(state, self._last_action)
            path.append(node)
        value = self._evaluate(state)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for i, v in enumerate(value):
                totals[i] += v

    def _seed_root(self, state: State, root: _Node, actions: list[int]) -> None:
        """Start each root choice with the greedy bot's exact two-choice lookahead, worth
        `prior_visits` simulations, so the search departs from greedy play only when its
        deeper look disagrees."""
        me = state.owner
        weight = self.prior_visits
        root.owner = me
        root.untried = []
        for action in actions:
            value = self._greedy.value_of(state, action)
            child = root.children[action] = _Node(state.n)
            child.visits = weight
            child.totals = [
                value * weight if p == me else (1 - value) / (state.n - 1) * weight
                for p in range(state.n)
            ]
            root.visits += weight

    def _candidates(self, state: State) -> list[int]:
        actions = legal_actions(state)
        if len(actions) > WIDE:
            owner = state.owner
            actions = sorted(actions, key=lambda a: value_after(state, a, owner))[-WIDE:]
            return actions
        self._random.shuffle(actions)
        return actions

    def _select(self, node: _Node) -> _Node:
        owner = node.owner
        scale = self.exploration * math.sqrt(math.log(node.visits))
        best_score = -math.inf
        best_action = -1
        best_child = node
        for action, child in node.children.items():
            score = child.totals[owner] / child.visits + scale / math.sqrt(child.visits)
            if score > best_score:
                best_score, best_action, best_child = score, action, child
        self._last_action = best_action
        return best_child

    def _evaluate(self, state: State) -> list[float]:
        if self.finish_turn:
            self._finish_turn(state)
        return seat_values(state)

    def _finish_turn(self, state: State) -> None:
        """Play on with one-step lookahead choices for everyone until `horizon_turns` turns
        have ended (1: the leaf's own turn), so that a leaf in the middle of a turn (moved,
        not yet looted) is scored on what the turn brings, and with more turns on what the
        others do about it."""
        active = state.active
        turns_left = self.horizon_turns
        for _ in range(MAX_FINISH_STEPS * self.horizon_turns):
            if state.phase == OVER:
                return
            if state.active != active:
                turns_left -= 1
                if turns_left <= 0:
                    return
                active = state.active
            if state.phase == CHANCE:
                apply_unchecked(state, roll_chance(state, self._dice))
                continue
            actions = legal_actions(state)
            if len(actions) > 1:
                owner = state.owner
                action = max(actions, key=lambda a: value_after(state, a, owner))
            else:
                action = actions[0]
            apply_unchecked(state, action)


MAX_FINISH_STEPS = 40
