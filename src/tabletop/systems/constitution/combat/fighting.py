"""Blows: attacks, active defence, damage and injury, direct hits, stored and stray shots,
morale and leaving the fight (§ 5.12–5.22, § 6.6–6.12)."""

from __future__ import annotations

from tabletop.dice import DiceSource, roll
from tabletop.session import rolled_for
from tabletop.systems.constitution.attacks import (
    DIRECT_HIT_DEGREE,
    Attack,
    active_defence,
    attack,
    damage_expression,
    morale_check,
    roll_damage,
    stray_shot,
)
from tabletop.systems.constitution.check import resolve_degree
from tabletop.systems.constitution.combat.actions import (
    AnswerDirectHit,
    AnswerShield,
    AttackAction,
    Defend,
    Leave,
    LoseTrack,
    MoraleCheck,
    ReleaseStored,
    SpendDegrees,
)
from tabletop.systems.constitution.combat.flow import (
    advance,
    can_pay,
    in_fight,
    pay,
    require_phase,
    use_action,
)
from tabletop.systems.constitution.combat.state import (
    SHIELD_AFTER_ROLL_COST,
    Combat,
    Outcome,
    PendingDirectHit,
    PendingShield,
    StoredAttack,
    UnspentDegrees,
)
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.health import (
    DIRECT_HIT_PRICE,
    INJURY_DC,
    direct_hit_dc,
    injury_events,
    overflow,
    roll_injury,
)
from tabletop.systems.constitution.models import DiceRecord, Event, theirs
from tabletop.systems.constitution.options import Options


def _attack(combat: Combat, action: AttackAction, dice: DiceSource, options: Options) -> Outcome:
    require_phase(combat, "round")
    attacker = in_fight(combat, action.attacker)
    target = in_fight(combat, action.target)
    if attacker.id == target.id:
        raise ConstitutionError("a combatant cannot attack themselves")
    if action.store and not action.ranged:
        raise ConstitutionError("only ranged attacks can be stored (§ 5.22)")
    if action.into_melee and action.other_target is None:
        raise ConstitutionError("firing into mêlée needs the other fighter (other_target)")
    if action.other_target:
        in_fight(combat, action.other_target)
    damage = damage_expression(action.damage or attacker.damage)
    combat = use_action(combat, attacker.id)
    armour = target.current_ac + action.ac_change
    shield_may_follow = _may_shield_after(combat, target.id, action, options)
    with rolled_for(attacker.id):
        result = attack(
            attacker.strength + attacker.fighter_level + action.modifier,
            armour,
            dice,
            damage=damage,
            with_damage=not (action.store or action.into_melee or shield_may_follow),
            advantage=action.advantage,
            disadvantage=action.disadvantage,
            options=options,
        )
    events = [
        Event.told(
            "attack",
            f"{attacker.name} attacks {target.name} (AC ",
            theirs(armour, target.id),
            "): ",
            *result.roll.told(attacker.id, target.id),
            dice=(result.roll.roll,),
            roller=attacker.id,
        )
    ]
    combat = combat.replace(combat.get(target.id).evolve(guard=None))
    if not result.hit:
        return combat, events
    if shield_may_follow:
        pending = PendingShield(
            attacker=attacker.id,
            target=target.id,
            roll=result.roll,
            damage=damage,
            use_direct_hit=action.use_direct_hit,
            ac_change=action.ac_change,
        )
        events.append(
            Event(
                kind="shield_after_roll",
                message=f"{target.name} may pay {SHIELD_AFTER_ROLL_COST} initiative to raise a "
                "shield after the roll, or let the blow land (§ 5.4)",
            )
        )
        return combat.evolve(pending_shield=pending), events
    return _land(combat, action, result, damage, dice, options, events)


def _may_shield_after(
    combat: Combat, target_id: str, action: AttackAction, options: Options
) -> bool:
    """Whether the target could still raise a shield once the roll is seen (§ 5.4): able to
    defend as a reaction, not already guarded, not on their own turn, able to pay 5. Shots
    stored or fired into a mêlée land as they are (C3-A55)."""
    target = combat.get(target_id)
    return (
        target.can_defend_as_reaction
        and target.guard is None
        and combat.acting != target.id
        and not target.disoriented
        and can_pay(target, SHIELD_AFTER_ROLL_COST, options)
        and not action.store
        and action.into_melee is None
    )


def _land(
    combat: Combat,
    action: AttackAction,
    result: Attack,
    damage: str,
    dice: DiceSource,
    options: Options,
    events: list[Event],
) -> Outcome:
    """A hit lands: where a shot into a mêlée goes, the damage, a direct hit or a stored shot."""
    attacker = combat.get(action.attacker)
    target = combat.get(action.target)
    if action.into_melee and action.other_target is not None:
        with rolled_for(attacker.id):
            stray = stray_shot(action.into_melee, dice, aimed_tenths=action.aimed_tenths)
        if not stray.on_chosen_target:
            target = combat.get(action.other_target)
        events.append(
            Event(
                kind="stray_shot",
                message=f"into the mêlée ({stray.chance_in_ten} in 10): it strikes {target.name}",
                dice=(stray.roll,),
                roller=attacker.id,
            )
        )
    if result.damage_roll is None and not action.store:
        with rolled_for(attacker.id):
            amount, record = roll_damage(damage, dice)
        result = result.evolve(damage=amount, damage_roll=record)
    extra = result.roll.extra_degrees
    if result.direct_hit and action.use_direct_hit and not action.store:
        extra -= DIRECT_HIT_DEGREE - 1  # four of them buy the direct hit (§ 5.20)
    if extra > 0 and not action.store:
        combat = combat.evolve(
            unspent=UnspentDegrees(attacker=attacker.id, target=target.id, degrees=extra)
        )
        events.append(
            Event.told(
                "extra_degrees",
                f"{attacker.name} has extra degrees to spend on {target.name} (§ 5.19): ",
                theirs(extra, attacker.id),
            )
        )
    if action.store:
        stored = (*attacker.stored, StoredAttack(target=target.id, damage=damage))
        combat = combat.replace(combat.get(attacker.id).evolve(stored=stored))
        events.append(
            Event(kind="stored", message=f"{attacker.name} stores the shot at {target.name}")
        )
        return combat, events
    if result.direct_hit and action.use_direct_hit:
        price = DIRECT_HIT_PRICE * attacker.level
        pending = PendingDirectHit(
            attacker=attacker.id, target=target.id, damage=result.damage, price=price
        )
        both = (attacker.id, target.id)
        events.append(
            Event.told(
                "direct_hit",
                f"{attacker.name}'s direct hit on {target.name} (",
                theirs(result.damage, *both),
                " damage): pay ",
                theirs(price, *both),
                " HP or take the injury saves at DC ",
                theirs(direct_hit_dc(result.damage, options), *both),
                dice=(result.damage_roll,) if result.damage_roll else (),
                roller=attacker.id,
            )
        )
        return combat.evolve(pending_direct_hit=pending), events
    assert result.damage_roll is not None
    events.append(
        Event.told(
            "damage_roll",
            f"{attacker.name}'s damage ",
            theirs(result.damage_roll.text, attacker.id),
            dice=(result.damage_roll,),
            roller=attacker.id,
        )
    )
    return hurt(combat, target.id, result.damage, INJURY_DC, dice, options, events, by=attacker.id)


def _answer_shield(
    combat: Combat, action: AnswerShield, dice: DiceSource, options: Options
) -> Outcome:
    """The hit's target raises a shield after the roll, or lets it land (§ 5.4, C3-A55)."""
    pending = combat.pending_shield
    if pending is None:
        raise ConstitutionError("no attack waits for a shield")
    combat = combat.evolve(pending_shield=None)
    blow = AttackAction(
        attacker=pending.attacker,
        target=pending.target,
        damage=pending.damage,
        use_direct_hit=pending.use_direct_hit,
    )
    rolled = pending.roll
    if not action.raise_shield:
        hit = Attack(roll=rolled, direct_hit=rolled.degree >= DIRECT_HIT_DEGREE)
        return _land(combat, blow, hit, pending.damage, dice, options, [])
    target = pay(combat.get(pending.target), SHIELD_AFTER_ROLL_COST, options)
    with rolled_for(target.id):
        raised, defence = active_defence(
            target.strength + target.fighter_level, target.ac, dice, options
        )
    armour = max(rolled.dc, raised + pending.ac_change)
    judged = rolled.evolve(
        dc=armour, degree=resolve_degree(rolled.die, rolled.score, armour, options)
    )
    events = [
        Event.told(
            "defence",
            f"{target.name} pays {SHIELD_AFTER_ROLL_COST} and raises a shield after the roll: ",
            *defence.told(target.id, verdict=target.id),
            "; the attack against AC ",
            theirs(armour, target.id),
            ": ",
            *judged.told(pending.attacker, target.id),
            dice=(defence.roll,),
            roller=target.id,
        )
    ]
    combat = combat.replace(target)
    if not judged.success:
        return combat, events
    hit = Attack(roll=judged, direct_hit=judged.degree >= DIRECT_HIT_DEGREE)
    return _land(combat, blow, hit, pending.damage, dice, options, events)


def hurt(
    combat: Combat,
    target_id: str,
    damage: int,
    base_dc: int,
    dice: DiceSource,
    options: Options,
    events: list[Event],
    *,
    by: str,
    bypass: bool = False,
) -> tuple[Combat, list[Event]]:
    """Take damage dealt `by` a combatant off HP; if it gets past them (or bypasses them)
    roll the injury saves."""
    target = combat.get(target_id)
    spill = damage if bypass else overflow(target.hp, damage)
    if not bypass:
        target = target.evolve(hp=max(0, target.hp - damage))
        events.append(
            Event.told(
                "damage",
                f"{target.name} takes ",
                theirs(damage, target.id, by),
                ": HP ",
                theirs(target.hp, target.id),
            )
        )
    combat = combat.replace(target).evolve(last_damaged=target.id)
    if spill == 0 and not bypass:
        return combat, events
    bonus = target.fighter_level if options.fighter_bonus_scope == "combat" else 0
    with rolled_for(target.id):
        injury = roll_injury(
            target.strength + bonus,
            target.will + bonus,
            base_dc + spill,
            dice,
            may_take_major_wound=target.major_wound_marks < target.level,
            options=options,
        )
    events.extend(injury_events(target.name, injury, target.id))
    if injury.outcome == "minor_wound":
        target = target.evolve(minor_wounds=target.minor_wounds + 1)
    elif injury.outcome == "major_wound":
        target = target.evolve(major_wound_marks=target.major_wound_marks + 1)
    elif injury.outcome == "dead":
        target = target.evolve(status="dead")
    if target.fighting and not injury.standing:
        target = target.evolve(status="down")
    combat = combat.replace(target)
    if combat.acting and not combat.get(combat.acting).fighting:
        return advance(combat.evolve(acting=None), events)
    return combat, events


def _answer_direct_hit(
    combat: Combat, action: AnswerDirectHit, dice: DiceSource, options: Options
) -> Outcome:
    pending = combat.pending_direct_hit
    if pending is None:
        raise ConstitutionError("there is no direct hit to answer")
    target = combat.get(pending.target)
    combat = combat.evolve(pending_direct_hit=None)
    if action.pay:
        if target.hp < pending.price:
            raise ConstitutionError(
                f"{target.name} has {target.hp} HP, not the {pending.price} needed"
            )
        paid = target.evolve(hp=target.hp - pending.price)
        price = theirs(pending.price, pending.attacker, target.id)
        return combat.replace(paid), [Event.told("hp_paid", f"{target.name} pays ", price, " HP")]
    extra = direct_hit_dc(pending.damage, options) - INJURY_DC
    return hurt(
        combat, target.id, extra, INJURY_DC, dice, options, [], by=pending.attacker, bypass=True
    )


def _defend(combat: Combat, action: Defend, dice: DiceSource, options: Options) -> Outcome:
    require_phase(combat, "round")
    defender = in_fight(combat, action.id)
    own_turn = combat.acting == defender.id
    if not own_turn and not defender.can_defend_as_reaction:
        raise ConstitutionError(
            f"{defender.name} needs a shield or training to defend as a reaction"
        )
    combat = use_action(combat, defender.id)
    with rolled_for(defender.id):
        ac, rolled = active_defence(
            defender.strength + defender.fighter_level, defender.ac, dice, options
        )
    defender = defender.evolve(defence=ac) if own_turn else defender.evolve(guard=ac)
    lasting = "for the round" if own_turn else "against the next attack"
    event = Event.told(
        "defence",
        f"{defender.name} defends: ",
        *rolled.told(defender.id, verdict=defender.id),
        "; AC ",
        theirs(ac, defender.id),
        f" {lasting}",
        dice=(rolled.roll,),
        roller=defender.id,
    )
    return combat.replace(defender), [event]


def _release_stored(
    combat: Combat, action: ReleaseStored, dice: DiceSource, options: Options
) -> Outcome:
    require_phase(combat, "round")
    shooter = combat.get(action.shooter)
    if combat.last_damaged is None:
        raise ConstitutionError("stored shots are released when their target takes damage")
    shots = [s for s in shooter.stored if s.target == combat.last_damaged]
    if not shots:
        raise ConstitutionError(f"{shooter.name} has no stored shot at the one just hurt")
    remaining = list(shooter.stored)
    remaining.remove(shots[0])
    combat = combat.replace(shooter.evolve(stored=tuple(remaining)))
    with rolled_for(shooter.id):
        rolled = roll(shots[0].damage, dice)
    events = [
        Event.told(
            "stored_released",
            f"{shooter.name}'s stored shot: ",
            theirs(rolled, shooter.id),
            dice=(DiceRecord.of(rolled),),
            roller=shooter.id,
        )
    ]
    damage = max(0, rolled.total)
    return hurt(combat, shots[0].target, damage, INJURY_DC, dice, options, events, by=shooter.id)


def _spend_degrees(
    combat: Combat, action: SpendDegrees, dice: DiceSource, options: Options
) -> Outcome:
    """The attacker spends extra degrees of the blow that just landed (§ 5.19; C3-A63)."""
    unspent = combat.unspent
    if unspent is None or unspent.attacker != action.id:
        raise ConstitutionError("no blow of theirs has extra degrees left to spend")
    if action.degrees > unspent.degrees:
        raise ConstitutionError(
            f"the blow has {unspent.degrees} extra degrees, not {action.degrees}"
        )
    attacker, target = combat.get(unspent.attacker), combat.get(unspent.target)
    left = unspent.degrees - action.degrees
    effect = action.effect.strip()
    if not effect:
        raise ConstitutionError("say what the extra degrees do")
    event = Event.told(
        "degrees_spent",
        f"{attacker.name} spends extra degrees (",
        theirs(action.degrees, attacker.id),
        f") on {target.name}: {effect} (§ 5.19)",
    )
    return combat.evolve(unspent=unspent.evolve(degrees=left) if left else None), [event]


def _lose_track(combat: Combat, action: LoseTrack, dice: DiceSource, options: Options) -> Outcome:
    shooter = combat.get(action.shooter)
    event = Event.told(
        "stored_lost",
        f"{shooter.name} loses track of their stored shots: ",
        theirs(len(shooter.stored), shooter.id),
        " lost",
    )
    return combat.replace(shooter.evolve(stored=())), [event]


def _morale(combat: Combat, action: MoraleCheck, dice: DiceSource, options: Options) -> Outcome:
    require_phase(combat, "round", "between_rounds")
    combatant = in_fight(combat, action.id)
    if combatant.morale is None:
        raise ConstitutionError(f"{combatant.name} has no morale score")
    with rolled_for(combatant.id):
        result = morale_check(combatant.morale, dice)
    verdict = "holds" if result.holds else "breaks"
    told = f"{combatant.name} checks morale {combatant.morale}: {result.roll.text}, {verdict}"
    events = [
        Event.told("morale", theirs(told, combatant.id), dice=(result.roll,), roller=combatant.id)
    ]
    if result.holds:
        return combat, events
    return leave_fight(combat, Leave(id=combatant.id, status="fled"), dice, options, events)


def leave_fight(
    combat: Combat,
    action: Leave,
    dice: DiceSource,
    options: Options,
    events: list[Event] | None = None,
) -> Outcome:
    require_phase(combat, "round", "between_rounds")
    combatant = in_fight(combat, action.id)
    events = [
        *(events or []),
        Event(kind="left", message=f"{combatant.name} is out: {action.status}"),
    ]
    combat = combat.replace(combatant.evolve(status=action.status, turns_left=0))
    if combat.acting == combatant.id:
        return advance(combat.evolve(acting=None), events)
    return combat, events


HANDLERS = {
    AttackAction: _attack,
    AnswerDirectHit: _answer_direct_hit,
    AnswerShield: _answer_shield,
    Defend: _defend,
    ReleaseStored: _release_stored,
    SpendDegrees: _spend_degrees,
    LoseTrack: _lose_track,
    MoraleCheck: _morale,
    Leave: leave_fight,
}
