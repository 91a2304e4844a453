"""The 10-loot limit: a player over it returns gems of their choice before play goes on
(seed §Loot Collection; AMB-30). The choice may belong to a player who is not on turn."""

from __future__ import annotations

from tabletop.games.deadweight_board.actions import RETURN
from tabletop.games.deadweight_board.board import ITEM_SHORT, MAX_LOOT
from tabletop.games.deadweight_board.effects import record, to_supply
from tabletop.games.deadweight_board.flow import resume
from tabletop.games.deadweight_board.state import LIMIT, State


def after_gain(s: State, player: int, point: int) -> None:
    """Check the limit after `player` gained something, then go on at resume `point`."""
    if s.gems(player) > MAX_LOOT:
        s.phase = LIMIT
        s.owner = player
        s.limit_player = player
        s.limit_resume = point
        return
    resume(s, point)


def legal_limit(s: State) -> list[int]:
    base = s.limit_player * 6
    return [RETURN + gem for gem in range(4) if s.inv[base + gem]]


def apply_limit(s: State, action: int) -> None:
    p = s.limit_player
    gem = action - RETURN
    s.inv[p * 6 + gem] -= 1
    to_supply(s, gem)
    if s.events is not None:
        record(s, "returned", player=p, gem=ITEM_SHORT[gem])
    after_gain(s, p, s.limit_resume)
