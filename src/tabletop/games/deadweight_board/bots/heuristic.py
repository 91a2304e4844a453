"""How good a position looks to each player: the evaluation the greedy and MCTS bots share.

A player's worth is counted in life rings: life rings themselves, gems at what trade cards
roughly pay for them (a diamond more, since trading it flips a plank and opens a chest),
ropes, a trade ready on their card, their deployed Mariner, the lantern within reach, and a
pending skipped turn against them. Worths become win chances through a softmax, so taking
from the leader counts for more than taking from the last player.

Once the ship has flooded, a seat the rules would score as winning were the game to end now
maximises its win chance plus haste: a small reward for every step toward the end (a
Mariner home, a diamond trade ready on the way to the front station). A safe lead makes
every move look alike to the win chances; haste is what then brings the Mariners home. A
seat behind maximises its win chance alone, which falls as the Mariners come home, so it
stalls only where stalling can still win (ENG-16).
"""

from __future__ import annotations

import math

from tabletop.games.deadweight_board.board import DI, TRACK, plank_space
from tabletop.games.deadweight_board.rules import apply_unchecked
from tabletop.games.deadweight_board.state import EVAC, FINAL, OVER, SINKING, STATION, State
from tabletop.games.deadweight_board.turns import tied_winners

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
HASTE = 0.05
"""After the flood, what one Mariner brought home is worth in win chance to a seat the rules
score as winning now: small beside a real change in the odds, so it decides between moves
the win chances cannot tell apart."""
MARINERS = 4
END_PROGRESS = MARINERS + 1
"""The end is triggered: every Mariner is home and only the final round is left."""
DIAMOND_IN_HAND = 0.2
TRADE_READY = 0.5
AT_THE_STATION = 0.45
"""How near a seat is to bringing the next Mariner home, as a part of one: a diamond in
hand; a diamond trade on their card they can pay; and that trade's seat nearer the front
station, up to standing there with the visit still open."""


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


def seat_values(state: State) -> list[float]:
    """What each seat's bot maximises: its win chance, plus haste once the ship has flooded
    for the seats the rules score as winning were the game to end now (ENG-16). A seat
    behind gets no haste: its win chance alone already falls as Mariners come home (the
    evaluation grows surer), so it stalls where stalling can still win and is indifferent
    where nothing can."""
    chances = win_chances(state)
    if state.stage == SINKING:
        return chances
    ahead = state.winners if state.phase == OVER else tied_winners(state)
    haste = HASTE * end_progress(state, ahead)
    return [chance + haste if p in ahead else chance for p, chance in enumerate(chances)]


def end_progress(state: State, ahead: list[int] | None = None) -> float:
    """How near the game is to its end, in Mariners (0 to `END_PROGRESS`): those in
    lifeboats or due to go (a diamond just paid at the front station, AMB-49), plus how
    near the seats now ahead (`ahead`, else the rules' leaders) are to bringing the next
    one home."""
    if state.stage >= FINAL:
        return float(END_PROGRESS)
    home = sum(1 for boat in state.boat if boat >= 0)
    if state.phase == EVAC:
        home = min(MARINERS, home + state.evac_left)
    if state.stage == SINKING or home >= MARINERS:
        return float(home)
    seats = tied_winners(state) if ahead is None else ahead
    return home + max(readiness(state, p) for p in seats)


def readiness(state: State, player: int) -> float:
    """How near `player` is to evacuating a Mariner, as a part of one (under 1): a diamond
    paid as a trade cost at the front station moves one to a lifeboat (AMB-49), so it
    counts a diamond in hand, a diamond trade on their card they can pay, and how far they
    are from the front station, which they must leave once their visit there is over."""
    base = player * 6
    inv = state.inv
    if not inv[base + DI]:
        return 0.0
    ready = any(
        trade.diamonds
        and inv[base] >= trade.cost[0]
        and inv[base + 1] >= trade.cost[1]
        and inv[base + 2] >= trade.cost[2]
        and inv[base + 3] >= trade.cost[3]
        for trade in state.ship.cards[state.card[player]]
    )
    if not ready:
        return DIAMOND_IN_HAND
    spaces = (TRACK - state.pos[player]) % TRACK
    visiting = state.active == player and state.phase in (STATION, EVAC)
    if spaces == 0 and not visiting:
        spaces = TRACK
    return TRADE_READY + AT_THE_STATION * (1 - spaces / TRACK)


def value_after(state: State, action: int, player: int) -> float:
    """`player`'s value (`seat_values`) right after `action`, with no lookahead."""
    child = state.clone()
    apply_unchecked(child, action)
    return seat_values(child)[player]
