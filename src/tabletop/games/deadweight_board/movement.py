"""The move that opens a turn: a step of 1 or 2, or a rope, and the Mariner a step crosses
(seed §Movement, §Mariner 1 and 3; notes §2.2 T1, T2)."""

from __future__ import annotations

from tabletop.games.deadweight_board.actions import ROPE, STEP_1, STEP_2
from tabletop.games.deadweight_board.board import ROPE as ROPE_ITEM
from tabletop.games.deadweight_board.board import SPACE_NAMES
from tabletop.games.deadweight_board.effects import PLANK_SPACE, record, tally, to_supply
from tabletop.games.deadweight_board.flow import R_LANDING, land, start_mariner_contest
from tabletop.games.deadweight_board.state import State


def legal_move(s: State) -> list[int]:
    """Step 1, step 2, or a rope to any of its destinations; never onto the lantern on the
    first player's first move (AMB-13, AMB-18, AMB-19)."""
    p = s.active
    here = s.pos[p]
    ship = s.ship
    blocked = PLANK_SPACE[s.first_block] if s.first_block >= 0 else -1
    moves = [STEP_1, STEP_2]
    if blocked >= 0:
        moves = [m for m in moves if ship.destination[here][m] != blocked]
    if s.inv[p * 6 + ROPE_ITEM]:
        moves.extend(ROPE + space for space in ship.rope[here] if space != blocked)
    return moves


def apply_move(s: State, action: int) -> None:
    p = s.active
    here = s.pos[p]
    ship = s.ship
    s.first_block = -1
    if action >= ROPE:
        there = action - ROPE
        s.inv[p * 6 + ROPE_ITEM] -= 1
        to_supply(s, ROPE_ITEM)
        s.pos[p] = there
        tally(s, "moves:rope")
        if s.events is not None:
            record(s, "move", player=p, start=SPACE_NAMES[here], end=SPACE_NAMES[there], by="rope")
        land(s)
        return
    there = ship.destination[here][action]
    s.pos[p] = there
    if s.stats is not None:
        tally(s, f"moves:step_{action}")
    if s.events is not None:
        record(s, "move", player=p, start=SPACE_NAMES[here], end=SPACE_NAMES[there], by="step")
    if s.dep >= 0 and s.dep != p and s.dep_wall in ship.crossed[here][action]:
        start_mariner_contest(s, p, R_LANDING)
        return
    land(s)
