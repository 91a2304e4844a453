"""What every environment does between decisions: roll chance nodes, let bots move, mask
the legal actions, and draw the board as text."""

from __future__ import annotations

import numpy as np

from tabletop.dice import DiceSource
from tabletop.games.deadweight_board.actions import NUM_ACTIONS
from tabletop.games.deadweight_board.board import (
    ITEM_SHORT,
    PLANK_NAMES,
    SPACE_NAMES,
    WALLS,
    wall_name,
)
from tabletop.games.deadweight_board.bots import Bot
from tabletop.games.deadweight_board.errors import ConfigError
from tabletop.games.deadweight_board.rules import apply_unchecked, legal_actions, roll_chance
from tabletop.games.deadweight_board.state import (
    CHANCE,
    COLOURS,
    OVER,
    PHASE_NAMES,
    STAGE_NAMES,
    State,
)

RENDER_MODES = ("ansi",)


def check_table(players: int, render_mode: str | None) -> None:
    """Refuse a player count or render mode the environments do not offer, before building."""
    if not 2 <= players <= 4:
        raise ConfigError(f"Deadweight is for 2 to 4 players, not {players}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ConfigError(f"the render modes are {', '.join(RENDER_MODES)} or None")


def settle(state: State, dice: DiceSource, bots: dict[int, Bot] | None = None) -> None:
    """Play chance nodes (and the bots' seats) until a seat without a bot decides or the
    game ends."""
    bots = bots or {}
    while state.phase != OVER:
        if state.phase == CHANCE:
            apply_unchecked(state, roll_chance(state, dice))
        elif state.owner in bots:
            apply_unchecked(state, bots[state.owner].choose(state))
        else:
            return


def action_mask(state: State, seat: int) -> np.ndarray:
    """1 for each action `seat` may take now, 0 elsewhere (all 0 when it is not to decide)."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    if state.phase not in (CHANCE, OVER) and state.owner == seat:
        mask[legal_actions(state)] = 1
    return mask


def board_text(state: State) -> str:
    """The public board in a few lines of plain text (the `ansi` render)."""
    if state.phase == OVER:
        head = f"game over after {state.turn} turns; winners: "
        head += ", ".join(COLOURS[p] for p in state.winners)
    else:
        decider = "chance" if state.phase == CHANCE else COLOURS[state.owner]
        head = (
            f"turn {state.turn} ({STAGE_NAMES[state.stage]}), {COLOURS[state.active]}'s turn; "
            f"{decider} to decide ({PHASE_NAMES[state.phase]})"
        )
    lines = [head]
    for p in range(state.n):
        held = " ".join(f"{ITEM_SHORT[i]} {count}" for i, count in enumerate(state.items(p)))
        lines.append(f"  {COLOURS[p]:<6} at {SPACE_NAMES[state.pos[p]]:<5} {held}")
    flooded = [PLANK_NAMES[k] for k in range(len(PLANK_NAMES)) if state.flooded >> k & 1]
    wall = wall_name(WALLS[state.dep_wall]) if state.dep >= 0 else "none"
    lines.append(
        f"  lantern {PLANK_NAMES[state.lantern]}; flooded: {', '.join(flooded) or 'none'}; "
        f"Mariner on wall: {wall}"
    )
    return "\n".join(lines)
