"""The board game registered with OpenSpiel as `python_deadweight_board`.

Every die and every trade card turned up in play is an explicit chance node with its exact
probability (rules.chance_outcomes); the chance outcome ids follow the decisions in the one
action space (actions.py), so `max_chance_outcomes` is `NUM_OUTCOMES`. The setup (the layout
dealt, the first player, the first cards) is drawn from the game parameter `setup_seed`, so
every game of one loaded `pyspiel.Game` starts from the same deal. The game is of imperfect
information: the face-down trade cards are hidden from every seat, and with
`chest_visibility = "hidden"` the chests and a Walk the Plank haul too (observe.py).
Observations are `encoding.encode` for one seat (`SINGLE_PLAYER`), for a seatless viewer
(`NONE`) or for the all-seeing (`ALL_PLAYERS`); information states (perfect recall) are not
provided.

Parameters: `players` (2 to 4), `setup_seed`, and `options`: `DeadweightConfig` options as
`key:value` words separated by spaces, such as `"turn_cap:60 chest_visibility:hidden"`
(OpenSpiel's game strings keep no commas or `=` inside a value, so options with lists or
tables cannot be given here; a value reads as JSON where it can, else as text).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board.actions import NUM_ACTIONS, NUM_OUTCOMES, name_of
from tabletop.games.deadweight_board.config import DeadweightConfig, make_config
from tabletop.games.deadweight_board.encoding import encode, segments
from tabletop.games.deadweight_board.envs.table import board_text
from tabletop.games.deadweight_board.errors import ConfigError
from tabletop.games.deadweight_board.observe import ALL_SEEING, TABLE, observation
from tabletop.games.deadweight_board.rules import apply_in_place, chance_outcomes, legal_actions
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.state import CHANCE, OVER, State

SHORT_NAME = "python_deadweight_board"
MAX_STEPS_PER_TURN = 100
"""The length bound OpenSpiel asks for counts this many steps a turn (decisions and chance
events). It is a generous margin, not a proof: the longest turn seen in random play is 21."""

_DEFAULTS = {"players": 4, "setup_seed": 0, "options": ""}


def _game_type() -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Deadweight, the board game (tabletop)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


def _options(text: str) -> DeadweightConfig:
    """The config the `options` parameter names, as `key:value` words."""
    options: dict[str, Any] = {}
    for word in text.split():
        key, colon, value = word.partition(":")
        if not colon or not key:
            raise ConfigError(f"options are key:value words, not {word!r}")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return make_config(**options)


class DeadweightGame(pyspiel.Game):
    """One table size, config and deal of Deadweight, for OpenSpiel."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = {**_DEFAULTS, **(params or {})}
        players = int(settings["players"])
        if not 2 <= players <= 4:
            raise ConfigError(f"Deadweight is for 2 to 4 players, not {players}")
        self.config = _options(str(settings["options"]))
        self.setup_seed = int(settings["setup_seed"])
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_OUTCOMES,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=(self.config.turn_cap + 1) * MAX_STEPS_PER_TURN,
        )
        super().__init__(_game_type(), info, settings)

    def new_initial_state(self) -> DeadweightState:
        board = new_game(self.num_players(), self.config, SeededDice(self.setup_seed))
        return DeadweightState(self, board)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> DeadweightObserver:
        return DeadweightObserver(self.config, iig_obs_type, params)


class DeadweightState(pyspiel.State):
    """A game in progress: the engine's state behind OpenSpiel's interface."""

    def __init__(self, game: DeadweightGame, board: State) -> None:
        super().__init__(game)
        self.board = board

    def current_player(self) -> int:
        if self.board.phase == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if self.board.phase == OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.board.owner

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(legal_actions(self.board))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted((outcome, float(p)) for outcome, p in chance_outcomes(self.board))

    def _apply_action(self, action: int) -> None:
        apply_in_place(self.board, action)

    def _action_to_string(self, player: int, action: int) -> str:
        return name_of(action)

    def is_terminal(self) -> bool:
        return self.board.phase == OVER

    def returns(self) -> list[float]:
        return self.board.returns()

    def __str__(self) -> str:
        return board_text(self.board)


class DeadweightObserver:
    """OpenSpiel's observer: `encoding.encode` from one viewer's side, and its JSON view."""

    def __init__(
        self,
        config: DeadweightConfig,
        iig_obs_type: pyspiel.IIGObservationType | None,
        params: Any,
    ) -> None:
        if params:
            raise ConfigError(f"the observer takes no parameters, not {params!r}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if kind.perfect_recall or not kind.public_info:
            raise ConfigError("only observations with public information and no recall exist")
        self._private = kind.private_info
        pieces = segments(config)
        self.tensor = np.zeros(sum(length for _, length in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, length in pieces:
            self.dict[name] = self.tensor[at : at + length]
            at += length

    def _viewer(self, player: int) -> int:
        if self._private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return player
        if self._private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return ALL_SEEING
        return TABLE

    def set_from(self, state: DeadweightState, player: int) -> None:
        encode(state.board, self._viewer(player), self.tensor)

    def string_from(self, state: DeadweightState, player: int) -> str:
        return json.dumps(observation(state.board, self._viewer(player)), sort_keys=True)


def register() -> None:
    """Register the game once per process (OpenSpiel refuses a second registration)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(), DeadweightGame)
