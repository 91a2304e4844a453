"""Whose turn it is at a Constitution table (docs/rules/constitution.md C3-S06): out of a
fight the referee sets an order of the characters and NPCs and moves it on; in a fight the
initiative tracker keeps its own (article 5), so the turn every member sees is the fight's
and the rules move it.
"""

from __future__ import annotations

from tabletop.session import Seated
from tabletop.systems.constitution.table import ConstitutionTable
from tabletop.turns import Ruled, TurnKeeper


def everyone(state: ConstitutionTable) -> dict[str, Seated]:
    """The characters (with who plays them) and the referee's NPCs at the table."""
    seated = {cid: Seated(seat.sheet.name, seat.owner) for cid, seat in state.characters.items()}
    return seated | {nid: Seated(npc.name) for nid, npc in state.npcs.items()}


def initiative(state: ConstitutionTable) -> Ruled | None:
    """The fight's order while its rounds run: highest initiative first (§ 5.2, C3-A38),
    whose turn it is, the round, and the member who plays each combatant."""
    fight = state.fight
    if fight.phase not in ("round", "between_rounds"):
        return None
    order = [(c.id, c.name) for c in fight.order()]
    return Ruled(order, fight.acting, fight.round, state.controllers)


TURNS: TurnKeeper[ConstitutionTable] = TurnKeeper(everyone, initiative)
"""The turns at a Constitution table."""
