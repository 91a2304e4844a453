"""Flipping a plank at the end of a turn in which a diamond was traded, and sharing out the
chest below it (seed §Flipping Planks, §Mariner 4; AMB-45 to AMB-48)."""

from __future__ import annotations

from typing import Final

from tabletop.games.deadweight_board.actions import FLIP, PASS, TAKE
from tabletop.games.deadweight_board.board import LR, MAX_LOOT, MAX_ROPES, PLANK_NAMES, PLANKS
from tabletop.games.deadweight_board.board import ROPE as ROPE_ITEM
from tabletop.games.deadweight_board.effects import add, pool_text, record, tally, to_supply
from tabletop.games.deadweight_board.flow import lantern_step
from tabletop.games.deadweight_board.state import EVACUATION, FLIP_KEEP, FLIP_PICK, State

FLIPPER_KEEPS: Final = 2
"""Items the flipper chooses first (seed §Flipping Planks 1)."""


def legal_flip(s: State) -> list[int]:
    return [FLIP + k for k in s.ship.flip_candidates(s.flooded)]


def apply_flip(s: State, action: int) -> None:
    """Flip a plank to its flooded side, knock off a Mariner beside it (AMB-48), and share out
    the chest below (seed §Flipping Planks; AMB-47)."""
    p = s.active
    plank = action - FLIP
    s.flooded |= 1 << plank
    tally(s, "flips")
    if s.events is not None:
        record(s, "flipped", player=p, plank=PLANK_NAMES[plank])
    if s.dep >= 0 and plank in s.ship.wall_planks[s.dep_wall]:
        tally(s, "mariner:flipped_off")
        if s.events is not None:
            record(s, "mariner_off", mariner=s.dep, why="flipped")
        s.dep = -1
        s.dep_wall = -1
    chest = s.ship.chest_of_plank[plank]
    for item in range(6):
        s.pool[item] = s.chests[chest * 6 + item]
        s.chests[chest * 6 + item] = 0
    s.emptied |= 1 << chest
    if s.events is not None:
        record(s, "chest_opened", player=p, by="flip", items=pool_text(s), may_keep=FLIPPER_KEEPS)
    if s.flooded == (1 << PLANKS) - 1:
        s.stage = EVACUATION
        if s.events is not None:
            record(s, "evacuation_begins")
    s.flipper = p
    s.keep_left = FLIPPER_KEEPS
    if holdable(s, p):
        s.phase = FLIP_KEEP
        s.owner = p
    else:
        _begin_picks(s, (p + 1) % s.n)


def holdable(s: State, p: int) -> list[int]:
    """Pool items `p` may take without breaking a limit (AMB-47)."""
    base = p * 6
    inv = s.inv
    pool = s.pool
    gems_ok = inv[base] + inv[base + 1] + inv[base + 2] + inv[base + 3] < MAX_LOOT
    items = [gem for gem in range(4) if pool[gem] and gems_ok]
    if pool[ROPE_ITEM] and inv[base + ROPE_ITEM] < MAX_ROPES:
        items.append(ROPE_ITEM)
    if pool[LR]:
        items.append(LR)
    return items


def legal_flip_keep(s: State) -> list[int]:
    return [TAKE + item for item in holdable(s, s.owner)]


def apply_flip_keep(s: State, action: int) -> None:
    p = s.owner
    item = action - TAKE
    s.pool[item] -= 1
    add(s, p, item, "flip_share")
    s.keep_left -= 1
    if not s.keep_left or not holdable(s, p):
        _begin_picks(s, (p + 1) % s.n)


def _begin_picks(s: State, start: int) -> None:
    s.pick_skips = 0
    _next_picker(s, start)


def _next_picker(s: State, start: int) -> None:
    """Passing clockwise, each player in turn picks one item they can hold; players who can
    hold none are skipped; when nobody can, the rest goes to the supply (AMB-47)."""
    ship = s.ship
    if any(s.pool):
        for offset in range(s.n):
            q = (start + offset) % s.n
            if q == s.flipper and not ship.flipper_rejoins:
                continue
            if s.pick_skips >= s.n:
                break
            if holdable(s, q):
                s.phase = FLIP_PICK
                s.owner = q
                s.picker = q
                return
    for item in range(6):
        if s.pool[item]:
            to_supply(s, item, s.pool[item])
            s.pool[item] = 0
    lantern_step(s)


def legal_flip_pick(s: State) -> list[int]:
    actions = [TAKE + item for item in holdable(s, s.owner)]
    if s.ship.pick_optional:
        actions.append(PASS)
    return actions


def apply_flip_pick(s: State, action: int) -> None:
    q = s.owner
    if action == PASS:
        s.pick_skips += 1
    else:
        s.pick_skips = 0
        item = action - TAKE
        s.pool[item] -= 1
        add(s, q, item, "flip_share")
    _next_picker(s, (q + 1) % s.n)
