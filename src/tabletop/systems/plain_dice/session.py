"""The dice room's session: the protocol's own rolls and nothing more."""

from __future__ import annotations

from typing import Any

from tabletop.session import Frozen, Member, Session


class DiceTable(Frozen):
    """A dice room keeps nothing between rolls: each roll is an event, and the log holds them."""


class DiceSession(Session[DiceTable]):
    name = "dice"
    state = DiceTable

    def view(self, state: DiceTable, member: Member) -> dict[str, Any]:
        return {"system": self.name}


SESSION = DiceSession()
