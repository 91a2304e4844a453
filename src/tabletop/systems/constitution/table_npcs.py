"""The NPCs and monsters a 3d6 Constitution referee keeps: the articles' ordinary humans
(`data/bestiary.toml`) or typed in, each with the numbers the initiative tracker needs, joined
to a fight as a combatant (article 5), their numbers kept from the players (C3-N05).

A hidden NPC's line in the fight (its attack, its initiative, a hit on it) reaches the
players with every number turned to `?`: they read who did what to whom and how it went.
Which lines those are is read from the fight by id as well as from the lines by name: the
name the NPC fights under (the one it joined with), whom a step is taken for, and whose
attack a shield answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any, Literal

from pydantic import Field, field_validator

from tabletop.dice import DiceSource, roll
from tabletop.npcs import (
    Bestiary,
    Kept,
    NpcId,
    Roster,
    lines_kept,
    load_bestiary,
    numbers_kept,
)
from tabletop.session import Event, Frozen, Member, hidden
from tabletop.systems.constitution.attacks import DEFAULT_DAMAGE, damage_expression
from tabletop.systems.constitution.combat import (
    Action,
    AnswerDirectHit,
    AnswerShield,
    Combat,
    Combatant,
)
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


def told(
    npcs: Mapping[NpcId, KeptNpc],
    everyone: Iterable[str],
    events: list[Event],
    fights: Iterable[Combat] = (),
    action: Action | None = None,
) -> list[Event]:
    """The fight's events, each line that tells of a hidden NPC (its attack, a hit on it and
    the saves that follow) kept from the players with its numbers turned to `?` (C3-N05).

    A hidden NPC goes by its name and by the name it fights under in `fights` (the fight
    before and after the step: a fight keeps the name it joined with). The lines at the
    start of `action`'s step that name nobody are those of whom it is taken for (the saves
    answering a direct hit name nobody). A shield answered against a hidden NPC's attack,
    or by one, is kept whole: its first line names the target and holds the attacker's
    roll, and the degrees and damage after it are the attacker's."""
    hiding = secret_ids(npcs)
    names = [npcs[nid].name for nid in hiding]
    fights = list(fights)
    for fight in fights:
        names += [c.name for c in fight.combatants if c.id in hiding]
    if isinstance(action, AnswerShield) and fights and fights[0].pending_shield is not None:
        pending = fights[0].pending_shield
        if {pending.attacker, pending.target} & hiding:
            return [numbers_kept(event, everyone) for event in events]
    subject = _subject(fights[0], action) if fights and action is not None else None
    return lines_kept(events, names, everyone, subject)


def secret_ids(npcs: Mapping[NpcId, KeptNpc]) -> set[NpcId]:
    """The NPCs whose numbers the players do not see."""
    return {nid for nid, npc in npcs.items() if not npc.revealed}


def _subject(fight: Combat, action: Action) -> str | None:
    """The name of whom a step of `fight` is taken for: the defender answering a direct hit,
    else the combatant the action names first (who rolls, attacks, shoots or commands)."""
    if isinstance(action, AnswerDirectHit) and fight.pending_direct_hit is not None:
        cid: object = fight.pending_direct_hit.target
    else:
        cid = next(
            (
                getattr(action, f)
                for f in ("id", "attacker", "shooter", "commander")
                if isinstance(getattr(action, f, None), str)
            ),
            None,
        )
    return next((c.name for c in fight.combatants if c.id == cid), None)


SHOWN = ("id", "name", "side", "status", "turns_left", "reorienting", "commander")
"""What a player sees of a hidden NPC in the fight: who and where, never a number."""


def fight_view(fight: Combat, npcs: Mapping[NpcId, KeptNpc], member: Member) -> dict[str, Any]:
    """The fight as `member` sees it: a hidden NPC's numbers are left out (its card in the
    NPC list marks them hidden), and so is the roll of its attack waiting for a shield;
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
    pending = shown.get("pending_shield")
    if pending and pending["attacker"] in secret:
        pending["roll"] = hidden("the roll of an NPC the GM keeps")
    return shown


def check_not_fighting(fight: Combat, nid: NpcId) -> None:
    if nid in in_fight(fight) and fight.phase != "over":
        raise ConstitutionError("that NPC is in the fight; take it away once the fight is over")
