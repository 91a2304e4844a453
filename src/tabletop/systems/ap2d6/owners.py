"""Whose each character at a table is, for rules that roll for or tell of several at once.

At a shared table the dice rolled for a character are theirs (`rolled_for`), and the part
of a line that holds the numbers of a character the players may not see (an NPC the GM
keeps hidden) is marked as that character's (`kept.secret`), so the players read the rest
of the line (RU-N05). From the command line nobody is anybody: no roll is someone's and no
line keeps anything (`NOBODY`).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

from tabletop import kept
from tabletop.session import rolled_for


def rolled(owner: str | None) -> AbstractContextManager[None]:
    """The dice rolled inside are `owner`'s (an id), or nobody's."""
    return nullcontext() if owner is None else rolled_for(owner)


def part(owner: str | None, text: object) -> str:
    """`text` as the part of a line that is `owner`'s to keep (an id), or plainly."""
    return str(text) if owner is None else kept.secret(owner, text)


@dataclass(frozen=True)
class Owners:
    """The table's characters by name: their ids, and which of them the players may not see
    the numbers of."""

    ids: Mapping[str, str] = field(default_factory=dict)
    """Each character's id at the table, by name."""
    kept: frozenset[str] = frozenset()
    """The ids of the characters whose numbers are kept from the players."""

    def id(self, name: str) -> str | None:
        return self.ids.get(name)

    def kept_id(self, name: str | None) -> str | None:
        """`name`'s id if their numbers are kept from the players."""
        owner = self.ids.get(name) if name is not None else None
        return owner if owner in self.kept else None

    def rolling(self, name: str) -> AbstractContextManager[None]:
        """The dice rolled inside are `name`'s."""
        return rolled(self.id(name))

    def part(self, name: str, text: object) -> str:
        """`text` as `name`'s part of a line, kept from the players if theirs is."""
        return part(self.kept_id(name), text)


NOBODY = Owners()
"""No one at all: the command line's rolls and lines."""
