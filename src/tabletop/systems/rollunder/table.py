"""A roll-under table's state: the characters with the members who play them, the rule
waiting for a decision, the activation under way and the group's mutation table.

Everyone at the table is one company (§ Followers, § Death), so the company rules (two
followers each, distinct names, burial, replacement) run on the seats' sheets and their
result is written back here.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.asks import Asks
from tabletop.session import Frozen, RollMode
from tabletop.systems.rollunder.character import Character
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.followers import Company
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.resolution import Resolution
from tabletop.turns import Turns

Id = str


class Seat(Frozen):
    """A character at the table and the member who plays them."""

    owner: str
    sheet: Character
    secret: bool = False
    """The GM's own character whose sheet the players do not see (a monster's stats)."""
    buried: bool = False
    """A dead player character whose burial the companions have settled (CR-A19)."""
    npc: bool = False
    """A monster or NPC the GM keeps (CR-N02): secret until the GM shows its sheet."""


class Pending(Frozen):
    """A rule stopped at a decision (an omen re-roll, a death save, the GM's pick), with who
    asked for it, how openly it is rolled, and whose sheets it changes."""

    resolution: Resolution
    asker: str
    """The member who started it; they decide for bare scores and for a group's roll."""
    mode: RollMode = RollMode.PUBLIC
    characters: dict[str, Id] = Field(default_factory=dict)
    """Name to id of every character at the table that the rule runs on."""
    told: int = Field(default=0, ge=0)
    """The rule's events already told to the table."""
    queue: tuple[Id, ...] = ()
    """Characters still to face the end of the activation after this one (CR-A13)."""
    actor: str | None = None
    """Whose activation ended, while the queue runs."""
    attack: bool = False
    """A step of the attack under way: once settled, the attack goes on (`table_fight`)."""


AttackStep = Literal["to-hit", "damage", "armour", "hit"]


class Attack(Frozen):
    """An attack under way, step by step (CR-F01..F04): the attacker's roll to hit when the
    table makes one, the attacker's damage roll, the defender's armour, the hit and what it
    does. `step` is the one under way, or waiting for the defender (`armour`)."""

    attacker: Id
    target: Id
    weapon: str
    """The damage dice (`d8`, `2d6+1`), the attacker's weapon's (CR-G06)."""
    ability: str
    """The ability of the roll to hit, when the table makes one (CR-F01)."""
    direct: bool = False
    mode: RollMode = RollMode.PUBLIC
    asker: str
    step: AttackStep
    damage: int | None = Field(default=None, ge=0)
    """The damage rolled, once it is."""


class RollUnderTable(Frozen):
    options: RollUnderOptions = RollUnderOptions()
    characters: dict[Id, Seat] = Field(default_factory=dict)
    pending: Pending | None = None
    activation: str | None = None
    """Whose activation is under way (CR-G04: the GM says when one begins and ends)."""
    turns: Turns = Turns()
    """The GM's turn order (CR-S11)."""
    asks: Asks = Asks()
    """The rolls the GM asked for, waiting (CR-S12)."""
    attack: Attack | None = None
    """The attack under way, and its next step (CR-F02)."""
    mutation_table: dict[str, Any] | None = None
    """The group's mutation table (CR-G07), checked when set; None: the GM chooses."""
    next_id: int = Field(default=1, ge=1)
    next_npc: int = Field(default=1, ge=1)

    def seat(self, cid: Id) -> Seat:
        if cid not in self.characters:
            raise RollUnderError(f"no character {cid!r} at this table")
        return self.characters[cid]

    def sheet(self, cid: Id) -> Character:
        return self.seat(cid).sheet

    def id_of(self, name: str) -> Id:
        return next(cid for cid, seat in self.characters.items() if seat.sheet.name == name)

    @property
    def secret_ids(self) -> frozenset[Id]:
        return frozenset(cid for cid, seat in self.characters.items() if seat.secret)

    @property
    def secret_names(self) -> frozenset[str]:
        return frozenset(s.sheet.name for s in self.characters.values() if s.secret)

    @property
    def company(self) -> Company:
        return Company(members=tuple(seat.sheet for seat in self.characters.values()))


def with_sheets(table: RollUnderTable, sheets: tuple[Character, ...]) -> RollUnderTable:
    """The table with each of these sheets written over the character of the same name."""
    seats = dict(table.characters)
    for sheet in sheets:
        cid = table.id_of(sheet.name)
        seats[cid] = seats[cid].model_copy(update={"sheet": sheet})
    return table.model_copy(update={"characters": seats})


def with_company(
    table: RollUnderTable, company: Company, owner: str, secret: bool = False
) -> RollUnderTable:
    """The table after a company rule: members still there keep their seats with their new
    sheets, members gone leave, and anyone new sits down, played by `owner`."""
    names = {member.name for member in company.members}
    seats = {
        cid: seat.model_copy(update={"sheet": company.member(seat.sheet.name)})
        for cid, seat in table.characters.items()
        if seat.sheet.name in names
    }
    known = {seat.sheet.name for seat in table.characters.values()}
    next_id = table.next_id
    for member in company.members:
        if member.name not in known:
            seats[f"c{next_id}"] = Seat(owner=owner, sheet=member, secret=secret)
            next_id += 1
    return table.model_copy(update={"characters": seats, "next_id": next_id})
