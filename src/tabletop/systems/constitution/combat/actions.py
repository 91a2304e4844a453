"""Every choice a referee, a player or a bot can make in a fight, as a validated model."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from tabletop.systems.constitution.attacks import FiringPosition, state_ac_change
from tabletop.systems.constitution.combat.state import (
    DRIVE_BACK,
    MAX_COMBATANTS,
    MAX_EXTRA_DEGREES,
    Combatant,
)
from tabletop.systems.constitution.models import Model


class Add(Model):
    action: Literal["add"] = "add"
    combatant: Combatant


class RollInitiative(Model):
    """Roll 1d20 + wits (+ fighter level + `bonus`), or a surprise variant (§ 5.1, § 5.10)."""

    action: Literal["roll_initiative"] = "roll_initiative"
    id: str
    surprise: Literal["none", "advantage", "ambush", "penalty", "flat_footed"] = "none"
    bonus: int = 0


class SetInitiative(Model):
    """Enter an initiative rolled with physical dice."""

    action: Literal["set_initiative"] = "set_initiative"
    id: str
    value: int = Field(ge=0)


class Begin(Model):
    action: Literal["begin"] = "begin"


class EndTurn(Model):
    """The acting combatant is done; `superior` takes −10 for another turn (§ 5.3)."""

    action: Literal["end_turn"] = "end_turn"
    superior: bool = False


class React(Model):
    """Pay 2, 5 or 10 initiative for a reaction (§ 5.4); buys one action out of turn."""

    action: Literal["react"] = "react"
    id: str
    cost: int
    what: str = "a reaction"


class ExtraAction(Model):
    """The acting combatant pays for another action this turn (§ 5.2; C3-A14, § 7.8)."""

    action: Literal["extra_action"] = "extra_action"
    bow: bool = False


class Command(Model):
    """A superior orders followers to act (§ 5.11): a henchman acts now instead of at 1; a
    follower with a rolled initiative pays 10 to act in addition to their turn. Out of the
    commander's turn the order costs the commander 5, once (§ 5.4; C3-A52)."""

    action: Literal["command"] = "command"
    commander: str
    followers: tuple[str, ...] = Field(min_length=1, max_length=MAX_COMBATANTS)

    @field_validator("followers")
    @classmethod
    def _each_once(cls, followers: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(followers)) != len(followers):
            raise ValueError("each follower is named once in an order")
        return followers


class Tactical(Model):
    """A tactician's free tactical action this round (§ 7.3)."""

    action: Literal["tactical"] = "tactical"
    id: str
    what: str = "an awareness check or an order"


class AttackAction(Model):
    """An attack roll (§ 5.14) by the acting combatant or one holding a permit."""

    action: Literal["attack"] = "attack"
    attacker: str
    target: str
    modifier: int = 0
    advantage: int = Field(default=0, ge=0)
    disadvantage: int = Field(default=0, ge=0)
    damage: str | None = None
    ranged: bool = False
    store: bool = False
    into_melee: FiringPosition | None = None
    other_target: str | None = None
    aimed_tenths: int = Field(default=0, ge=0, le=2)
    use_direct_hit: bool = True
    target_blind: bool = False
    target_constrained: bool = False
    target_unaware: bool = False
    """The target's state for this attack: −5, −5 and −10 to its AC (§ 5.15)."""

    @property
    def ac_change(self) -> int:
        return state_ac_change(
            blind=self.target_blind,
            constrained=self.target_constrained,
            unaware=self.target_unaware,
        )


class Defend(Model):
    """Active defence (§ 5.17): as the main action (all round) or as a reaction (one attack)."""

    action: Literal["defend"] = "defend"
    id: str


class AnswerShield(Model):
    """The target of a hit answers: raise a shield after the roll for 5 initiative, and the
    roll is judged again against the raised AC; or let it land (§ 5.4, C3-A55)."""

    action: Literal["answer_shield"] = "answer_shield"
    raise_shield: bool


class SpendDegrees(Model):
    """The attacker spends extra degrees of a blow that landed on an effect (§ 5.19): driving
    the foe back, the book's example, or another the table agrees on (C3-A63)."""

    action: Literal["spend_degrees"] = "spend_degrees"
    id: str
    degrees: int = Field(default=1, ge=1, le=MAX_EXTRA_DEGREES)
    effect: str = Field(default=DRIVE_BACK, min_length=1, max_length=80)


class ReleaseStored(Model):
    """Add a stored ranged attack's damage while its target is taking damage (§ 5.22)."""

    action: Literal["release_stored"] = "release_stored"
    shooter: str


class LoseTrack(Model):
    action: Literal["lose_track"] = "lose_track"
    shooter: str


class AnswerDirectHit(Model):
    """The defender pays 10 HP per attacker level, or rolls the injury saves (§ 6.12)."""

    action: Literal["answer_direct_hit"] = "answer_direct_hit"
    pay: bool


class MoraleCheck(Model):
    action: Literal["morale"] = "morale"
    id: str


class Leave(Model):
    """A combatant leaves the fight: flees, surrenders, is carried off."""

    action: Literal["leave"] = "leave"
    id: str
    status: Literal["down", "fled", "dead"] = "fled"


class Reorient(Model):
    """Between rounds: re-roll initiative, with a penalty die at 0; no turn next round,
    only reactions (§ 5.6, § 5.9)."""

    action: Literal["reorient"] = "reorient"
    id: str


class Spend(Model):
    """Between rounds: a physical action paid in initiative (§ 5.5)."""

    action: Literal["spend"] = "spend"
    id: str
    cost: int = Field(ge=1)
    what: str = "a physical action"


class DeclareSpell(Model):
    """Between rounds: declare a memorised spell; it goes off on the caster's turn (§ 5.7)."""

    action: Literal["declare_spell"] = "declare_spell"
    id: str
    spell: str = Field(min_length=1)


class NextRound(Model):
    action: Literal["next_round"] = "next_round"


class ForceBout(Model):
    """One side will not let go: everyone −10, a new round at once, no respite (§ 5.8)."""

    action: Literal["force_bout"] = "force_bout"


class EndCombat(Model):
    action: Literal["end_combat"] = "end_combat"


Action = Annotated[
    Add
    | RollInitiative
    | SetInitiative
    | Begin
    | EndTurn
    | React
    | ExtraAction
    | Command
    | Tactical
    | AttackAction
    | Defend
    | SpendDegrees
    | ReleaseStored
    | LoseTrack
    | AnswerDirectHit
    | AnswerShield
    | MoraleCheck
    | Leave
    | Reorient
    | Spend
    | DeclareSpell
    | NextRound
    | ForceBout
    | EndCombat,
    Field(discriminator="action"),
]
