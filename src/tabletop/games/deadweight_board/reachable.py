"""Whether a position is one the rules can reach: every loader re-checks it here.

A saved game, a replayed log or a scenario built by hand is refused when it breaks a rule of
setup or play that holds at every moment of every game, with the rule it breaks (docs/rules
ENG-08 lists them). What is checked is the position itself, not the history that led to it:
a player may hold seven life rings in turn 3, since some longer history gives that, but not
two Mariners in one lifeboat of capacity one, an evacuation with a brown plank left, a
station visit on a plank, a decision owned by a player who is not the one to decide, or a
player on the space before the front station when the config starts everyone on it.
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop.games.deadweight_board.board import (
    COLOURS,
    FS,
    ITEM_NAMES,
    MAX_LOOT,
    PLANK_NAMES,
    PLANKS,
    PRE_FS,
    STATIONS,
    column,
)
from tabletop.games.deadweight_board.config import check_layout
from tabletop.games.deadweight_board.effects import SPACE_PLANK, holds_anything
from tabletop.games.deadweight_board.errors import LayoutError, StateError
from tabletop.games.deadweight_board.flips import FLIPPER_KEEPS, holdable
from tabletop.games.deadweight_board.flow import R_PLANK, R_WTP_GIVE, R_WTP_KEEP
from tabletop.games.deadweight_board.rules import legal_actions
from tabletop.games.deadweight_board.setup import CHEST_2P, CHEST_3_4P
from tabletop.games.deadweight_board.ship import TRACK_FROM_BS
from tabletop.games.deadweight_board.state import (
    CHALLENGE_ROLL,
    CHANCE,
    DEFEND_ROLL,
    ENDED,
    EVAC,
    EVACUATION,
    FATE_ROLL,
    FINAL,
    FLIP,
    FLIP_KEEP,
    FLIP_PICK,
    FORCED_DEPLOY,
    HOLD_ROLL,
    LANTERN,
    LANTERN_HERE,
    LIMIT,
    MARINER_MOVER_ROLL,
    MARINER_OWNER_ROLL,
    MOVE,
    OVER,
    PHASE_NAMES,
    PLANK,
    REVEAL_CARD,
    SETUP_LANTERN,
    SINKING,
    STATION,
    STEAL_ROLL,
    TAKE_ITEM,
    TIE_DRAW,
    WTP_DROP,
    WTP_GIVE,
    WTP_KEEP,
    WTP_ROLL,
    State,
)
from tabletop.games.deadweight_board.turns import final_queue, reload_contents, tied_winners
from tabletop.games.deadweight_board.walk_the_plank import keep_allowance

ALL_FLOODED = (1 << PLANKS) - 1
_AT_ACTIVE = (MOVE, PLANK, STATION, WTP_KEEP, WTP_GIVE, WTP_DROP, FLIP, LANTERN, EVAC)
"""Phases whose decision belongs to the player whose turn it is."""
_AT_STATION = (STATION, EVAC, FORCED_DEPLOY, FLIP)
_AT_WTP = (WTP_KEEP, WTP_GIVE, WTP_DROP)
_POOL_PHASES = (WTP_KEEP, WTP_GIVE, FLIP_KEEP, FLIP_PICK, LIMIT)
_TRIGGER_TURN = (STATION, LIMIT, CHANCE, LANTERN)
"""Where the turn that sends the last Mariner to a lifeboat can stand before it ends."""
_CONTEST_ROLLS = {
    STEAL_ROLL: False,
    DEFEND_ROLL: True,
    MARINER_OWNER_ROLL: False,
    MARINER_MOVER_ROLL: True,
    CHALLENGE_ROLL: False,
    HOLD_ROLL: True,
}
"""Each contest roll, and whether the first roll is already made when it is pending."""


def _refuse(rule: str) -> StateError:
    return StateError(f"unreachable position: {rule}")


def _plank_of(s: State, player: int) -> int:
    return SPACE_PLANK[s.pos[player]]


def check_setup(s: State) -> None:
    """The ship is laid out and filled as setup allows (seed §Ship Setup; AMB-06, AMB-12)."""
    config = s.ship.config
    try:
        check_layout(s.ship.spots, config)
    except LayoutError as problem:
        raise _refuse(f"the layout breaks a setup rule: {problem}") from None
    fixed = config.fixed_layout()
    if fixed is not None and fixed != s.ship.spots:
        raise _refuse("the layout is not the one the config fixes")
    if config.start_space == "FS" and PRE_FS in s.pos:
        raise _refuse("a player stands on the start space, but the config starts everyone on FS")
    if s.phase == SETUP_LANTERN:
        _check_fresh_setup(s)


def _check_fresh_setup(s: State) -> None:
    """Before the lantern is placed nothing has happened yet (seed §Ship Setup 4-5)."""
    chest = CHEST_2P if s.n == 2 else CHEST_3_4P
    fresh = (
        s.turn == 0
        and all(pos == s.ship.start_space() for pos in s.pos)
        and all(s.items(p) == [0, 0, 0, 0, 1, 0] for p in range(s.n))
        and all(s.chests[c * 6 : c * 6 + 6] == list(chest) for c in range(5))
        and not any(s.crates)
        and not s.flooded
        and s.dep < 0
        and all(b < 0 for b in s.boat)
        and not any(s.skip)
        and not s.discards
        and s.stage == SINKING
        and s.active == s.first_player
    )
    if not fresh:
        raise _refuse("the lantern is placed at setup, before anything else has happened")


def check_turns(s: State) -> None:
    """Turns go round the table from the first player, one each, until the final round
    (seed §Gameplay; AMB-11, AMB-60, AMB-63)."""
    cap = s.ship.config.turn_cap
    if s.turn > cap:
        raise _refuse(f"turn {s.turn} is past the turn cap ({cap})")
    if (s.turn == 0) != (s.phase == SETUP_LANTERN):
        raise _refuse("turn 0 is the lantern's placement at setup, and only that")
    if sum(s.turns_taken) != s.turn:
        raise _refuse("the players' turns taken must add up to the turn number")
    if s.aborted and s.turn != cap:
        raise _refuse("only the turn cap ends a game early, and only when it is reached")
    if s.stage == ENDED or s.turn == 0:
        return
    if s.stage == FINAL:
        _check_final_round(s)
        return
    _check_rotation(s, s.turn, set())


def _check_rotation(s: State, turn: int, extra: set[int]) -> None:
    """After `turn` turns in seat order, plus one more for each player in `extra`."""
    n = s.n
    for offset in range(n):
        p = (s.first_player + offset) % n
        expected = (turn - offset + n - 1) // n + (p in extra)
        if s.turns_taken[p] != expected:
            raise _refuse(
                f"{COLOURS[p]} has taken {s.turns_taken[p]} turns, but turns go round the "
                f"table from {COLOURS[s.first_player]}: {expected} by turn {s.turn}"
            )
    if not extra and s.active != (s.first_player + turn - 1) % n:
        raise _refuse(f"turn {s.turn} is not {COLOURS[s.active]}'s in seat order")


def _check_final_round(s: State) -> None:
    """The final round follows the trigger's turn in the order `final_round` gives."""
    queue = s.final_queue
    for played in range(s.n + 1):
        trigger_turn = s.turn - played - 1
        if trigger_turn < 1:
            break
        trigger = (s.first_player + trigger_turn - 1) % s.n
        order = final_queue(s, trigger)
        if order[played:] == [s.active, *queue] and played < len(order):
            _check_rotation(s, trigger_turn, set(order[: played + 1]))
            return
    raise _refuse("the final round's order does not follow the turn that triggered it")


def check_decider(s: State) -> None:
    """Each decision belongs to the one player the rules ask (notes §1.7; ENG-02)."""
    phase = s.phase
    if phase in _AT_ACTIVE and s.owner != s.active:
        raise _refuse(f"a {PHASE_NAMES[phase]} decision is the active player's")
    expected = {
        TAKE_ITEM: s.taker,
        LIMIT: s.limit_player,
        FLIP_PICK: s.picker,
        FLIP_KEEP: s.flipper,
        FORCED_DEPLOY: s.active,
        SETUP_LANTERN: s.first_player,
    }.get(phase)
    if expected is not None and s.owner != expected:
        raise _refuse(f"a {PHASE_NAMES[phase]} decision belongs to another player")
    if phase == OVER and s.owner != -1:
        raise _refuse("nobody decides once the game is over")
    if phase in (FLIP_KEEP, FLIP_PICK) and s.flipper != s.active:
        raise _refuse("the player sharing out a flipped chest is the one whose turn it is")
    if phase not in (CHANCE, OVER, LANTERN, SETUP_LANTERN) and s.skip[s.active]:
        raise _refuse(f"{COLOURS[s.active]} is playing a turn they were to skip")
    if phase not in (CHANCE, OVER) and not legal_actions(s):
        raise _refuse(f"the pending {PHASE_NAMES[phase]} decision has no legal choice")


def check_place(s: State) -> None:
    """A phase happens where its rule does: station visits at a station, plank landings on
    a plank, Walk the Plank on its plank (seed §Movement, §Trading, §Walking the Plank)."""
    p, phase = s.active, s.phase
    here = s.pos[p]
    if phase in _AT_STATION and here not in STATIONS:
        raise _refuse(f"a {PHASE_NAMES[phase]} phase needs {COLOURS[p]} on a station")
    if phase == EVAC and here != FS:
        raise _refuse("Mariners are evacuated only from the front station (AMB-49)")
    if phase == PLANK and _plank_of(s, p) < 0:
        raise _refuse("a plank landing needs the player on a plank")
    if phase in _AT_WTP and _plank_of(s, p) != s.ship.wtp:
        raise _refuse("Walk the Plank is resolved on its own plank")
    fresh = not (
        s.flip_pending or s.evac_left or s.evac_done or s.emptied or s.wtp_won or s.landing
    )
    if phase == MOVE and not (fresh and not busy_flags(s)):
        raise _refuse("a turn starts with nothing done yet: no trade, landing or flip")
    if s.traded != bool(s.trades_done):
        raise _refuse("a visit has traded exactly when a trade of the card was made")
    busy = busy_flags(s)
    if (busy or s.flip_pending or s.evac_left) and here not in STATIONS and s.stage != ENDED:
        raise _refuse("trades, Mariner steps and fate rolls happen at a station")
    if _returns_to_plank(s) and bool(s.landing & LANTERN_HERE) != (s.lantern == _plank_of(s, p)):
        raise _refuse("the lantern's bonus applies exactly when the lantern is on the plank")
    if s.first_block >= 0 and not (
        s.turn == 1 and phase == MOVE and s.first_block == s.lantern and p == s.first_player
    ):
        raise _refuse("only the first move of the game is kept off the lantern's plank")
    rule = s.ship.config.lantern_setup_rule
    if s.turn == 1 and phase == MOVE and rule == "no_first_landing" and s.first_block < 0:
        raise _refuse("the first move of the game may not end on the lantern (AMB-13)")


def _returns_to_plank(s: State) -> bool:
    """Whether the pending node is the plank landing or leads back to it."""
    if s.phase == CHANCE:
        return s.chance in _CONTEST_ROLLS and s.c_resume == R_PLANK
    resumes = {PLANK: R_PLANK, TAKE_ITEM: s.take_resume, LIMIT: s.limit_resume}
    return resumes.get(s.phase) == R_PLANK


def busy_flags(s: State) -> bool:
    """Whether this turn's station visit has done anything (traded, a Mariner step, a roll)."""
    return bool(s.station_mode or s.trades_done or s.traded or s.mariner_done or s.evac_done)


def check_chance(s: State) -> None:
    """A pending chance event has what it needs: a contest its two sides, a fate roll its
    station, a card its face-down pile (notes §2.3)."""
    if s.phase != CHANCE:
        if s.top < 0:
            raise _refuse("a trade card lies face up on the pile except while one turns up")
        return
    kind = s.chance
    if (kind == REVEAL_CARD) != (s.top < 0):
        raise _refuse("a card is turned up exactly when the pile has no face-up card")
    if kind == REVEAL_CARD and not s.pile:
        raise _refuse("a card can only turn up from a face-down pile")
    if kind == TIE_DRAW and (s.stage != ENDED or len(s.winners) < 2):
        raise _refuse("a tie is drawn at random only between tied winners at the end")
    if kind == FATE_ROLL and (s.pos[s.active] not in STATIONS or s.station_mode != 2):
        raise _refuse("the fate die is rolled instead of trading, at a station")
    if kind == WTP_ROLL and _plank_of(s, s.active) != s.ship.wtp:
        raise _refuse("the Walk the Plank roll is made on its plank")
    if kind in _CONTEST_ROLLS:
        _check_contest(s, kind)


def _check_contest(s: State, kind: int) -> None:
    first, second = s.c_attacker, s.c_defender
    if first < 0 or second < 0 or first == second:
        raise _refuse("a contest is rolled between two different players")
    if _CONTEST_ROLLS[kind] and not 1 <= s.c_roll <= 6:
        raise _refuse("the reply to a contest follows a first roll of 1 to 6")
    if kind in (MARINER_OWNER_ROLL, MARINER_MOVER_ROLL) and first != s.dep:
        raise _refuse("a Mariner contest is rolled by the deployed Mariner's owner")
    if kind in (CHALLENGE_ROLL, HOLD_ROLL) and (first != s.active or second != s.dep):
        raise _refuse("a challenge is the active player's against the deployed Mariner")
    if kind in (STEAL_ROLL, DEFEND_ROLL) and first != s.active:
        raise _refuse("a steal is attempted by the player whose turn it is")


def check_sharing(s: State) -> None:
    """Items out of a chest are shared out only while a sharing is under way, within what
    each player may keep (seed §Walking the Plank, §Flipping Planks; AMB-39, AMB-47)."""
    wtp_limit = s.limit_resume in (R_WTP_KEEP, R_WTP_GIVE)
    sharing = s.phase in _POOL_PHASES and (s.phase != LIMIT or wtp_limit)
    if any(s.pool) and not sharing:
        raise _refuse("items lie out of a chest only while they are being shared out")
    if s.phase in (WTP_KEEP, WTP_GIVE) and not any(s.pool):
        raise _refuse("Walk the Plank's sharing needs items to share")
    if s.phase == WTP_KEEP and not _keep_fits(sum(s.pool), s.keep_left):
        raise _refuse("the roller may keep up to 4 items, or half (rounded up) above 8")
    if s.phase in (FLIP_KEEP, FLIP_PICK) and not 0 <= s.keep_left <= FLIPPER_KEEPS:
        raise _refuse(f"the flipper keeps at most {FLIPPER_KEEPS} items")
    if s.phase == FLIP_KEEP and not (s.keep_left and holdable(s, s.owner)):
        raise _refuse("the flipper keeps items only while they may hold one")
    if s.phase == FLIP_PICK and not holdable(s, s.owner):
        raise _refuse("a player picks from a flipped chest only an item they may hold")
    if s.phase == LIMIT and s.gems(s.limit_player) != MAX_LOOT + 1:
        raise _refuse(f"the loot limit is enforced as soon as one gain passes {MAX_LOOT}")
    taking = s.phase == TAKE_ITEM
    if taking and (min(s.taker, s.victim) < 0 or s.taker == s.victim):
        raise _refuse("a contest's winner takes an item from the other player")
    if taking and not holds_anything(s, s.victim):
        raise _refuse("a contest's winner takes an item the other player holds")
    if s.teleport_queue and not s.ship.config.teleport_triggers_mariner:
        raise _refuse("players moved by Shortcut or Switch meet no Mariner (AMB-53)")


def _keep_fits(left: int, keep_left: int) -> bool:
    """Whether `keep_left` can remain after keeping some items of a chest of which `left`
    items are still out."""
    return any(keep_allowance(left + kept) - kept == keep_left >= 1 for kept in range(left + 8 + 1))


def check_chests(s: State) -> None:
    """A closed chest holds what setup or a reload put in, plus gems dropped into the centre
    chest's hole; an emptied chest waits for the end of the turn (AMB-07, AMB-08, AMB-41)."""
    config = s.ship.config
    if config.wtp_scope != "all_items" or config.reload_trigger == "every_turn_center":
        return  # the centre chest piles up: anything is possible there, and then elsewhere
    setup = CHEST_2P if s.n == 2 else CHEST_3_4P
    reload = reload_contents(s)
    finite = s.supply is not None
    for chest in range(5):
        held = s.chests[chest * 6 : chest * 6 + 6]
        flooded = any(s.flooded >> k & 1 for k in s.ship.planks_of_chest[chest])
        centre = chest == s.ship.wtp_chest
        bases = [] if flooded else [setup]
        if flooded or centre:
            bases.append(reload)
        if s.emptied >> chest & 1 or (flooded and config.reload_trigger != "any_emptied"):
            bases.append((0, 0, 0, 0, 0, 0))
        if not any(_fits(held, base, centre, finite) for base in bases):
            raise _refuse(f"chest C{chest + 1} holds what no setup, reload or drop puts there")
        if s.emptied >> chest & 1 and any(held[:4]) and s.stage != ENDED:
            raise _refuse(f"chest C{chest + 1} was emptied this turn and is refilled at its end")


def _fits(held: list[int], base: tuple[int, ...], centre: bool, finite: bool) -> bool:
    """Whether a chest filled with `base` (fewer with a finite supply) and, for the centre
    chest, any gems dropped into it, holds `held`."""
    for item in range(6):
        dropped = centre and item < 4
        if held[item] > base[item] and not dropped:
            return False
        if held[item] < base[item] and not finite:
            return False
    return True


def check_ship(s: State) -> None:
    """Planks flip from the back, the evacuation follows the last flip, Mariners reach
    lifeboats only then, and the end follows the last one (seed §Flipping Planks, §When All
    Planks Are Flipped, §Game End Condition; AMB-46, AMB-49, AMB-50)."""
    config = s.ship.config
    _check_flip_order(s)
    all_flooded = s.flooded == ALL_FLOODED
    boats = [b for b in s.boat if b >= 0]
    if s.stage == SINKING and (all_flooded or boats):
        raise _refuse("the sinking lasts while a plank is brown, and no Mariner has left yet")
    if s.stage in (EVACUATION, FINAL) and not all_flooded:
        raise _refuse("the evacuation begins only once every plank is flooded")
    if config.lifeboat_capacity == "one" and len(boats) != len(set(boats)):
        raise _refuse("two Mariners are in a lifeboat that holds one")
    if s.end_triggered != (len(boats) == 4):
        raise _refuse("the end is triggered exactly when the last Mariner reaches a lifeboat")
    if s.stage == FINAL and not s.end_triggered:
        raise _refuse("the final round follows the last Mariner's evacuation")
    if s.stage == EVACUATION and s.end_triggered and s.phase not in _TRIGGER_TURN:
        raise _refuse("the final round starts at the end of the triggering turn")
    if s.phase == EVAC and not s.evac_left:
        raise _refuse("a Mariner is evacuated only when a diamond traded at FS calls for it")
    if s.final_queue and s.stage != FINAL:
        raise _refuse("only the final round has a queue of final turns")
    if s.evac_left and (s.stage != EVACUATION or s.pos[s.active] != FS):
        raise _refuse("an evacuation is due only at the front station during the evacuation")
    if s.evac_left > 1 and config.evac_per_turn == "one":
        raise _refuse("one Mariner is evacuated per turn (AMB-49)")
    if s.skip and max(s.skip) > 1 and not config.skip_stacks:
        raise _refuse("skipped turns do not stack (AMB-35)")
    if s.wtp_won and not s.emptied >> s.ship.wtp_chest & 1:
        raise _refuse("a successful Walk the Plank empties the centre chest")


def _check_flip_order(s: State) -> None:
    order = s.ship.config.flip_order
    flooded = [k for k in range(PLANKS) if s.flooded >> k & 1]
    if order == "track_from_BS":
        ok = flooded == sorted(TRACK_FROM_BS[: len(flooded)])
    elif order == "rear_column_choice":
        columns = [column(k) for k in flooded]
        lowest = min(columns, default=6)
        ok = all(s.flooded >> k & 1 or column(k) <= lowest for k in range(PLANKS))
    else:
        ok = True
    if not ok:
        named = ", ".join(PLANK_NAMES[k] for k in flooded)
        raise _refuse(f"flooded planks {named} were not flipped in the order {order} allows")


def check_end(s: State) -> None:
    """The game ends once, with the winners the rules name (seed §Game End; AMB-62)."""
    ended = s.stage == ENDED
    if ended != (s.phase == OVER or (s.phase == CHANCE and s.chance == TIE_DRAW)):
        raise _refuse("the game is over exactly when its stage is ended")
    if not ended and (s.winners or s.aborted):
        raise _refuse("winners are named only at the end")
    if not ended:
        return
    tied = tied_winners(s)
    random_tie = s.ship.config.final_tie == "random"
    if s.phase == OVER and random_tie and len(tied) > 1:
        ok = len(s.winners) == 1 and s.winners[0] in tied
    else:
        ok = s.winners == tied
    if not ok:
        raise _refuse("the winners are the players with the most life rings, then loot value")


def check_supply(s: State) -> None:
    """With a finite supply every item is somewhere: nothing appears or vanishes (AMB-09)."""
    if s.supply is None:
        return
    config = s.ship.config
    start = config.supply.as_list()  # type: ignore[union-attr]
    chest = CHEST_2P if s.n == 2 else CHEST_3_4P
    for item, name in enumerate(ITEM_NAMES):
        total = s.supply[item] + s.pool[item]
        total += sum(s.inv[p * 6 + item] for p in range(s.n))
        total += sum(s.chests[c * 6 + item] for c in range(5))
        total += s.crates[item] if item < 4 else 0
        expected = start[item] + 5 * chest[item] + (s.n if name == "rope" else 0)
        if total != expected:
            raise _refuse(f"with a finite supply there are {expected} {name} pieces in all")


CHECKS: tuple[Callable[[State], None], ...] = (
    check_setup,
    check_turns,
    check_ship,
    check_chests,
    check_supply,
    check_place,
    check_chance,
    check_sharing,
    check_end,
    check_decider,
)
"""Every check, cheapest and most basic first; `check_decider` asks the rules themselves."""


def check_reachable(state: State) -> None:
    """Refuse a position the rules cannot reach, naming the rule it breaks."""
    for check in CHECKS:
        check(state)
