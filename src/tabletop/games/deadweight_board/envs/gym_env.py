"""The board game as a Gymnasium environment for one seat, with bots in the other seats.

The agent observes `encode(state, seat)`; `info["action_mask"]` (and `action_masks()`, the
form maskable learners ask for) marks its legal actions. Between its decisions the
environment rolls the chance nodes and lets the bots move, all drawn from the seed given to
`reset`. The reward is the agent's share of the win when the game ends (1/k for k winners),
0 before. Gymnasium requires `step` to take any action of the space: one outside the mask
changes nothing in the game and ends the episode with reward `ILLEGAL_REWARD`, naming the
action in `info["illegal_action"]`. A game stopped by the turn cap is truncated.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board.actions import NUM_ACTIONS, name_of
from tabletop.games.deadweight_board.bots import Bot, make_bot
from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.encoding import encode, size
from tabletop.games.deadweight_board.envs.table import (
    RENDER_MODES,
    action_mask,
    board_text,
    check_table,
    settle,
)
from tabletop.games.deadweight_board.errors import ConfigError
from tabletop.games.deadweight_board.rules import apply_unchecked
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.simulate import bot_seed
from tabletop.games.deadweight_board.state import OVER, State

ILLEGAL_REWARD = -1.0
MAX_SEED = 2**62


class DeadweightGym(gym.Env):
    """One seat of a Deadweight game against bots."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        players: int,
        opponents: str | list[str],
        seat: int,
        options: dict[str, Any],
        render_mode: str | None,
    ) -> None:
        self.config = make_config(**options)
        check_table(players, render_mode)
        if not 0 <= seat < players:
            raise ConfigError(f"seat must be 0 to {players - 1}, not {seat}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ConfigError(f"name one bot for each of the {players - 1} other seats")
        for name in names:
            make_bot(name)
        self.players = players
        self.seat = seat
        self.render_mode = render_mode
        self._opponents = names
        self.observation_space = spaces.Box(0.0, np.inf, (size(self.config),), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.state: State | None = None

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game, with its dice and the bots seeded from `seed`."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(MAX_SEED))
        self._dice = SeededDice(game_seed)
        self.state = new_game(self.players, self.config, self._dice)
        others = [p for p in range(self.players) if p != self.seat]
        self._bots: dict[int, Bot] = {
            p: make_bot(name, bot_seed(game_seed, p))
            for p, name in zip(others, self._opponents, strict=True)
        }
        settle(self.state, self._dice, self._bots)
        return encode(self.state, self.seat), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None or state.phase == OVER:
            raise ConfigError("the episode is over: call reset() first")
        action = int(action)
        legal = 0 <= action < NUM_ACTIONS and bool(self.action_masks()[action])
        if not legal:
            info = self._info() | {"illegal_action": name_of(action)}
            return encode(state, self.seat), ILLEGAL_REWARD, True, False, info
        apply_unchecked(state, action)
        settle(state, self._dice, self._bots)
        over = state.phase == OVER
        reward = state.returns()[self.seat] if over else 0.0
        observation = encode(state, self.seat)
        return observation, reward, over and not state.aborted, over and state.aborted, self._info()

    def action_masks(self) -> np.ndarray:
        """The agent's legal actions now, as a 0/1 vector over the action space."""
        assert self.state is not None
        return action_mask(self.state, self.seat)

    def _info(self) -> dict[str, Any]:
        assert self.state is not None
        return {"action_mask": self.action_masks(), "turn": self.state.turn}

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return board_text(self.state)
