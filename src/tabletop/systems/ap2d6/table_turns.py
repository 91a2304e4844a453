"""Whose turn it is at a 2d6 table (RU-S08). Initiative Rules B keeps no turns: in the Main
Phase a character says what they do, and only those acting at the same moment go in
initiative order (§ Main Phase). So the rules keep no order of their own, and the turn every
member sees is the one the GM sets and moves on (their initiative order, say), if any."""

from __future__ import annotations

from tabletop.session import Seated
from tabletop.systems.ap2d6.table import Ap2d6Table
from tabletop.turns import TurnKeeper


def everyone(state: Ap2d6Table) -> dict[str, Seated]:
    """The characters, with who plays them, and the GM's NPCs (the GM's own)."""
    return {
        cid: Seated(seat.sheet.name, None if seat.npc is not None else seat.owner)
        for cid, seat in state.characters.items()
    }


TURNS: TurnKeeper[Ap2d6Table] = TurnKeeper(everyone)
"""The turns at a 2d6 table."""
