"""What a step of play does to the pieces: items into and out of hands, crates and the
supply, and who is protected; plus the events and counters observers may attach.

Every phase of the turn moves pieces through these few functions, so the limits (two ropes,
crates that fill and pay a life ring, a finite supply) hold in one place.
"""

from __future__ import annotations

from typing import Any, Final

from tabletop.games.deadweight_board.board import (
    ITEM_SHORT,
    LR,
    MAX_ROPES,
    PLANKS,
    plank_space,
    space_plank,
)
from tabletop.games.deadweight_board.board import ROPE as ROPE_ITEM
from tabletop.games.deadweight_board.state import State

# Plank kinds, as the ints `Ship.kind` holds.
K_TRADE: Final = 0
K_ROPE: Final = 1
K_SHORTCUT: Final = 2
K_SWITCH: Final = 3
K_SABOTAGE: Final = 4
K_LIFE_RING: Final = 5
K_WTP: Final = 6
K_PLAIN: Final = 7

SPACE_PLANK: Final = tuple(space_plank(space) for space in range(13))
"""The plank on each space (-1 for a station or the start space), looked up, not computed."""
PLANK_SPACE: Final = tuple(plank_space(k) for k in range(PLANKS))


def record(s: State, kind: str, **fields: Any) -> None:
    """Tell the attached event list what just happened. Callers check `s.events is not None`
    first, so that a game nobody watches builds no event at all."""
    if s.events is not None:
        fields["kind"] = kind
        s.events.append(fields)


def tally(s: State, key: str, amount: int = 1) -> None:
    """Add to the attached counters, if any (simulation statistics)."""
    if s.stats is not None:
        s.stats[key] = s.stats.get(key, 0) + amount


def protected(s: State, player: int) -> bool:
    """Player is shielded by their own deployed Mariner: standing on a plank beside its wall
    (seed §Mariner, protection; AMB-55)."""
    if s.dep != player:
        return False
    return SPACE_PLANK[s.pos[player]] in s.ship.wall_planks[s.dep_wall]


def holds_anything(s: State, player: int) -> bool:
    base = player * 6
    return any(s.inv[base : base + 6])


def stealable(s: State, others: list[int]) -> list[int]:
    """Players that may be stolen from: not protected (AMB-23, AMB-55) and, with
    `steal_requires_item`, holding something (AMB-24)."""
    targets = [q for q in others if not protected(s, q)]
    if s.ship.steal_requires_item:
        targets = [q for q in targets if holds_anything(s, q)]
    return targets


def from_supply(s: State, item: int) -> bool:
    """Take one `item` from the supply; False if a finite supply has run out (AMB-09)."""
    supply = s.supply
    if supply is None:
        return True
    if supply[item] > 0:
        supply[item] -= 1
        return True
    return False


def to_supply(s: State, item: int, count: int = 1) -> None:
    if s.supply is not None:
        s.supply[item] += count


def add(s: State, player: int, item: int, source: str) -> None:
    """Put an item already taken from somewhere into a player's hands. A third rope goes
    straight back to the supply (AMB-20)."""
    index = player * 6 + item
    if item == ROPE_ITEM and s.inv[index] >= MAX_ROPES:
        to_supply(s, ROPE_ITEM)
        if s.events is not None:
            record(s, "rope_returned", player=player)
        return
    s.inv[index] += 1
    if item == LR and s.stats is not None:
        tally(s, "life_rings:" + source)
    if s.events is not None:
        record(s, "gain", player=player, item=ITEM_SHORT[item], source=source)


def gain(s: State, player: int, item: int, source: str) -> None:
    """A player gains one item from the supply (if a finite supply has it)."""
    if from_supply(s, item):
        add(s, player, item, source)
    elif s.events is not None:
        record(s, "supply_empty", player=player, item=ITEM_SHORT[item])


def move_item(s: State, giver: int, taker: int, item: int, source: str) -> None:
    s.inv[giver * 6 + item] -= 1
    add(s, taker, item, source)


def crate_pay(s: State, player: int, gem: int) -> None:
    """Pay one gem into its crate; filling the crate empties it into its lifeboat and earns
    the payer a life ring (seed §Trading; AMB-15)."""
    s.inv[player * 6 + gem] -= 1
    s.crates[gem] += 1
    if s.events is not None:
        record(s, "crate", player=player, gem=ITEM_SHORT[gem], fill=s.crates[gem])
    if s.crates[gem] >= s.ship.capacity[gem]:
        to_supply(s, gem, s.crates[gem])
        s.crates[gem] = 0
        if s.events is not None:
            record(s, "crate_dumped", player=player, gem=ITEM_SHORT[gem])
        gain(s, player, LR, "crate_bonus")


def pay(s: State, player: int, cost: tuple[int, ...]) -> None:
    for gem in range(4):
        for _ in range(cost[gem]):
            crate_pay(s, player, gem)


def affords(s: State, player: int, cost: tuple[int, ...]) -> bool:
    base = player * 6
    inv = s.inv
    return (
        inv[base] >= cost[0]
        and inv[base + 1] >= cost[1]
        and inv[base + 2] >= cost[2]
        and inv[base + 3] >= cost[3]
    )


def affordable_walls(s: State, p: int) -> list[int]:
    return [w for w, cost in enumerate(s.ship.wall_cost) if affords(s, p, cost)]


def pool_text(s: State) -> str:
    return " ".join(f"{ITEM_SHORT[i]}×{s.pool[i]}" for i in range(6) if s.pool[i]) or "nothing"
