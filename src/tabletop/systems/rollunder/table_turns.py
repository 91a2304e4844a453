"""Whose turn it is at a roll-under table (CR-S11): the chapter has no turn order (CR-G04),
so the GM sets one of the characters and NPCs and moves it on, and every member sees it.
An activation is still the GM's to begin and end (CR-A13)."""

from __future__ import annotations

from tabletop.session import Seated
from tabletop.systems.rollunder.table import RollUnderTable
from tabletop.turns import TurnKeeper


def everyone(state: RollUnderTable) -> dict[str, Seated]:
    """The characters with the member who plays each, and the GM's NPCs (played by the GM)."""
    return {
        cid: Seated(seat.sheet.name, None if seat.npc else seat.owner)
        for cid, seat in state.characters.items()
        if seat.sheet.alive
    }


TURNS: TurnKeeper[RollUnderTable] = TurnKeeper(everyone)
"""The turns at a roll-under table."""
