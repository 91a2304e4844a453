"""Whose turn it is at a Dead Weight table (DW-T05): the core book keeps no order of its
own (combat turns and initiative are another book's, DW-G06), so the GM sets an order of the
adventurers and the kept enemies and moves it on, and the player whose turn it is may end it.
"""

from __future__ import annotations

from tabletop.session import Seated
from tabletop.systems.dead_weight.table import DeadWeightTable
from tabletop.turns import TurnKeeper


def everyone(state: DeadWeightTable) -> dict[str, Seated]:
    """The adventurers (with who plays them) and the enemies the GM keeps."""
    return characters(state) | {nid: Seated(npc.name) for nid, npc in state.npcs.items()}


def characters(state: DeadWeightTable) -> dict[str, Seated]:
    """The adventurers at the table, with the member who plays each."""
    return {cid: Seated(seat.sheet.label, seat.owner) for cid, seat in state.characters.items()}


TURNS: TurnKeeper[DeadWeightTable] = TurnKeeper(everyone)
"""The turns at a Dead Weight table."""
