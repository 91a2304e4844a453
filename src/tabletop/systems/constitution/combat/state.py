"""What a fight is: the combatants, the phase, whose turn, what is open (article 5)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from tabletop.systems.constitution.attacks import (
    DEFAULT_DAMAGE,
)
from tabletop.systems.constitution.character import Character, damage_dice
from tabletop.systems.constitution.check import Check
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.initiations import Situation
from tabletop.systems.constitution.models import Event, Model

SUPERIOR_COST = 10
"""Initiative the superior combatant pays for a second turn (§ 5.3)."""


FORCED_BOUT_COST = 10
"""Initiative everyone pays when a bout is forced on (§ 5.8)."""


AMBUSH_BONUS = 20
"""A prepared ambusher may take wits + 20 instead of rolling (§ 5.10)."""


HENCHMAN_INITIATIVE = 1
"""Henchmen never roll; their score is always 1 (§ 5.11)."""


CHAIN_OF_COMMAND_COST = 10
"""A combatant with a rolled initiative pays this to act on a command (§ 5.4, § 5.11)."""


ORDER_COST = 5
"""Ordering subordinates to attack, as a reaction (§ 5.4)."""


REACTION_COSTS = (2, 5, 10)
"""The three costs of § 5.4, from the most to the least natural reaction."""


MAX_COMBATANTS = 100
"""Combatants one tracker holds: a documented bound."""


MAX_EXTRA_DEGREES = 1_000
"""Extra degrees one blow may leave to spend: more than any roll gives."""


DRIVE_BACK = "drives them back a little"
DRIVE_OUT = "drives them well back: out of a window, over an edge"
"""The effect § 5.19 names for extra degrees of an attack, for one degree and for two (its
notes: one drove a pelican slightly back, two drove it out of a window)."""


class StoredAttack(Model):
    """A successful ranged attack kept without damage (§ 5.22)."""

    target: str
    damage: str


class Combatant(Model):
    """One side's fighter as the tracker sees them: the scores a fight needs."""

    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,24}$")
    name: str = Field(min_length=1, max_length=60)
    side: str = Field(default="party", min_length=1, max_length=30)
    wits: int = Field(default=10, ge=0, le=40)
    strength: int = Field(default=10, ge=0, le=40)
    will: int = Field(default=10, ge=0, le=40)
    fighter_level: int = Field(default=0, ge=0, le=30)
    """Fighters add their level to initiative, attacks, defence and injury saves (§ 7.1)."""
    level: int = Field(default=1, ge=1, le=30)
    """Level or hit dice: prices a direct hit (§ 6.12) and limits major wounds (§ 6.11)."""
    hp: int = Field(default=0, ge=0)
    ac: int = Field(default=20, ge=0, le=60)
    damage: str = DEFAULT_DAMAGE
    henchman: bool = False
    commander: str | None = None
    morale: int | None = Field(default=None, ge=2, le=12)
    can_defend_as_reaction: bool = False
    """Has a shield or the training to defend as a reaction (§ 5.17)."""
    tactician: bool = False
    bow_training: bool = False
    initiative: int | None = Field(default=None, ge=0)
    turns_left: int = Field(default=0, ge=0)
    reorienting: bool = False
    defence: int | None = None
    """AC won by defending as the main action, for the rest of the round (§ 5.17)."""
    guard: int | None = None
    """AC won by defending as a reaction, for the next attack only (§ 5.17)."""
    major_wound_marks: int = Field(default=0, ge=0)
    minor_wounds: int = Field(default=0, ge=0)
    """Minor wounds taken in this fight (§ 6.7): a character's sheet gets each one."""
    stored: tuple[StoredAttack, ...] = ()
    casting: str | None = None
    status: Literal["fighting", "down", "fled", "dead"] = "fighting"

    @classmethod
    def of(
        cls,
        character: Character,
        *,
        side: str = "party",
        ac: int = 20,
        situations: frozenset[Situation] = frozenset(),
    ) -> Combatant:
        """A player character as the tracker needs them: scores, fighter level, HP, the
        initiations that matter in a fight, and damage for the weapon `situations`."""
        return cls(
            id="".join(ch for ch in character.name if ch.isalnum() or ch in "_-")[:24] or "pc",
            name=character.name[:60],
            side=side,
            wits=character.abilities.wits,
            strength=character.abilities.strength,
            will=character.abilities.will,
            fighter_level=character.level if character.character_class == "fighter" else 0,
            level=character.level,
            hp=character.hp,
            ac=ac,
            damage=damage_dice(character, situations),
            tactician=character.can("free_tactical_action"),
            bow_training=bool(character.effects("extra_action_cost")),
            major_wound_marks=character.major_wound_marks,
        )

    @property
    def disoriented(self) -> bool:
        """At initiative 0: open to opportunity attacks, no reactions (§ 5.9)."""
        return self.initiative == 0

    @property
    def fighting(self) -> bool:
        return self.status == "fighting"

    @property
    def current_ac(self) -> int:
        return max(self.ac, self.defence or 0, self.guard or 0)


class PendingDirectHit(Model):
    """A direct hit the defender must answer: pay HP or take the injury saves (§ 6.12)."""

    attacker: str
    target: str
    damage: int
    price: int


SHIELD_AFTER_ROLL_COST = 5
"""Defending with a shield after the attack roll has been made (§ 5.4)."""


class PendingShield(Model):
    """An attack that hit a combatant who may still raise a shield after seeing the roll,
    for 5 initiative (§ 5.4, C3-A55): the roll waits to be judged again, or to land."""

    attacker: str
    target: str
    roll: Check
    damage: str
    use_direct_hit: bool = True
    ac_change: int = 0
    """The target's state this attack (blind, constrained, unaware: § 5.15)."""


class UnspentDegrees(Model):
    """Extra degrees of a blow that landed, which its attacker may still spend (§ 5.19)
    until the fight moves on (C3-A63)."""

    attacker: str
    target: str
    degrees: int = Field(ge=1, le=MAX_EXTRA_DEGREES)


class Combat(Model):
    """The whole fight: who is in it, the phase, whose turn, what is open."""

    combatants: tuple[Combatant, ...] = ()
    phase: Literal["setup", "round", "between_rounds", "over"] = "setup"
    round: int = Field(default=0, ge=0)
    acting: str | None = None
    main_action_used: bool = False
    superior: tuple[str, ...] = ()
    """Who may still take the superior-initiative turn this round (§ 5.3)."""
    permits: tuple[str, ...] = ()
    """Combatants who paid initiative for one action outside their turn."""
    tactical_used: tuple[str, ...] = ()
    forced: bool = False
    respite_taken: bool = False
    """Someone used the respite between rounds, so the bout can no longer be forced on."""
    last_damaged: str | None = None
    pending_direct_hit: PendingDirectHit | None = None
    pending_shield: PendingShield | None = None
    unspent: UnspentDegrees | None = None

    @model_validator(mode="after")
    def _names_who_is_here(self) -> Combat:
        """Every id the fight refers to is one of its combatants, so a hand-edited or
        corrupt save is refused at load instead of failing later in the fight."""
        ids = [c.id for c in self.combatants]
        if len(set(ids)) != len(ids):
            raise ValueError("two combatants share an id")
        present = set(ids)
        referred = {
            "acting": [self.acting] if self.acting else [],
            "permits": self.permits,
            "superior": self.superior,
            "tactical_used": self.tactical_used,
            "last_damaged": [self.last_damaged] if self.last_damaged else [],
            "pending_direct_hit": [self.pending_direct_hit.attacker, self.pending_direct_hit.target]
            if self.pending_direct_hit
            else [],
            "pending_shield": [self.pending_shield.attacker, self.pending_shield.target]
            if self.pending_shield
            else [],
            "unspent": [self.unspent.attacker, self.unspent.target] if self.unspent else [],
        }
        for c in self.combatants:
            if c.commander == c.id:
                raise ValueError(f"{c.id} cannot be their own commander")
            referred[f"{c.id}'s commander"] = [c.commander] if c.commander else []
            referred[f"{c.id}'s stored shots"] = [s.target for s in c.stored]
        for field, names in referred.items():
            missing = sorted(set(names) - present)
            if missing:
                raise ValueError(f"{field} names {', '.join(missing)}, who is not in the fight")
        if self.acting and self.phase != "round":
            raise ValueError(f"nobody takes a turn during {self.phase.replace('_', ' ')}")
        return self

    def get(self, combatant_id: str) -> Combatant:
        for combatant in self.combatants:
            if combatant.id == combatant_id:
                return combatant
        raise ConstitutionError(f"no combatant {combatant_id!r}")

    def replace(self, combatant: Combatant) -> Combat:
        return self.evolve(
            combatants=tuple(combatant if c.id == combatant.id else c for c in self.combatants)
        )

    def order(self) -> list[Combatant]:
        """Fighting combatants from the highest initiative down; ties go to higher wits,
        then to whoever joined first (C3-A38)."""
        fighting = [c for c in self.combatants if c.fighting]
        return sorted(fighting, key=lambda c: (-(c.initiative or 0), -c.wits))

    def next_actor(self) -> Combatant | None:
        """Whoever has a turn left at the highest initiative (scores change as they are
        spent, so the order is worked out afresh each time)."""
        waiting = [c for c in self.order() if c.turns_left > 0]
        return waiting[0] if waiting else None


Outcome = tuple[Combat, list[Event]]
"""What every rule of the fight returns: the new fight and what happened."""
