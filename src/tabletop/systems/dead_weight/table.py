"""A Dead Weight table's state: the characters seated and in the making, the test under
way (the re-roll exchange), the trackers and the enemies the GM keeps."""

from __future__ import annotations

from itertools import zip_longest
from typing import Literal

from pydantic import Field

from tabletop.asks import Asks
from tabletop.session import Frozen
from tabletop.systems.dead_weight.attribute_test import AttributeTest, DauntlessRoll, Pass, Reroll
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.character import Character
from tabletop.systems.dead_weight.creation import Creation
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.magic import Praying, SpellCasting
from tabletop.systems.dead_weight.opposed import OpposedTest
from tabletop.systems.dead_weight.options import DEFAULT, Options
from tabletop.systems.dead_weight.owners import Whose
from tabletop.systems.dead_weight.supplements import Supplement
from tabletop.systems.dead_weight.table_npcs import KeptNpc
from tabletop.systems.dead_weight.trackers import Tracker
from tabletop.turns import Turns

Id = str


class Seat(Frozen):
    """A character at the table and the member who plays them."""

    owner: str
    sheet: Character
    missing: tuple[str, ...] = ()
    """What creation skipped because the core book leaves it to other books."""


class Making(Frozen):
    """A character being made step by step, and the member making them."""

    owner: str
    creation: Creation
    own: Supplement = Supplement()
    """What the new-character intent supplied itself, over the GM's lists (DW-T07)."""


class Exchange(Frozen):
    """The test under way (one test, or an opposed test) and the characters in it, so that
    what it does to them is written back to their sheets."""

    test: AttributeTest | None = None
    opposed: OpposedTest | None = None
    casting: SpellCasting | Praying | None = None
    """A spell or prayer whose test is under way (DW-M18, DW-M22)."""
    rollers: tuple[str | None, ...] = ()
    """Each side's character id; None for an NPC the GM plays."""
    kept: tuple[str | None, ...] = ()
    """Each side's kept NPC id (None for a character or an NPC typed into the test)."""
    helpers: tuple[str, ...] = ()

    @property
    def open_test(self) -> AttributeTest:
        """The test whose choice is next (in an opposed test, the side still choosing)."""
        if self.opposed is not None:
            return self.opposed.tests[self.opposed.current]
        if self.casting is not None:
            assert self.casting.test is not None
            return self.casting.test
        assert self.test is not None
        return self.test

    @property
    def roller(self) -> str | None:
        """The character whose player makes the player's choices now."""
        return self.rollers[self.opposed.current if self.opposed is not None else 0]

    @property
    def finished(self) -> bool:
        if self.opposed is not None:
            return self.opposed.finished
        if self.casting is not None:
            return self.casting.finished
        return self.test is not None and self.test.finished

    def choices(self) -> list[Reroll | Pass | DauntlessRoll]:
        if self.opposed is not None:
            return self.opposed.choices()
        if self.casting is not None:
            return self.casting.choices()
        return self.open_test.choices()

    @property
    def taking_part(self) -> set[str]:
        return {r for r in self.rollers if r is not None} | set(self.helpers)


AttackStep = Literal["test", "damage", "armour", "hardened", "hardened-test", "place"]
"""Where an attack stands (DW-T02): the attacker's test under way, the blow's wounds for the
GM to give, the defender's armour roll, their choice to test Hardened and that test, and
the wounds to place."""


class Attack(Frozen):
    """An attack the book chains (DW-T02), waiting for its next step."""

    attacker: Id
    """A character or a kept enemy."""
    target: Id
    attribute: Attribute
    step: AttackStep = "test"
    wounds: int = 0
    """The blow's wounds still coming at a character once the GM has given them."""


class DeadWeightTable(Frozen):
    options: Options = DEFAULT
    characters: dict[str, Seat] = Field(default_factory=dict)
    making: dict[str, Making] = Field(default_factory=dict)
    trackers: dict[str, Tracker] = Field(default_factory=dict)
    exchange: Exchange | None = None
    next_id: int = Field(default=1, ge=1)
    npcs: dict[str, KeptNpc] = Field(default_factory=dict)
    """The enemies the GM keeps, by id (`n1`, …): their numbers are the GM's (DW-N04)."""
    next_npc: int = Field(default=1, ge=1)
    attack: Attack | None = None
    """The attack under way, if any, and its next step (DW-T02)."""
    turns: Turns = Turns()
    """The GM's turn order (DW-T05)."""
    asks: Asks = Asks()
    """The tests the GM has asked of players, waiting for their answer (DW-T04)."""
    lists: Supplement = Supplement()
    """The backgrounds, spells and gods the GM keeps for the table (DW-T07)."""

    @property
    def names(self) -> list[str]:
        """Everyone's name at the table: a kept NPC's must differ from all of them."""
        return [s.sheet.label for s in self.characters.values()] + [
            n.name for n in self.npcs.values()
        ]

    @property
    def testing(self) -> bool:
        return self.exchange is not None and not self.exchange.finished

    @property
    def hidden_npcs(self) -> dict[str, str]:
        """The kept enemies whose numbers the players may not see: id to name (DW-N04)."""
        return {nid: npc.name for nid, npc in self.npcs.items() if not npc.revealed}

    def hides(self, nid: str) -> bool:
        """Whether the players may not see the numbers of the kept enemy `nid`; one taken
        away is kept hidden (its finished test may still be on the table)."""
        npc = self.npcs.get(nid)
        return npc is None or not npc.revealed

    def in_play(self, nid: Id) -> bool:
        """Whether kept enemy `nid` is in the test or the attack under way."""
        testing = self.testing and self.exchange is not None and nid in self.exchange.kept
        attack = self.attack
        return testing or (attack is not None and nid in (attack.attacker, attack.target))

    def label(self, who: Id) -> str:
        """What lines call a character or a kept enemy."""
        if who in self.characters:
            return self.characters[who].sheet.label
        return self.npcs[who].name if who in self.npcs else who

    @property
    def npc_names(self) -> dict[str, str]:
        """Every kept enemy's name by id, shown or hidden: what its lines call it."""
        return {nid: npc.name for nid, npc in self.npcs.items()}

    def whose(
        self, rollers: tuple[str | None, ...], kept: tuple[str | None, ...], opposed: bool
    ) -> Whose:
        """Whose each side of a test is: in an opposed test its character or kept enemy, in
        one test a kept enemy only (a character's test shares its dice with its helpers,
        and keeps nothing from anyone); with the hidden enemies among them."""
        sides = zip_longest(rollers, kept)
        ids = tuple(nid or (cid if opposed else None) for cid, nid in sides)
        return Whose(ids=ids, kept=frozenset(self.hidden_npcs) & set(ids))


def sheet_of(state: DeadWeightTable, cid: str) -> Character:
    if cid not in state.characters:
        raise DeadWeightError(f"no character {cid!r} at this table")
    return state.characters[cid].sheet
