"""Attacks at a roll-under table (issue 31; CR-F01..F05): one action with a target runs the
chain the chapter gives a blow, each step an entry of its own, and the table keeps the
next step so it survives a reload and waits for whoever the rules ask: the attacker's
player rolls (and answers their own omen re-rolls), the defender's player says the armour
worn, and the hit's decisions go as any hit's do (CR-S03). The GM may end an attack that
waits.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied
from tabletop.offers import Choice, Offer, offer
from tabletop.session import Event, Frozen, Member, RollMode, controls
from tabletop.systems.rollunder.damage import MAX_ARMOUR, DamageDice
from tabletop.systems.rollunder.damage import MAX_TEXT as MAX_DAMAGE_TEXT
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.fight import first_rule, landed, name, opening, said
from tabletop.systems.rollunder.offers import MODES, living, played_by
from tabletop.systems.rollunder.options import STR
from tabletop.systems.rollunder.table import Attack, Id, RollUnderTable
from tabletop.systems.rollunder.table_rules import begin


class AttackIntent(Frozen):
    """One character attacks another with a weapon's damage dice (CR-F01..F05)."""

    kind: Literal["attack"] = "attack"
    attacker: Id
    target: Id
    weapon: str = Field(min_length=1, max_length=MAX_DAMAGE_TEXT)
    ability: str = Field(default=STR, min_length=1, max_length=8)
    """The ability of the roll to hit, at a table that makes one (CR-F01)."""
    direct: bool = False
    mode: RollMode = RollMode.PUBLIC


class MeetBlow(Frozen):
    """The defender's player says the armour worn against the blow that reached them."""

    kind: Literal["meet-blow"] = "meet-blow"
    armour: int = Field(default=0, ge=0, le=MAX_ARMOUR)


class EndAttack(Frozen):
    """The GM ends the attack under way where it stands."""

    kind: Literal["end-attack"] = "end-attack"


INTENTS = (AttackIntent, MeetBlow, EndAttack)


def attack_offers(state: RollUnderTable, member: Member) -> list[Offer]:
    """An attack with any character the member plays that can act, on anyone else alive;
    or, while one waits, its next step for whoever the rules ask, and the GM's end."""
    if state.attack is not None:
        return _waiting(state, state.attack, member)
    able = living(state, played_by(state, member))
    attackers = tuple(cid for cid in able if not state.sheet(cid).incapacitated)
    targets = living(state, tuple(state.characters))
    if not attackers or len(targets) < 2:
        return []
    fields = {
        "attacker": Choice(values=attackers),
        "target": Choice(values=targets, example=_other(targets, attackers[0])),
        "weapon": Choice(help="the weapon's damage dice", example="d6"),
        "direct": Choice(values=(False, True)),
        "mode": MODES,
    }
    if state.options.attack_roll == "attacker":
        fields["ability"] = Choice(values=state.options.abilities)
    return [offer("attack", "attack", **fields)]


def _other(targets: tuple[Id, ...], attacker: Id) -> Id:
    """The target an attack's form starts on: the first one who is not the attacker it
    starts with (issue 30: it started on the attacker, whom the rules refuse)."""
    return next(cid for cid in targets if cid != attacker)


def _waiting(state: RollUnderTable, attack: Attack, member: Member) -> list[Offer]:
    found = []
    target = state.characters.get(attack.target)
    if attack.step == "armour" and target is not None and controls(member, target.owner):
        text = f"{target.sheet.name}'s armour against {name(state, attack.attacker)}'s blow"
        worn = Choice(help=f"the armour {target.sheet.name} wears", example=0)
        found.append(offer("meet-blow", text, armour=worn))
    if member.is_gm:
        text = f"end {name(state, attack.attacker)}'s attack on {name(state, attack.target)}"
        found.append(offer("end-attack", text))
    return found


def why_not(state: RollUnderTable, kind: str) -> str | None:
    """Why an attack's step is refused, when it is: another comes first, or it is not this
    member's to take."""
    attack = state.attack
    if attack is None:
        return "no attack is under way" if kind in ("meet-blow", "end-attack") else None
    if kind == "attack":
        return said(state, attack, "{a}'s attack on {t} comes first").text
    if kind == "meet-blow":
        if attack.step != "armour":
            return "no blow waits for its armour"
        return f"that is for {name(state, attack.target)}'s player to say (or the GM)"
    return None


def attack(
    state: RollUnderTable, intent: AttackIntent, member: Member, dice: DiceSource
) -> tuple[RollUnderTable, list[Event]]:
    """Begin the chain: the roll to hit where the table makes one, else the damage roll."""
    if state.attack is not None:
        raise RollUnderError(why_not(state, "attack"))
    seat = state.seat(intent.attacker)
    if not controls(member, seat.owner):
        raise PermissionDenied(f"{seat.sheet.name} is not yours to attack with; the GM may")
    if intent.target == intent.attacker:
        raise RollUnderError("a character does not attack themselves")
    state.sheet(intent.target).require_alive()
    seat.sheet.require_alive()
    if seat.sheet.incapacitated:
        raise RollUnderError(f"{seat.sheet.name} is incapacitated and cannot act (CR-F02)")
    if intent.ability not in state.options.abilities:
        known = ", ".join(state.options.abilities)
        raise RollUnderError(f"the roll to hit is one of {known}, not {intent.ability!r}")
    weapon = str(DamageDice.parse(intent.weapon))
    step = "to-hit" if state.options.attack_roll == "attacker" else "damage"
    made = Attack(
        attacker=intent.attacker,
        target=intent.target,
        weapon=weapon,
        ability=intent.ability,
        direct=intent.direct,
        mode=intent.mode,
        asker=member.id,
        step=step,
    )
    state = state.model_copy(update={"attack": made})
    rule, facing = first_rule(state, made)
    after, told = begin(state, rule, facing, intent.mode, member, dice, attack=True)
    return after, [opening(state, made), *told]


def meet_blow(
    state: RollUnderTable, intent: MeetBlow, member: Member, dice: DiceSource
) -> tuple[RollUnderTable, list[Event]]:
    """The defender's armour against the blow: the hit lands, and what it does follows."""
    attack = state.attack
    reason = why_not(state, "meet-blow")
    if attack is None or attack.step != "armour":
        raise RollUnderError(reason)
    if not controls(member, state.seat(attack.target).owner):
        raise PermissionDenied(reason)
    line = said(state, attack, "{t} meets {a}'s blow")
    after, rule, facing = landed(state, intent.armour)
    after, told = begin(after, rule, facing, attack.mode, member, dice, attack=True)
    return after, [line, *told]


def end_attack(state: RollUnderTable, member: Member) -> tuple[RollUnderTable, list[Event]]:
    """The GM ends the attack that waits (CR-F05)."""
    if not member.is_gm:
        raise PermissionDenied("only the GM ends an attack under way")
    if state.attack is None:
        raise RollUnderError("no attack is under way")
    line = said(state, state.attack, "the GM ends {a}'s attack on {t}")
    return state.model_copy(update={"attack": None}), [line]


def attack_view(state: RollUnderTable, member: Member) -> dict[str, Any] | None:
    """The attack under way as a member sees it: who attacks whom and the step it is at;
    the damage rolled, unless it is a kept attacker's number (CR-S04)."""
    attack = state.attack
    if attack is None:
        return None
    shown: dict[str, Any] = {
        "attacker": attack.attacker,
        "target": attack.target,
        "step": attack.step,
        "text": said(state, attack, "{a} attacks {t}").text,
    }
    if member.is_gm or attack.attacker not in state.secret_ids:
        shown["damage"] = attack.damage
    return shown
