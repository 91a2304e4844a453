"""A station visit: trade-card trades, the Mariner step (deploy, relocate, challenge), the
fate roll, the evacuation at the front station, and the new trade card after trading
(seed §Trading at Lifering Stations, §Deploying a Mariner, §When All Planks Are Flipped;
AMB-14, AMB-42 to AMB-50, AMB-56, AMB-57)."""

from __future__ import annotations

from tabletop.games.deadweight_board.actions import (
    CARD,
    CHALLENGE,
    DEPLOY,
    DIE,
    EVAC,
    FATE,
    PASS,
    TRADE,
)
from tabletop.games.deadweight_board.board import DI, FS, ITEM_SHORT, LR, wall_name
from tabletop.games.deadweight_board.effects import (
    affordable_walls,
    affords,
    gain,
    pay,
    record,
    tally,
)
from tabletop.games.deadweight_board.flow import (
    R_END,
    R_STATION,
    chance,
    end_turn,
    restricted,
    resume,
    start_contest,
    station,
)
from tabletop.games.deadweight_board.limit import after_gain
from tabletop.games.deadweight_board.state import (
    CHALLENGE_ROLL,
    EVACUATION,
    FATE_ROLL,
    FORCED_DEPLOY,
    REVEAL_CARD,
    SINKING,
    State,
)


def legal_station(s: State) -> list[int]:
    """Seed §Trading at Lifering Stations, §Mariner deployment; AMB-42, AMB-56, AMB-57, AMB-61."""
    p = s.active
    final = restricted(s)
    actions = []
    if not s.station_mode and not final:
        actions.append(FATE)
    done = s.trades_done
    for i, trade in enumerate(s.ship.cards[s.card[p]]):
        if not done >> i & 1 and affords(s, p, trade.cost):
            actions.append(TRADE + i)
    if not final and not s.mariner_done and s.boat[p] < 0:
        if s.dep < 0:
            actions.extend(DEPLOY + w for w in affordable_walls(s, p))
        elif s.dep == p:
            if s.ship.owner_relocation:
                actions.extend(DEPLOY + w for w in affordable_walls(s, p) if w != s.dep_wall)
        elif affordable_walls(s, p):
            actions.append(CHALLENGE)
    actions.append(PASS)
    return actions


def apply_station(s: State, action: int) -> None:
    p = s.active
    if action == PASS:
        if s.stats is not None:
            visit = "trade" if s.traded else "mariner" if s.station_mode else "nothing"
            tally(s, "station:" + visit)
        if s.traded:
            _draw_card(s, p)
        else:
            end_turn(s)
        return
    if action == FATE:
        s.station_mode = 2
        tally(s, "station:fate")
        chance(s, FATE_ROLL)
        return
    s.station_mode = 1
    if action == CHALLENGE:
        s.mariner_done = True
        tally(s, "mariner:challenges")
        start_contest(s, p, s.dep, R_STATION, CHALLENGE_ROLL)
        return
    if action >= DEPLOY:
        _deploy(s, p, action - DEPLOY)
    else:
        _trade(s, p, action - TRADE)
    station(s)


def _trade(s: State, p: int, index: int) -> None:
    """Pay a trade card's cost into the crates and take its life rings; a diamond traded sets
    up a flip (sinking) or an evacuation at FS (evacuation) (seed §Trading, §Flipping)."""
    trade = s.ship.cards[s.card[p]][index]
    s.trades_done |= 1 << index
    s.traded = True
    tally(s, "trades")
    if s.events is not None:
        record(s, "trade", player=p, card=s.card[p], trade=index, life_rings=trade.life_rings)
    pay(s, p, trade.cost)
    for _ in range(trade.life_rings):
        gain(s, p, LR, "trade_card")
    if trade.diamonds:
        _diamond_spent(s, trade.diamonds)


def _diamond_spent(s: State, diamonds: int) -> None:
    """A diamond spent at a station (AMB-44): a flip at the end of the turn while planks are
    brown (AMB-45); once all are flooded, an evacuation if at FS (AMB-49)."""
    if s.stage == SINKING:
        s.flip_pending = True
    elif s.stage == EVACUATION and s.pos[s.active] == FS:
        if s.ship.evac_per_turn == "per_diamond":
            s.evac_left += diamonds
        elif not s.evac_done and not s.evac_left:
            s.evac_left = 1


def _deploy(s: State, p: int, wall: int) -> None:
    """Pay a wall's cost (one gem per bordering plank's loot type) and place or move the
    Mariner there (seed §Deploying a Mariner; AMB-51, AMB-56)."""
    cost = s.ship.wall_cost[wall]
    relocating = s.dep == p
    s.mariner_done = True
    tally(s, "mariner:relocations" if relocating else "mariner:deployments")
    pay(s, p, cost)
    s.dep = p
    s.dep_wall = wall
    if s.events is not None:
        record(s, "mariner_on", player=p, wall=wall_name(s.ship.walls[wall]))
    if cost[DI] and s.ship.diamond_trigger_includes_deploy:
        _diamond_spent(s, cost[DI])


def hold_roll(s: State, outcome: int) -> None:
    """Challenger higher: the Mariner comes off and the challenger must deploy at once;
    otherwise (ties included) the challenge is blocked (seed §Deploying; AMB-57)."""
    face = outcome - DIE
    if s.events is not None:
        record(s, "roll", player=s.c_defender, face=face, purpose="hold_wall")
    if s.c_roll > face:
        tally(s, "mariner:challenges_won")
        if s.events is not None:
            record(s, "mariner_off", mariner=s.dep, why="challenged")
        s.dep = -1
        s.dep_wall = -1
        s.phase = FORCED_DEPLOY
        s.owner = s.active
    else:
        if s.events is not None:
            record(s, "challenge_blocked", player=s.active)
        station(s)


def legal_forced_deploy(s: State) -> list[int]:
    return [DEPLOY + w for w in affordable_walls(s, s.active)]


def apply_forced_deploy(s: State, action: int) -> None:
    _deploy(s, s.active, action - DEPLOY)
    station(s)


def fate_roll(s: State, outcome: int) -> None:
    """The fate die at a station: one item by face (seed §Trading; AMB-02)."""
    p = s.active
    face = outcome - DIE
    item = s.ship.fate[face]
    if s.events is not None:
        record(s, "roll", player=p, face=face, purpose="fate", item=ITEM_SHORT[item])
    gain(s, p, item, "fate")
    after_gain(s, p, R_END)


def apply_evac(s: State, action: int) -> None:
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
    tally(s, "evacuations")
    if s.events is not None:
        record(
            s,
            "evacuated",
            player=p,
            mariner=mariner,
            owner=s.mariner_owner(mariner),
            lifeboat=ITEM_SHORT[boat],
        )
    gain(s, p, boat, "lifeboat")
    if all(b >= 0 for b in s.boat):
        s.end_triggered = True
        if s.events is not None:
            record(s, "end_triggered", player=p)
    after_gain(s, p, R_STATION)


def _draw_card(s: State, p: int) -> None:
    """After a visit with trades, discard the card and take the face-up top one; the next
    card turns up (AMB-14, AMB-43). An empty pile is the discards reshuffled."""
    s.discards |= 1 << s.card[p]
    s.card[p] = s.top
    s.top = -1
    if not s.pile:
        s.pile = s.discards
        s.discards = 0
        if s.events is not None:
            record(s, "reshuffled")
    s.reveal_resume = R_STATION if s.ship.new_card_usable_same_visit else R_END
    chance(s, REVEAL_CARD)


def reveal_card(s: State, outcome: int) -> None:
    card = outcome - CARD
    s.pile &= ~(1 << card)
    s.top = card
    if s.events is not None:
        record(s, "card_up", card=card)
    if s.reveal_resume == R_STATION:
        s.trades_done = 0
        s.traded = False
    resume(s, s.reveal_resume)
