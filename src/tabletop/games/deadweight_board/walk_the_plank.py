"""Walk the Plank: the roll, keeping up to 4 (or half) of the centre chest, handing out the
rest, or dropping a gem into the hole (seed §Walking the Plank, §Tile Actions 7;
AMB-38 to AMB-41)."""

from __future__ import annotations

from tabletop.games.deadweight_board.actions import DIE, DROP, GIVE, PASS, TAKE
from tabletop.games.deadweight_board.board import ITEM_SHORT
from tabletop.games.deadweight_board.effects import add, pool_text, record, tally
from tabletop.games.deadweight_board.flow import R_WTP_GIVE, R_WTP_KEEP, end_turn, resume
from tabletop.games.deadweight_board.limit import after_gain
from tabletop.games.deadweight_board.state import WTP_DROP, WTP_KEEP, State


def keep_allowance(items: int) -> int:
    """How many of `items` the roller may keep: up to 4, or half rounded up above 8."""
    return 4 if items <= 8 else (items + 1) // 2


def wtp_roll(s: State, outcome: int) -> None:
    p = s.active
    face = outcome - DIE
    flooded = s.flooded >> s.ship.wtp & 1
    success = face in s.ship.wtp_success[flooded]
    if s.events is not None:
        record(s, "roll", player=p, face=face, purpose="walk_the_plank", success=success)
    if not success:
        tally(s, "wtp:failures")
        if s.gems(p):
            s.phase = WTP_DROP
            s.owner = p
        else:
            end_turn(s)
        return
    tally(s, "wtp:successes")
    chest = s.ship.wtp_chest * 6
    scope = 4 if s.ship.wtp_scope == "gems_only" else 6
    for item in range(scope):
        s.pool[item] = s.chests[chest + item]
        s.chests[chest + item] = 0
    s.emptied |= 1 << s.ship.wtp_chest
    s.wtp_won = True
    total = sum(s.pool)
    s.keep_left = keep_allowance(total)
    if s.events is not None:
        record(
            s,
            "chest_opened",
            player=p,
            by="walk_the_plank",
            items=pool_text(s),
            may_keep=s.keep_left,
        )
    tally(s, "wtp:items", total)
    if total:
        s.phase = WTP_KEEP
        s.owner = p
    else:
        end_turn(s)


def legal_wtp_keep(s: State) -> list[int]:
    return [TAKE + item for item in range(6) if s.pool[item]] + [PASS]


def apply_wtp_keep(s: State, action: int) -> None:
    p = s.active
    if action == PASS:
        resume(s, R_WTP_GIVE)
        return
    item = action - TAKE
    s.pool[item] -= 1
    add(s, p, item, "walk_the_plank")
    s.keep_left -= 1
    after_gain(s, p, R_WTP_KEEP)


def legal_wtp_give(s: State) -> list[int]:
    p = s.active
    return [GIVE + item * 4 + q for item in range(6) if s.pool[item] for q in range(s.n) if q != p]


def apply_wtp_give(s: State, action: int) -> None:
    """Everything not kept goes to other players as the roller chooses (AMB-40)."""
    k = action - GIVE
    item, q = divmod(k, 4)
    s.pool[item] -= 1
    add(s, q, item, "walk_the_plank_gift")
    after_gain(s, q, R_WTP_GIVE)


def legal_wtp_drop(s: State) -> list[int]:
    base = s.active * 6
    return [DROP + gem for gem in range(4) if s.inv[base + gem]]


def apply_wtp_drop(s: State, action: int) -> None:
    gem = action - DROP
    s.inv[s.active * 6 + gem] -= 1
    s.chests[s.ship.wtp_chest * 6 + gem] += 1
    if s.events is not None:
        record(s, "dropped", player=s.active, gem=ITEM_SHORT[gem])
    end_turn(s)
