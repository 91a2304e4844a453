"""Contests of two fate-die rolls and what their winner takes: player steals (with the
defender's counter-steal on a tie), the Mariner defending its wall, and the item a winner
picks from the loser (seed §Stealing, §How the Mariner Works; AMB-24 to AMB-26, AMB-54)."""

from __future__ import annotations

from typing import Final

from tabletop.games.deadweight_board.actions import DIE, TAKE_ITEM
from tabletop.games.deadweight_board.board import ITEM_SHORT
from tabletop.games.deadweight_board.effects import (
    holds_anything,
    move_item,
    protected,
    record,
    tally,
)
from tabletop.games.deadweight_board.flow import resume, start_contest
from tabletop.games.deadweight_board.limit import after_gain
from tabletop.games.deadweight_board.state import (
    CHALLENGE_ROLL,
    DEFEND_ROLL,
    HOLD_ROLL,
    MARINER_MOVER_ROLL,
    MARINER_OWNER_ROLL,
    STEAL_ROLL,
    State,
)
from tabletop.games.deadweight_board.state import TAKE_ITEM as TAKE_ITEM_PHASE

_FIRST_ROLLS: Final = {
    STEAL_ROLL: ("steal", DEFEND_ROLL),
    MARINER_OWNER_ROLL: ("mariner", MARINER_MOVER_ROLL),
    CHALLENGE_ROLL: ("challenge", HOLD_ROLL),
}
"""Each contest's first roll: what it is for, and the chance event of the reply."""


def first_roll(s: State, outcome: int) -> None:
    purpose, reply = _FIRST_ROLLS[s.chance]
    s.c_roll = outcome - DIE
    if s.events is not None:
        record(s, "roll", player=s.c_attacker, face=s.c_roll, purpose=purpose)
    s.chance = reply


def start_steal(s: State, thief: int, victim: int, only_item: int, point: int) -> None:
    """A player-steal contest: the thief rolls, then the defender (seed §Stealing)."""
    s.c_item = only_item
    tally(s, "steal:attempts")
    start_contest(s, thief, victim, point, STEAL_ROLL)


def defend_roll(s: State, outcome: int) -> None:
    thief, victim = s.c_attacker, s.c_defender
    face = outcome - DIE
    if s.events is not None:
        record(s, "roll", player=victim, face=face, purpose="defend")
    ship = s.ship
    if s.c_roll > face:
        tally(s, "steal:won")
        if s.c_item >= 0:
            move_item(s, victim, thief, s.c_item, "steal")
            if s.events is not None:
                record(s, "stolen", thief=thief, victim=victim, item=ITEM_SHORT[s.c_item])
            after_gain(s, thief, s.c_resume)
        else:
            begin_take(s, thief, victim, s.c_resume)
    elif s.c_roll < face or ship.unify_ties:
        tally(s, "steal:blocked")
        if s.events is not None:
            record(s, "blocked", thief=thief, victim=victim)
        resume(s, s.c_resume)
    elif protected(s, thief) and ship.protection_blocks_counter_steal:
        tally(s, "steal:tie_protected")
        if s.events is not None:
            record(s, "tie_protected", thief=thief, victim=victim)
        resume(s, s.c_resume)
    else:
        tally(s, "steal:counter")
        begin_take(s, victim, thief, s.c_resume)


def begin_take(s: State, taker: int, victim: int, point: int) -> None:
    """The winner of a contest picks any one item of the loser's (AMB-25); nothing moves if
    the loser holds nothing."""
    if not holds_anything(s, victim):
        if s.events is not None:
            record(s, "nothing_to_take", taker=taker, victim=victim)
        resume(s, point)
        return
    s.taker = taker
    s.victim = victim
    s.take_resume = point
    s.phase = TAKE_ITEM_PHASE
    s.owner = taker


def legal_take_item(s: State) -> list[int]:
    base = s.victim * 6
    return [TAKE_ITEM + item for item in range(6) if s.inv[base + item]]


def apply_take_item(s: State, action: int) -> None:
    item = action - TAKE_ITEM
    if s.stats is not None:
        tally(s, "stolen:" + ITEM_SHORT[item])
    move_item(s, s.victim, s.taker, item, "steal")
    if s.events is not None:
        record(s, "stolen", thief=s.taker, victim=s.victim, item=ITEM_SHORT[item])
    after_gain(s, s.taker, s.take_resume)


def mariner_mover_roll(s: State, outcome: int) -> None:
    """Owner higher takes an item; mover higher knocks the Mariner off; a tie leaves it."""
    owner, mover = s.c_attacker, s.c_defender
    face = outcome - DIE
    if s.events is not None:
        record(s, "roll", player=mover, face=face, purpose="defend_mariner")
    if s.c_roll > face:
        tally(s, "mariner:steals")
        begin_take(s, owner, mover, s.c_resume)
    elif s.c_roll < face:
        tally(s, "mariner:dislodged")
        s.dep = -1
        s.dep_wall = -1
        if s.events is not None:
            record(s, "mariner_off", mariner=owner, why="lost_contest")
        resume(s, s.c_resume)
    else:
        if s.events is not None:
            record(s, "mariner_tie", mariner=owner)
        resume(s, s.c_resume)
