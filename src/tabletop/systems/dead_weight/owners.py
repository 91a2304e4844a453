"""Whose each side of a test is, at a shared table.

The dice a side throws are rolled for its character or kept enemy (`rolled_for`), so a
player is shown their own dice in a step that keeps a hidden enemy's from them; and the
part of a line that is a hidden enemy's verdict is marked as its own (`kept.secret`), so
the players read the rest of the line (DW-N04). From the command line nobody is anybody:
no die is someone's and no line keeps anything (`NOBODY`).
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

from tabletop import kept
from tabletop.session import rolled_for


@dataclass(frozen=True)
class Whose:
    """For each side of a test (one) or an opposed test (two), the id its dice are rolled
    for, and which of those ids the players may not see the numbers of."""

    ids: tuple[str | None, ...] = ()
    """Each side's character or kept enemy by id; None for an enemy typed into the test."""
    kept: frozenset[str] = frozenset()
    """The ids of the kept enemies the GM hides (DW-N04)."""

    def id(self, side: int) -> str | None:
        return self.ids[side] if side < len(self.ids) else None

    def kept_id(self, side: int) -> str | None:
        """The side's id if the players may not see its numbers."""
        owner = self.id(side)
        return owner if owner in self.kept else None

    def rolling(self, side: int) -> AbstractContextManager[None]:
        """The dice rolled inside are the side's."""
        owner = self.id(side)
        return nullcontext() if owner is None else rolled_for(owner)

    def part(self, side: int, text: object) -> str:
        """`text` as the side's part of a line, kept from the players if its numbers are."""
        owner = self.kept_id(side)
        return str(text) if owner is None else kept.secret(owner, text)


NOBODY = Whose()
"""No one at all: the command line's tests and lines."""
