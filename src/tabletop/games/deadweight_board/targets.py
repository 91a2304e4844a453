"""Where on the board each legal decision points: the space a step or a rope lands on, the
plank the lantern goes to, the player a steal aims at, the wall a Mariner takes, the
lifeboat it leaves in. A page makes those things clickable; decisions that point at no one
place (keep an item, trade, pass) are offered only in the list.

A target is `space:<name>` (a station or a plank, named as the board names them),
`player:<colour>`, `wall:<index into board.WALLS>` or `boat:<gem>`.
"""

from __future__ import annotations

from tabletop.games.deadweight_board.actions import (
    ACT,
    DEPLOY,
    EVAC,
    FATE,
    FLIP,
    LANTERN,
    LOOT,
    ROPE,
    SHORTCUT_TO,
    STEAL,
    STEP_1,
    STEP_2,
    TARGET,
    name_of,
)
from tabletop.games.deadweight_board.board import (
    COLOURS,
    ITEM_NAMES,
    PLANK_NAMES,
    SPACE_NAMES,
    TRACK,
    WALLS,
)
from tabletop.games.deadweight_board.rules import legal_actions
from tabletop.games.deadweight_board.state import State

_RANGES = (
    (ROPE, TRACK, lambda k: f"space:{SPACE_NAMES[k]}"),
    (STEAL, 4, lambda k: f"player:{COLOURS[k]}"),
    (TARGET, 4, lambda k: f"player:{COLOURS[k]}"),
    (SHORTCUT_TO, 10, lambda k: f"space:{PLANK_NAMES[k]}"),
    (FLIP, 10, lambda k: f"space:{PLANK_NAMES[k]}"),
    (LANTERN, 10, lambda k: f"space:{PLANK_NAMES[k]}"),
    (DEPLOY, len(WALLS), lambda k: f"wall:{k}"),
    (EVAC, 16, lambda k: f"boat:{ITEM_NAMES[k % 4]}"),
)
"""The action ranges that point at one element, sized as actions.py numbers them."""


def target_of(state: State, action: int) -> str | None:
    """The board element `action` points at in `state`, or None."""
    here = state.pos[state.owner]
    if action in (STEP_1, STEP_2):
        return f"space:{SPACE_NAMES[state.ship.destination[here][action]]}"
    if action in (ACT, LOOT, FATE):
        return f"space:{SPACE_NAMES[here]}"
    for base, size, named in _RANGES:
        if base <= action < base + size:
            return named(action - base)
    return None


def targets(state: State) -> dict[str, str]:
    """Each legal decision's name and the board element it points at, for those that
    point at one."""
    found = {}
    for action in legal_actions(state):
        target = target_of(state, action)
        if target is not None:
            found[name_of(action)] = target
    return found
