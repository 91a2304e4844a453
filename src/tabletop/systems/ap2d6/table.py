"""The state of a 2d6 table: its characters (the players' and the GM's NPCs, each in a
seat with the member who plays them), the fight in initiative, and which death DCs the GM
has shown. Every part of the table's rules reads and writes it through the helpers here.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.asks import Asks
from tabletop.session import Frozen
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.options import DEFAULTS, Options
from tabletop.systems.ap2d6.owners import Owners
from tabletop.systems.ap2d6.rounds import Combat
from tabletop.systems.ap2d6.sheet import Character
from tabletop.systems.ap2d6.table_npcs import NpcMark
from tabletop.systems.ap2d6.weapons import DamageType, Weapon
from tabletop.turns import Turns

MAX_CHARACTERS = 100

Id = str


class Seat(Frozen):
    """A character at the table and the member who plays them; an NPC's is the GM's."""

    owner: str
    sheet: Character
    npc: NpcMark | None = None
    """Set for an NPC the GM keeps (RU-N04)."""
    armour: str | None = None
    """The armour from the GM's list the character wears (RU-S10)."""

    @property
    def hidden_npc(self) -> bool:
        return self.npc is not None and not self.npc.revealed


class KeptSkill(Frozen):
    """A skill the GM keeps on the table's list: its SP cost, the skills it needs first, and
    what it does in the group's words (RU-S10)."""

    cost: int = Field(ge=0)
    needs: tuple[str, ...] = ()
    text: str = ""


class KeptArmour(Frozen):
    """An armour the GM keeps on the table's list: the damage it takes off by type, and the
    To-Hit its wearer loses (RU-S10)."""

    takes: dict[DamageType, int] = Field(default_factory=dict)
    to_hit: int = 0


class Strike(Frozen):
    """An attack under way: whom it is on, with what, and the step it waits for."""

    target: Id
    weapon: Weapon
    step: Literal["hit", "damage", "harm"] = "hit"
    doubled: bool = False
    """Double 6s on the hit: twice the damage dice (RU-A13)."""
    rolled: int = Field(default=0, ge=0)
    """The damage rolled, waiting for the GM."""


class Ap2d6Table(Frozen):
    options: Options = DEFAULTS
    characters: dict[str, Seat] = Field(default_factory=dict)
    fight: Combat | None = None
    """The fight in initiative; its sheets are the characters' while it lasts."""
    weapons: dict[str, Weapon] = Field(default_factory=dict)
    """The weapons the GM keeps for the table, by name (RU-S09)."""
    skills: dict[str, KeptSkill] = Field(default_factory=dict)
    """The skills the GM keeps for the table, by name (RU-S10)."""
    armours: dict[str, KeptArmour] = Field(default_factory=dict)
    """The armour the GM keeps for the table, by name (RU-S10)."""
    strikes: dict[str, Strike] = Field(default_factory=dict)
    """Attacks under way, by attacker, each waiting for its next step."""
    revealed: tuple[str, ...] = ()
    """Characters whose death DC the GM has shown to everyone."""
    next_id: int = Field(default=1, ge=1)
    next_npc: int = Field(default=1, ge=1)
    turns: Turns = Turns()
    """The turn order the GM keeps, if any (RU-S08)."""
    asks: Asks = Asks()
    """The rolls the GM has asked for, waiting for their answers."""

    @property
    def npcs(self) -> list[tuple[str, Character, NpcMark]]:
        """The GM's NPCs: id, sheet and mark."""
        return [(cid, s.sheet, s.npc) for cid, s in self.characters.items() if s.npc is not None]

    @property
    def hidden_npcs(self) -> dict[str, str]:
        """The NPCs whose numbers the players may not see: id to name (RU-N05)."""
        return {cid: s.sheet.name for cid, s in self.characters.items() if s.hidden_npc}

    @property
    def owners(self) -> Owners:
        """Each character's id by name, and which are kept from the players."""
        ids = {seat.sheet.name: cid for cid, seat in self.characters.items()}
        return Owners(ids=ids, kept=frozenset(self.hidden_npcs))

    def id_of(self, name: str) -> str:
        return next(cid for cid, seat in self.characters.items() if seat.sheet.name == name)


def in_fight(fight: Combat, name: str) -> bool:
    return any(c.name == name for c in fight.characters)


def fight_of(state: Ap2d6Table, name: str) -> Combat | None:
    """The fight if `name` is in it, else None."""
    return state.fight if state.fight and in_fight(state.fight, name) else None


def sheet_of(state: Ap2d6Table, cid: str) -> Character:
    if cid not in state.characters:
        raise Ap2d6Error(f"no character {cid!r} at this table")
    return state.characters[cid].sheet


def with_sheet(state: Ap2d6Table, cid: str, sheet: Character) -> Ap2d6Table:
    """The character's sheet changed, in the fight too if they are in it."""
    seats = {**state.characters, cid: state.characters[cid].model_copy(update={"sheet": sheet})}
    fight = state.fight
    if fight is not None and in_fight(fight, sheet.name):
        fight = fight.replaced(sheet)
    return state.model_copy(update={"characters": seats, "fight": fight})


def with_seat(state: Ap2d6Table, cid: str, sheet: Character, mark: NpcMark) -> Ap2d6Table:
    """An NPC's seat with a new sheet and mark (in the fight too, if it is in it)."""
    seat = state.characters[cid].model_copy(update={"npc": mark})
    state = state.model_copy(update={"characters": {**state.characters, cid: seat}})
    return with_sheet(state, cid, sheet)


def with_fight(state: Ap2d6Table, fight: Combat) -> Ap2d6Table:
    """The fight after a step, and each fighter's sheet as the fight has left it."""
    seats = dict(state.characters)
    for sheet in fight.characters:
        cid = state.id_of(sheet.name)
        seats[cid] = seats[cid].model_copy(update={"sheet": sheet})
    return state.model_copy(update={"characters": seats, "fight": fight})
