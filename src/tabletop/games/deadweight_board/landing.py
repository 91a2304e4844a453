"""Landing on a plank: the steal, the loot, the plank action for its side, and the moves
Shortcut and Switch make (seed §Movement, §Loot Collection, §The Lantern, §Tile Actions;
AMB-22 to AMB-41)."""

from __future__ import annotations

from tabletop.games.deadweight_board.actions import (
    ACT,
    DEAL,
    DEALS,
    FLOODED_TRADE,
    LOOT,
    PAIRS,
    PASS,
    SHORTCUT_TO,
    STEAL,
    SWAP,
    TARGET,
)
from tabletop.games.deadweight_board.board import (
    ITEM_SHORT,
    KIND_NAMES,
    LR,
    PLANK_NAMES,
    PLANKS,
    mirror,
)
from tabletop.games.deadweight_board.board import ROPE as ROPE_ITEM
from tabletop.games.deadweight_board.contests import start_steal
from tabletop.games.deadweight_board.effects import (
    K_LIFE_RING,
    K_ROPE,
    K_SABOTAGE,
    K_SHORTCUT,
    K_SWITCH,
    K_TRADE,
    K_WTP,
    PLANK_SPACE,
    SPACE_PLANK,
    crate_pay,
    gain,
    move_item,
    protected,
    record,
    stealable,
    tally,
    to_supply,
)
from tabletop.games.deadweight_board.errors import IllegalActionError
from tabletop.games.deadweight_board.flow import (
    R_END,
    R_PLANK,
    chance,
    end_turn,
    next_teleport_contest,
)
from tabletop.games.deadweight_board.limit import after_gain
from tabletop.games.deadweight_board.state import LOOT_DONE, STEAL_DONE, WTP_ROLL, State


def legal_plank(s: State) -> list[int]:
    """Seed §Movement, §Loot Collection, §The Lantern; AMB-22, AMB-23, AMB-27."""
    p = s.active
    here = s.pos[p]
    others = [q for q in range(s.n) if q != p and s.pos[q] == here]
    actions: list[int] = []
    if others and not s.landing & STEAL_DONE:
        targets = stealable(s, others)
        actions.extend(STEAL + q for q in targets)
        if targets and len(others) >= 2:
            return actions
    if not s.landing & LOOT_DONE:
        actions.append(LOOT)
    plank = SPACE_PLANK[here]
    _plank_action_options(s, p, plank, actions)
    actions.append(PASS)
    return actions


def _plank_action_options(s: State, p: int, plank: int, actions: list[int]) -> None:
    """The plank action's choices, one action per choice (AMB-22: none if it cannot be done).
    Seed §Tile Actions; AMB-31 to AMB-41."""
    kind = s.ship.kind[plank]
    flooded = s.flooded >> plank & 1
    n = s.n
    inv = s.inv
    if kind == K_TRADE:
        base = p * 6
        if not flooded:
            for need, deals in s.ship.deal_groups:
                if (
                    inv[base] >= need[0]
                    and inv[base + 1] >= need[1]
                    and inv[base + 2] >= need[2]
                    and inv[base + 3] >= need[3]
                ):
                    actions.extend(deals)
        else:
            actions.extend(FLOODED_TRADE + g for g in range(4) if inv[base + g])
            if inv[base + LR]:
                actions.extend(FLOODED_TRADE + 4 + g for g in range(4))
    elif kind == K_ROPE:
        if not flooded:
            actions.append(ACT)
        else:
            actions.extend(
                TARGET + q
                for q in range(n)
                if q != p and inv[q * 6 + ROPE_ITEM] and not protected(s, q)
            )
    elif kind == K_SHORTCUT:
        if not flooded:
            actions.append(ACT)
        else:
            actions.extend(SHORTCUT_TO + k for k in range(PLANKS) if k != plank)
    elif kind == K_SWITCH:
        if not flooded:
            actions.extend(TARGET + q for q in range(n) if q != p)
        else:
            actions.extend(SWAP + i for i, (a, b) in enumerate(PAIRS) if b < n)
    elif kind == K_SABOTAGE:
        others = [q for q in range(n) if q != p]
        if not flooded:
            actions.extend(TARGET + q for q in stealable(s, others))
        else:
            actions.extend(TARGET + q for q in others)
    elif kind == K_LIFE_RING:
        if not flooded:
            actions.append(ACT)
        else:
            actions.extend(
                TARGET + q for q in range(n) if q != p and inv[q * 6 + LR] and not protected(s, q)
            )
    elif kind == K_WTP:
        actions.append(ACT)


def apply_plank(s: State, action: int) -> None:
    p = s.active
    plank = SPACE_PLANK[s.pos[p]]
    kind = s.ship.kind[plank]
    flooded = bool(s.flooded >> plank & 1)
    if action == PASS:
        tally(s, "landing:nothing")
        end_turn(s)
    elif action == LOOT:
        s.landing |= LOOT_DONE | STEAL_DONE
        tally(s, "landing:loot")
        gain(s, p, s.ship.loot[plank], "loot")
        after_gain(s, p, R_PLANK)
    elif STEAL <= action < STEAL + 4:
        s.landing |= STEAL_DONE
        tally(s, "landing:steal")
        start_steal(s, p, action - STEAL, -1, R_PLANK)
    else:
        tally(s, "landing:action")
        if s.stats is not None:
            tally(s, f"plank_action:{KIND_NAMES[kind]}:{'flooded' if flooded else 'brown'}")
        _plank_action(s, p, plank, kind, action, flooded)


def _do_trade_plank(s: State, p: int, action: int, flooded: bool) -> None:
    """Trade: brown swaps 2 gems (AMB-31); flooded swaps a gem and a life ring (AMB-32).
    Gems given go into crates, so a crate bonus is possible (seed §Tile Actions 1.i)."""
    if not flooded:
        given, got = DEALS[action - DEAL]
        for gem in given:
            crate_pay(s, p, gem)
        for gem in got:
            gain(s, p, gem, "trade_plank")
    else:
        k = action - FLOODED_TRADE
        if k < 4:
            crate_pay(s, p, k)
            gain(s, p, LR, "trade_plank")
        else:
            s.inv[p * 6 + LR] -= 1
            to_supply(s, LR)
            gain(s, p, k - 4, "trade_plank")
    after_gain(s, p, R_END)


def _do_rope_plank(s: State, p: int, action: int, flooded: bool) -> None:
    """Gain a Rope: brown +1 rope (capped, AMB-20); flooded steals a rope (AMB-33)."""
    if not flooded:
        gain(s, p, ROPE_ITEM, "rope_plank")
        end_turn(s)
    else:
        _flooded_steal(s, p, action - TARGET, ROPE_ITEM)


def _do_life_ring_plank(s: State, p: int, action: int, flooded: bool) -> None:
    """Plus 1 Life Ring: brown +1 LR; flooded steals a life ring (AMB-33)."""
    if not flooded:
        gain(s, p, LR, "life_ring_plank")
        end_turn(s)
    else:
        _flooded_steal(s, p, action - TARGET, LR)


def _flooded_steal(s: State, p: int, target: int, item: int) -> None:
    if s.ship.flooded_steal_contest:
        start_steal(s, p, target, item, R_END)
        return
    move_item(s, target, p, item, "flooded_steal")
    if s.events is not None:
        record(s, "stolen", thief=p, victim=target, item=ITEM_SHORT[item])
    after_gain(s, p, R_END)


def _do_shortcut(s: State, p: int, plank: int, action: int, flooded: bool) -> None:
    """Shortcut: to the mirrored plank, or flooded to any other plank; nothing happens where
    the player arrives (seed §Tile Actions 3.i-iii; AMB-36)."""
    there = mirror(plank) if not flooded else action - SHORTCUT_TO
    s.pos[p] = PLANK_SPACE[there]
    if s.events is not None:
        record(s, "shortcut", player=p, end=PLANK_NAMES[there])
    _teleported(s, [p])


def _do_switch(s: State, p: int, action: int, flooded: bool) -> None:
    """Switch with Player: swap with anyone; flooded swaps any two players (AMB-37)."""
    a, b = (p, action - TARGET) if not flooded else PAIRS[action - SWAP]
    s.pos[a], s.pos[b] = s.pos[b], s.pos[a]
    if s.events is not None:
        record(s, "switch", first=a, second=b)
    _teleported(s, [a, b])


def _do_sabotage(s: State, p: int, action: int, flooded: bool) -> None:
    """Sabotage: brown is a steal attempt on anyone (AMB-34); flooded makes a player skip
    their next turn (AMB-35)."""
    target = action - TARGET
    if not flooded:
        start_steal(s, p, target, -1, R_END)
        return
    if s.ship.skip_stacks:
        s.skip[target] += 1
    else:
        s.skip[target] = 1
    if s.events is not None:
        record(s, "skip_set", player=target)
    end_turn(s)


def _plank_action(s: State, p: int, plank: int, kind: int, action: int, flooded: bool) -> None:
    """The plank action of each kind, named outright (see `rules.legal_actions`)."""
    if kind == K_TRADE:
        _do_trade_plank(s, p, action, flooded)
    elif kind == K_ROPE:
        _do_rope_plank(s, p, action, flooded)
    elif kind == K_SHORTCUT:
        _do_shortcut(s, p, plank, action, flooded)
    elif kind == K_SWITCH:
        _do_switch(s, p, action, flooded)
    elif kind == K_SABOTAGE:
        _do_sabotage(s, p, action, flooded)
    elif kind == K_LIFE_RING:
        _do_life_ring_plank(s, p, action, flooded)
    elif kind == K_WTP:
        tally(s, "wtp:attempts")  # Walk the Plank: roll the fate die (seed §Walking; AMB-38)
        chance(s, WTP_ROLL)
    else:
        raise IllegalActionError("the plain plank has no action")  # never offered (AMB-03)


def _teleported(s: State, players: list[int]) -> None:
    """Nobody moved by Shortcut or Switch meets a Mariner, unless
    `teleport_triggers_mariner` (AMB-53): then each one arriving beside its wall defends."""
    if s.ship.teleport_triggers_mariner and s.dep >= 0:
        s.teleport_queue = [
            q
            for q in players
            if q != s.dep and SPACE_PLANK[s.pos[q]] in s.ship.wall_planks[s.dep_wall]
        ]
    next_teleport_contest(s)
