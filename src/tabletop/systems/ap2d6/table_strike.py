"""An attack on someone at a 2d6 table, as the book chains it (§ Attacking using AP,
§ Weapon Rules, § Double 1s, Double 6s, § Death and Dying): the attacker pays the weapon's
speed, rolls 2d6 + its to-hit against the target's To-Hit, rolls the damage on a hit, and
the GM deals it, less what the group's armour takes (RU-A49..RU-A53).

Each step is its own entry and waits in the table's state (`Ap2d6Table.strikes`, one per
attacker) for whoever the rules ask: the attacker's player rolls, the GM deals the harm
(or the players, when the table hands them the GM's levers); the GM may call an attack
off at any step. A hidden NPC's numbers (its to-hit roll, its To-Hit, its damage dice) are
its parts of each line (RU-N05)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.asks import gm_lever
from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied
from tabletop.offers import Choice, Offer, offer
from tabletop.session import MAX_NAME, CharacterIntent, Event, Member, controls, note, rolled_for
from tabletop.systems.ap2d6 import health
from tabletop.systems.ap2d6.costs import action_cost
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.rounds import Combat, act, double_six_temp_ap
from tabletop.systems.ap2d6.sheet import Character
from tabletop.systems.ap2d6.table import (
    Ap2d6Table,
    Id,
    Strike,
    fight_of,
    in_fight,
    sheet_of,
    with_fight,
)
from tabletop.systems.ap2d6.table_fight import may_pay
from tabletop.systems.ap2d6.table_lists import armour_taken
from tabletop.systems.ap2d6.table_weapons import kept_weapon
from tabletop.systems.ap2d6.told import told
from tabletop.systems.ap2d6.tracker import ATTACK
from tabletop.systems.ap2d6.weapons import (
    Wielded,
    roll_damage,
    roll_to_hit,
    wield,
)

STEP_TEXT = {"hit": "roll to hit", "damage": "roll damage", "harm": "deal the damage"}
"""What each step waits for, as a line names it."""


class StrikeIntent(CharacterIntent):
    """One attack on someone with a weapon from the GM's list (RU-G02, RU-S09)."""

    kind: Literal["strike"] = "strike"
    target: Id
    weapon: str = Field(min_length=1, max_length=MAX_NAME)
    pick: str | None = Field(default=None, max_length=40)
    """For a speed with a choice, e.g. `(2n3 or 3n1)`: the one paid."""


class RollToHit(CharacterIntent):
    """The attacker's roll against the target's To-Hit."""

    kind: Literal["roll-to-hit"] = "roll-to-hit"


class RollDamage(CharacterIntent):
    """The attacker's damage roll after a hit."""

    kind: Literal["roll-damage"] = "roll-damage"


class DealDamage(CharacterIntent):
    """The GM deals the damage rolled, less what the target's armour takes off by the
    group's rules (the book gives none, RU-G03)."""

    kind: Literal["deal-damage"] = "deal-damage"
    less: int = Field(default=0, ge=0, le=1000)


class DropStrike(CharacterIntent):
    """The GM calls an attack off before its last step; the AP paid stays paid."""

    kind: Literal["drop-strike"] = "drop-strike"


STRIKE_INTENTS = (StrikeIntent, RollToHit, RollDamage, DealDamage, DropStrike)
StrikeStep = StrikeIntent | RollToHit | RollDamage | DealDamage | DropStrike


def strike_offers(state: Ap2d6Table, member: Member, mine: tuple[str, ...]) -> list[Offer]:
    """An attack on someone for each of the member's characters who can pay and has none
    under way; each attack's next step to whoever the rules ask; calling one off, the GM's."""
    fight = state.fight
    if fight is None or fight.phase == "not-started":
        return []
    fighters = tuple(c for c, seat in state.characters.items() if in_fight(fight, seat.sheet.name))
    free = tuple(
        c
        for c in mine
        if c in fighters
        and c not in state.strikes
        and fight.character(_name(state, c)).life == "up"
        and may_pay(state, fight, c)
    )
    found: list[Offer] = []
    if free and len(fighters) > 1 and state.weapons:
        found.append(
            offer(
                "strike",
                "attack someone",
                character=Choice(values=free),
                target=Choice(values=fighters),
                weapon=Choice(values=tuple(state.weapons)),
            )
        )
    for cid, strike in state.strikes.items():
        theirs = controls(member, state.characters[cid].owner)
        if strike.step != "harm" and theirs:
            found.append(_offer(state, cid, strike))
        elif strike.step == "harm" and (
            member.is_gm or (theirs and state.options.players_set_difficulty)
        ):
            armour = armour_taken(state, strike.target, strike.weapon.attacks[0].type)
            found.append(_offer(state, cid, strike, less=armour))
        if member.is_gm:
            text = f"call off {_name(state, cid)}'s attack on {_name(state, strike.target)}"
            dropped = {"kind": "drop-strike", "character": cid}
            found.append(Offer(kind="drop-strike", text=text, intents=(dropped,)))
    return found


def _offer(state: Ap2d6Table, cid: str, strike: Strike, **fields: Choice) -> Offer:
    kind = {"hit": "roll-to-hit", "damage": "roll-damage", "harm": "deal-damage"}[strike.step]
    text = (
        f"{_name(state, cid)}'s attack on {_name(state, strike.target)}: " + STEP_TEXT[strike.step]
    )
    if fields:
        return Offer(kind=kind, text=text, fields={"character": Choice(values=(cid,)), **fields})
    return Offer(kind=kind, text=text, intents=({"kind": kind, "character": cid},))


def _name(state: Ap2d6Table, cid: str) -> str:
    return state.characters[cid].sheet.name


def strike_step(
    state: Ap2d6Table, intent: StrikeStep, member: Member, dice: DiceSource
) -> tuple[Ap2d6Table, list[Event]]:
    """One step of an attack on someone: it begins, it rolls, it is dealt or called off."""
    attacker = sheet_of(state, intent.character)
    fight = fight_of(state, attacker.name)
    if fight is None:
        raise Ap2d6Error(f"{attacker.name} is not in a fight")
    if isinstance(intent, StrikeIntent):
        return _begin(state, fight, intent)
    strike = state.strikes.get(intent.character)
    if strike is None:
        raise Ap2d6Error(f"{attacker.name} has no attack under way")
    target = fight.character(_name(state, strike.target))
    if isinstance(intent, DropStrike):
        if not member.is_gm:
            raise PermissionDenied("only the GM calls an attack off")
        line = note(
            "attack called off",
            f"the GM calls off {attacker.name}'s attack on {target.name}",
            character=intent.character,
        )
        return _ended(state, intent.character), [line]
    expected = {"hit": RollToHit, "damage": RollDamage, "harm": DealDamage}[strike.step]
    if not isinstance(intent, expected):
        raise Ap2d6Error(
            f"{attacker.name}'s attack on {target.name} waits to {STEP_TEXT[strike.step]}"
        )
    if isinstance(intent, DealDamage):
        gm_lever(member, state.options.players_set_difficulty, "the harm dealt")
        return _harm(state, fight, intent, strike, target, dice)  # the death DC: the GM's
    if fight.character(attacker.name).life != "up":
        raise Ap2d6Error(f"{attacker.name} is {attacker.public_life} and cannot act")
    wielded = wield(fight.character(attacker.name), strike.weapon, options=state.options)
    with rolled_for(intent.character):
        if isinstance(intent, RollToHit):
            return _hit(state, fight, intent.character, strike, wielded, target, dice)
        return _damage(state, intent.character, strike, wielded, target, dice)


def _begin(
    state: Ap2d6Table, fight: Combat, intent: StrikeIntent
) -> tuple[Ap2d6Table, list[Event]]:
    """The attacker pays the weapon's speed as the round's next attack (RU-M19)."""
    attacker = sheet_of(state, intent.character)
    if intent.character in state.strikes:
        raise Ap2d6Error(f"{attacker.name} already has an attack under way")
    target = sheet_of(state, intent.target)
    if intent.target == intent.character:
        raise Ap2d6Error(f"{attacker.name} cannot attack themselves")
    if not in_fight(fight, target.name):
        raise Ap2d6Error(f"{target.name} is not in the fight")
    if target.public_life == "dead":
        raise Ap2d6Error(f"{target.name} is dead")
    weapon = kept_weapon(state, intent.weapon)
    wield(fight.character(attacker.name), weapon, options=state.options)  # refused if it can't
    pick = action_cost(intent.pick).steps[0][0] if intent.pick else None
    fight, paid = act(fight, attacker.name, weapon.speed, kind=ATTACK, choice=pick)
    strikes = {**state.strikes, intent.character: Strike(target=intent.target, weapon=weapon)}
    after = with_fight(state, fight).model_copy(update={"strikes": strikes})
    # A hidden NPC's weapon is its own: the players read whom it attacks, and the entry's
    # intent (its weapon's numbers) stays the GM's (RU-A50).
    armed = state.owners.part(attacker.name, f"with {intent.weapon}")
    hint = "" if armed.startswith("with") else f"{attacker.name} attacks {target.name}"
    begun = note(
        "attack begun",
        f"{attacker.name} attacks {target.name} {armed}",
        character=intent.character,
        target=intent.target,
    ).model_copy(update={"hint": hint})
    return after, [*told(paid, state.owners, attacker.name), begun]


def strikes_view(state: Ap2d6Table) -> list[dict[str, str]]:
    """The attacks under way as every member sees them: who attacks whom and what it waits
    for, never the weapon (a hidden NPC's is its own, RU-A50)."""
    return [
        {"character": cid, "target": strike.target, "waits": STEP_TEXT[strike.step]}
        for cid, strike in state.strikes.items()
    ]


def _hit(
    state: Ap2d6Table,
    fight: Combat,
    cid: str,
    strike: Strike,
    wielded: Wielded,
    target: Character,
    dice: DiceSource,
) -> tuple[Ap2d6Table, list[Event]]:
    """2d6 + to-hit against the target's To-Hit, the defender winning ties (RU-M28, RU-A01);
    a miss ends the attack, double 6s give a temp AP and twice the damage dice (RU-A13)."""
    owners, name = state.owners, _name(state, cid)
    rolled = roll_to_hit(wielded, target.to_hit, dice, state.options)
    verdict = "a hit" if rolled.success else "a miss"
    if rolled.roll is None:
        done = owners.part(name, rolled.reason)
    else:
        bonus = rolled.score + rolled.modifier
        done = owners.part(name, f"{rolled.roll} {bonus:+d} = {rolled.total}")
        if rolled.reason:
            verdict += f" ({rolled.reason})"
    to_hit = owners.part(target.name, target.to_hit)
    line = note(
        "attack",
        f"{name} rolls to hit {target.name} ({'+'.join(strike.weapon.attacks[0].to_hit)}): "
        f"{done} must beat To-Hit {to_hit}: {verdict}",
        character=cid,
        target=strike.target,
        total=rolled.total,
        to_hit=target.to_hit,
        hit=rolled.success,
    )
    fight, temp = double_six_temp_ap(fight, name, rolled.roll, True, state.options)
    state = with_fight(state, fight)
    if not rolled.success:
        return _ended(state, cid), [line, *told(temp, owners, name)]
    doubled = rolled.critical == "double-six"
    after = strike.model_copy(update={"step": "damage", "doubled": doubled})
    return _with_strike(state, cid, after), [line, *told(temp, owners, name)]


def _damage(
    state: Ap2d6Table,
    cid: str,
    strike: Strike,
    wielded: Wielded,
    target: Character,
    dice: DiceSource,
) -> tuple[Ap2d6Table, list[Event]]:
    """The hit's damage dice plus its scaling score (RU-M28), twice the dice after double
    6s (RU-A13); the GM deals it next."""
    name = _name(state, cid)
    record, amount = roll_damage(wielded, strike.doubled, dice, state.options)
    extra = " (double 6s: twice the dice)" if strike.doubled else ""
    bonus = wielded.scaling_bonus + wielded.flat
    rolled = f"{record} {bonus:+d} = {amount}" if bonus else str(record)
    line = note(
        "attack damage",
        f"{name}'s damage to {target.name}: "
        f"{state.owners.part(name, rolled)} ({wielded.type}){extra}",
        character=cid,
        target=strike.target,
        amount=amount,
    )
    after = strike.model_copy(update={"step": "harm", "rolled": amount})
    return _with_strike(state, cid, after), [line]


def _harm(
    state: Ap2d6Table,
    fight: Combat,
    intent: DealDamage,
    strike: Strike,
    target: Character,
    dice: DiceSource,
) -> tuple[Ap2d6Table, list[Event]]:
    """The damage rolled, less what armour takes, off the target's health: a hit, so a
    target already down takes a failed death check (RU-M39); armour that takes all of it
    leaves the target untouched (RU-A51)."""
    amount = max(strike.rolled - intent.less, 0)
    ended = _ended(state, intent.character)
    attacker = _name(state, intent.character)
    stopped = []
    if intent.less:
        stopped = [
            note(
                "attack absorbed",
                f"{target.name}'s armour takes {min(intent.less, strike.rolled)} of "
                f"{attacker}'s {strike.rolled} damage",
                character=intent.character,
                target=strike.target,
            )
        ]
    if amount == 0:
        return ended, stopped
    hurt, events = health.take_damage(target, amount, dice)
    return with_fight(ended, fight.replaced(hurt)), stopped + told(
        events, state.owners, target.name
    )


def _with_strike(state: Ap2d6Table, cid: str, strike: Strike) -> Ap2d6Table:
    return state.model_copy(update={"strikes": {**state.strikes, cid: strike}})


def _ended(state: Ap2d6Table, cid: str) -> Ap2d6Table:
    rest = {c: s for c, s in state.strikes.items() if c != cid}
    return state.model_copy(update={"strikes": rest})
