"""How good a position looks to each player: the evaluation the greedy and MCTS bots share.

A player's worth is counted in life rings: life rings themselves, gems at what trade cards
roughly pay for them (a diamond more, since trading it flips a plank and opens a chest),
ropes, a trade ready on their card, their deployed Mariner, the lantern within reach, and a
pending skipped turn against them. Worths become win chances through a softmax, so taking
from the leader counts for more than taking from the last player.
"""

from __future__ import annotations

import math

from tabletop.games.deadweight_board.board import plank_space
from tabletop.games.deadweight_board.rules import apply_unchecked
from tabletop.games.deadweight_board.state import FINAL, OVER, State

GEM_WORTH = (0.30, 0.35, 0.40, 0.55)
ROPE_WORTH = 0.2
READY_TRADE = 0.3
MARINER_WORTH = 0.4
SKIP_COST = 0.6
LANTERN_NEAR = 0.25
TIE_BREAK = 0.01
EARLY_TEMPERATURE = 3.0
LATE_TEMPERATURE = 0.4
STAGES_TO_END = 18
"""Ten flips and four evacuations (counted double) stand between setup and the end."""


def worths(state: State) -> list[float]:
    """Each player's position in life-ring units."""
    inv = state.inv
    final = state.stage >= FINAL
    cards = state.ship.cards
    destination = state.ship.destination
    lantern_space = plank_space(state.lantern)
    result = []
    for p in range(state.n):
        base = p * 6
        em, pe, ru, di, ropes, rings = inv[base : base + 6]
        ready = 0
        for trade in cards[state.card[p]]:
            cost = trade.cost
            if (
                trade.life_rings > ready
                and em >= cost[0]
                and pe >= cost[1]
                and ru >= cost[2]
                and di >= cost[3]
            ):
                ready = trade.life_rings
        worth = rings + TIE_BREAK * (em + 2 * pe + 3 * ru + 4 * di)
        if final:
            worth += READY_TRADE * ready
        else:
            worth += (
                GEM_WORTH[0] * em
                + GEM_WORTH[1] * pe
                + GEM_WORTH[2] * ru
                + GEM_WORTH[3] * di
                + ROPE_WORTH * ropes
                + READY_TRADE * ready
            )
            if state.dep == p:
                worth += MARINER_WORTH
            worth -= SKIP_COST * state.skip[p]
            reach = destination[state.pos[p]]
            if lantern_space in (reach[1], reach[2]):
                worth += LANTERN_NEAR
        result.append(worth)
    return result


def _temperature(state: State) -> float:
    """How uncertain the outcome still is: a lead early in the sinking means little, a lead
    during the evacuation means a lot."""
    progress = state.flooded.bit_count() + 2 * sum(1 for b in state.boat if b >= 0)
    remaining = max(0.0, 1.0 - progress / STAGES_TO_END)
    return LATE_TEMPERATURE + (EARLY_TEMPERATURE - LATE_TEMPERATURE) * remaining


def win_chances(state: State) -> list[float]:
    """Each player's chance of winning: the true shares once the game is over, otherwise a
    softmax of worths."""
    if state.phase == OVER:
        return state.returns()
    values = worths(state)
    top = max(values)
    temperature = _temperature(state)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def value_after(state: State, action: int, player: int) -> float:
    """`player`'s win chance right after `action`, with no lookahead."""
    child = state.clone()
    apply_unchecked(child, action)
    return win_chances(child)[player]
