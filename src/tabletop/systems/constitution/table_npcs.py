"""The NPCs and monsters a 3d6 Constitution referee keeps: the articles' ordinary humans
(`data/bestiary.toml`) or typed in, each with the numbers the initiative tracker needs, joined
to a fight as a combatant (article 5), their numbers kept from the players (C3-N05).

The fight tells whose each number in its lines is, by combatant id (`models.Part`); an NPC
fights under its NPC id, so the session keeps from the players exactly the parts of a
hidden NPC's (`told.protocol_events`): they read who did what to whom, their own dice and
results, and none of its numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Literal

from pydantic import Field, field_validator

from tabletop.dice import DiceSource, roll
from tabletop.npcs import Bestiary, Kept, NpcId, Roster, load_bestiary
from tabletop.session import Frozen, Member, hidden
from tabletop.systems.constitution.attacks import DEFAULT_DAMAGE, damage_expression
from tabletop.systems.constitution.combat import Combat, Combatant
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.models import Model


class NpcStats(Model):
    """What the tracker needs of an NPC (article 5): its three fighting abilities, its
    level or hit dice, its HP (None: rolled from its hit dice when brought, § 6.1), AC,
    damage, morale, and whether it is a henchman or bears a shield."""

    wits: int = Field(default=10, ge=0, le=40)
    strength: int = Field(default=10, ge=0, le=40)
    will: int = Field(default=10, ge=0, le=40)
    level: int = Field(default=1, ge=1, le=30)
    """Level or hit dice: its HP roll, the price of a direct hit (§ 6.12), its XP (§ 2.7)."""
    hp: int | None = Field(default=None, ge=0, le=1000)
    ac: int = Field(default=20, ge=0, le=60)
    damage: str = Field(default=DEFAULT_DAMAGE, min_length=1, max_length=60)
    morale: int | None = Field(default=None, ge=2, le=12)
    henchman: bool = False
    can_defend_as_reaction: bool = False
    fighter_level: int = Field(default=0, ge=0, le=30)

    _damage = field_validator("damage")(damage_expression)

    def describe(self) -> str:
        parts = [
            f"wits {self.wits}, strength {self.strength}, will {self.will}",
            f"{self.level} HD, HP {self.hp}, AC {self.ac}, damage {self.damage}",
        ]
        if self.morale is not None:
            parts.append(f"morale {self.morale}")
        if self.henchman:
            parts.append("henchman")
        return "; ".join(parts)


KeptNpc = Kept[NpcStats]

ROSTER = Roster(NpcStats, ConstitutionError, NpcStats.describe)

EXAMPLE = {"wits": 12, "strength": 13, "will": 9, "level": 2, "ac": 22, "damage": "1d6+1"}
"""A typed-in NPC in the referee's form: its HP are rolled from its two hit dice."""


@cache
def bestiary() -> Bestiary[NpcStats]:
    """The articles' ordinary humans, validated once."""
    return load_bestiary(__package__ or "", NpcStats)


class NpcJoinsFight(Frozen):
    """A kept NPC steps into the fight being set up, played by the GM."""

    kind: Literal["npc-joins-fight"] = "npc-joins-fight"
    npc: NpcId = Field(min_length=1, max_length=64)
    side: str = Field(default="foes", min_length=1, max_length=30)


def made(name: str, stats: NpcStats, dice: DiceSource, creature: str | None = None) -> KeptNpc:
    """An NPC ready for the table: HP rolled from its hit dice unless given (§ 6.1)."""
    if stats.hp is None:
        stats = stats.evolve(hp=roll(f"{stats.level}d6", dice).total)
    return KeptNpc(name=name, stats=stats, creature=creature)


def combatant(nid: NpcId, kept: KeptNpc, side: str) -> Combatant:
    """The NPC as the tracker holds it, under its NPC id."""
    stats = kept.stats
    return Combatant(
        id=nid,
        name=kept.name,
        side=side,
        **stats.model_dump(exclude={"hp"}),
        hp=stats.hp or 0,
    )


def in_fight(fight: Combat) -> set[str]:
    return {c.id for c in fight.combatants}


def written_back(npcs: Mapping[NpcId, KeptNpc], fight: Combat) -> dict[NpcId, KeptNpc]:
    """Each kept NPC in the fight with the HP the fight has left it."""
    kept = dict(npcs)
    for fighter in fight.combatants:
        if fighter.id in kept:
            npc = kept[fighter.id]
            kept[fighter.id] = npc.model_copy(update={"stats": npc.stats.evolve(hp=fighter.hp)})
    return kept


def secret_ids(npcs: Mapping[NpcId, KeptNpc]) -> set[NpcId]:
    """The NPCs whose numbers the players do not see."""
    return {nid for nid, npc in npcs.items() if not npc.revealed}


def kept_names(npcs: Mapping[NpcId, KeptNpc], fight: Combat) -> dict[NpcId, str]:
    """The NPCs whose numbers the players do not see, each with the name the players know
    it by: the one it fights under while in the fight (it keeps the name it joined with)."""
    fighting = {c.id: c.name for c in fight.combatants}
    return {nid: fighting.get(nid, npcs[nid].name) for nid in secret_ids(npcs)}


SHOWN = ("id", "name", "side", "status", "turns_left", "reorienting", "commander")
"""What a player sees of a hidden NPC in the fight: who and where, never a number."""


def fight_view(fight: Combat, npcs: Mapping[NpcId, KeptNpc], member: Member) -> dict[str, Any]:
    """The fight as `member` sees it: a hidden NPC's numbers are left out (its card in the
    NPC list marks them hidden), and so are its part of a blow waiting to be answered (its
    attack roll and damage, or its AC) and the extra degrees its blow left to spend;
    `order` gives who acts first, for everyone."""
    shown = fight.model_dump(mode="json")
    shown["order"] = [c.id for c in fight.order()]
    if member.is_gm:
        return shown
    secret = secret_ids(npcs)
    shown["combatants"] = [
        {key: value for key, value in fighter.items() if key in SHOWN}
        if fighter["id"] in secret
        else fighter
        for fighter in shown["combatants"]
    ]
    shield = shown.get("pending_shield")
    if shield and shield["attacker"] in secret:
        shield["roll"] = hidden("the roll of an NPC the GM keeps")
        shield["damage"] = hidden("the damage of an NPC the GM keeps")
    elif shield and shield["target"] in secret:
        shield["roll"]["dc"] = hidden("the AC of an NPC the GM keeps")
    unspent = shown.get("unspent")
    if unspent and unspent["attacker"] in secret:
        unspent["degrees"] = hidden("the extra degrees of an NPC the GM keeps")
    direct = shown.get("pending_direct_hit")
    if direct and {direct["attacker"], direct["target"]} <= secret:
        direct["damage"] = hidden("the damage of an NPC the GM keeps")
        direct["price"] = hidden("the level of an NPC the GM keeps")
    return shown


def taken_from_fight(fight: Combat, nid: NpcId) -> None:
    """Refuse to take an NPC away while it is in the fight: the fight holds its numbers
    until it ends, and then the tracker is cleared for the next one."""
    if nid in in_fight(fight):
        raise ConstitutionError("that NPC is in the fight; take it away once the fight is over")
