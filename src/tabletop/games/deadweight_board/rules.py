"""The rules as a state machine: the legal choices at each node and what each choice does.

A turn is a chain of decision nodes (whose owner may not be the active player) and chance
nodes (the fate die, a card turned up), following notes §2.2. `legal_actions` lists the
integers allowed at the node; `apply_in_place` performs one of them and runs the game on to
the next node. `apply` does the same on a copy, leaving the given state untouched. Dice come
only as chance outcomes: `roll_chance` draws one from an injected dice source.

Rule references: "seed §X" names a section of the rule document; AMB-nn names the entry in
docs/rules/deadweight-board.md whose reading is applied.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tabletop.dice import DiceSource
from tabletop.games.deadweight_board.actions import (
    ACT,
    CARD,
    CHALLENGE,
    DEAL,
    DEALS,
    DEPLOY,
    DIE,
    DROP,
    EVAC,
    FATE,
    FLIP,
    FLOODED_TRADE,
    GIVE,
    LANTERN,
    LOOT,
    PAIRS,
    PASS,
    RETURN,
    ROPE,
    SHORTCUT_TO,
    STEAL,
    STEP_1,
    STEP_2,
    SWAP,
    TAKE,
    TAKE_ITEM,
    TARGET,
    TIE_WINNER,
    TRADE,
    label,
)
from tabletop.games.deadweight_board.board import (
    DI,
    FS,
    ITEM_SHORT,
    KIND_NAMES,
    LR,
    MAX_LOOT,
    MAX_ROPES,
    PLANK_NAMES,
    PLANKS,
    SPACE_NAMES,
    behind,
    mirror,
    plank_space,
    space_plank,
    wall_name,
)
from tabletop.games.deadweight_board.board import ROPE as ROPE_ITEM
from tabletop.games.deadweight_board.errors import IllegalActionError
from tabletop.games.deadweight_board.setup import CHEST_2P
from tabletop.games.deadweight_board.state import (
    CHALLENGE_ROLL,
    CHANCE,
    DEFEND_ROLL,
    ENDED,
    EVACUATION,
    FATE_ROLL,
    FINAL,
    FLIP_KEEP,
    FLIP_PICK,
    FORCED_DEPLOY,
    HOLD_ROLL,
    LANTERN_HERE,
    LIMIT,
    LOOT_DONE,
    MARINER_MOVER_ROLL,
    MARINER_OWNER_ROLL,
    MOVE,
    OVER,
    PLANK,
    REVEAL_CARD,
    SINKING,
    STATION,
    STEAL_DONE,
    STEAL_ROLL,
    TIE_DRAW,
    WTP_DROP,
    WTP_GIVE,
    WTP_KEEP,
    WTP_ROLL,
    State,
    bits,
)
from tabletop.games.deadweight_board.state import EVAC as EVAC_PHASE
from tabletop.games.deadweight_board.state import FLIP as FLIP_PHASE
from tabletop.games.deadweight_board.state import LANTERN as LANTERN_PHASE
from tabletop.games.deadweight_board.state import (
    TAKE_ITEM as TAKE_ITEM_PHASE,
)

# Plank kinds, as the ints `Ship.kind` holds.
K_TRADE, K_ROPE, K_SHORTCUT, K_SWITCH, K_SABOTAGE, K_LIFE_RING, K_WTP, K_PLAIN = range(8)

# Where to go on after a contest, a stolen item, a limit check or a card turned up.
RESUME_POINTS = 7
R_LANDING, R_PLANK, R_END, R_STATION, R_WTP_KEEP, R_WTP_GIVE, R_TELEPORT = range(RESUME_POINTS)

_SPACE_PLANK = tuple(space_plank(space) for space in range(13))
_PLANK_SPACE = tuple(plank_space(k) for k in range(PLANKS))
_BEHIND = tuple((behind(space, 1), behind(space, 2)) for space in range(13))
_DIE_OUTCOMES = tuple((DIE + face, Fraction(1, 6)) for face in range(1, 7))
_RELOAD = (1, 1, 1, 1, 1, 1)
"""A reloaded chest's contents by default (AMB-08); `two_player` reloads the 2-player setup's."""


# --- the public surface --------------------------------------------------------------------


def legal_actions(state: State) -> list[int]:
    """The actions allowed at the current decision (empty at chance nodes and at the end)."""
    return _LEGAL[state.phase](state)


def chance_outcomes(state: State) -> list[tuple[int, Fraction]]:
    """The outcomes of the pending chance event with their exact probabilities."""
    if state.phase != CHANCE:
        return []
    if state.chance == REVEAL_CARD:
        cards = bits(state.pile)
        return [(CARD + card, Fraction(1, len(cards))) for card in cards]
    if state.chance == TIE_DRAW:
        return [(TIE_WINNER + p, Fraction(1, len(state.winners))) for p in state.winners]
    return list(_DIE_OUTCOMES)


def roll_chance(state: State, dice: DiceSource) -> int:
    """Draw the pending chance outcome from `dice`: a d6 for the fate die, a d(n) to pick
    which of the n face-down cards turns up, a d(k) for a random tie-break."""
    if state.chance == REVEAL_CARD:
        cards = bits(state.pile)
        return CARD + cards[dice.roll(len(cards)) - 1]
    if state.chance == TIE_DRAW:
        return TIE_WINNER + state.winners[dice.roll(len(state.winners)) - 1]
    return DIE + dice.roll(6)


def apply(state: State, action: int) -> State:
    """The state after `action`, as a new state; the given one is not changed."""
    after = state.clone()
    after.events = [] if state.events is not None else None
    apply_in_place(after, action)
    return after


def apply_in_place(state: State, action: int) -> None:
    """Perform `action` (a decision or a chance outcome) on `state` itself.

    An illegal action raises `IllegalActionError` before anything changes."""
    if state.phase == CHANCE:
        if not any(outcome == action for outcome, _ in chance_outcomes(state)):
            raise IllegalActionError(f"{action} is not an outcome of the pending chance event")
        _CHANCE[state.chance](state, action)
        return
    if action not in _LEGAL[state.phase](state):
        raise IllegalActionError(
            f"{label(action, state.names, _kind_here(state))!r} ({action}) is not legal now; "
            f"legal: {', '.join(str(a) for a in _LEGAL[state.phase](state))}"
        )
    _APPLY[state.phase](state, action)


def apply_unchecked(state: State, action: int) -> None:
    """`apply_in_place` without the legality check, for bots that chose from
    `legal_actions` or `chance_outcomes` of this very state."""
    if state.phase == CHANCE:
        _CHANCE[state.chance](state, action)
    else:
        _APPLY[state.phase](state, action)


def describe(state: State, action: int) -> str:
    """The action in words, as a player at this node would read it."""
    return label(action, state.names, _kind_here(state))


def _kind_here(state: State) -> int:
    if state.phase != PLANK:
        return -1
    plank = _SPACE_PLANK[state.pos[state.active]]
    return state.ship.kind[plank] if plank >= 0 else -1


# --- small helpers -------------------------------------------------------------------------


def _event(s: State, kind: str, **fields: Any) -> None:
    if s.events is not None:
        fields["kind"] = kind
        s.events.append(fields)


def _count(s: State, key: str, amount: int = 1) -> None:
    if s.stats is not None:
        s.stats[key] = s.stats.get(key, 0) + amount


def _protected(s: State, player: int) -> bool:
    """Player is shielded by their own deployed Mariner: standing on a plank beside its wall
    (seed §Mariner, protection; AMB-55)."""
    if s.dep != player:
        return False
    return _SPACE_PLANK[s.pos[player]] in s.ship.wall_planks[s.dep_wall]


def _holds_anything(s: State, player: int) -> bool:
    base = player * 6
    return any(s.inv[base : base + 6])


def _from_supply(s: State, item: int) -> bool:
    """Take one `item` from the supply; False if a finite supply has run out (AMB-09)."""
    supply = s.supply
    if supply is None:
        return True
    if supply[item] > 0:
        supply[item] -= 1
        return True
    return False


def _to_supply(s: State, item: int, count: int = 1) -> None:
    if s.supply is not None:
        s.supply[item] += count


def _add(s: State, player: int, item: int, source: str) -> None:
    """Put an item already taken from somewhere into a player's hands. A third rope goes
    straight back to the supply (AMB-20)."""
    index = player * 6 + item
    if item == ROPE_ITEM and s.inv[index] >= MAX_ROPES:
        _to_supply(s, ROPE_ITEM)
        _event(s, "rope_returned", player=player)
        return
    s.inv[index] += 1
    if item == LR:
        _count(s, "life_rings:" + source)
    _event(s, "gain", player=player, item=ITEM_SHORT[item], source=source)


def _gain(s: State, player: int, item: int, source: str) -> None:
    """A player gains one item from the supply (if a finite supply has it)."""
    if _from_supply(s, item):
        _add(s, player, item, source)
    else:
        _event(s, "supply_empty", player=player, item=ITEM_SHORT[item])


def _move_item(s: State, giver: int, taker: int, item: int, source: str) -> None:
    s.inv[giver * 6 + item] -= 1
    _add(s, taker, item, source)


def _crate_pay(s: State, player: int, gem: int) -> None:
    """Pay one gem into its crate; filling the crate empties it into its lifeboat and earns
    the payer a life ring (seed §Trading; AMB-15)."""
    s.inv[player * 6 + gem] -= 1
    s.crates[gem] += 1
    _event(s, "crate", player=player, gem=ITEM_SHORT[gem], fill=s.crates[gem])
    if s.crates[gem] >= s.ship.capacity[gem]:
        _to_supply(s, gem, s.crates[gem])
        s.crates[gem] = 0
        _event(s, "crate_dumped", player=player, gem=ITEM_SHORT[gem])
        _gain(s, player, LR, "crate_bonus")


def _pay(s: State, player: int, cost: tuple[int, ...]) -> None:
    for gem in range(4):
        for _ in range(cost[gem]):
            _crate_pay(s, player, gem)


def _affords(s: State, player: int, cost: tuple[int, ...]) -> bool:
    base = player * 6
    inv = s.inv
    return (
        inv[base] >= cost[0]
        and inv[base + 1] >= cost[1]
        and inv[base + 2] >= cost[2]
        and inv[base + 3] >= cost[3]
    )


def _after_gain(s: State, player: int, resume: int) -> None:
    """The 10-loot limit (AMB-30): a player over it chooses gems to return, then play goes on."""
    if s.gems(player) > MAX_LOOT:
        s.phase = LIMIT
        s.owner = player
        s.limit_player = player
        s.limit_resume = resume
        return
    _resume(s, resume)


def _resume(s: State, resume: int) -> None:
    if resume == R_END:
        _end_turn(s)
    elif resume == R_PLANK:
        if s.landing & LANTERN_HERE:
            s.phase = PLANK
            s.owner = s.active
        else:
            _end_turn(s)
    elif resume == R_STATION:
        _station(s)
    elif resume == R_LANDING:
        _land(s)
    elif resume == R_WTP_KEEP:
        if s.keep_left and any(s.pool):
            s.phase = WTP_KEEP
            s.owner = s.active
        else:
            _resume(s, R_WTP_GIVE)
    elif resume == R_WTP_GIVE:
        if any(s.pool):
            s.phase = WTP_GIVE
            s.owner = s.active
        else:
            _end_turn(s)
    else:
        _next_teleport_contest(s)


def _chance(s: State, kind: int) -> None:
    s.phase = CHANCE
    s.chance = kind


# --- turn start, movement, landing ---------------------------------------------------------


def _start_turn(s: State) -> None:
    """Seed §Gameplay; skip flags (AMB-35) and the turn cap (AMB-63) are checked first."""
    if s.turn >= s.ship.config.turn_cap:
        s.aborted = True
        _event(s, "turn_cap", turns=s.turn)
        _game_over(s)
        return
    p = s.active
    s.turn += 1
    s.turns_taken[p] += 1
    s.flip_pending = False
    s.evac_left = 0
    s.evac_done = False
    s.emptied = 0
    s.wtp_won = False
    s.trades_done = 0
    s.mariner_done = False
    s.station_mode = 0
    s.traded = False
    s.landing = 0
    _event(s, "turn", player=p, turn=s.turn)
    if s.skip[p]:
        s.skip[p] -= 1
        _event(s, "skipped", player=p)
        _count(s, "turns_skipped")
        if s.ship.config.lantern_on_skip == "move":
            s.phase = LANTERN_PHASE
            s.owner = p
        else:
            _finish_turn(s)
        return
    s.phase = MOVE
    s.owner = p


def _legal_move(s: State) -> list[int]:
    p = s.active
    here = s.pos[p]
    ship = s.ship
    blocked = _PLANK_SPACE[s.first_block] if s.first_block >= 0 else -1
    moves = [STEP_1, STEP_2]
    if blocked >= 0:
        moves = [m for m in moves if ship.destination[here][m] != blocked]
    if s.inv[p * 6 + ROPE_ITEM]:
        moves.extend(ROPE + space for space in ship.rope[here] if space != blocked)
    return moves


def _apply_move(s: State, action: int) -> None:
    p = s.active
    here = s.pos[p]
    ship = s.ship
    s.first_block = -1
    if action >= ROPE:
        there = action - ROPE
        s.inv[p * 6 + ROPE_ITEM] -= 1
        _to_supply(s, ROPE_ITEM)
        s.pos[p] = there
        _count(s, "moves:rope")
        _event(s, "move", player=p, start=SPACE_NAMES[here], end=SPACE_NAMES[there], by="rope")
        _land(s)
        return
    there = ship.destination[here][action]
    s.pos[p] = there
    _count(s, f"moves:step_{action}")
    _event(s, "move", player=p, start=SPACE_NAMES[here], end=SPACE_NAMES[there], by="step")
    if s.dep >= 0 and s.dep != p and s.dep_wall in ship.crossed[here][action]:
        _start_mariner_contest(s, p, R_LANDING)
        return
    _land(s)


def _land(s: State) -> None:
    """Resolve the space landed on: station options or plank options (seed §Movement)."""
    p = s.active
    plank = _SPACE_PLANK[s.pos[p]]
    if plank < 0:
        _count(s, "station_visits")
        _station(s)
        return
    if _restricted(s):
        _end_turn(s)
        return
    s.landing = LANTERN_HERE if s.lantern == plank else 0
    if s.landing:
        _count(s, "lantern_landings")
    s.phase = PLANK
    s.owner = p


# --- plank landings ------------------------------------------------------------------------


def _stealable(s: State, others: list[int]) -> list[int]:
    """Players that may be stolen from: not protected (AMB-23, AMB-55) and, with
    `steal_requires_item`, holding something (AMB-24)."""
    targets = [q for q in others if not _protected(s, q)]
    if s.ship.config.steal_requires_item:
        targets = [q for q in targets if _holds_anything(s, q)]
    return targets


def _legal_plank(s: State) -> list[int]:
    """Seed §Movement, §Loot Collection, §The Lantern; AMB-22, AMB-23, AMB-27."""
    p = s.active
    here = s.pos[p]
    others = [q for q in range(s.n) if q != p and s.pos[q] == here]
    actions: list[int] = []
    if others and not s.landing & STEAL_DONE:
        targets = _stealable(s, others)
        actions.extend(STEAL + q for q in targets)
        if targets and len(others) >= 2:
            return actions
    if not s.landing & LOOT_DONE:
        actions.append(LOOT)
    plank = _SPACE_PLANK[here]
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
                if q != p and inv[q * 6 + ROPE_ITEM] and not _protected(s, q)
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
            actions.extend(TARGET + q for q in _stealable(s, others))
        else:
            actions.extend(TARGET + q for q in others)
    elif kind == K_LIFE_RING:
        if not flooded:
            actions.append(ACT)
        else:
            actions.extend(
                TARGET + q for q in range(n) if q != p and inv[q * 6 + LR] and not _protected(s, q)
            )
    elif kind == K_WTP:
        actions.append(ACT)


def _apply_plank(s: State, action: int) -> None:
    p = s.active
    plank = _SPACE_PLANK[s.pos[p]]
    kind = s.ship.kind[plank]
    side = "flooded" if s.flooded >> plank & 1 else "brown"
    if action == PASS:
        _count(s, "landing:nothing")
        _end_turn(s)
    elif action == LOOT:
        s.landing |= LOOT_DONE | STEAL_DONE
        _count(s, "landing:loot")
        _gain(s, p, s.ship.loot[plank], "loot")
        _after_gain(s, p, R_PLANK)
    elif STEAL <= action < STEAL + 4:
        s.landing |= STEAL_DONE
        _count(s, "landing:steal")
        _start_steal(s, p, action - STEAL, -1, R_PLANK)
    else:
        _count(s, "landing:action")
        _count(s, f"plank_action:{KIND_NAMES[kind]}:{side}")
        _PLANK_ACTIONS[kind](s, p, plank, action, side == "flooded")


def _do_trade_plank(s: State, p: int, plank: int, action: int, flooded: bool) -> None:
    """Trade: brown swaps 2 gems (AMB-31); flooded swaps a gem and a life ring (AMB-32).
    Gems given go into crates, so a crate bonus is possible (seed §Tile Actions 1.i)."""
    if not flooded:
        given, got = DEALS[action - DEAL]
        for gem in given:
            _crate_pay(s, p, gem)
        for gem in got:
            _gain(s, p, gem, "trade_plank")
    else:
        k = action - FLOODED_TRADE
        if k < 4:
            _crate_pay(s, p, k)
            _gain(s, p, LR, "trade_plank")
        else:
            s.inv[p * 6 + LR] -= 1
            _to_supply(s, LR)
            _gain(s, p, k - 4, "trade_plank")
    _after_gain(s, p, R_END)


def _do_rope_plank(s: State, p: int, plank: int, action: int, flooded: bool) -> None:
    """Gain a Rope: brown +1 rope (capped, AMB-20); flooded steals a rope (AMB-33)."""
    if not flooded:
        _gain(s, p, ROPE_ITEM, "rope_plank")
        _end_turn(s)
    else:
        _flooded_steal(s, p, action - TARGET, ROPE_ITEM)


def _do_life_ring_plank(s: State, p: int, plank: int, action: int, flooded: bool) -> None:
    """Plus 1 Life Ring: brown +1 LR; flooded steals a life ring (AMB-33)."""
    if not flooded:
        _gain(s, p, LR, "life_ring_plank")
        _end_turn(s)
    else:
        _flooded_steal(s, p, action - TARGET, LR)


def _flooded_steal(s: State, p: int, target: int, item: int) -> None:
    if s.ship.config.flooded_steal_contest:
        _start_steal(s, p, target, item, R_END)
        return
    _move_item(s, target, p, item, "flooded_steal")
    _event(s, "stolen", thief=p, victim=target, item=ITEM_SHORT[item])
    _after_gain(s, p, R_END)


def _do_shortcut(s: State, p: int, plank: int, action: int, flooded: bool) -> None:
    """Shortcut: to the mirrored plank, or flooded to any other plank; nothing happens where
    the player arrives (seed §Tile Actions 3.i-iii; AMB-36)."""
    there = mirror(plank) if not flooded else action - SHORTCUT_TO
    s.pos[p] = _PLANK_SPACE[there]
    _event(s, "shortcut", player=p, end=PLANK_NAMES[there])
    _teleported(s, [p])


def _do_switch(s: State, p: int, plank: int, action: int, flooded: bool) -> None:
    """Switch with Player: swap with anyone; flooded swaps any two players (AMB-37)."""
    a, b = (p, action - TARGET) if not flooded else PAIRS[action - SWAP]
    s.pos[a], s.pos[b] = s.pos[b], s.pos[a]
    _event(s, "switch", first=a, second=b)
    _teleported(s, [a, b])


def _do_sabotage(s: State, p: int, plank: int, action: int, flooded: bool) -> None:
    """Sabotage: brown is a steal attempt on anyone (AMB-34); flooded makes a player skip
    their next turn (AMB-35)."""
    target = action - TARGET
    if not flooded:
        _start_steal(s, p, target, -1, R_END)
        return
    if s.ship.config.skip_stacks:
        s.skip[target] += 1
    else:
        s.skip[target] = 1
    _event(s, "skip_set", player=target)
    _end_turn(s)


def _do_walk_the_plank(s: State, p: int, plank: int, action: int, flooded: bool) -> None:
    """Walk the Plank: roll the fate die (seed §Walking the Plank; AMB-38)."""
    _count(s, "wtp:attempts")
    _chance(s, WTP_ROLL)


def _do_plain(s: State, p: int, plank: int, action: int, flooded: bool) -> None:
    raise IllegalActionError("the plain plank has no action")  # never offered (AMB-03)


_PLANK_ACTIONS = (
    _do_trade_plank,
    _do_rope_plank,
    _do_shortcut,
    _do_switch,
    _do_sabotage,
    _do_life_ring_plank,
    _do_walk_the_plank,
    _do_plain,
)


def _teleported(s: State, players: list[int]) -> None:
    """Nobody moved by Shortcut or Switch meets a Mariner, unless
    `teleport_triggers_mariner` (AMB-53): then each one arriving beside its wall defends."""
    if s.ship.config.teleport_triggers_mariner and s.dep >= 0:
        s.teleport_queue = [
            q
            for q in players
            if q != s.dep and _SPACE_PLANK[s.pos[q]] in s.ship.wall_planks[s.dep_wall]
        ]
    _next_teleport_contest(s)


def _next_teleport_contest(s: State) -> None:
    while s.teleport_queue:
        q = s.teleport_queue.pop(0)
        if s.dep >= 0 and q != s.dep:
            _start_mariner_contest(s, q, R_TELEPORT)
            return
    _end_turn(s)


# --- Walk the Plank ------------------------------------------------------------------------


def _wtp_roll(s: State, outcome: int) -> None:
    p = s.active
    face = outcome - DIE
    flooded = s.flooded >> s.ship.wtp & 1
    success = face in s.ship.wtp_success[flooded]
    _event(s, "roll", player=p, face=face, purpose="walk_the_plank", success=success)
    if not success:
        _count(s, "wtp:failures")
        if s.gems(p):
            s.phase = WTP_DROP
            s.owner = p
        else:
            _end_turn(s)
        return
    _count(s, "wtp:successes")
    chest = s.ship.wtp_chest * 6
    scope = 4 if s.ship.config.wtp_scope == "gems_only" else 6
    for item in range(scope):
        s.pool[item] = s.chests[chest + item]
        s.chests[chest + item] = 0
    s.emptied |= 1 << s.ship.wtp_chest
    s.wtp_won = True
    total = sum(s.pool)
    s.keep_left = 4 if total <= 8 else (total + 1) // 2
    _event(s, "chest_opened", player=p, items=_pool_text(s), may_keep=s.keep_left)
    _count(s, "wtp:items", total)
    if total:
        s.phase = WTP_KEEP
        s.owner = p
    else:
        _end_turn(s)


def _legal_wtp_keep(s: State) -> list[int]:
    return [TAKE + item for item in range(6) if s.pool[item]] + [PASS]


def _apply_wtp_keep(s: State, action: int) -> None:
    p = s.active
    if action == PASS:
        _resume(s, R_WTP_GIVE)
        return
    item = action - TAKE
    s.pool[item] -= 1
    _add(s, p, item, "walk_the_plank")
    s.keep_left -= 1
    _after_gain(s, p, R_WTP_KEEP)


def _legal_wtp_give(s: State) -> list[int]:
    p = s.active
    return [GIVE + item * 4 + q for item in range(6) if s.pool[item] for q in range(s.n) if q != p]


def _apply_wtp_give(s: State, action: int) -> None:
    """Everything not kept goes to other players as the roller chooses (AMB-40)."""
    k = action - GIVE
    item, q = divmod(k, 4)
    s.pool[item] -= 1
    _add(s, q, item, "walk_the_plank_gift")
    _after_gain(s, q, R_WTP_GIVE)


def _legal_wtp_drop(s: State) -> list[int]:
    base = s.active * 6
    return [DROP + gem for gem in range(4) if s.inv[base + gem]]


def _apply_wtp_drop(s: State, action: int) -> None:
    gem = action - DROP
    s.inv[s.active * 6 + gem] -= 1
    s.chests[s.ship.wtp_chest * 6 + gem] += 1
    _event(s, "dropped", player=s.active, gem=ITEM_SHORT[gem])
    _end_turn(s)


# --- contests ------------------------------------------------------------------------------


def _start_contest(s: State, first: int, second: int, resume: int, roll: int) -> None:
    """A contest of two fate-die rolls: `first` rolls, then `second`; `roll` names the
    first roll's chance event."""
    s.c_attacker = first
    s.c_defender = second
    s.c_resume = resume
    _chance(s, roll)


_FIRST_ROLLS = {
    STEAL_ROLL: ("steal", DEFEND_ROLL),
    MARINER_OWNER_ROLL: ("mariner", MARINER_MOVER_ROLL),
    CHALLENGE_ROLL: ("challenge", HOLD_ROLL),
}
"""Each contest's first roll: what it is for, and the chance event of the reply."""


def _first_roll(s: State, outcome: int) -> None:
    purpose, reply = _FIRST_ROLLS[s.chance]
    s.c_roll = outcome - DIE
    _event(s, "roll", player=s.c_attacker, face=s.c_roll, purpose=purpose)
    s.chance = reply


def _start_steal(s: State, thief: int, victim: int, only_item: int, resume: int) -> None:
    """A player-steal contest: the thief rolls, then the defender (seed §Stealing)."""
    s.c_item = only_item
    _count(s, "steal:attempts")
    _start_contest(s, thief, victim, resume, STEAL_ROLL)


def _defend_roll(s: State, outcome: int) -> None:
    thief, victim = s.c_attacker, s.c_defender
    face = outcome - DIE
    _event(s, "roll", player=victim, face=face, purpose="defend")
    config = s.ship.config
    if s.c_roll > face:
        _count(s, "steal:won")
        if s.c_item >= 0:
            _move_item(s, victim, thief, s.c_item, "steal")
            _event(s, "stolen", thief=thief, victim=victim, item=ITEM_SHORT[s.c_item])
            _after_gain(s, thief, s.c_resume)
        else:
            _begin_take(s, thief, victim, s.c_resume)
    elif s.c_roll < face or config.unify_ties:
        _count(s, "steal:blocked")
        _event(s, "blocked", thief=thief, victim=victim)
        _resume(s, s.c_resume)
    elif _protected(s, thief) and config.protection_blocks_counter_steal:
        _count(s, "steal:tie_protected")
        _event(s, "tie_protected", thief=thief, victim=victim)
        _resume(s, s.c_resume)
    else:
        _count(s, "steal:counter")
        _begin_take(s, victim, thief, s.c_resume)


def _begin_take(s: State, taker: int, victim: int, resume: int) -> None:
    """The winner of a contest picks any one item of the loser's (AMB-25); nothing moves if
    the loser holds nothing."""
    if not _holds_anything(s, victim):
        _event(s, "nothing_to_take", taker=taker, victim=victim)
        _resume(s, resume)
        return
    s.taker = taker
    s.victim = victim
    s.take_resume = resume
    s.phase = TAKE_ITEM_PHASE
    s.owner = taker


def _legal_take_item(s: State) -> list[int]:
    base = s.victim * 6
    return [TAKE_ITEM + item for item in range(6) if s.inv[base + item]]


def _apply_take_item(s: State, action: int) -> None:
    item = action - TAKE_ITEM
    _count(s, "stolen:" + ITEM_SHORT[item])
    _move_item(s, s.victim, s.taker, item, "steal")
    _event(s, "stolen", thief=s.taker, victim=s.victim, item=ITEM_SHORT[item])
    _after_gain(s, s.taker, s.take_resume)


def _start_mariner_contest(s: State, mover: int, resume: int) -> None:
    """The deployed Mariner defends its wall: its owner rolls, then the mover (seed §Mariner)."""
    _count(s, "mariner:contests")
    _start_contest(s, s.dep, mover, resume, MARINER_OWNER_ROLL)


def _mariner_mover_roll(s: State, outcome: int) -> None:
    owner, mover = s.c_attacker, s.c_defender
    face = outcome - DIE
    _event(s, "roll", player=mover, face=face, purpose="defend_mariner")
    if s.c_roll > face:
        _count(s, "mariner:steals")
        _begin_take(s, owner, mover, s.c_resume)
    elif s.c_roll < face:
        _count(s, "mariner:dislodged")
        s.dep = -1
        s.dep_wall = -1
        _event(s, "mariner_off", mariner=owner, why="lost_contest")
        _resume(s, s.c_resume)
    else:
        _event(s, "mariner_tie", mariner=owner)
        _resume(s, s.c_resume)


# --- stations ------------------------------------------------------------------------------


def _station(s: State) -> None:
    if s.evac_left > 0 and _evac_choices(s):
        s.phase = EVAC_PHASE
    else:
        s.evac_left = 0
        s.phase = STATION
    s.owner = s.active


def _restricted(s: State) -> bool:
    return s.stage == FINAL and s.ship.config.final_turn_mode == "move_and_trade_only"


def _legal_station(s: State) -> list[int]:
    """Seed §Trading at Lifering Stations, §Mariner deployment; AMB-42, AMB-56, AMB-57, AMB-61."""
    p = s.active
    restricted = _restricted(s)
    actions = []
    if not s.station_mode and not restricted:
        actions.append(FATE)
    done = s.trades_done
    for i, trade in enumerate(s.ship.cards[s.card[p]]):
        if not done >> i & 1 and _affords(s, p, trade.cost):
            actions.append(TRADE + i)
    if not restricted and not s.mariner_done and s.boat[p] < 0:
        if s.dep < 0:
            actions.extend(DEPLOY + w for w in _affordable_walls(s, p))
        elif s.dep == p:
            if s.ship.config.owner_relocation:
                actions.extend(DEPLOY + w for w in _affordable_walls(s, p) if w != s.dep_wall)
        elif _affordable_walls(s, p):
            actions.append(CHALLENGE)
    actions.append(PASS)
    return actions


def _affordable_walls(s: State, p: int) -> list[int]:
    return [w for w, cost in enumerate(s.ship.wall_cost) if _affords(s, p, cost)]


def _apply_station(s: State, action: int) -> None:
    p = s.active
    if action == PASS:
        _count(
            s, "station:" + ("trade" if s.traded else "mariner" if s.station_mode else "nothing")
        )
        if s.traded:
            _draw_card(s, p)
        else:
            _end_turn(s)
        return
    if action == FATE:
        s.station_mode = 2
        _count(s, "station:fate")
        _chance(s, FATE_ROLL)
        return
    s.station_mode = 1
    if action == CHALLENGE:
        s.mariner_done = True
        _count(s, "mariner:challenges")
        _start_contest(s, p, s.dep, R_STATION, CHALLENGE_ROLL)
        return
    if action >= DEPLOY:
        _deploy(s, p, action - DEPLOY)
    else:
        _trade(s, p, action - TRADE)
    _station(s)


def _trade(s: State, p: int, index: int) -> None:
    """Pay a trade card's cost into the crates and take its life rings; a diamond traded sets
    up a flip (sinking) or an evacuation at FS (evacuation) (seed §Trading, §Flipping)."""
    trade = s.ship.cards[s.card[p]][index]
    s.trades_done |= 1 << index
    s.traded = True
    _count(s, "trades")
    _event(s, "trade", player=p, card=s.card[p], trade=index, life_rings=trade.life_rings)
    _pay(s, p, trade.cost)
    for _ in range(trade.life_rings):
        _gain(s, p, LR, "trade_card")
    if trade.diamonds:
        _diamond_spent(s, trade.diamonds)


def _diamond_spent(s: State, diamonds: int) -> None:
    """A diamond spent at a station (AMB-44): a flip at the end of the turn while planks are
    brown (AMB-45); once all are flooded, an evacuation if at FS (AMB-49)."""
    if s.stage == SINKING:
        s.flip_pending = True
    elif s.stage == EVACUATION and s.pos[s.active] == FS:
        if s.ship.config.evac_per_turn == "per_diamond":
            s.evac_left += diamonds
        elif not s.evac_done and not s.evac_left:
            s.evac_left = 1


def _deploy(s: State, p: int, wall: int) -> None:
    """Pay a wall's cost (one gem per bordering plank's loot type) and place or move the
    Mariner there (seed §Deploying a Mariner; AMB-51, AMB-56)."""
    cost = s.ship.wall_cost[wall]
    relocating = s.dep == p
    s.mariner_done = True
    _count(s, "mariner:relocations" if relocating else "mariner:deployments")
    _pay(s, p, cost)
    s.dep = p
    s.dep_wall = wall
    _event(s, "mariner_on", player=p, wall=wall_name(s.ship.walls[wall]))
    if cost[DI] and s.ship.config.diamond_trigger_includes_deploy:
        _diamond_spent(s, cost[DI])


def _hold_roll(s: State, outcome: int) -> None:
    """Challenger higher: the Mariner comes off and the challenger must deploy at once;
    otherwise (ties included) the challenge is blocked (seed §Deploying; AMB-57)."""
    face = outcome - DIE
    _event(s, "roll", player=s.c_defender, face=face, purpose="hold_wall")
    if s.c_roll > face:
        _count(s, "mariner:challenges_won")
        _event(s, "mariner_off", mariner=s.dep, why="challenged")
        s.dep = -1
        s.dep_wall = -1
        s.phase = FORCED_DEPLOY
        s.owner = s.active
    else:
        _event(s, "challenge_blocked", player=s.active)
        _station(s)


def _legal_forced_deploy(s: State) -> list[int]:
    return [DEPLOY + w for w in _affordable_walls(s, s.active)]


def _apply_forced_deploy(s: State, action: int) -> None:
    _deploy(s, s.active, action - DEPLOY)
    _station(s)


def _fate_roll(s: State, outcome: int) -> None:
    """The fate die at a station: one item by face (seed §Trading; AMB-02)."""
    p = s.active
    face = outcome - DIE
    item = s.ship.fate[face]
    _event(s, "roll", player=p, face=face, purpose="fate", item=ITEM_SHORT[item])
    _gain(s, p, item, "fate")
    _after_gain(s, p, R_END)


def _evac_choices(s: State) -> list[int]:
    """Mariners that may go to a lifeboat and the lifeboats that may take them (AMB-50)."""
    left = [m for m in range(4) if s.boat[m] < 0]
    movable = [m for m in left if m != s.dep or len(left) == 1]
    if s.ship.config.lifeboat_capacity == "one":
        boats = [b for b in range(4) if b not in s.boat]
    else:
        boats = [0, 1, 2, 3]
    return [EVAC + m * 4 + b for m in movable for b in boats]


def _apply_evac(s: State, action: int) -> None:
    """Move a Mariner to a lifeboat; the mover takes a gem of that boat's type and may trade
    with it at once (seed §When All Planks Are Flipped)."""
    p = s.active
    mariner, boat = divmod(action - EVAC, 4)
    if s.dep == mariner:
        s.dep = -1
        s.dep_wall = -1
    s.boat[mariner] = boat
    s.evac_left -= 1
    s.evac_done = True
    _count(s, "evacuations")
    _event(
        s,
        "evacuated",
        player=p,
        mariner=mariner,
        owner=s.mariner_owner(mariner),
        lifeboat=ITEM_SHORT[boat],
    )
    _gain(s, p, boat, "lifeboat")
    if all(b >= 0 for b in s.boat):
        s.end_triggered = True
        _event(s, "end_triggered", player=p)
    _after_gain(s, p, R_STATION)


def _draw_card(s: State, p: int) -> None:
    """After a visit with trades, discard the card and take the face-up top one; the next
    card turns up (AMB-14, AMB-43). An empty pile is the discards reshuffled."""
    s.discards |= 1 << s.card[p]
    s.card[p] = s.top
    s.top = -1
    if not s.pile:
        s.pile = s.discards
        s.discards = 0
        _event(s, "reshuffled")
    s.reveal_resume = R_STATION if s.ship.config.new_card_usable_same_visit else R_END
    _chance(s, REVEAL_CARD)


def _reveal_card(s: State, outcome: int) -> None:
    card = outcome - CARD
    s.pile &= ~(1 << card)
    s.top = card
    _event(s, "card_up", card=card)
    if s.reveal_resume == R_STATION:
        s.trades_done = 0
        s.traded = False
    _resume(s, s.reveal_resume)


# --- the limit -----------------------------------------------------------------------------


def _legal_limit(s: State) -> list[int]:
    base = s.limit_player * 6
    return [RETURN + gem for gem in range(4) if s.inv[base + gem]]


def _apply_limit(s: State, action: int) -> None:
    p = s.limit_player
    gem = action - RETURN
    s.inv[p * 6 + gem] -= 1
    _to_supply(s, gem)
    _event(s, "returned", player=p, gem=ITEM_SHORT[gem])
    _after_gain(s, p, s.limit_resume)


# --- end of turn: flip, lantern, reload ----------------------------------------------------


def _end_turn(s: State) -> None:
    """Notes §2.2 T6: flip (if a diamond was traded), then the lantern, then reloads."""
    if s.flip_pending:
        s.flip_pending = False
        if s.ship.flip_candidates(s.flooded):
            s.phase = FLIP_PHASE
            s.owner = s.active
            return
    _lantern_step(s)


def _legal_flip(s: State) -> list[int]:
    return [FLIP + k for k in s.ship.flip_candidates(s.flooded)]


def _apply_flip(s: State, action: int) -> None:
    """Flip a plank to its flooded side, knock off a Mariner beside it (AMB-48), and share out
    the chest below (seed §Flipping Planks; AMB-47)."""
    p = s.active
    plank = action - FLIP
    s.flooded |= 1 << plank
    _count(s, "flips")
    _event(s, "flipped", player=p, plank=PLANK_NAMES[plank])
    if s.dep >= 0 and plank in s.ship.wall_planks[s.dep_wall]:
        _count(s, "mariner:flipped_off")
        _event(s, "mariner_off", mariner=s.dep, why="flipped")
        s.dep = -1
        s.dep_wall = -1
    chest = s.ship.chest_of_plank[plank]
    for item in range(6):
        s.pool[item] = s.chests[chest * 6 + item]
        s.chests[chest * 6 + item] = 0
    s.emptied |= 1 << chest
    _event(s, "chest_opened", player=p, items=_pool_text(s), may_keep=2)
    if s.flooded == (1 << PLANKS) - 1:
        s.stage = EVACUATION
        _event(s, "evacuation_begins")
    s.flipper = p
    s.keep_left = 2
    if _holdable(s, p):
        s.phase = FLIP_KEEP
        s.owner = p
    else:
        _begin_picks(s, (p + 1) % s.n)


def _holdable(s: State, p: int) -> list[int]:
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


def _legal_flip_keep(s: State) -> list[int]:
    return [TAKE + item for item in _holdable(s, s.owner)]


def _apply_flip_keep(s: State, action: int) -> None:
    p = s.owner
    item = action - TAKE
    s.pool[item] -= 1
    _add(s, p, item, "flip_share")
    s.keep_left -= 1
    if not s.keep_left or not _holdable(s, p):
        _begin_picks(s, (p + 1) % s.n)


def _begin_picks(s: State, start: int) -> None:
    s.pick_skips = 0
    _next_picker(s, start)


def _next_picker(s: State, start: int) -> None:
    """Passing clockwise, each player in turn picks one item they can hold; players who can
    hold none are skipped; when nobody can, the rest goes to the supply (AMB-47)."""
    config = s.ship.config
    if any(s.pool):
        for offset in range(s.n):
            q = (start + offset) % s.n
            if q == s.flipper and not config.flipper_rejoins:
                continue
            if s.pick_skips >= s.n:
                break
            if _holdable(s, q):
                s.phase = FLIP_PICK
                s.owner = q
                s.picker = q
                return
    for item in range(6):
        if s.pool[item]:
            _to_supply(s, item, s.pool[item])
            s.pool[item] = 0
    _lantern_step(s)


def _legal_flip_pick(s: State) -> list[int]:
    actions = [TAKE + item for item in _holdable(s, s.owner)]
    if s.ship.config.pick_optional:
        actions.append(PASS)
    return actions


def _apply_flip_pick(s: State, action: int) -> None:
    q = s.owner
    if action == PASS:
        s.pick_skips += 1
    else:
        s.pick_skips = 0
        item = action - TAKE
        s.pool[item] -= 1
        _add(s, q, item, "flip_share")
    _next_picker(s, (q + 1) % s.n)


def _lantern_step(s: State) -> None:
    s.phase = LANTERN_PHASE
    s.owner = s.active


def _legal_lantern(s: State) -> list[int]:
    """1 or 2 planks behind the player, stations skipped; it must move (seed §The Lantern;
    AMB-28)."""
    config = s.ship.config
    if config.lantern_reference == "player":
        spots = list(_BEHIND[s.pos[s.active]])
    else:
        spots = [(s.lantern - 1) % PLANKS, (s.lantern - 2) % PLANKS]
    if config.lantern_must_change:
        spots = [k for k in spots if k != s.lantern]
    return [LANTERN + k for k in spots]


def _apply_lantern(s: State, action: int) -> None:
    s.lantern = action - LANTERN
    _event(s, "lantern", player=s.active, plank=PLANK_NAMES[s.lantern])
    _finish_turn(s)


def _finish_turn(s: State) -> None:
    """Reload emptied chests (AMB-08), start the final round if the end was triggered
    (AMB-60), and pass the turn."""
    config = s.ship.config
    trigger = config.reload_trigger
    chests = 0
    if trigger == "any_emptied":
        chests = s.emptied
    elif (trigger == "wtp_only" and s.wtp_won) or trigger == "every_turn_center":
        chests = 1 << s.ship.wtp_chest
    if chests:
        contents = CHEST_2P if s.n == 2 and config.reload_contents_2p == "two_player" else _RELOAD
        for chest in bits(chests):
            for item in range(6):
                for _ in range(contents[item]):
                    if _from_supply(s, item):
                        s.chests[chest * 6 + item] += 1
            _event(s, "reloaded", chest=chest + 1)
    p = s.active
    if s.end_triggered and s.stage != FINAL:
        s.stage = FINAL
        s.final_queue = _final_queue(s, p)
        _event(s, "final_round", order=list(s.final_queue))
    if s.stage == FINAL:
        if not s.final_queue:
            _game_over(s)
            return
        s.active = s.final_queue.pop(0)
    else:
        s.active = (p + 1) % s.n
    _start_turn(s)


def _final_queue(s: State, trigger: int) -> list[int]:
    """Who takes a final turn after the end is triggered (AMB-60)."""
    n = s.n
    others = [(trigger + i) % n for i in range(1, n)]
    mode = s.ship.config.final_round
    if mode == "all_including_trigger":
        return [*others, trigger]
    if mode == "all_others":
        return others
    place = (trigger - s.first_player) % n
    return [q for q in others if (q - s.first_player) % n > place]


def _game_over(s: State) -> None:
    """Most life rings wins; ties go to loot value, then `final_tie` (AMB-62)."""
    s.stage = ENDED
    tied = s.leaders()
    rule = s.ship.config.final_tie
    if len(tied) > 1 and rule == "fewest_turns":
        fewest = min(s.turns_taken[p] for p in tied)
        tied = [p for p in tied if s.turns_taken[p] == fewest]
    s.winners = tied
    if len(tied) > 1 and rule == "random":
        _chance(s, TIE_DRAW)
        return
    _close(s)


def _tie_draw(s: State, outcome: int) -> None:
    s.winners = [outcome - TIE_WINNER]
    _close(s)


def _close(s: State) -> None:
    s.phase = OVER
    s.owner = -1
    _event(s, "game_over", winners=list(s.winners), scores=s.scores(), aborted=s.aborted)


# --- setup decision ------------------------------------------------------------------------


def _legal_setup_lantern(s: State) -> list[int]:
    """The first player places the lantern (seed §Setup 5; AMB-13)."""
    rule = s.ship.config.lantern_setup_rule
    spots = list(range(PLANKS))
    if rule == "not_reachable_by_step":
        start = s.pos[s.first_player]
        reach = {space_plank(s.ship.destination[start][steps]) for steps in (1, 2)}
        spots = [k for k in spots if k not in reach]
    return [LANTERN + k for k in spots]


def _apply_setup_lantern(s: State, action: int) -> None:
    s.lantern = action - LANTERN
    if s.ship.config.lantern_setup_rule == "no_first_landing":
        s.first_block = s.lantern
    _event(s, "lantern", player=s.first_player, plank=PLANK_NAMES[s.lantern])
    _start_turn(s)


def _pool_text(s: State) -> str:
    return " ".join(f"{ITEM_SHORT[i]}×{s.pool[i]}" for i in range(6) if s.pool[i]) or "nothing"


def _none(s: State) -> list[int]:
    return []


def _refuse(s: State, action: int) -> None:
    raise IllegalActionError("the game is over")


_LEGAL = (
    _legal_setup_lantern,
    _legal_move,
    _legal_plank,
    _legal_station,
    _legal_take_item,
    _legal_wtp_keep,
    _legal_wtp_give,
    _legal_wtp_drop,
    _legal_flip,
    _legal_flip_keep,
    _legal_flip_pick,
    _legal_lantern,
    _legal_limit,
    _evac_choices,
    _legal_forced_deploy,
    _none,
    _none,
)
_APPLY = (
    _apply_setup_lantern,
    _apply_move,
    _apply_plank,
    _apply_station,
    _apply_take_item,
    _apply_wtp_keep,
    _apply_wtp_give,
    _apply_wtp_drop,
    _apply_flip,
    _apply_flip_keep,
    _apply_flip_pick,
    _apply_lantern,
    _apply_limit,
    _apply_evac,
    _apply_forced_deploy,
    _refuse,
    _refuse,
)
_CHANCE = (
    _first_roll,
    _mariner_mover_roll,
    _first_roll,
    _defend_roll,
    _first_roll,
    _hold_roll,
    _wtp_roll,
    _fate_roll,
    _reveal_card,
    _tie_draw,
)
