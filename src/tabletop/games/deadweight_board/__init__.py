"""Deadweight, the board game: a rules engine in the style of OpenSpiel, bots, simulation.

>>> from tabletop.games.deadweight_board import new_game, legal_actions, apply, roll_chance
>>> from tabletop.dice import SeededDice
>>> dice = SeededDice(1)
>>> state = new_game(4, dice=dice)            # the first player places the lantern
>>> state = apply(state, legal_actions(state)[0])
>>> state.current_player                      # Red decides: step 1, step 2 or a rope
0

Decisions and chance outcomes are integers of one action space, each with a name
(`actions`: `name_of`, `action_named`); `chance_outcomes` lists a chance node's outcomes with
exact probabilities and `roll_chance` draws one from a dice source. `observation` gives what
a seat may see; `Position` builds a position by name, checked like every loaded state;
`SESSION` (session.py) plays the game at a shared table. Every reading of an unclear rule is
an option of `DeadweightConfig` (docs/rules/deadweight-board.md).
"""

from tabletop.games.deadweight_board.actions import (
    NUM_ACTIONS,
    NUM_OUTCOMES,
    action_named,
    label,
    name_of,
)
from tabletop.games.deadweight_board.bots import (
    Bot,
    GreedyBot,
    MctsBot,
    RandomBot,
    make_bot,
    win_chances,
)
from tabletop.games.deadweight_board.config import (
    DeadweightConfig,
    check_layout,
    default_config,
    load_config,
    make_config,
)
from tabletop.games.deadweight_board.errors import (
    BoardDataError,
    BoardError,
    ConfigError,
    IllegalActionError,
    LayoutError,
    ReplayError,
    StateError,
)
from tabletop.games.deadweight_board.log import replay
from tabletop.games.deadweight_board.model import (
    GameStateModel,
    from_model,
    state_from_json,
    state_to_json,
    to_model,
)
from tabletop.games.deadweight_board.observe import ALL_SEEING, TABLE, observation
from tabletop.games.deadweight_board.reachable import check_reachable
from tabletop.games.deadweight_board.rules import (
    apply,
    apply_in_place,
    chance_outcomes,
    describe,
    legal_actions,
    roll_chance,
)
from tabletop.games.deadweight_board.scenario import Position
from tabletop.games.deadweight_board.setup import deal_layout, new_game
from tabletop.games.deadweight_board.simulate import GameRecord, Summary, play_game, run_games
from tabletop.games.deadweight_board.state import CHANCE_PLAYER, TERMINAL_PLAYER, State

__all__ = [
    "ALL_SEEING",
    "CHANCE_PLAYER",
    "NUM_ACTIONS",
    "NUM_OUTCOMES",
    "TABLE",
    "TERMINAL_PLAYER",
    "BoardDataError",
    "BoardError",
    "Bot",
    "ConfigError",
    "DeadweightConfig",
    "GameRecord",
    "GameStateModel",
    "GreedyBot",
    "IllegalActionError",
    "LayoutError",
    "MctsBot",
    "Position",
    "RandomBot",
    "ReplayError",
    "State",
    "StateError",
    "Summary",
    "action_named",
    "apply",
    "apply_in_place",
    "chance_outcomes",
    "check_layout",
    "check_reachable",
    "deal_layout",
    "default_config",
    "describe",
    "from_model",
    "label",
    "legal_actions",
    "load_config",
    "make_bot",
    "make_config",
    "name_of",
    "new_game",
    "observation",
    "play_game",
    "replay",
    "roll_chance",
    "run_games",
    "state_from_json",
    "state_to_json",
    "to_model",
    "win_chances",
]
