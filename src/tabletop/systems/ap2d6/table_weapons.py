"""The weapons a 2d6 GM keeps for the table (RU-S09). The book gives a weapon's shape but no
weapon list (§ Weapon Rules, RU-G02): the GM types each of the group's weapons in once, and
an attack on someone picks its weapon from that list."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.errors import PermissionDenied
from tabletop.offers import Choice, Offer, offer
from tabletop.session import MAX_NAME, Event, Frozen, Member, note
from tabletop.systems.ap2d6.errors import Ap2d6Error, validated
from tabletop.systems.ap2d6.table import Ap2d6Table
from tabletop.systems.ap2d6.weapons import DamageType, Weapon

MAX_WEAPONS = 100
"""Weapons one table's list holds."""


class KeepWeapon(Frozen):
    """The GM writes one of the group's weapons on the table's list (or writes it anew): its
    speed, to-hit, damage and type, and requirements if any (one attack, as a group's weapon
    file gives one; docs/rules/ap2d6.md, "Data files a group supplies")."""

    kind: Literal["keep-weapon"] = "keep-weapon"
    name: str = Field(min_length=1, max_length=MAX_NAME)
    speed: str = Field(min_length=1, max_length=80)
    """The weapon's basic attack AP cost, e.g. (1n1)->(2n1)."""
    to_hit: str = Field(min_length=1, max_length=80)
    """The scores added to the roll, e.g. DEX or STR + AGI."""
    damage: str = Field(min_length=1, max_length=80)
    """Dice, scores and numbers, e.g. 1d8+STR."""
    damage_type: DamageType
    requirements: dict[str, int] = Field(default_factory=dict, max_length=12)
    """Scores the weapon asks for; none means -1 in each to-hit score (RU-A15e)."""


class DropWeapon(Frozen):
    """The GM takes a weapon off the table's list."""

    kind: Literal["drop-weapon"] = "drop-weapon"
    name: str = Field(min_length=1, max_length=MAX_NAME)


WEAPON_INTENTS = (KeepWeapon, DropWeapon)


def built(intent: KeepWeapon) -> Weapon:
    """The weapon the GM wrote, as the rules read a group's weapon, or `Ap2d6Error`."""
    attack = {
        "name": intent.name,
        "to_hit": intent.to_hit,
        "damage": intent.damage,
        "type": intent.damage_type,
    }
    data = {"name": intent.name, "speed": intent.speed, "requirements": intent.requirements}
    return validated(Weapon, {**data, "attacks": [attack]}, f"the weapon {intent.name}")


def kept_weapon(state: Ap2d6Table, name: str) -> Weapon:
    """The weapon an attack picks from the GM's list."""
    weapon = state.weapons.get(name)
    if weapon is None:
        raise Ap2d6Error(f"{name} is not on the GM's weapon list")
    return weapon


def weapon_offers(state: Ap2d6Table) -> list[Offer]:
    """The GM's: write a weapon on the list, take one off."""
    found: list[Offer] = []
    if len(state.weapons) < MAX_WEAPONS:
        found.append(
            offer(
                "keep-weapon",
                "write a weapon on the table's list",
                name=Choice(help="its name", example="longsword"),
                speed=Choice(help="its speed (AP cost)", example="(1n1)->(2n1)"),
                to_hit=Choice(help="the scores it hits with", example="DEX"),
                damage=Choice(help="its damage", example="1d8+STR"),
                damage_type=Choice(values=("B", "P", "S")),
            )
        )
    if state.weapons:  # a standing pick of the GM's, not a choice asked of them now
        names = Choice(values=tuple(state.weapons), help="the weapon to take off")
        found.append(offer("drop-weapon", "take a weapon off the list", name=names))
    return found


def weapon_step(
    state: Ap2d6Table, intent: KeepWeapon | DropWeapon, member: Member
) -> tuple[Ap2d6Table, list[Event]]:
    """The GM's list after one weapon is written on it or taken off."""
    if not member.is_gm:
        raise PermissionDenied("only the GM keeps the table's weapon list")
    if isinstance(intent, DropWeapon):
        if intent.name not in state.weapons:
            raise Ap2d6Error(f"{intent.name} is not on the weapon list")
        rest = {name: w for name, w in state.weapons.items() if name != intent.name}
        line = note("weapon dropped", f"the GM takes {intent.name} off the weapon list")
        return state.model_copy(update={"weapons": rest}), [line]
    if intent.name not in state.weapons and len(state.weapons) >= MAX_WEAPONS:
        raise Ap2d6Error(f"a table's weapon list holds at most {MAX_WEAPONS}")
    weapon = built(intent)
    weapons = {**state.weapons, intent.name: weapon}
    line = note("weapon kept", f"the GM writes {weapon_words(weapon)} on the weapon list")
    return state.model_copy(update={"weapons": weapons}), [line]


def weapon_words(weapon: Weapon) -> str:
    """A weapon in a line: "longsword, (1n1)->(2n1), DEX to hit, 1d8+STR (S)"."""
    attack = weapon.attacks[0]
    needs = "".join(f", needs {k} {v}" for k, v in weapon.requirements.items())
    return (
        f"{weapon.name}, {weapon.speed}, {' + '.join(attack.to_hit)} to hit, "
        f"{attack.damage} ({attack.type}){needs}"
    )


def weapons_view(state: Ap2d6Table) -> list[dict[str, Any]]:
    """The table's weapon list, everyone's to read: each weapon in words."""
    return [{"name": name, "text": weapon_words(w)} for name, w in state.weapons.items()]
