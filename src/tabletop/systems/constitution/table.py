"""The state of a 3d6 Constitution table: its characters with their seats' supplies, the
fight, the referee's clock and the NPCs the referee keeps. It stands apart from the intents
(session.py) and the road (road.py) because both fold it: each imports it, and neither
imports the other back."""

from __future__ import annotations

from pydantic import Field

from tabletop.asks import Asks
from tabletop.session import Frozen
from tabletop.systems.constitution.character import Character
from tabletop.systems.constitution.combat import Combat
from tabletop.systems.constitution.expedition import Clock, Supplies
from tabletop.systems.constitution.options import DEFAULT, Options
from tabletop.systems.constitution.survival import Deprivation, total_penalty
from tabletop.systems.constitution.table_npcs import KeptNpc
from tabletop.turns import Turns


class Seat(Frozen):
    """A character at the table and the member who plays them."""

    owner: str
    sheet: Character
    supplies: Supplies = Supplies()
    deprivation: Deprivation = Deprivation()
    """Hunger, thirst and sleeplessness: penalties on every check the character makes."""

    def penalty(self, options: Options) -> int:
        """The deprivation penalty on all this character's checks (§ 15.2–15.6; C3-A51)."""
        return total_penalty(self.deprivation, self.sheet.abilities.strength, options)


class ListedSpell(Frozen):
    """A spell the referee keeps on the table's list: its level and school (C3-S08)."""

    level: int = Field(ge=1)
    school: str | None = None


class ConstitutionTable(Frozen):
    options: Options = DEFAULT
    characters: dict[str, Seat] = Field(default_factory=dict)
    fight: Combat = Combat()
    """The initiative tracker; a fight with nobody in it is waiting to be set up."""
    controllers: dict[str, str] = Field(default_factory=dict)
    """Which member plays each combatant (by combatant id); the rest are the GM's."""
    fighters: dict[str, str] = Field(default_factory=dict)
    """The seated characters in the fight: each one's character id by combatant id."""
    next_id: int = Field(default=1, ge=1)
    clock: Clock = Clock()
    """The party's days, turns and lights: the referee's clock (§ 13.3)."""
    npcs: dict[str, KeptNpc] = Field(default_factory=dict)
    """The referee's NPCs by id (`n1`, …), their numbers hidden until shown (C3-N05)."""
    next_npc: int = Field(default=1, ge=1)
    turns: Turns = Turns()
    """The referee's turn order out of a fight (a fight keeps its own: table_turns)."""
    asks: Asks = Asks()
    """The checks the referee has asked of players, waiting for their answer."""
    skills: dict[str, str] = Field(default_factory=dict)
    """The skills the referee keeps for the table, each with the group's note (C3-S08)."""
    spells: dict[str, ListedSpell] = Field(default_factory=dict)
    """The spells the referee keeps for the table, by name (C3-S08)."""

    @property
    def names(self) -> list[str]:
        """Everyone's name: characters, NPCs and whoever is in the fight."""
        return [
            *(s.sheet.name for s in self.characters.values()),
            *(n.name for n in self.npcs.values()),
            *(c.name for c in self.fight.combatants),
        ]
