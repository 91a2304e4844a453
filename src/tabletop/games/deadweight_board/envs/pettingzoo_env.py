"""The board game as a PettingZoo AEC environment: one agent per seat, named by colour.

Each agent observes `{"observation": encode(state, seat), "action_mask": legal actions}`;
chance nodes are rolled inside the environment from dice seeded at `reset`, so the agent
selected next is always the seat that decides. Rewards come once, when the game ends: each
winner's share of the win (1/k for k winners), 0 for the others. A game stopped by the turn
cap (AMB-63) is truncated rather than terminated; it still has its winners.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board.actions import NUM_ACTIONS
from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.encoding import encode, size
from tabletop.games.deadweight_board.envs.table import (
    RENDER_MODES,
    action_mask,
    board_text,
    check_table,
    settle,
)
from tabletop.games.deadweight_board.errors import IllegalActionError
from tabletop.games.deadweight_board.rules import apply_in_place, describe
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.state import COLOURS, OVER, State

MAX_SEED = 2**62


class DeadweightAEC(AECEnv):
    """Deadweight for 2 to 4 agents, turn by turn (PettingZoo's agent-environment cycle)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "deadweight_board_v0",
        "is_parallelizable": False,
    }

    def __init__(self, players: int, options: dict[str, Any], render_mode: str | None) -> None:
        super().__init__()
        self.config = make_config(**options)
        check_table(players, render_mode)
        self.render_mode = render_mode
        self.possible_agents = list(COLOURS[:players])
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (size(self.config),), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self._np_random, _ = seeding.np_random(None)
        self.state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; the same seed deals the same game and rolls the same dice."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self._dice = SeededDice(int(self._np_random.integers(MAX_SEED)))
        self.state = new_game(len(self.possible_agents), self.config, self._dice)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        settle(self.state, self._dice)
        self.agent_selection = self.possible_agents[self.state.owner]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None
        seat = self._seats[agent]
        return {
            "observation": encode(self.state, seat),
            "action_mask": action_mask(self.state, seat),
        }

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action; an action outside its mask is refused with an
        `IllegalActionError` and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        if action is None:
            raise IllegalActionError(f"{agent} must choose an action: the game is not over")
        apply_in_place(state, int(action))
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {"last_action": describe(state, int(action))}
        settle(state, self._dice)
        if state.phase == OVER:
            returns = state.returns()
            for seat, name in enumerate(self.agents):
                self.rewards[name] = returns[seat]
                self.terminations[name] = not state.aborted
                self.truncations[name] = state.aborted
        else:
            self.agent_selection = self.possible_agents[state.owner]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return board_text(self.state)

    def close(self) -> None:
        self.state = None
