"""Where play goes next: onto a space, into a station visit, into a contest or a chance
node, back to where a contest or a gain interrupted the turn, into the end of the turn.

These functions only set the pending node (`phase`, `owner`, `chance`); the phase modules
decide what happens there. Keeping the routing here lets every phase module call it without
the phases importing each other in a circle.
"""

from __future__ import annotations

from typing import Final

from tabletop.games.deadweight_board.actions import EVAC as EVAC_ACTION
from tabletop.games.deadweight_board.effects import SPACE_PLANK, tally
from tabletop.games.deadweight_board.state import (
    CHANCE,
    EVAC,
    FINAL,
    FLIP,
    LANTERN,
    LANTERN_HERE,
    MARINER_OWNER_ROLL,
    PLANK,
    STATION,
    WTP_GIVE,
    WTP_KEEP,
    State,
)

# Where to go on after a contest, a stolen item, a limit check or a card turned up.
RESUME_POINTS: Final = 7
R_LANDING: Final = 0
R_PLANK: Final = 1
R_END: Final = 2
R_STATION: Final = 3
R_WTP_KEEP: Final = 4
R_WTP_GIVE: Final = 5
R_TELEPORT: Final = 6
RESUME_NAMES: Final = ("landing", "plank", "end", "station", "wtp_keep", "wtp_give", "teleport")


def chance(s: State, kind: int) -> None:
    s.phase = CHANCE
    s.chance = kind


def start_contest(s: State, first: int, second: int, resume: int, roll: int) -> None:
    """A contest of two fate-die rolls: `first` rolls, then `second`; `roll` names the
    first roll's chance event."""
    s.c_attacker = first
    s.c_defender = second
    s.c_resume = resume
    chance(s, roll)


def start_mariner_contest(s: State, mover: int, resume: int) -> None:
    """The deployed Mariner defends its wall: its owner rolls, then the mover (seed §Mariner)."""
    tally(s, "mariner:contests")
    start_contest(s, s.dep, mover, resume, MARINER_OWNER_ROLL)


def restricted(s: State) -> bool:
    """A final-round turn allows moving and trading only (AMB-61)."""
    return s.stage == FINAL and s.ship.final_turn_mode == "move_and_trade_only"


def evac_choices(s: State) -> list[int]:
    """Mariners that may go to a lifeboat and the lifeboats that may take them (AMB-50)."""
    left = [m for m in range(4) if s.boat[m] < 0]
    movable = [m for m in left if m != s.dep or len(left) == 1]
    if s.ship.lifeboat_capacity == "one":
        boats = [b for b in range(4) if b not in s.boat]
    else:
        boats = [0, 1, 2, 3]
    return [EVAC_ACTION + m * 4 + b for m in movable for b in boats]


def station(s: State) -> None:
    """Open (or go back to) the station visit; an evacuation due comes first (AMB-49)."""
    if s.evac_left > 0 and evac_choices(s):
        s.phase = EVAC
    else:
        s.evac_left = 0
        s.phase = STATION
    s.owner = s.active


def land(s: State) -> None:
    """Resolve the space landed on: station options or plank options (seed §Movement)."""
    p = s.active
    plank = SPACE_PLANK[s.pos[p]]
    if plank < 0:
        tally(s, "station_visits")
        station(s)
        return
    if restricted(s):
        end_turn(s)
        return
    s.landing = LANTERN_HERE if s.lantern == plank else 0
    if s.landing:
        tally(s, "lantern_landings")
    s.phase = PLANK
    s.owner = p


def end_turn(s: State) -> None:
    """Notes §2.2 T6: flip (if a diamond was traded), then the lantern, then reloads."""
    if s.flip_pending:
        s.flip_pending = False
        if s.ship.flip_candidates(s.flooded):
            s.phase = FLIP
            s.owner = s.active
            return
    lantern_step(s)


def lantern_step(s: State) -> None:
    s.phase = LANTERN
    s.owner = s.active


def resume(s: State, point: int) -> None:
    """Go on from where the turn was interrupted."""
    if point == R_END:
        end_turn(s)
    elif point == R_PLANK:
        if s.landing & LANTERN_HERE:
            s.phase = PLANK
            s.owner = s.active
        else:
            end_turn(s)
    elif point == R_STATION:
        station(s)
    elif point == R_LANDING:
        land(s)
    elif point == R_WTP_KEEP:
        if s.keep_left and any(s.pool):
            s.phase = WTP_KEEP
            s.owner = s.active
        else:
            resume(s, R_WTP_GIVE)
    elif point == R_WTP_GIVE:
        if any(s.pool):
            s.phase = WTP_GIVE
            s.owner = s.active
        else:
            end_turn(s)
    else:
        next_teleport_contest(s)


def next_teleport_contest(s: State) -> None:
    """The next player put beside the Mariner's wall by Shortcut or Switch defends
    (`teleport_triggers_mariner`, AMB-53); when none is left the turn ends."""
    while s.teleport_queue:
        q = s.teleport_queue.pop(0)
        if s.dep >= 0 and q != s.dep:
            start_mariner_contest(s, q, R_TELEPORT)
            return
    end_turn(s)
